// Deformable terrain in Python: torsion.DeformableTerrain (a HeightMap whose heights sink under
// load, terrain/deformable_terrain.hpp), its Material (the seed's DeformableTerrain::Material)
// and World.add_deformable_terrain (the seed's addDeformableTerrain). docs/soil.md.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <string>
#include <vector>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/world_methods.hpp"
#include "core/check.hpp"
#include "terrain/deformable_terrain.hpp"
#include "world/world.hpp"

namespace torsion::bindings {

namespace py = pybind11;
using namespace py_convert;
using py::arg;

// a deformable terrain's Python handle: a HeightMap handle (bind_terrain.cpp) of its own class
struct DeformableTerrainHandle : HeightMapHandle {};

py::object make_deformable_terrain_handle(const std::shared_ptr<World>& world, ObjectId id) {
  return py::cast(DeformableTerrainHandle{{{{world, id}}}});
}

namespace {

DeformableTerrain& soil_of(const DeformableTerrainHandle& h) {
  return static_cast<DeformableTerrain&>(h.obj());
}

// a per-node array as a new (y_samples, x_samples) array
py::array_t<double> grid_out(const DeformableTerrain& t, const std::vector<double>& v) {
  const HeightMapData& d = t.initial();
  py::array_t<double> out({static_cast<py::ssize_t>(d.y_samples()),
                           static_cast<py::ssize_t>(d.x_samples())});
  std::memcpy(out.mutable_data(), v.data(), v.size() * sizeof(double));
  return out;
}

std::string material_repr(const SoilMaterial& m) {
  return "DeformableTerrain.Material(k_c=" + fmt(m.k_c) + ", k_phi=" + fmt(m.k_phi) +
         ", n=" + fmt(m.n) + ", cohesion=" + fmt(m.cohesion) +
         ", friction_angle=" + fmt(m.friction_angle) + ", janosi_shear=" + fmt(m.janosi_shear) +
         ", elastic_stiffness=" + fmt(m.elastic_stiffness) + ", damping=" + fmt(m.damping) +
         ", elastic_rebound=" + (m.elastic_rebound ? "True" : "False") +
         ", bulldozing=" + (m.bulldozing ? "True" : "False") +
         ", bulldozing_flow=" + fmt(m.bulldozing_flow) + ", erosion_angle=" + fmt(m.erosion_angle) +
         ", erosion_iterations=" + std::to_string(m.erosion_iterations) + ")";
}

}  // namespace

void bind_soil(py::module_& m) {
  auto terrain = py::class_<DeformableTerrainHandle, HeightMapHandle>(
      m, "DeformableTerrain",
      "A deformable soil surface (World.add_deformable_terrain; docs/soil.md): a HeightMap "
      "whose heights sink along z under the bodies, robot links and static shapes that press "
      "into it, by the Bekker-Wong pressure-sinkage law with Janosi-Hanamoto shear (a Soil "
      "Contact Model). It is static in pose. Its soil forces act on bodies and links as external "
      "forces in the step (it never enters the contact solver); rays, depth cameras and granular "
      "particles see its current surface (get_height_map()).");

  py::class_<SoilMaterial>(
      terrain, "Material",
      "The soil (the seed's DeformableTerrain::Material), SI units. Defaults: Wong's dry sand "
      "(Land Locomotion Lab; Theory of Ground Vehicles, table 2.3). Fields: k_c (cohesive "
      "modulus, N/m^(n+1)), k_phi (frictional modulus, N/m^(n+2), >= 0), n (sinkage exponent, "
      "> 0): pressure = (k_c / b + k_phi) * sinkage**n, b the contact patch's smaller dimension "
      "(m); cohesion (Pa, >= 0) and friction_angle (rad, [0, pi/2)): the shear strength "
      "cohesion + pressure * tan(friction_angle); janosi_shear (K, m, > 0): shear = strength * "
      "(1 - exp(-j / K)), j the slip displacement; elastic_stiffness (Pa/m, > 0): the "
      "unloading and reloading stiffness; damping (Pa s/m, >= 0): vertical damping pressure per "
      "unit speed; elastic_rebound (bool): unloaded soil springs back by pressure / "
      "elastic_stiffness (False: every sinkage stays, fully plastic); bulldozing (bool): the "
      "volume pressed down is moved to the rim of the rut (bulldozing_flow, the fraction moved, "
      "[0, 1]), whose slopes steeper than erosion_angle (rad, (0, pi/2)) slide, "
      "erosion_iterations passes per step ([0, 100]). Checked when given to "
      "add_deformable_terrain or set_material (ValueError naming the field).")
      .def(py::init([](double k_c, double k_phi, double n, double cohesion, double friction_angle,
                       double janosi_shear, double elastic_stiffness, double damping,
                       bool elastic_rebound, bool bulldozing, double bulldozing_flow,
                       double erosion_angle, int erosion_iterations) {
             SoilMaterial s;
             s.k_c = k_c;
             s.k_phi = k_phi;
             s.n = n;
             s.cohesion = cohesion;
             s.friction_angle = friction_angle;
             s.janosi_shear = janosi_shear;
             s.elastic_stiffness = elastic_stiffness;
             s.damping = damping;
             s.elastic_rebound = elastic_rebound;
             s.bulldozing = bulldozing;
             s.bulldozing_flow = bulldozing_flow;
             s.erosion_angle = erosion_angle;
             s.erosion_iterations = erosion_iterations;
             validate_soil_material(s);
             return s;
           }),
           arg("k_c") = SoilMaterial().k_c, arg("k_phi") = SoilMaterial().k_phi,
           arg("n") = SoilMaterial().n, arg("cohesion") = SoilMaterial().cohesion,
           arg("friction_angle") = SoilMaterial().friction_angle,
           arg("janosi_shear") = SoilMaterial().janosi_shear,
           arg("elastic_stiffness") = SoilMaterial().elastic_stiffness,
           arg("damping") = SoilMaterial().damping,
           arg("elastic_rebound") = SoilMaterial().elastic_rebound,
           arg("bulldozing") = SoilMaterial().bulldozing,
           arg("bulldozing_flow") = SoilMaterial().bulldozing_flow,
           arg("erosion_angle") = SoilMaterial().erosion_angle,
           arg("erosion_iterations") = SoilMaterial().erosion_iterations,
           "A soil material from keywords (see the class); ValueError naming a bad field.")
      .def_readwrite("k_c", &SoilMaterial::k_c)
      .def_readwrite("k_phi", &SoilMaterial::k_phi)
      .def_readwrite("n", &SoilMaterial::n)
      .def_readwrite("cohesion", &SoilMaterial::cohesion)
      .def_readwrite("friction_angle", &SoilMaterial::friction_angle)
      .def_readwrite("janosi_shear", &SoilMaterial::janosi_shear)
      .def_readwrite("elastic_stiffness", &SoilMaterial::elastic_stiffness)
      .def_readwrite("damping", &SoilMaterial::damping)
      .def_readwrite("elastic_rebound", &SoilMaterial::elastic_rebound)
      .def_readwrite("bulldozing", &SoilMaterial::bulldozing)
      .def_readwrite("bulldozing_flow", &SoilMaterial::bulldozing_flow)
      .def_readwrite("erosion_angle", &SoilMaterial::erosion_angle)
      .def_readwrite("erosion_iterations", &SoilMaterial::erosion_iterations)
      .def("bekker_pressure", [](const SoilMaterial& s, double sinkage, double b) {
             validate_soil_material(s);
             check_finite(sinkage, "sinkage");
             check_positive(b, "b");
             return bekker_pressure(s, sinkage, b); },
           arg("sinkage"), arg("b"),
           "(k_c / b + k_phi) * sinkage**n (Pa) for sinkage (m) under a patch of smaller "
           "dimension b (m, > 0); 0 for sinkage <= 0.")
      .def("__repr__", &material_repr);

  terrain
      .def("get_material", [](const DeformableTerrainHandle& h) { return soil_of(h).soil(); },
           "A copy of its soil material.")
      .def("set_material", [](const DeformableTerrainHandle& h, const SoilMaterial& s) {
             soil_of(h).set_soil(s); },
           arg("soil"),
           "Replace its soil material (checked: ValueError naming a bad field); the state "
           "(sinkage, levels) stays. RuntimeError mid-step.")
      .def("get_initial_height_map", [](const DeformableTerrainHandle& h) {
             const DeformableTerrain& t = soil_of(h);
             return grid_out(t, t.initial().heights()); },
           "The heights it was made with, a new array of shape (y_samples, x_samples) (m).")
      .def("get_sinkage_map", [](const DeformableTerrainHandle& h) {
             const DeformableTerrain& t = soil_of(h);
             const std::vector<double>& h0 = t.initial().heights();
             const std::vector<double>& now = t.current().heights();
             std::vector<double> s(h0.size());
             for (std::size_t i = 0; i < s.size(); ++i) s[i] = h0[i] - now[i];
             return grid_out(t, s); },
           "Initial minus current height per node, a new array (y_samples, x_samples) (m): "
           "positive where the soil sank, negative where bulldozed soil piled up.")
      .def("get_plastic_sinkage_map", [](const DeformableTerrainHandle& h) {
             const DeformableTerrain& t = soil_of(h);
             return grid_out(t, t.plastic_sinkage()); },
           "The plastic (permanent) sinkage per node, a new array (y_samples, x_samples) (m).")
      .def("get_pressure_map", [](const DeformableTerrainHandle& h) {
             const DeformableTerrain& t = soil_of(h);
             return grid_out(t, t.pressure()); },
           "The normal pressure of the last step per node (0 off contact), a new array "
           "(y_samples, x_samples) (Pa).")
      .def("get_contact_map", [](const DeformableTerrainHandle& h) {
             const DeformableTerrain& t = soil_of(h);
             const HeightMapData& d = t.initial();
             py::array_t<bool> out({static_cast<py::ssize_t>(d.y_samples()),
                                    static_cast<py::ssize_t>(d.x_samples())});
             bool* p = out.mutable_data();
             for (std::size_t i = 0; i < t.in_contact().size(); ++i) p[i] = t.in_contact()[i] != 0;
             return out; },
           "Whether each node was pressed in the last step, a new bool array (y_samples, "
           "x_samples).")
      .def("get_contacts", [](const DeformableTerrainHandle& h) {
             py::list out;
             for (const SoilContact& c : soil_of(h).contacts()) {
               py::dict d;
               d["object_id"] = c.object;
               d["local_index"] = c.local_index;
               d["force"] = to_numpy(c.force);
               d["torque"] = to_numpy(c.torque);
               d["point"] = to_numpy(c.point);
               d["area"] = c.area;
               d["b"] = c.b;
               d["max_sinkage"] = c.max_sinkage;
               d["nodes"] = c.nodes;
               out.append(d);
             }
             return out; },
           "The soil's forces of the last step: a list with one dict per collision shape that "
           "pressed it, in the world's shape order: object_id, local_index (its body or child), "
           "force (3,) (N, world) and torque (3,) (N m, about the body's centre of mass or the "
           "link shape's origin) the soil put on it, point (3,) (m: the centre of the loaded "
           "nodes, weighted by their vertical load), area (m^2: the pressed nodes' cells), b (m: "
           "the patch's smaller dimension in k_c / b), max_sinkage (m: the deepest total "
           "sinkage) and nodes (the number pressed).")
      .def("get_particle_load", [](const DeformableTerrainHandle& h) {
             const SoilContact& c = soil_of(h).particle_contact();
             py::dict d;
             d["force"] = to_numpy(c.force);
             d["point"] = to_numpy(c.point);
             d["area"] = c.area;
             d["b"] = c.b;
             d["max_sinkage"] = c.max_sinkage;
             d["nodes"] = c.nodes;
             return d; },
           "The granular particles' load on the soil in the last step (docs/soil.md): force "
           "(3,) (N, world: the soil's vertical push on the particles, equal to their mean push "
           "on its surface over the step), point (3,) (m: the loaded nodes' centre, weighted by "
           "their load), area (m^2: the loaded nodes' cells), b (m: the widest loaded patch's "
           "smaller dimension in k_c / b), max_sinkage (m) and nodes (0: no particle pressed "
           "it).")
      .def("reset", [](const DeformableTerrainHandle& h) { soil_of(h).reset(); },
           "The soil back to its initial heights, undisturbed. RuntimeError mid-step.");
}

void world_methods_soil(WorldClass& world) {
  const py::int_ static_group = py::int_(1).attr("__lshift__")(63);
  world.def(
      "add_deformable_terrain",
      [](const std::shared_ptr<World>& w, long long x_samples, long long y_samples, double x_size,
         double y_size, double center_x, double center_y, py::handle heights,
         const SoilMaterial& soil, const std::string& material, py::handle group,
         py::handle mask) {
        const auto a = to_rows(heights, "heights", -1, 0);
        std::vector<double> v(a.data(), a.data() + a.shape(0));
        DeformableTerrain& t = add_deformable_terrain(
            *w, x_samples, y_samples, x_size, y_size, center_x, center_y, std::move(v), soil,
            material, to_group(group, "collision_group"), to_group(mask, "collision_mask"));
        return make_handle(w, t);
      },
      arg("x_samples"), arg("y_samples"), arg("x_size"), arg("y_size"), arg("center_x"),
      arg("center_y"), arg("heights"), arg("soil") = SoilMaterial(), arg("material") = "default",
      arg("collision_group") = static_group, arg("collision_mask") = -1,
      "Add a deformable soil surface (the seed's addDeformableTerrain; docs/soil.md): x_samples, "
      "y_samples (>= 2) nodes over x_size by y_size (m, > 0) centred at (center_x, center_y) "
      "(m), heights: x_samples * y_samples finite heights (m), x fastest (as HeightMap). soil: "
      "a DeformableTerrain.Material. material: the contact material name (its friction is not "
      "used: the soil's shear law is). collision_group / collision_mask (default: the static "
      "group, bit 63; every mask bit): which shapes press it. Returns the DeformableTerrain; "
      "ValueError on bad input, RuntimeError mid-step.");
}

}  // namespace torsion::bindings
