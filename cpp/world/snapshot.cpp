#include "world/snapshot.hpp"

#include <stdexcept>

#include "core/check.hpp"

namespace torsion {

SingleBodySnapshot capture_single_body_snapshot(const SingleBodyObject& obj) {
  const RigidBody& b = obj.body();
  SingleBodySnapshot s;
  s.type = obj.type();
  s.position = b.position;
  s.orientation = b.orientation;
  s.linear_velocity = b.linear_velocity;
  s.angular_velocity = b.angular_velocity;
  s.external_force = b.external_force;
  s.external_torque = b.external_torque;
  s.collision = obj.collision();
  return s;
}

void restore_single_body_snapshot(World& world, SingleBodyObject& obj,
                                  const SingleBodySnapshot& s, bool restore_collision) {
  if (world.is_mid_step())
    throw std::logic_error(
        "restore_single_body_snapshot() is not allowed between integrate1() and integrate2()");
  if (s.type != obj.type())
    throw_invalid(std::string("the snapshot is of a ") + object_type_name(s.type) +
                  ", the object is a " + object_type_name(obj.type()));
  // through the setters: validated, and they mark the object modified (wakes its island)
  if (obj.body().type != BodyType::kStatic) {
    obj.set_position(s.position);
    obj.set_orientation(Vec4(s.orientation.w(), s.orientation.x(), s.orientation.y(),
                             s.orientation.z()));
    // exactly the stored quaternion (set_orientation normalises, which may move the last bit)
    obj.body().orientation = s.orientation;
    update_body_kinematics(obj.body());
    obj.set_velocity(s.linear_velocity, s.angular_velocity);
    obj.body().external_force = s.external_force;
    obj.body().external_torque = s.external_torque;
  }
  if (restore_collision) {
    world.set_object_collision_filter(obj, s.collision.group, s.collision.mask);
    world.set_object_material(obj, s.collision.material);
  }
}

SingleBodyObject& clone_single_body_object(World& world, const SingleBodyObject& src,
                                           const std::string& name) {
  const Shape& sh = src.shape();
  const CollisionProps& c = src.collision();
  const RigidBody& b = src.body();
  check_name(name, "name");  // before the clone is added
  SingleBodyObject* out = nullptr;
  switch (src.type()) {
    case ObjectType::kSphere:
      out = &world.add_sphere(sh.radius, b.mass, c.material, c.group, c.mask);
      break;
    case ObjectType::kBox:
      out = &world.add_box(2.0 * sh.half_extents.x(), 2.0 * sh.half_extents.y(),
                           2.0 * sh.half_extents.z(), b.mass, c.material, c.group, c.mask);
      break;
    case ObjectType::kCylinder:
      out = &world.add_cylinder(sh.radius, sh.height, b.mass, c.material, c.group, c.mask);
      break;
    case ObjectType::kCapsule:
      out = &world.add_capsule(sh.radius, sh.height, b.mass, c.material, c.group, c.mask);
      break;
    default:
      throw_invalid(std::string("clone_single_body_object supports sphere, box, cylinder and "
                                "capsule, got a ") +
                    object_type_name(src.type()));
  }
  // every body field as the source has it (mass properties, type, damping, state), bit for bit;
  // pending external forces are not cloned (they belong to the source's next step)
  RigidBody& nb = out->body();
  nb = b;
  nb.external_force.setZero();
  nb.external_torque.setZero();
  if (!name.empty()) out->set_name(name);
  return *out;
}

}  // namespace torsion
