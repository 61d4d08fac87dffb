// Deformables in Python: DeformableMaterial, the DeformableObject handle and the World methods
// that add, list and remove them (world/world_deformable.hpp). Arrays cross as fresh NumPy
// copies: positions and velocities (n, 3) float64, triangles (m, 3) and tetrahedra (m, 4) int64.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "bindings/convert.hpp"
#include "bindings/world_methods.hpp"
#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "core/check.hpp"
#include "world/world_deformable.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;

namespace {

using WorldPtr = std::shared_ptr<World>;

struct DeformableHandle {
  WorldPtr world;
  ObjectId id = 0;

  DeformableObject& get() const {
    if (!world) throw py::type_error("this deformable handle is not initialised (it has no World)");
    DeformableObject* d = find_deformable(*world, id);
    if (d == nullptr)
      throw RemovedObjectError("deformable id " + std::to_string(id) +
                               " has been removed from its world; this handle can no longer be used");
    return *d;
  }
};

std::vector<Vec3> to_points(py::handle obj, const char* arg) {
  const auto a = to_rows(obj, arg, -1, 3);
  std::vector<Vec3> out(static_cast<std::size_t>(a.shape(0)));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto r = static_cast<py::ssize_t>(i);
    out[i] = Vec3(a.at(r, 0), a.at(r, 1), a.at(r, 2));
    if (!out[i].allFinite())
      throw py::value_error(std::string(arg) + "[" + std::to_string(i) + "] must be finite");
  }
  return out;
}

// an integer array-like of shape (m, cols) (cols == 0: (m,)); floats are refused (a vertex index
// of 1.5 is a mistake, not something to round)
py::array_t<std::int64_t> to_index_rows(py::handle obj, const char* arg, int cols) {
  const py::object np = py::module_::import("numpy");
  py::array a = py::array::ensure(np.attr("asarray")(obj));
  if (!a) throw py::value_error(std::string(arg) + " must be an integer array-like");
  const bool empty = a.size() == 0;
  if (!empty && a.dtype().kind() != 'i' && a.dtype().kind() != 'u')
    throw py::type_error(std::string(arg) + " must hold integers (vertex indices), got dtype " +
                         std::string(py::str(a.dtype())));
  if (empty) {
    const py::tuple shape = cols == 0 ? py::tuple(py::make_tuple(0)) : py::tuple(py::make_tuple(0, cols));
    a = np.attr("zeros")(shape, "int64");
  }
  const bool shape_ok = cols == 0 ? a.ndim() == 1 : (a.ndim() == 2 && a.shape(1) == cols);
  if (!shape_ok) {
    std::string got = "(";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) got += (k ? ", " : "") + std::to_string(a.shape(k));
    throw py::value_error(std::string(arg) + " must have shape " +
                          (cols == 0 ? std::string("(m,)") : "(m, " + std::to_string(cols) + ")") +
                          ", got " + got + (a.ndim() == 1 ? ",)" : ")"));
  }
  return py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
}

template <int N>
std::vector<std::array<std::int64_t, N>> to_cells(py::handle obj, const char* arg) {
  const auto a = to_index_rows(obj, arg, N);
  std::vector<std::array<std::int64_t, N>> out(static_cast<std::size_t>(a.shape(0)));
  for (std::size_t i = 0; i < out.size(); ++i)
    for (int j = 0; j < N; ++j) out[i][j] = a.at(static_cast<py::ssize_t>(i), j);
  return out;
}

std::vector<std::int64_t> to_pinned(py::handle obj) {
  if (obj.is_none()) return {};
  const auto a = to_index_rows(obj, "pinned_vertices", 0);
  std::vector<std::int64_t> out(static_cast<std::size_t>(a.shape(0)));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = a.at(static_cast<py::ssize_t>(i));
  return out;
}

DeformableSolver solver_from_name(const std::string& name) {
  if (name == "xpbd") return DeformableSolver::kXpbd;
  if (name == "newton") return DeformableSolver::kNewton;
  throw std::invalid_argument("solver must be 'xpbd' or 'newton', got '" + name + "'");
}

DeformableMaterial material_or_default(const DeformableMaterial* m) {
  return m ? *m : DeformableMaterial();
}

