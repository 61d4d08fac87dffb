// Meshes and compounds: torsion.Mesh, torsion.Compound, MeshCollisionMode, CompoundObjectChild,
// World.add_mesh / add_compound / export_mesh_assets_to_obj, Shape.convex_mesh and the mesh
// utilities (load_mesh, convex_hull, mesh_mass_properties).
//
// Files: .obj and .stl are read in C++ (io/mesh_io.hpp); any other format, and the CONVEXIFY
// decomposition, go through python/torsion/mesh.py (trimesh and coacd, optional extras).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/world_methods.hpp"
#include "core/check.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/mass_properties.hpp"
#include "geometry/mesh.hpp"
#include "geometry/triangle_mesh.hpp"
#include "io/mesh_io.hpp"
#include "math/rotation.hpp"
#include "math/unit_vector.hpp"
#include "world/mesh_object.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;

namespace {

std::vector<Vec3> to_points(py::handle obj, const char* name) {
  auto a = to_rows(obj, name, -1, 3);
  std::vector<Vec3> pts(static_cast<std::size_t>(a.shape(0)));
  const double* p = a.data();
  for (std::size_t i = 0; i < pts.size(); ++i) pts[i] = Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
  return pts;
}

std::vector<std::array<int, 3>> to_triangles(py::handle obj, const char* name) {
  py::array arr = py::array::ensure(obj);
  if (!arr || arr.ndim() != 2 || arr.shape(1) != 3)
    throw py::value_error(std::string(name) + " must have shape (m, 3) (vertex indices)");
  if (arr.size() > 0 && !py::isinstance<py::array_t<std::int64_t>>(arr) &&
      !(arr.dtype().kind() == 'i' || arr.dtype().kind() == 'u'))
    throw py::value_error(std::string(name) + " must hold integers");
  auto t = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
  std::vector<std::array<int, 3>> tris(static_cast<std::size_t>(t.shape(0)));
  const std::int64_t* p = t.data();
  for (std::size_t i = 0; i < tris.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      const std::int64_t v = p[3 * i + k];
      if (v < 0 || v > 2147483647) throw py::value_error(std::string(name) + " has a negative index");
      tris[i][k] = static_cast<int>(v);
    }
  return tris;
}

// points (n, 3): a Vec3 is three packed doubles, so the vector is a 3 x n column-major matrix
py::array_t<double> points_out(const std::vector<Vec3>& pts) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double));
  const Eigen::Map<const Eigen::Matrix<double, 3, Eigen::Dynamic>> m(
      pts.empty() ? nullptr : pts[0].data(), 3, static_cast<Eigen::Index>(pts.size()));
  return to_numpy(m.transpose());
}

py::array_t<std::int64_t> triangles_out(const std::vector<std::array<int, 3>>& tris) {
  py::array_t<std::int64_t> out({static_cast<py::ssize_t>(tris.size()), py::ssize_t(3)});
  std::int64_t* o = out.mutable_data();
  for (std::size_t i = 0; i < tris.size(); ++i)
    for (int k = 0; k < 3; ++k) o[3 * i + k] = tris[i][k];
  return out;
}

py::tuple mesh_out(const TriangleMeshData& m) {
  return py::make_tuple(points_out(m.vertices), triangles_out(m.triangles));
}

Vec3 com_of(const MeshHandle& h) { return static_cast<const MeshObject&>(h.obj()).com_in_mesh_frame(); }
const MeshObject& mesh_of(const MeshHandle& h) { return static_cast<const MeshObject&>(h.obj()); }

// the mesh of a file: .obj/.stl in C++, everything else through torsion.mesh (trimesh)
TriangleMeshData read_mesh(const std::string& path) {
  if (mesh_file_supported(path)) {
    py::gil_scoped_release release;
    return load_mesh_file(path);
  }
  // as os.fsdecode gives it: a file name that is not UTF-8 cannot become a str otherwise
  const py::object name = py::module_::import("os").attr("fsdecode")(py::bytes(path));
  py::tuple vt = py::module_::import("torsion.mesh").attr("_load_with_trimesh")(name);
  TriangleMeshData m;
  m.vertices = to_points(vt[0], "vertices");
  m.triangles = to_triangles(vt[1], "faces");
  validate_mesh(m, "mesh file '" + path + "'");
  return m;
}

