#include "world/mesh_object.hpp"

#include <filesystem>

#include "core/check.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/mass_properties.hpp"
#include "geometry/triangle_mesh.hpp"
#include "io/mesh_io.hpp"
#include "world/world.hpp"

namespace torsion {

MeshObject::MeshObject(ObjectId id, const Shape& shape, double mass, const Mat3& inertia,
                       std::vector<ChildShape> children, MeshCollisionMode mode, const Vec3& com,
                       std::string source, double scale)
    : SingleBodyObject(id, ObjectType::kMesh, shape, mass, inertia, std::move(children)),
      mode_(mode),
      com_(com),
      source_(std::move(source)),
      scale_(scale) {}

namespace {

TriangleMeshData hull_mesh(const ConvexHull& h, const Vec3& offset) {
  TriangleMeshData m;
  for (const Vec3& v : h.vertices) m.vertices.push_back(v + offset);
  m.triangles = h.triangles;
  return m;
}

Shape hull_shape(const std::vector<Vec3>& points, const Vec3& com, const char* what) {
  auto hull = std::make_shared<ConvexHull>(convex_hull(points, what));
  hull->translate(-com);
  return Shape::convex_mesh(std::move(hull));
}

// the mesh without the vertices no face uses, faces renumbered. An OBJ may list such points;
// the mass properties (from the faces) ignore them, so the hull, the bounding box, the triangle
// mesh's vertex contacts and rays must too: a stray `v 10 10 10` beside a unit cube made a
// collision hull reaching 10 m from the cube its mass and inertia describe
TriangleMeshData referenced_only(const TriangleMeshData& mesh) {
  std::vector<int> index(mesh.vertices.size(), -1);
  TriangleMeshData out;
  out.triangles = mesh.triangles;
  for (auto& t : out.triangles) {
    for (int& k : t) {
      int& i = index[static_cast<std::size_t>(k)];
      if (i < 0) {
        i = static_cast<int>(out.vertices.size());
        out.vertices.push_back(mesh.vertices[static_cast<std::size_t>(k)]);
      }
      k = i;
    }
  }
  return out;
}

}  // namespace

std::vector<TriangleMeshData> MeshObject::collision_meshes() const {
  std::vector<TriangleMeshData> out;
  if (!children().empty()) {
    for (const ChildShape& c : children()) out.push_back(hull_mesh(*c.shape.hull, com_));
  } else if (shape().type == ShapeType::kConvexMesh) {
    out.push_back(hull_mesh(*shape().hull, com_));
  } else {
    TriangleMeshData m;
    for (const Vec3& v : shape().mesh->vertices()) m.vertices.push_back(v + com_);
    m.triangles = shape().mesh->triangles();
    out.push_back(std::move(m));
  }
  return out;
}

void combined_mass_properties(const std::vector<ChildShape>& children, double mass, Vec3& com,
                              Mat3& inertia) {
  check_positive(mass, "mass");
  double volume = 0.0;
  com.setZero();
  for (const ChildShape& c : children) {
    const double v = shape_volume(c.shape);
    volume += v;
    com += v * c.pose.position;
  }
  if (!(volume > 0.0)) throw_invalid("children must have a positive total volume");
  com /= volume;
  inertia.setZero();
  for (const ChildShape& c : children) {
    const double m = mass * shape_volume(c.shape) / volume;
    const Mat3& r = c.pose.rotation;
    const Vec3 d = c.pose.position - com;
    inertia += r * shape_inertia(c.shape, m) * r.transpose() +
               m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
}

MeshObject& World::add_mesh(const MeshSpec& spec, const std::string& material,
                            CollisionGroup group, CollisionGroup mask) {
  require_not_mid_step("adding an object");
  const std::string what = spec.source.empty() ? std::string("mesh") : "mesh '" + spec.source + "'";
  validate_mesh(spec.mesh, what);
  const TriangleMeshData mesh = referenced_only(spec.mesh);
  check_positive(spec.mass, "mass");
  check_positive(spec.scale, "scale");
  if (spec.com.has_value() != spec.inertia.has_value())
    throw_invalid("give both inertia and com, or neither (then both are estimated from the mesh)");
  check_material_name(material, "material");
  Vec3 com;
  Mat3 inertia;
  if (spec.com) {
    check_finite_vec(*spec.com, "com");
    com = *spec.com;
    inertia = *spec.inertia;
  } else if (mesh_is_closed(mesh)) {
    const SolidMassProperties mp = polyhedron_mass_properties(mesh.vertices, mesh.triangles);
    com = mp.com;
    inertia = mp.inertia * (spec.mass / mp.volume);
  } else {
    // an open surface encloses no volume: a uniform box filling its bounding box (the seed's rule)
    Vec3 lo = mesh.vertices[0], hi = lo;
    for (const Vec3& v : mesh.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
    if (!((hi - lo).minCoeff() > 0.0))
      throw_invalid(what + " is open and flat: its inertia cannot be estimated; give inertia and com");
    com = 0.5 * (lo + hi);
    inertia = box_inertia(hi - lo, spec.mass);
  }
  Shape shape;
  std::vector<ChildShape> children;
  switch (spec.mode) {
    case MeshCollisionMode::kConvexHull:
      shape = hull_shape(mesh.vertices, com, what.c_str());
      break;
    case MeshCollisionMode::kConvexify:
      if (spec.parts.empty()) {
        shape = hull_shape(mesh.vertices, com, what.c_str());
        break;
      }
      for (std::size_t k = 0; k < spec.parts.size(); ++k) {
        const std::string part = what + " convex part " + std::to_string(k);
        ChildShape& c = children.emplace_back();
        c.shape = hull_shape(spec.parts[k], com, part.c_str());
        c.material = material;
      }
      shape = children[0].shape;
      break;
    case MeshCollisionMode::kOriginalMesh: {
      TriangleMeshData shifted = mesh;
      for (Vec3& v : shifted.vertices) v -= com;
      shape = Shape::triangle_mesh(std::make_shared<TriangleMesh>(shifted));
      break;
    }
  }
  auto obj = std::make_unique<MeshObject>(id_to_index_.size(), shape, spec.mass, inertia,
                                          std::move(children), spec.mode, com, spec.source,
                                          spec.scale);
  obj->collision().material = material;
  obj->collision().group = group;
  obj->collision().mask = mask;
  MeshObject& ref = *obj;
  insert_object(std::move(obj));
  return ref;
}

MeshObject& World::add_mesh_clone(const MeshObject& src, const std::string& material,
                                  CollisionGroup group, CollisionGroup mask) {
  require_not_mid_step("adding an object");
  check_name(material, "material");
  const std::string mat = material.empty() ? src.collision().material : material;
  std::vector<ChildShape> children = src.children();
  for (ChildShape& c : children) c.material = mat;
  // the geometry is immutable and shared (shared_ptr); mass properties are copied
  auto obj = std::make_unique<MeshObject>(id_to_index_.size(), src.shape(), src.body().mass,
                                          src.body().inertia_b, std::move(children), src.mode(),
                                          src.com_in_mesh_frame(), src.source(), src.scale());
  obj->collision().material = mat;
  obj->collision().group = group;
  obj->collision().mask = mask;
  MeshObject& ref = *obj;
  insert_object(std::move(obj));
  return ref;
}

SingleBodyObject& World::add_compound(const std::vector<CompoundChildSpec>& specs, double mass,
                                      const std::optional<Vec3>& com_in,
                                      const std::optional<Mat3>& inertia_in,
                                      CollisionGroup group, CollisionGroup mask) {
  require_not_mid_step("adding an object");
  if (specs.empty()) throw_invalid("children must not be empty");
  check_positive(mass, "mass");
  if (com_in.has_value() != inertia_in.has_value())
    throw_invalid("give both com and inertia, or neither (then both come from the children at "
                  "uniform density)");
  std::vector<ChildShape> children;
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const CompoundChildSpec& c = specs[k];
    check_finite_vec(c.pose.position, "child position");
    check_finite_vec(c.pose.rotation.reshaped(), "child rotation");
    check_material_name(c.material, "child material");
    Shape s;
    switch (c.type) {
      case ShapeType::kSphere: s = Shape::sphere(c.size[0]); break;
      case ShapeType::kBox: s = Shape::box(c.size[0], c.size[1], c.size[2]); break;
      case ShapeType::kCylinder: s = Shape::cylinder(c.size[0], c.size[1]); break;
      case ShapeType::kCapsule: s = Shape::capsule(c.size[0], c.size[1]); break;
      default:
        throw_invalid("child " + std::to_string(k) + ": a compound child must be a sphere, box, "
                      "cylinder or capsule, got " + shape_type_name(c.type));
    }
    ChildShape& child = children.emplace_back();
    child.shape = s;
    child.pose = c.pose;
    child.material = c.material;
  }
  Vec3 com;
  Mat3 inertia;
  if (com_in) {
    check_finite_vec(*com_in, "com");
    com = *com_in;
    inertia = *inertia_in;
  } else {
    combined_mass_properties(children, mass, com, inertia);
  }
  for (ChildShape& c : children) c.pose.position -= com;  // the body frame's origin is the COM
  const Shape first = children[0].shape;
  auto obj = std::make_unique<SingleBodyObject>(id_to_index_.size(), ObjectType::kCompound, first,
                                                mass, inertia, std::move(children));
  obj->collision().material = obj->children()[0].material;
  obj->collision().group = group;
  obj->collision().mask = mask;
  SingleBodyObject& ref = *obj;
  insert_object(std::move(obj));
  return ref;
}

std::vector<std::string> World::export_mesh_assets_to_obj(const std::string& directory,
                                                          const std::string& prefix) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec || !fs::is_directory(directory))
    throw_invalid("directory '" + directory + "' cannot be created: " + ec.message());
  std::vector<std::string> paths;
  for (const auto& o : objects_) {
    if (o->type() != ObjectType::kMesh) continue;
    const auto& m = static_cast<const MeshObject&>(*o);
    const std::string name = o->name().empty() ? std::to_string(o->index_in_world()) : o->name();
    const std::vector<TriangleMeshData> meshes = m.collision_meshes();
    for (std::size_t k = 0; k < meshes.size(); ++k) {
      const std::string path =
          (fs::path(directory) / (prefix + "_" + name + "_" + std::to_string(k) + ".obj")).string();
      write_obj(meshes[k], path,
                "torsion mesh asset: object " + name + ", collision mesh " + std::to_string(k) +
                    " (mesh frame, m)" + (m.source().empty() ? "" : ", from " + m.source()));
      paths.push_back(path);
    }
  }
  return paths;
}

}  // namespace torsion