py::array_t<double> points_array(const std::vector<Vec3>& p) {
  py::array_t<double> out({static_cast<py::ssize_t>(p.size()), py::ssize_t(3)});
  auto r = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < p.size(); ++i)
    for (int j = 0; j < 3; ++j) r(static_cast<py::ssize_t>(i), j) = p[i][j];
  return out;
}

template <std::size_t N>
py::array_t<std::int64_t> cells_array(const std::vector<std::array<std::uint32_t, N>>& c) {
  py::array_t<std::int64_t> out({static_cast<py::ssize_t>(c.size()), static_cast<py::ssize_t>(N)});
  auto r = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = 0; j < N; ++j)
      r(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) = c[i][j];
  return out;
}

py::object make_deformable_handle(const WorldPtr& w, const DeformableObject& d) {
  return py::cast(DeformableHandle{w, d.id()});
}

void require_not_mid_step(const World& w, const char* what) {
  if (w.is_mid_step())
    throw std::logic_error(std::string(what) + " is not allowed between integrate1() and integrate2()");
}

}  // namespace

void bind_deformable(py::module_& m) {
  py::class_<DeformableMaterial>(m, "DeformableMaterial",
                                 "Solver and material parameters of a deformable (the seed's "
                                 "DeformableObject::Material), SI units. See docs/deformables.md.")
      .def(py::init([](double density, double areal_density, double stretch_compliance,
                       double bending_compliance, double youngs_modulus, double poisson_ratio,
                       double volume_compliance, double damping, int substeps, int iterations,
                       double proxy_radius, bool self_collision, const std::string& solver,
                       int element_order) {
             DeformableMaterial d;
             d.density = density;
             d.areal_density = areal_density;
             d.stretch_compliance = stretch_compliance;
             d.bending_compliance = bending_compliance;
             d.youngs_modulus = youngs_modulus;
             d.poisson_ratio = poisson_ratio;
             d.volume_compliance = volume_compliance;
             d.damping = damping;
             d.substeps = substeps;
             d.iterations = iterations;
             d.proxy_radius = proxy_radius;
             d.self_collision = self_collision;
             d.solver = solver_from_name(solver);
             d.element_order = element_order;
             validate_deformable_material(d);
             return d;
           }),
           arg("density") = DeformableMaterial().density,
           arg("areal_density") = DeformableMaterial().areal_density,
           arg("stretch_compliance") = DeformableMaterial().stretch_compliance,
           arg("bending_compliance") = DeformableMaterial().bending_compliance,
           arg("youngs_modulus") = DeformableMaterial().youngs_modulus,
           arg("poisson_ratio") = DeformableMaterial().poisson_ratio,
           arg("volume_compliance") = DeformableMaterial().volume_compliance,
           arg("damping") = DeformableMaterial().damping,
           arg("substeps") = DeformableMaterial().substeps,
           arg("iterations") = DeformableMaterial().iterations,
           arg("proxy_radius") = DeformableMaterial().proxy_radius,
           arg("self_collision") = DeformableMaterial().self_collision,
           arg("solver") = "xpbd", arg("element_order") = DeformableMaterial().element_order,
           "density kg/m^3 (volumes); areal_density kg/m^2 (cloth); stretch_compliance and "
           "bending_compliance m/N (XPBD compliance of the edge and bending distance "
           "constraints); youngs_modulus Pa (> 0: a volume is a neo-Hookean solid) and "
           "poisson_ratio in [0, 0.5); volume_compliance m^3/N (volumes without E); damping 1/s; "
           "substeps and iterations per world step; proxy_radius m (each vertex's collision "
           "sphere); self_collision; solver 'xpbd' (Gauss-Seidel sweeps over the constraints) or "
           "'newton' (elastic solids: Newton's method on the finite-element implicit step, "
           "iterations = Newton iterations per substep); element_order 1 (linear tetrahedra) or 2 "
           "(quadratic: a node at every edge's midpoint; solver 'newton'). "
           "ValueError naming the field for a bad value.")
      .def_readwrite("density", &DeformableMaterial::density)
      .def_readwrite("areal_density", &DeformableMaterial::areal_density)
      .def_readwrite("stretch_compliance", &DeformableMaterial::stretch_compliance)
      .def_readwrite("bending_compliance", &DeformableMaterial::bending_compliance)
      .def_readwrite("youngs_modulus", &DeformableMaterial::youngs_modulus)
      .def_readwrite("poisson_ratio", &DeformableMaterial::poisson_ratio)
      .def_readwrite("volume_compliance", &DeformableMaterial::volume_compliance)
      .def_readwrite("damping", &DeformableMaterial::damping)
      .def_readwrite("substeps", &DeformableMaterial::substeps)
      .def_readwrite("iterations", &DeformableMaterial::iterations)
      .def_readwrite("proxy_radius", &DeformableMaterial::proxy_radius)
      .def_readwrite("self_collision", &DeformableMaterial::self_collision)
      .def_property("solver",
                    [](const DeformableMaterial& d) {
                      return std::string(d.solver == DeformableSolver::kNewton ? "newton" : "xpbd"); },
                    [](DeformableMaterial& d, const std::string& name) { d.solver = solver_from_name(name); })
      .def_readwrite("element_order", &DeformableMaterial::element_order);

  py::class_<DeformableMeshOptions>(
      m, "DeformableMeshOptions",
      "How World.add_deformable_object makes particles of an OBJ surface (the seed's "
      "DeformableObject::MeshBuildOptions). mode 'surface': the mesh's vertices are the "
      "particles and its triangles a shell (a cloth), with struts=True also distance "
      "constraints across the inside that keep its shape; mode 'filled': a closed mesh filled "
      "with tetrahedra on a lattice of about `spacing` m (0: the longest side of its box / 8), "
      "boundary vertices moved onto the surface (a solid; elastic with a Young's modulus). "
      "scale multiplies the file's vertices.")
      .def(py::init([](const std::string& mode, double scale, double spacing, bool struts) {
             DeformableMeshOptions o;
             if (mode != "surface" && mode != "filled")
               throw py::value_error("mode must be 'surface' or 'filled', got '" + mode + "'");
             o.filled = mode == "filled";
             check_positive(scale, "scale");
             if (!std::isfinite(spacing) || spacing < 0.0)
               throw py::value_error("spacing must be finite and >= 0 (0: automatic)");
             o.scale = scale;
             o.spacing = spacing;
             o.struts = struts;
             return o; }),
           arg("mode") = "surface", arg("scale") = 1.0, arg("spacing") = 0.0, arg("struts") = false)
      .def_property_readonly("mode", [](const DeformableMeshOptions& o) {
             return std::string(o.filled ? "filled" : "surface"); })
      .def_readonly("scale", &DeformableMeshOptions::scale)
      .def_readonly("spacing", &DeformableMeshOptions::spacing)
      .def_readonly("struts", &DeformableMeshOptions::struts);

  py::class_<DeformableHandle> handle(m, "DeformableObject",
                               "Handle to a deformable cloth or solid of a World (its particles, "
                               "mesh and material). Raises RemovedObjectError once removed.");
  thread_guard::declare_world_bound<DeformableHandle>(handle);
  handle.def_property_readonly("id", [](const DeformableHandle& h) { h.get(); return h.id; },
                             "Stable id among the world's deformables (never reused).")
      .def_property_readonly("kind", [](const DeformableHandle& h) {
             return std::string(h.get().kind() == DeformableKind::kCloth ? "cloth" : "volume"); },
           "'cloth' or 'volume'.")
      .def_property("name", [](const DeformableHandle& h) { return h.get().name; },
                    [](const DeformableHandle& h, const std::string& n) {
                      check_name(n, "name");
                      h.get().name = n; })
      .def("get_vertex_count", [](const DeformableHandle& h) { return h.get().vertex_count(); })
      .def("get_positions", [](const DeformableHandle& h) { return points_array(h.get().positions()); },
           "Particle positions (m, world), a fresh (n, 3) array.")
      .def("get_velocities", [](const DeformableHandle& h) { return points_array(h.get().velocities()); },
           "Particle velocities (m/s, world), a fresh (n, 3) array.")
      .def("get_rest_positions", [](const DeformableHandle& h) { return points_array(h.get().rest_positions()); },
           "The vertices given at creation (the rest shape), a fresh (n, 3) array.")
      .def("set_positions", [](const DeformableHandle& h, py::handle x) {
             require_not_mid_step(*h.world, "set_positions");
             h.get().set_positions(to_points(x, "positions"));
             h.world->note_deformables_changed(); }, arg("positions"),
           "Set every particle position (m, world): an (n, 3) array-like.")
      .def("set_velocities", [](const DeformableHandle& h, py::handle v) {
             h.get().set_velocities(to_points(v, "velocities")); }, arg("velocities"),
           "Set every particle velocity (m/s, world): an (n, 3) array-like.")
      .def("get_masses", [](const DeformableHandle& h) {
             const auto& mass = h.get().masses();
             py::array_t<double> out(static_cast<py::ssize_t>(mass.size()));
             std::copy(mass.begin(), mass.end(), out.mutable_data());
             return out; }, "Particle masses (kg), a fresh (n,) array.")
      .def("get_mass", [](const DeformableHandle& h) { return h.get().total_mass(); },
           "Total mass (kg; with quadratic elements, their internal edge nodes included).")
      .def("get_triangles", [](const DeformableHandle& h) { return cells_array(h.get().triangles()); },
           "Cloth triangles, a fresh (m, 3) int64 array ((0, 3) for a volume).")
      .def("get_tetrahedra", [](const DeformableHandle& h) { return cells_array(h.get().tetrahedra()); },
           "Volume tetrahedra, a fresh (m, 4) int64 array ((0, 4) for a cloth).")
      .def("get_struts", [](const DeformableHandle& h) { return cells_array(h.get().struts()); },
           "Struts across a shell's inside (DeformableMeshOptions(struts=True)), a fresh (k, 2) "
           "int64 array of vertex pairs.")
      .def("get_surface_triangles", [](const DeformableHandle& h) { return cells_array(h.get().surface()); },
           "The surface rays and cameras see: the cloth's triangles, or a volume's boundary faces "
           "(outward), a fresh (m, 3) int64 array.")
      .def("get_pinned", [](const DeformableHandle& h) {
             const auto& p = h.get().pinned();
             py::array_t<bool> out(static_cast<py::ssize_t>(p.size()));
             for (std::size_t i = 0; i < p.size(); ++i) out.mutable_data()[i] = p[i] != 0;
             return out; }, "Pinned flags, a fresh (n,) bool array.")
      .def("set_pinned", [](const DeformableHandle& h, std::int64_t v, bool on) {
             require_not_mid_step(*h.world, "set_pinned");
             h.get().set_pinned(v, on); }, arg("vertex"), arg("pinned") = true,
           "Hold a vertex fixed where it is (True) or free it.")
      .def("attach_vertex", [](const DeformableHandle& h, std::int64_t vertex, const ObjectHandle& body,
                               py::handle world_point, std::int64_t local) {
             body.get();
             if (body.world != h.world)
               throw py::value_error("body belongs to another World");
             const Vec3 p = world_point.is_none() ? h.get().positions().at(
                                                        to_index(py::int_(vertex), h.get().vertex_count(), "vertex").value())
                                                  : to_finite_vec3(world_point, "world_point");
             attach_deformable_vertex(*h.world, h.get(), vertex, body.id, local, p); },
           arg("vertex"), arg("body"), arg("world_point") = py::none(), arg("link") = -1,
           "Hold `vertex` to a rigid body (a single body, or link index `link` of a robot) at "
           "world_point (default: where the vertex is now), fixed in the body's frame: the "
           "vertex follows the body, and the body carries the vertex's weight and the pull of "
           "its constraints (in its external force of the next step).")
      .def("get_reactions", [](const DeformableHandle& h) {
             py::list out;
             for (const DeformableReaction& r : h.get().reactions) {
               py::dict d;
               d["object_id"] = r.object;
               d["link"] = r.local;
               d["force"] = points_array({r.force}).attr("reshape")(3);
               d["moment"] = points_array({r.moment}).attr("reshape")(3);
               out.append(d);
             }
             return out; },
           "What this deformable did to the dynamic bodies in its last step: a list of dicts, one "
           "per body (object_id, link: the robot link or -1), with force (N, world) and moment "
           "(N m, about the world origin), contacts and attachments summed. Each is added to "
           "that body's external force for the world's next step.")
      .def("get_material", [](const DeformableHandle& h) { return h.get().material(); },
           "A copy of the DeformableMaterial.")
      .def("set_material", [](const DeformableHandle& h, const DeformableMaterial& mat) {
             require_not_mid_step(*h.world, "set_material");
             h.get().set_material(mat); }, arg("material"),
           "New material parameters for the same mesh (masses and constraints rebuilt).")
      .def_property_readonly("contact_material", [](const DeformableHandle& h) { return h.get().contact_material; })
      .def_property_readonly("collision_group", [](const DeformableHandle& h) { return h.get().group; })
      .def_property_readonly("collision_mask", [](const DeformableHandle& h) { return h.get().mask; })
      .def("get_kinetic_energy", [](const DeformableHandle& h) { return h.get().kinetic_energy(); },
           "Kinetic energy of the free particles (J).")
      .def("get_elastic_energy", [](const DeformableHandle& h) { return h.get().elastic_energy(); },
           "Elastic energy of the compliant constraints, sum C^2 / (2 alpha), zero at rest (J).")
      .def("get_potential_energy", [](const DeformableHandle& h) {
             return h.get().gravity_potential(h.world->gravity()); },
           "Gravitational potential energy -sum m g.x (J), for the world's gravity.")
      .def("get_energy", [](const DeformableHandle& h) {
             const DeformableObject& d = h.get();
             return d.kinetic_energy() + d.elastic_energy() + d.gravity_potential(h.world->gravity()); },
           "Kinetic + elastic + gravitational energy (J).")
      .def("get_constraint_count", [](const DeformableHandle& h) { return h.get().constraints().size(); })
      .def("is_alive", [](const DeformableHandle& h) {
             return h.world && find_deformable(*h.world, h.id) != nullptr; })
      .def("__eq__", [](const DeformableHandle& a, const DeformableHandle& b) {
             return a.world == b.world && a.id == b.id; })
      .def("__hash__", [](const DeformableHandle& h) { return std::hash<ObjectId>()(h.id); })
      .def("__repr__", [](const DeformableHandle& h) {
             DeformableObject* d = h.world ? find_deformable(*h.world, h.id) : nullptr;
             if (!d) return std::string("<DeformableObject (removed)>");
             return "<DeformableObject id=" + std::to_string(h.id) + " " +
                    (d->kind() == DeformableKind::kCloth ? "cloth" : "volume") + ", " +
                    std::to_string(d->vertex_count()) + " vertices>"; });
}

