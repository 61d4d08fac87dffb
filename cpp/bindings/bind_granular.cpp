// Granular media in Python: torsion.GranularMaterial and torsion.GranularSystem (the seed's
// GranularSystem, cpp/granular/granular_system.hpp), particle state as NumPy arrays, and the
// World's add_granular_particles / add_granular_box (granular/granular_world.hpp): a system the
// world owns and steps. Its Python object is a handle (the world and the system's id), as every
// object's, and raises RemovedObjectError once the system is removed.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "bindings/convert.hpp"
#include "bindings/world_methods.hpp"
#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "batch/thread_pool.hpp"
#include "core/check.hpp"
#include "granular/granular_system.hpp"
#include "granular/granular_world.hpp"
#include "world/world.hpp"

namespace torsion::bindings {

namespace py = pybind11;
using namespace py_convert;
using py::arg;

namespace {

std::vector<Vec3> to_points(py::handle obj, const char* name) {
  const auto a = to_rows(obj, name, -1, 3);
  std::vector<Vec3> out(static_cast<std::size_t>(a.shape(0)));
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = Vec3(a.at(k, 0), a.at(k, 1), a.at(k, 2));
  return out;
}

std::vector<double> to_values(py::handle obj, const char* name) {
  const auto a = to_rows(obj, name, -1, 0);
  return std::vector<double>(a.data(), a.data() + a.shape(0));
}

py::array_t<double> points_out(const std::vector<Vec3>& v) {
  py::array_t<double> out({static_cast<py::ssize_t>(v.size()), py::ssize_t{3}});
  double* p = out.mutable_data();
  for (std::size_t k = 0; k < v.size(); ++k) p[3 * k] = v[k].x(), p[3 * k + 1] = v[k].y(), p[3 * k + 2] = v[k].z();
  return out;
}

template <class T>
py::array_t<T> values_out(const std::vector<T>& v) {
  py::array_t<T> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

// a granular system: a standalone one (own) or one a World owns (world, id)
struct GranularRef {
  std::shared_ptr<GranularSystem> own;
  std::shared_ptr<World> world;
  std::uint64_t id = 0;

  GranularSystem& get() const {
    if (own) return *own;
    if (!world) throw py::type_error("this GranularSystem is not initialised");
    GranularWorld* gw = world->granular_if_any();
    GranularSystem* g = gw ? gw->find(id) : nullptr;
    if (!g)
      throw RemovedObjectError("granular system id " + std::to_string(id) +
                               " has been removed from its world; this handle can no longer be "
                               "used");
    return *g;
  }
};

std::size_t index_of(const GranularSystem& g, py::handle i, const char* what) {
  const auto k = to_index(i, g.size(), what);
  if (!k) throw py::type_error(std::string(what) + " must be an int particle index");
  return *k;
}

}  // namespace

void bind_granular(py::module_& m) {
  py::class_<GranularMaterial>(m, "GranularMaterial",
                               "A granular material: density (kg/m^3), Young's modulus (Pa), "
                               "Poisson's ratio, restitution, sliding and rolling friction.")
      .def(py::init([](double density, double youngs_modulus, double poisson_ratio,
                       double restitution, double friction, double rolling_friction) {
             GranularMaterial mat;
             mat.density = density, mat.youngs_modulus = youngs_modulus;
             mat.poisson_ratio = poisson_ratio, mat.restitution = restitution;
             mat.friction = friction, mat.rolling_friction = rolling_friction;
             mat.validate("material");
             return mat;
           }),
           arg("density") = 2600.0, arg("youngs_modulus") = 5e7, arg("poisson_ratio") = 0.3,
           arg("restitution") = 0.5, arg("friction") = 0.5, arg("rolling_friction") = 0.0)
      .def_readonly("density", &GranularMaterial::density)
      .def_readonly("youngs_modulus", &GranularMaterial::youngs_modulus)
      .def_readonly("poisson_ratio", &GranularMaterial::poisson_ratio)
      .def_readonly("restitution", &GranularMaterial::restitution)
      .def_readonly("friction", &GranularMaterial::friction)
      .def_readonly("rolling_friction", &GranularMaterial::rolling_friction)
      .def("__repr__", [](const GranularMaterial& g) {
        return "GranularMaterial(density=" + fmt(g.density) + ", youngs_modulus=" +
               fmt(g.youngs_modulus) + ", poisson_ratio=" + fmt(g.poisson_ratio) +
               ", restitution=" + fmt(g.restitution) + ", friction=" + fmt(g.friction) +
               ", rolling_friction=" + fmt(g.rolling_friction) + ")";
      });

  py::class_<GranularRef>(m, "GranularSystem",
                             "Particles stepped as one DEM object (Hertz-Mindlin contacts with "
                             "rolling resistance; docs/granular.md).")
      .def(py::init([](py::handle positions, py::handle radii, const GranularMaterial& material) {
             GranularRef r;
             r.own = std::make_shared<GranularSystem>(to_points(positions, "positions"),
                                                      to_values(radii, "radii"), material);
             return r;
           }),
           arg("positions"), arg("radii"), arg("material") = GranularMaterial())
      .def("__len__", [](const GranularRef& r) { return r.get().size(); })
      .def("get_positions", [](const GranularRef& r) { return points_out(r.get().positions()); },
           "(N, 3) particle centres (m), a copy")
      .def("get_velocities", [](const GranularRef& r) { return points_out(r.get().velocities()); })
      .def("get_angular_velocities",
           [](const GranularRef& r) { return points_out(r.get().angular_velocities()); })
      .def("get_radii", [](const GranularRef& r) { return values_out(r.get().radii()); })
      .def("get_masses", [](const GranularRef& r) { return values_out(r.get().masses()); })
      .def("get_stable_ids", [](const GranularRef& r) { return values_out(r.get().stable_ids()); })
      .def("get_material_ids", [](const GranularRef& r) { return values_out(r.get().material_ids()); })
      .def("set_position", [](GranularRef& r, py::handle i, py::handle p) {
             GranularSystem& g = r.get();
             g.set_position(index_of(g, i, "particle"), to_finite_vec3(p, "position"));
           }, arg("index"), arg("position"))
      .def("set_velocity", [](GranularRef& r, py::handle i, py::handle v) {
             GranularSystem& g = r.get();
             g.set_velocity(index_of(g, i, "particle"), to_finite_vec3(v, "velocity"));
           }, arg("index"), arg("velocity"))
      .def("set_angular_velocity", [](GranularRef& r, py::handle i, py::handle w) {
             GranularSystem& g = r.get();
             g.set_angular_velocity(index_of(g, i, "particle"), to_finite_vec3(w, "angular_velocity"));
           }, arg("index"), arg("angular_velocity"))
      .def("set_velocities", [](GranularRef& r, py::handle v) {
             GranularSystem& g = r.get();
             const auto a = to_rows(v, "velocities", static_cast<py::ssize_t>(g.size()), 3);
             for (std::size_t k = 0; k < g.size(); ++k)
               g.set_velocity(k, Vec3(a.at(k, 0), a.at(k, 1), a.at(k, 2)));
           }, arg("velocities"))
      .def("set_fixed", [](GranularRef& r, py::handle i, bool fixed) {
             GranularSystem& g = r.get();
             g.set_fixed(index_of(g, i, "particle"), fixed);
           }, arg("index"), arg("fixed") = true)
      .def("is_fixed", [](const GranularRef& r, py::handle i) {
             const GranularSystem& g = r.get();
             return g.is_fixed(index_of(g, i, "particle"));
           }, arg("index"))
      .def("add_particles", [](GranularRef& r, py::handle positions, py::handle radii,
                               std::uint32_t material_id) {
             GranularSystem& g = r.get();
             return g.add_particles(to_points(positions, "positions"), to_values(radii, "radii"),
                                    material_id);
           }, arg("positions"), arg("radii"), arg("material_id") = 0)
      .def("remove_particle", [](GranularRef& r, py::handle i) {
             GranularSystem& g = r.get();
             g.remove_particle(index_of(g, i, "particle"));
           }, arg("index"))
      .def("add_material",
           [](GranularRef& r, const GranularMaterial& mat) { return r.get().add_material(mat); },
           arg("material"))
      .def("get_materials", [](const GranularRef& r) {
             py::list out;
             for (const GranularMaterial& mat : r.get().materials()) out.append(py::cast(mat));
             return out;
           },
           "The materials by id (0: the one given at creation), as copies.")
      .def("set_material_id", [](GranularRef& r, py::handle i, std::uint32_t id) {
             GranularSystem& g = r.get();
             g.set_material_id(index_of(g, i, "particle"), id);
           }, arg("index"), arg("material_id"))
      .def("set_ground_plane", [](GranularRef& r, bool enabled, double height) {
             r.get().set_ground_plane(enabled, height); }, arg("enabled") = true,
           arg("height") = 0.0)
      .def("set_box_container", [](GranularRef& r, py::handle lower, py::handle upper,
                                   bool enabled) {
             GranularSystem& g = r.get();
             g.set_box_container(enabled, to_finite_vec3(lower, "lower"), to_finite_vec3(upper, "upper"));
           }, arg("lower"), arg("upper"), arg("enabled") = true)
      .def("set_wall_material",
           [](GranularRef& r, const GranularMaterial& mat) { r.get().set_wall_material(mat); },
           arg("material"))
      .def("step", [](GranularRef& r, double dt, py::handle gravity, int num_threads) {
             if (!r.own)
               throw std::logic_error("this granular system belongs to a World: world.integrate() "
                                      "steps it (with the world's time step and gravity)");
             // the GIL stays held: it keeps two Python threads off one system
             r.own->step(dt, to_finite_vec3(gravity, "gravity"), num_threads);
           }, arg("dt"), arg("gravity") = py::make_tuple(0.0, 0.0, -9.81), arg("num_threads") = 1,
           "Step a standalone system (made with GranularSystem(...)) by dt on its own, with its "
           "ground plane and box container only. A system a World owns is stepped by "
           "world.integrate(); this raises RuntimeError for it.")
      .def_property_readonly("id", [](const GranularRef& r) -> py::object {
             if (r.own) return py::none();
             r.get();
             return py::int_(r.id);
           }, "The id of a world-owned system (None for a standalone one)")
      .def_property("num_threads", [](const GranularRef& r) { return r.get().num_threads; },
           [](GranularRef& r, int n) {
             (void)ThreadPool::resolve_thread_count(n);  // std::invalid_argument for n < 0
             r.get().num_threads = n;
           }, "Threads the world's step uses for this system (0: every hardware thread); the "
              "result is bitwise the same for any count.")
      .def_property("substep_factor", [](const GranularRef& r) { return r.get().substep_factor(); },
           [](GranularRef& r, double f) { r.get().set_substep_factor(f); },
           "The substep count over the stable count of the touching contacts' Gershgorin rows "
           "(docs/granular.md, Time stepping): a step of dt takes max(substeps_for(dt), "
           "ceil(substep_factor dt / h_stable)) substeps. Finite and > 0 (ValueError otherwise); "
           "below 1 the bound no longer guarantees stability. Saved with the state.")
      .def("set_collision_filter", [](GranularRef& r, CollisionGroup group, CollisionGroup mask) {
             GranularSystem& g = r.get();
             g.collision_group = group, g.collision_mask = mask;
           }, arg("group"), arg("mask"),
           "The particles' collision group and mask against the world's shapes: a particle and "
           "a shape meet iff (group & shape.mask) and (shape.group & mask).")
      .def("get_collision_group", [](const GranularRef& r) { return r.get().collision_group; })
      .def("get_collision_mask", [](const GranularRef& r) { return r.get().collision_mask; })
      .def("substeps_for", [](const GranularRef& r, double dt) { return r.get().substeps_for(dt); },
           arg("dt"))
      .def("kinetic_energy", [](const GranularRef& r) { return r.get().kinetic_energy(); })
      .def("contact_energy", [](const GranularRef& r) { return r.get().contact_energy(); })
      .def("get_stats", [](const GranularRef& r) {
        const GranularSystem& g = r.get();
        const GranularStats& s = g.stats();
        py::dict d;
        d["contacts"] = s.contacts, d["wall_contacts"] = s.wall_contacts;
        d["substeps"] = s.substeps, d["max_overlap"] = s.max_overlap;
        d["list_builds"] = s.list_builds;
        d["shape_contacts"] = s.shape_contacts;
        d["shape_force"] = py::make_tuple(s.shape_force.x(), s.shape_force.y(), s.shape_force.z());
        return d;
      });

  // a world-owned system's methods run inside a use of its world (as objects' do): none while
  // another thread steps it; a standalone one (no world) is not guarded
  thread_guard::declare_world_bound<GranularRef>(m.attr("GranularSystem"));
}

// World's methods of this area, added by bind_world_methods (world_methods.hpp)
void world_methods_granular(WorldClass& world) {
  // the World's granular systems (the seed's addGranularParticles / addGranularBox)
  auto owned = [](const std::shared_ptr<World>& w, std::unique_ptr<GranularSystem> g) {
    if (!w->use().free_for_this_thread()) throw_world_in_use("adding a granular system");
    GranularRef r;
    r.world = w;
    r.id = add_granular_system(*w, std::move(g));
    return r;
  };
  world
      .def("add_granular_particles",
           [owned](const std::shared_ptr<World>& w, py::handle positions, py::handle radii,
                   const GranularMaterial& material) {
             return owned(w, std::make_unique<GranularSystem>(to_points(positions, "positions"),
                                                              to_values(radii, "radii"), material));
           },
           arg("positions"), arg("radii"), arg("material") = GranularMaterial(),
           "A granular system the world owns and steps (docs/granular.md): particles at "
           "positions (N, 3) (m) with radii (N,) (m), one material. world.integrate() steps it "
           "with the world's time step and gravity; its particles collide with each other, with "
           "its own ground plane and box container, and with the world's shapes (not the Ground "
           "object), pushing them back. Removed with world.remove_object(system).")
      .def("add_granular_box",
           [owned](const std::shared_ptr<World>& w, py::handle box_lower, py::handle box_upper,
                   double particle_radius, double spacing, py::handle velocity,
                   py::handle angular_velocity, std::uint32_t material_id, bool fixed,
                   const GranularMaterial& material) {
             GranularBoxOptions o;
             o.lower = to_finite_vec3(box_lower, "box_lower");
             o.upper = to_finite_vec3(box_upper, "box_upper");
             o.particle_radius = particle_radius;
             o.spacing = spacing;
             o.velocity = to_finite_vec3(velocity, "velocity");
             o.angular_velocity = to_finite_vec3(angular_velocity, "angular_velocity");
             o.material_id = material_id;
             o.fixed = fixed;
             if (material_id != 0)
               throw py::value_error("material_id must be 0 for a new system (its one material: "
                                     "add_material() then set_material_id() for more)");
             const std::vector<Vec3> at = granular_box_positions(o);
             auto g = std::make_unique<GranularSystem>(
                 at, std::vector<double>(at.size(), particle_radius), material);
             for (std::size_t k = 0; k < at.size(); ++k) {
               g->set_velocity(k, o.velocity);
               g->set_angular_velocity(k, o.angular_velocity);
               if (fixed) g->set_fixed(k, true);
             }
             return owned(w, std::move(g));
           },
           arg("box_lower"), arg("box_upper"), arg("particle_radius") = 0.01,
           arg("spacing") = 0.0, arg("velocity") = py::make_tuple(0.0, 0.0, 0.0),
           arg("angular_velocity") = py::make_tuple(0.0, 0.0, 0.0), arg("material_id") = 0,
           arg("fixed") = false, arg("material") = GranularMaterial(),
           "A granular system of equal particles on a regular grid inside the axis-aligned box "
           "[box_lower, box_upper] (the seed's BoxOptions): centres `spacing` apart (0: one "
           "diameter), every particle wholly inside, with the given velocity, angular velocity, "
           "material id and fixed flag. Owned and stepped by the world as "
           "add_granular_particles().")
      .def("get_granular_systems", [](const std::shared_ptr<World>& w) {
             py::list out;
             if (GranularWorld* gw = w->granular_if_any())
               for (const auto& e : gw->systems) {
                 GranularRef r;
                 r.world = w;
                 r.id = e.id;
                 out.append(py::cast(r));
               }
             return out;
           }, "The granular systems the world owns, in the order they are stepped.")
      .def("remove_object", [](const std::shared_ptr<World>& w, const GranularRef& r) {
             if (r.own) throw py::value_error("obj: a standalone GranularSystem is not in a world");
             if (r.world != w)
               throw py::value_error("obj: this granular system belongs to another World");
             r.get();  // RemovedObjectError if it is gone
             if (!w->use().free_for_this_thread()) throw_world_in_use("removing a granular system");
             remove_granular_system(*w, r.id);
           }, arg("obj"),
           "Remove a granular system from the world; its handles raise RemovedObjectError from "
           "now on. RuntimeError mid-step.");
}

}  // namespace torsion::bindings
