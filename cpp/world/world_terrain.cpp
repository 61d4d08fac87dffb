// Heightmaps in the World: a static single body whose shape holds the shared samples.
#include "core/check.hpp"
#include "geometry/height_map.hpp"
#include "world/world.hpp"

namespace torsion {

SingleBodyObject& World::add_height_map(std::shared_ptr<const HeightMapData> data,
                                        double center_x, double center_y,
                                        const std::string& material, CollisionGroup group,
                                        CollisionGroup mask) {
  if (!data) throw_invalid("height map data must not be null");
  check_finite(center_x, "center_x");
  check_finite(center_y, "center_y");
  SingleBodyObject& obj = add_single_body(ObjectType::kHeightMap,
                                          Shape::height_map_shape(std::move(data)), 0.0, material,
                                          group, mask);
  obj.body().position = Vec3(center_x, center_y, 0.0);
  update_body_kinematics(obj.body());
  return obj;
}

}  // namespace torsion