// World's methods of this area, added by bind_world_methods (world_methods.hpp)
void world_methods_deformable(WorldClass& cls) {
  cls.def("add_deformable_cloth",
          [](const WorldPtr& w, py::handle vertices, py::handle triangles, py::handle pinned,
             const DeformableMaterial* material, const std::string& contact_material,
             py::handle group, py::handle mask) {
            auto& d = add_deformable_cloth(*w, to_points(vertices, "vertices"),
                                           to_cells<3>(triangles, "triangles"), to_pinned(pinned),
                                           material_or_default(material), contact_material,
                                           to_group(group, "collision_group"),
                                           to_group(mask, "collision_mask"));
            return make_deformable_handle(w, d);
          },
          arg("vertices"), arg("triangles"), arg("pinned_vertices") = py::none(),
          arg("material") = nullptr, arg("contact_material") = "default",
          arg("collision_group") = 1, arg("collision_mask") = -1,
          "Add a cloth: vertices (n, 3) m in the world frame, triangles (m, 3) vertex indices; "
          "pinned_vertices stay where they are. XPBD edge and bending constraints, one collision "
          "sphere per vertex. ValueError / IndexError for out-of-range indices, degenerate "
          "triangles, unreferenced vertices or an edge of more than two triangles.")
      .def("add_deformable_cloth_from_obj",
           [](const WorldPtr& w, py::handle path, double scale, py::handle pinned,
              const DeformableMaterial* material, const std::string& contact_material,
              py::handle group, py::handle mask) {
             auto& d = add_deformable_cloth_obj(*w, to_path(path, "path"), scale, to_pinned(pinned),
                                                material_or_default(material), contact_material,
                                                to_group(group, "collision_group"),
                                                to_group(mask, "collision_mask"));
             return make_deformable_handle(w, d);
           },
           arg("path"), arg("scale") = 1.0, arg("pinned_vertices") = py::none(),
           arg("material") = nullptr, arg("contact_material") = "default",
           arg("collision_group") = 1, arg("collision_mask") = -1,
           "Add a cloth from an OBJ file (polygons as fans; vertices times scale). The seed's "
           "addDeformableCloth(meshFileInObjFormat, scale, ...).")
      .def("add_deformable_volume",
           [](const WorldPtr& w, py::handle vertices, py::handle tets, py::handle pinned,
              const DeformableMaterial* material, const std::string& contact_material,
              py::handle group, py::handle mask) {
             auto& d = add_deformable_volume(*w, to_points(vertices, "vertices"),
                                             to_cells<4>(tets, "tetrahedra"), to_pinned(pinned),
                                             material_or_default(material), contact_material,
                                             to_group(group, "collision_group"),
                                             to_group(mask, "collision_mask"));
             return make_deformable_handle(w, d);
           },
           arg("vertices"), arg("tetrahedra"), arg("pinned_vertices") = py::none(),
           arg("material") = nullptr, arg("contact_material") = "default",
           arg("collision_group") = 1, arg("collision_mask") = -1,
           "Add a solid of tetrahedra (m, 4) (each with (b-a) x (c-a) . (d-a) > 0) over vertices "
           "(n, 3) m. With material.youngs_modulus > 0 a neo-Hookean elastic solid. ValueError "
           "for degenerate or inverted tetrahedra, IndexError for indices out of range.")
      .def("add_deformable_object",
           [](const WorldPtr& w, py::handle path, const DeformableMaterial* material,
              const DeformableMeshOptions* options, py::handle pinned,
              const std::string& contact_material, py::handle group, py::handle mask) {
             auto& d = add_deformable_object(*w, to_path(path, "path"), material_or_default(material),
                                             options ? *options : DeformableMeshOptions(),
                                             to_pinned(pinned), contact_material,
                                             to_group(group, "collision_group"),
                                             to_group(mask, "collision_mask"));
             return make_deformable_handle(w, d);
           },
           arg("path"), arg("material") = nullptr, arg("options") = nullptr,
           arg("pinned_vertices") = py::none(), arg("contact_material") = "default",
           arg("collision_group") = 1, arg("collision_mask") = -1,
           "Add a deformable made from an OBJ mesh as DeformableMeshOptions say (the seed's "
           "addDeformableObject): a shell of its surface (optionally with struts), or the closed "
           "mesh filled with tetrahedra. ValueError for an open mesh in mode 'filled', a bad "
           "file or options.")
      .def("get_deformables", [](const WorldPtr& w) {
             py::list out;
             for (const auto& d : w->deformable_set().objects) out.append(make_deformable_handle(w, *d));
             return out; }, "Handles of every deformable, in the world's order.")
      .def("get_deformable", [](const WorldPtr& w, std::int64_t id) {
             DeformableObject* d = id < 0 ? nullptr : find_deformable(*w, static_cast<ObjectId>(id));
             if (d == nullptr)
               throw py::index_error("no deformable with id " + std::to_string(id) + " in this world");
             return make_deformable_handle(w, *d); }, arg("id"),
           "The handle of the deformable with this id (DeformableObject.id, a ray hit's "
           "deformable_id); IndexError if there is none.")
      .def("get_deformable_count", [](const WorldPtr& w) { return w->deformable_set().objects.size(); })
      .def("get_deformable_reset_count", [](const WorldPtr& w) { return w->deformable_set().non_finite_resets; },
           "Steps in which a deformable's state went non-finite and was reset to its start at rest.")
      .def("remove_deformable", [](const WorldPtr& w, const DeformableHandle& h) {
             if (h.world != w) throw py::value_error("this deformable belongs to another World");
             h.get();
             remove_deformable(*w, h.id); }, arg("deformable"),
           "Remove a deformable; its handles raise RemovedObjectError afterwards.");
}

}  // namespace torsion::bindings
