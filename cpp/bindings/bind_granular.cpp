// Granular media in Python: torsion.GranularMaterial and torsion.GranularSystem (the seed's
// GranularSystem, cpp/granular/granular_system.hpp), particle state as NumPy arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "bindings/convert.hpp"
#include "core/check.hpp"
#include "granular/granular_system.hpp"

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

  py::class_<GranularSystem>(m, "GranularSystem",
                             "Particles stepped as one DEM object (Hertz-Mindlin contacts with "
                             "rolling resistance; docs/granular.md).")
      .def(py::init([](py::handle positions, py::handle radii, const GranularMaterial& material) {
             return GranularSystem(to_points(positions, "positions"), to_values(radii, "radii"),
                                   material);
           }),
           arg("positions"), arg("radii"), arg("material") = GranularMaterial())
      .def("__len__", &GranularSystem::size)
      .def("get_positions", [](const GranularSystem& g) { return points_out(g.positions()); },
           "(N, 3) particle centres (m), a copy")
      .def("get_velocities", [](const GranularSystem& g) { return points_out(g.velocities()); })
      .def("get_angular_velocities",
           [](const GranularSystem& g) { return points_out(g.angular_velocities()); })
      .def("get_radii", [](const GranularSystem& g) { return values_out(g.radii()); })
      .def("get_masses", [](const GranularSystem& g) { return values_out(g.masses()); })
      .def("get_stable_ids", [](const GranularSystem& g) { return values_out(g.stable_ids()); })
      .def("get_material_ids", [](const GranularSystem& g) { return values_out(g.material_ids()); })
      .def("set_position", [](GranularSystem& g, py::handle i, py::handle p) {
             g.set_position(index_of(g, i, "particle"), to_finite_vec3(p, "position"));
           }, arg("index"), arg("position"))
      .def("set_velocity", [](GranularSystem& g, py::handle i, py::handle v) {
             g.set_velocity(index_of(g, i, "particle"), to_finite_vec3(v, "velocity"));
           }, arg("index"), arg("velocity"))
      .def("set_angular_velocity", [](GranularSystem& g, py::handle i, py::handle w) {
             g.set_angular_velocity(index_of(g, i, "particle"), to_finite_vec3(w, "angular_velocity"));
           }, arg("index"), arg("angular_velocity"))
      .def("set_velocities", [](GranularSystem& g, py::handle v) {
             const auto a = to_rows(v, "velocities", static_cast<py::ssize_t>(g.size()), 3);
             for (std::size_t k = 0; k < g.size(); ++k)
               g.set_velocity(k, Vec3(a.at(k, 0), a.at(k, 1), a.at(k, 2)));
           }, arg("velocities"))
      .def("set_fixed", [](GranularSystem& g, py::handle i, bool fixed) {
             g.set_fixed(index_of(g, i, "particle"), fixed);
           }, arg("index"), arg("fixed") = true)
      .def("is_fixed", [](const GranularSystem& g, py::handle i) {
             return g.is_fixed(index_of(g, i, "particle"));
           }, arg("index"))
      .def("add_particles", [](GranularSystem& g, py::handle positions, py::handle radii,
                               std::uint32_t material_id) {
             return g.add_particles(to_points(positions, "positions"), to_values(radii, "radii"),
                                    material_id);
           }, arg("positions"), arg("radii"), arg("material_id") = 0)
      .def("remove_particle", [](GranularSystem& g, py::handle i) {
             g.remove_particle(index_of(g, i, "particle"));
           }, arg("index"))
      .def("add_material", &GranularSystem::add_material, arg("material"))
      .def("set_material_id", [](GranularSystem& g, py::handle i, std::uint32_t id) {
             g.set_material_id(index_of(g, i, "particle"), id);
           }, arg("index"), arg("material_id"))
      .def("set_ground_plane", &GranularSystem::set_ground_plane, arg("enabled") = true,
           arg("height") = 0.0)
      .def("set_box_container", [](GranularSystem& g, py::handle lower, py::handle upper, bool enabled) {
             g.set_box_container(enabled, to_finite_vec3(lower, "lower"), to_finite_vec3(upper, "upper"));
           }, arg("lower"), arg("upper"), arg("enabled") = true)
      .def("set_wall_material", &GranularSystem::set_wall_material, arg("material"))
      .def("step", [](GranularSystem& g, double dt, py::handle gravity, int num_threads) {
             // the GIL stays held: it keeps two Python threads off one system
             g.step(dt, to_finite_vec3(gravity, "gravity"), num_threads);
           }, arg("dt"), arg("gravity") = py::make_tuple(0.0, 0.0, -9.81), arg("num_threads") = 1)
      .def("substeps_for", &GranularSystem::substeps_for, arg("dt"))
      .def("kinetic_energy", &GranularSystem::kinetic_energy)
      .def("contact_energy", &GranularSystem::contact_energy)
      .def("get_stats", [](const GranularSystem& g) {
        const GranularStats& s = g.stats();
        py::dict d;
        d["contacts"] = s.contacts, d["wall_contacts"] = s.wall_contacts;
        d["substeps"] = s.substeps, d["max_overlap"] = s.max_overlap;
        return d;
      });
}

}  // namespace torsion::bindings