// collision_mode as the seed passes it: a MeshCollisionMode, or a CoacdOptions (the seed's
// CoacdOptions overloads, which mean CONVEXIFY with those options); `coacd_options` is then set
MeshCollisionMode mode_argument(py::handle mode, py::object& coacd_options) {
  if (py::isinstance<MeshCollisionMode>(mode)) return mode.cast<MeshCollisionMode>();
  const py::object coacd_type = py::module_::import("torsion.mesh").attr("CoacdOptions");
  if (py::isinstance(mode, coacd_type)) {
    if (!coacd_options.is_none())
      throw py::value_error("collision_mode is a CoacdOptions and coacd_options is given too; "
                            "pass the options once");
    coacd_options = py::reinterpret_borrow<py::object>(mode);
    return MeshCollisionMode::kConvexify;
  }
  throw py::value_error("collision_mode must be a torsion.MeshCollisionMode or a "
                        "torsion.CoacdOptions (convex decomposition), got " +
                        py::str(py::type::handle_of(mode).attr("__name__")).cast<std::string>());
}

// a Python real number (int but not bool, float, NumPy integer or floating scalar)
bool is_real_number(py::handle x) {
  if (PyBool_Check(x.ptr())) return false;
  if (PyFloat_Check(x.ptr()) || PyLong_Check(x.ptr())) return true;
  const py::object np = py::module_::import("numpy");
  return py::isinstance(x, np.attr("integer")) || py::isinstance(x, np.attr("floating"));
}

MeshHandle add_mesh_from_file(const WorldPtr& w, py::handle file, double mass, py::object inertia,
                              py::object com, double scale, const std::string& material,
                              py::handle mode_arg, py::handle group, py::handle mask,
                              py::object coacd_options) {
  const MeshCollisionMode mode = mode_argument(mode_arg, coacd_options);
  const std::string path = to_path(file, "file_name");
  check_positive(scale, "scale");
  check_positive(mass, "mass");
  MeshSpec spec;
  spec.mesh = read_mesh(path);
  for (Vec3& v : spec.mesh.vertices) v *= scale;
  spec.mode = mode;
  spec.mass = mass;
  spec.source = path;
  spec.scale = scale;
  if (!inertia.is_none()) spec.inertia = to_mat3(inertia, "inertia");
  if (!com.is_none()) spec.com = to_vec3(com, "com");
  if (mode == MeshCollisionMode::kConvexify) {
    // a list of (k, 3) point arrays; empty when the decomposition failed (it warned)
    py::list parts = py::module_::import("torsion.mesh").attr("_convexify")(
        points_out(spec.mesh.vertices), triangles_out(spec.mesh.triangles), coacd_options);
    for (py::handle part : parts) spec.parts.push_back(to_points(part, "convex part"));
  }
  const CollisionGroup g = to_group(group, "collision_group"), k = to_group(mask, "collision_mask");
  MeshObject* obj;
  {
    ExclusiveWorldUse use(w->use(), "add_mesh()");
    py::gil_scoped_release release;  // hulls and mass properties of large meshes take a while
    obj = &w->add_mesh(spec, material, g, k);
  }
  return MeshHandle{{{w, obj->id()}}};
}

// A compound child as the seed's CompoundObjectChild describes it: object type and parameters
ObjectType child_object_type(ShapeType t) {
  switch (t) {
    case ShapeType::kSphere: return ObjectType::kSphere;
    case ShapeType::kBox: return ObjectType::kBox;
    case ShapeType::kCylinder: return ObjectType::kCylinder;
    case ShapeType::kCapsule: return ObjectType::kCapsule;
    default: throw std::logic_error("a compound child is a sphere, box, cylinder or capsule");
  }
}

py::array_t<double> child_object_param(const CompoundChildSpec& c) {
  const int n = c.type == ShapeType::kSphere ? 1 : c.type == ShapeType::kBox ? 3 : 2;
  py::array_t<double> out(n);
  for (int k = 0; k < n; ++k) out.mutable_at(k) = c.size[k];
  return out;
}

CompoundChildSpec child_spec(const ChildShape& child) {
  CompoundChildSpec c;
  c.type = child.shape.type;
  child_object_type(c.type);  // refuses any other kind
  if (c.type == ShapeType::kBox) {
    c.size = 2.0 * child.shape.half_extents;
  } else {
    c.size = Vec3(child.shape.radius, child.shape.height, 0.0);
  }
  c.pose = child.pose;
  c.material = child.material;
  return c;
}

}  // namespace

void bind_mesh(py::module_& m) {
  py::enum_<MeshCollisionMode>(m, "MeshCollisionMode",
                               "How a mesh collides: ORIGINAL_MESH (the triangle surface; for "
                               "static or kinematic bodies: primitives and convex meshes collide "
                               "with its triangles; a moving ORIGINAL_MESH meets the ground by "
                               "its vertices and heightmaps by its convex hull (none for a flat "
                               "mesh), and makes NO contact with another ORIGINAL_MESH), "
                               "CONVEX_HULL (one convex hull), "
                               "CONVEXIFY (a CoACD convex decomposition, needs the coacd package).")
      .value("ORIGINAL_MESH", MeshCollisionMode::kOriginalMesh)
      .value("CONVEX_HULL", MeshCollisionMode::kConvexHull)
      .value("CONVEXIFY", MeshCollisionMode::kConvexify);

  py::class_<CompoundChildSpec>(
      m, "CompoundObjectChild",
      "One primitive child of a compound (RaiSim's Compound::CompoundObjectChild): object_type "
      "SPHERE (object_param (radius,)), BOX ((x, y, z) full lengths), CYLINDER or CAPSULE "
      "((radius, height)); position (3,) in m and orientation (w, x, y, z) in the compound's body "
      "frame; a material name.")
      .def(py::init([](ObjectType type, py::handle param, py::handle position,
                       py::handle orientation, std::string material) {
             CompoundChildSpec c;
             const auto pa = to_rows(param, "object_param", -1, 0);
             const std::vector<double> p(pa.data(), pa.data() + pa.shape(0));
             int need = 0;
             switch (type) {
               case ObjectType::kSphere: c.type = ShapeType::kSphere, need = 1; break;
               case ObjectType::kBox: c.type = ShapeType::kBox, need = 3; break;
               case ObjectType::kCylinder: c.type = ShapeType::kCylinder, need = 2; break;
               case ObjectType::kCapsule: c.type = ShapeType::kCapsule, need = 2; break;
               default:
                 throw py::value_error("object_type must be SPHERE, BOX, CYLINDER or CAPSULE");
             }
             if (static_cast<int>(p.size()) < need)
               throw py::value_error("object_param must have at least " + std::to_string(need) +
                                     " numbers for this object_type, got " + std::to_string(p.size()));
             for (int k = 0; k < need; ++k) {
               check_positive(p[static_cast<std::size_t>(k)], "object_param");
               c.size[k] = p[static_cast<std::size_t>(k)];
             }
             c.pose.position = to_vec3(position, "position");
             check_finite_vec(c.pose.position, "position");
             const Vec4 q = to_vec4(orientation, "orientation");
             check_finite_vec(q, "orientation");
             const Vec4 u = unit_or_throw(q, "orientation (w, x, y, z)");
             c.pose.rotation = Quat(u[0], u[1], u[2], u[3]).toRotationMatrix();
             check_material_name(material, "material");
             c.material = std::move(material);
             return c;
           }),
           arg("object_type"), arg("object_param"), arg("position") = std::vector<double>{0, 0, 0},
           arg("orientation") = std::vector<double>{1, 0, 0, 0}, arg("material") = "default")
      .def_property_readonly("object_type", [](const CompoundChildSpec& c) { return child_object_type(c.type); })
      .def_property_readonly("object_param", [](const CompoundChildSpec& c) { return child_object_param(c); },
                             "(radius,), (x, y, z) full lengths, or (radius, height) (m), as given.")
      .def_property_readonly("position", [](const CompoundChildSpec& c) { return to_numpy(c.pose.position); })
      .def_property_readonly("rotation", [](const CompoundChildSpec& c) { return to_numpy(c.pose.rotation); })
      .def_property_readonly("material", [](const CompoundChildSpec& c) { return c.material; });

  py::class_<MeshHandle, SingleBodyHandle>(
      m, "Mesh",
      "A rigid body with mesh collision geometry. Its position is the centre of mass; its body "
      "frame has the mesh file's axes, so the mesh-frame point x is at "
      "position + R (x - get_com_offset()).")
      .def("get_collision_mode", [](const MeshHandle& h) { return mesh_of(h).mode(); })
      .def("get_com_offset", [](const MeshHandle& h) { return to_numpy(com_of(h)); },
           "Centre of mass in the mesh file's frame (scaled), m, shape (3,).")
      .def("get_file_name", [](const MeshHandle& h) { return mesh_of(h).source(); })
      .def("get_scale", [](const MeshHandle& h) { return mesh_of(h).scale(); })
      .def("get_collision_meshes", [](const MeshHandle& h) {
             py::list out;
             for (const TriangleMeshData& t : mesh_of(h).collision_meshes()) out.append(mesh_out(t));
             return out; },
           "The collision geometry in the mesh frame (m): a list of (vertices (n, 3), triangles "
           "(m, 3)) per convex part (one for CONVEX_HULL and ORIGINAL_MESH).");

  py::class_<CompoundHandle, SingleBodyHandle>(
      m, "Compound", "A rigid body made of primitive children; contacts of child k carry local index k.")
      .def("get_child_count", [](const CompoundHandle& h) { return h.obj().children().size(); })
      .def("get_child_position", [](const CompoundHandle& h, std::size_t k) {
             const auto& c = h.obj().children();
             if (k >= c.size()) throw py::index_error("child index out of range");
             return to_numpy(c[k].pose.position); }, arg("index"),
           "Child position relative to the centre of mass, body frame (m), shape (3,).")
      .def("get_child_material", [](const CompoundHandle& h, std::size_t k) {
             const auto& c = h.obj().children();
             if (k >= c.size()) throw py::index_error("child index out of range");
             return c[k].material; }, arg("index"))
      .def("get_child", [](const CompoundHandle& h, std::size_t k) {
             const auto& c = h.obj().children();
             if (k >= c.size()) throw py::index_error("child index out of range");
             return child_spec(c[k]); }, arg("index"),
           "Child k as a CompoundObjectChild: its shape and size, its pose relative to the centre "
           "of mass in the body frame (as get_child_position), its material.");

  auto shape = py::reinterpret_borrow<py::class_<Shape>>(m.attr("Shape"));
  shape
      .def_static("convex_mesh", [](py::handle points) {
                    auto pts = to_points(points, "points");
                    return Shape::convex_mesh(std::make_shared<ConvexHull>(convex_hull(pts, "points")));
                  }, arg("points"),
                  "The convex hull of points (n, 3) in the body frame (m), as given (not moved to "
                  "its centre of mass).")
      .def_property_readonly("vertices", [](const Shape& s) -> py::object {
             if (s.type != ShapeType::kConvexMesh) return py::none();
             return points_out(s.hull->vertices); },
           "Convex mesh: its hull vertices (n, 3), body frame (m); None for other shapes.");

  m.def("load_mesh",
        [](py::handle file) { return mesh_out(read_mesh(to_path(file, "file_name"))); },
        arg("file_name"),
        "Read a mesh file: (vertices (n, 3) float64 in m, triangles (m, 3) int64). .obj and .stl "
        "are read by torsion; other formats through trimesh if installed.");
  m.def("convex_hull", [](py::handle points) {
          auto pts = to_points(points, "points");
          ConvexHull h;
          {
            py::gil_scoped_release release;
            h = convex_hull(pts, "points");
          }
          py::list faces;
          for (int f = 0; f < h.face_count(); ++f) {
            py::list face;
            for (int j = 0; j < h.face_size(f); ++j) face.append(h.face(f)[j]);
            faces.append(face);
          }
          return py::make_tuple(points_out(h.vertices), triangles_out(h.triangles), faces); },
        arg("points"),
        "Convex hull of points (n, 3): (vertices (k, 3), triangles (t, 3) outward, faces: list of "
        "polygons (vertex indices, counter-clockwise from outside; coplanar triangles merged)).");
  m.def("mesh_mass_properties", [](py::handle vertices, py::handle triangles) {
          TriangleMeshData md;
          md.vertices = to_points(vertices, "vertices");
          md.triangles = to_triangles(triangles, "triangles");
          validate_mesh(md, "mesh");
          const SolidMassProperties mp = polyhedron_mass_properties(md.vertices, md.triangles);
          return py::make_tuple(mp.volume, to_numpy(mp.com), to_numpy(mp.inertia)); },
        arg("vertices"), arg("triangles"),
        "Exact mass properties of the solid a closed triangle mesh encloses, at density 1: "
        "(volume m^3, centre of mass (3,) m, inertia (3, 3) about it, kg m^2 per kg/m^3).");
  m.def("mesh_is_closed", [](py::handle vertices, py::handle triangles) {
          TriangleMeshData md;
          md.vertices = to_points(vertices, "vertices");
          md.triangles = to_triangles(triangles, "triangles");
          return mesh_is_closed(md); }, arg("vertices"), arg("triangles"),
        "True if every edge joins exactly two triangles that traverse it in opposite directions "
        "(vertices at the same position count as one; triangles without area are ignored).");
}

void world_methods_mesh(WorldClass& world) {
  world
      .def("add_mesh", [](const WorldPtr& w, const MeshHandle& src, const std::string& material,
                          py::handle group, py::handle mask) {
             const auto& s = mesh_of(src);
             if (src.world != w) throw py::value_error("mesh_to_clone belongs to another world");
             auto& o = w->add_mesh_clone(s, material, to_group(group, "collision_group"),
                                         to_group(mask, "collision_mask"));
             return MeshHandle{{{w, o.id()}}}; },
           arg("mesh_to_clone"), arg("material") = "", arg("collision_group") = 1,
           arg("collision_mask") = -1,
           "A new mesh body sharing another mesh's geometry, mass, inertia and centre of mass; "
           "an empty material keeps the source's.")
      // the seed's overloads without inertia and COM, in its positional order:
      // addMesh(file, mass, scale, material, collisionMode | coacdOptions, group, mask, coacd).
      // Registered first: a real number in third place is a scale; anything else there (an
      // inertia matrix, None) goes on to the (file, mass, inertia, com, ...) form below.
      .def("add_mesh", [](const WorldPtr& w, py::handle file, double mass, py::handle scale,
                          const std::string& material, py::handle mode, py::handle group,
                          py::handle mask, py::object coacd_options) {
             if (!is_real_number(scale))
               return add_mesh_from_file(w, file, mass, py::reinterpret_borrow<py::object>(scale),
                                         py::none(), 1.0, material, mode, group, mask, coacd_options);
             return add_mesh_from_file(w, file, mass, py::none(), py::none(), scale.cast<double>(),
                                       material, mode, group, mask, coacd_options); },
           arg("file_name"), arg("mass"), arg("scale"), arg("material") = "default",
           py::arg_v("collision_mode", MeshCollisionMode::kConvexHull, "MeshCollisionMode.CONVEX_HULL"),
           arg("collision_group") = 1, arg("collision_mask") = -1, arg("coacd_options") = py::none(),
           "The seed's add_mesh without inertia and COM: add_mesh(file_name, mass, scale, "
           "material, collision_mode, collision_group, collision_mask, coacd_options), inertia "
           "and centre of mass estimated as in the form below. collision_mode may also be a "
           "torsion.CoacdOptions (the seed's CoacdOptions overload: CONVEXIFY with those options).")
      .def("add_mesh", &add_mesh_from_file, arg("file_name"), arg("mass"),
           arg("inertia") = py::none(), arg("com") = py::none(), arg("scale") = 1.0,
           arg("material") = "default",
           py::arg_v("collision_mode", MeshCollisionMode::kConvexHull, "MeshCollisionMode.CONVEX_HULL"),
           arg("collision_group") = 1, arg("collision_mask") = -1,
           arg("coacd_options") = py::none(),
           "Add a dynamic mesh body from a file (.obj, .stl in C++; other formats need trimesh) "
           "scaled by `scale`, with mass (kg). inertia ((3, 3), kg m^2 about the centre of mass, "
           "mesh axes) and com ((3,), m, mesh frame after scaling) are given together or "
           "estimated: exact polyhedral mass properties of a closed mesh at uniform density, else "
           "a uniform box filling the bounding box of an open one; an open flat mesh (a sheet: its "
           "bounding box has no volume) has no estimate and raises ValueError, so give inertia "
           "and com for it (any valid pair for a STATIC floor). Vertices no face uses are "
           "ignored. collision_mode: CONVEX_HULL (default), "
           "ORIGINAL_MESH (a triangle surface; set the body STATIC or KINEMATIC: see "
           "MeshCollisionMode for what a moving one collides with), or CONVEXIFY "
           "(coacd; coacd_options a torsion.CoacdOptions; falls back to one hull with a warning "
           "if the decomposition fails; a torsion.CoacdOptions given as collision_mode means "
           "CONVEXIFY with those options, as the seed's CoacdOptions overloads). The body starts "
           "with its centre of mass at the origin.")
      .def("add_compound", [](const WorldPtr& w, const std::vector<CompoundChildSpec>& children,
                              double mass, py::object com, py::object inertia, py::handle group,
                              py::handle mask) {
             std::optional<Vec3> c;
             std::optional<Mat3> i;
             if (!com.is_none()) c = to_vec3(com, "com");
             if (!inertia.is_none()) i = to_mat3(inertia, "inertia");
             auto& o = w->add_compound(children, mass, c, i, to_group(group, "collision_group"),
                                       to_group(mask, "collision_mask"));
             return CompoundHandle{{{w, o.id()}}}; },
           arg("children"), arg("mass"), arg("com") = py::none(), arg("inertia") = py::none(),
           arg("collision_group") = 1, arg("collision_mask") = -1,
           "Add a single body made of primitive children (CompoundObjectChild). com ((3,), m, "
           "body frame) and inertia ((3, 3), kg m^2 about the com) are given together or "
           "computed from the children at uniform density (parallel-axis theorem; overlapping "
           "volume counts twice). The body starts with its centre of mass at the origin.")
      .def("export_mesh_assets_to_obj", [](const World& w, py::handle directory, const std::string& prefix) {
             const std::string dir = to_path(directory, "directory");
             check_no_nul(prefix, "prefix");
             return w.export_mesh_assets_to_obj(dir, prefix); },
           arg("directory"), arg("prefix") = "mesh",
           "Write every Mesh object's collision meshes (mesh frame, m) as OBJ files named "
           "<prefix>_<object name or world index>_<k>.obj (k = convex part; 0 for a single "
           "hull or surface), creating the directory. Returns the paths in world order.");
}

}  // namespace torsion::bindings
