// Deformable terrain (the seed's World::addDeformableTerrain and DeformableTerrain): a soil
// surface given as a height grid (the layout of geometry/height_map.hpp), static in pose, whose
// heights sink along its local Z (the world's Z: heightmaps are not rotated) under the bodies,
// robot links and static shapes that press into it. docs/soil.md has the model and its checks.
//
// The soil is a Soil Contact Model (Krenn and Hirzinger's SCM, as in Project Chrono's
// SCMTerrain): every grid node is a column of soil with its own state.
//
//   contact   Each node under a shape's bounds casts a ray up its column from below the shape:
//             where the shape's lowest surface is below the node's elastic surface (reference
//             level - plastic sinkage: where its pressure is 0), the node is in contact and its
//             visible level is the shape's surface (the soil is pushed down with it).
//   pressure  Total sinkage s = reference level - shape surface. The normal pressure is elastic
//             from the plastic sinkage z_p, sigma = k_e (s - z_p), up to the Bekker-Wong
//             pressure-sinkage law sigma = (k_c / b + k_phi) s^n, which is the yield surface:
//             beyond it the soil flows plastically (z_p = s - sigma / k_e). b is the contact
//             patch's smaller dimension: the width of the rectangle with the patch's area and
//             second moments (b = sqrt(12 lambda_min), lambda_min the smaller principal second
//             moment per unit area). A damping pressure -r v_z (loading only) is added.
//   shear     Janosi-Hanamoto: tau = tau_max (1 - exp(-|j| / K)), tau_max = c + sigma tan(phi),
//             j the node's accumulated slip displacement vector (the shape point's velocity
//             relative to the soil, in the contact's tangent plane, times dt, summed while the
//             node stays in contact, its length capped at 8 K where tau is within 0.04 % of
//             tau_max, so a reversed slip turns the shear within a bounded travel), tau opposite
//             to j. Below its plateau the law is elastic; it is damped there by the material
//             damping times exp(-|j| / K) (the curve's remaining slope), so that a body at rest
//             does not ring on it while a saturated, slipping contact is not damped.
//   force     Pressure and shear act on the shape's surface at the ray's hit, over the node's
//             cell area dx dy divided by |n_z| (the surface the column meets, n the shape's
//             outward normal there; columns meeting it steeper than 78 degrees, |n_z| < 0.2,
//             carry no load): the vertical load of a node is sigma dx dy,
//             and on a wheel's rim the pressure's horizontal part is the compaction resistance
//             of Wong's theory.
//   unloading While pressed, the pressure falls along k_e as a shape rises (both modes, so
//             that a body at rest on the soil sits in an elastic well, not on a ledge). Elastic
//             rebound on: the visible level follows the shape up and a released node stands at
//             reference - z_p. Off: the visible level stays at the deepest the node was
//             pressed to and, released, that whole sinkage becomes plastic (no rebound at all).
//   bulldozing (optional) The volume a shape's patch displaces plastically in a step (its
//             plastic sinkage increments times the cell area, times the flow factor) is
//             spread evenly over the patch's rim (the nodes next to it not in contact), which
//             then erodes: wherever the soil around the patch is steeper than the erosion
//             angle, height moves to the lower neighbour (volume kept).
//
// Particles: the granular stage records the particles' pushes on the terrain's surface
// (particle_loads()); this stage spreads each push's vertical part over the nodes around its
// particle (a tent one particle diameter wide each way, normalised: the soil takes exactly what
// the particles push) and sinks every loaded node until the soil's pressure (the law above, with
// the damping while it sinks, implicit) carries it (press_by_particles; docs/soil.md).
//
// Coupling (explicit): the step's deformable-terrain stage (step.cpp, in integrate2 after the
// granular stage, before the free velocities; the profile's "deformable_terrain") computes the
// forces from the shapes' poses and velocities at the start of the step and adds them to the bodies' external force and torque and
// to the robots' links (ArticulatedSystem::add_external_force), as the granular stage does. The
// terrain never enters the contact solver (the step's collision detection skips the shape of a
// deformable terrain); rays, depth cameras and granular particles see its current
// surface as a heightmap's. Being explicit, the normal stiffness k_e * area of a contact must
// stay below about (2 / dt)^2 times the body's mass (docs/soil.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "geometry/height_map.hpp"
#include "granular/granular_system.hpp"
#include "math/types.hpp"
#include "world/object.hpp"

namespace torsion {

class World;

// the soil (the seed's DeformableTerrain::Material). Units SI; the defaults are Wong's dry sand
// (Land Locomotion Laboratory; J.Y. Wong, Theory of Ground Vehicles, table 2.3) with a typical
// shear deformation modulus, unloading stiffness and damping.
struct SoilMaterial {
  double k_c = 0.99e3;       // cohesive modulus of deformation (N/m^(n+1))
  double k_phi = 1528.43e3;  // frictional modulus of deformation (N/m^(n+2))
  double n = 1.1;            // exponent of deformation (> 0)
  double cohesion = 1.04e3;  // Mohr-Coulomb cohesion c (Pa)
  double friction_angle = 0.488692190558412;  // internal friction angle phi (rad; 28 degrees)
  double janosi_shear = 0.01;       // Janosi-Hanamoto shear deformation modulus K (m, > 0)
  double elastic_stiffness = 2e8;   // unloading/reloading stiffness k_e (Pa/m, > 0)
  double damping = 3e4;             // vertical damping r (Pa s/m, >= 0)
  bool elastic_rebound = true;      // false: no rebound, every sinkage stays (fully plastic)
  bool bulldozing = false;          // displaced soil moved to the rim of the ruts
  double bulldozing_flow = 1.0;     // fraction of the displaced volume moved (0..1)
  double erosion_angle = 0.698131700797732;  // rim slopes beyond it slide (rad, 0..pi/2; 40 deg)
  int erosion_iterations = 3;       // erosion passes per step (0..100)
};

// std::invalid_argument naming the field for a value outside its range or not finite
void validate_soil_material(const SoilMaterial& m);

// the Bekker-Wong pressure (Pa) at sinkage s (m) under a patch of smaller dimension b (m)
double bekker_pressure(const SoilMaterial& m, double s, double b);

// the soil forces of one step on one collision shape (terrain.contact_forces()), world frame
struct SoilContact {
  ObjectId object = 0;              // the shape's object id
  std::uint32_t local_index = 0;    // its local index (body of a robot, child of a compound)
  Vec3 force = Vec3::Zero();        // total soil force on it (N)
  Vec3 torque = Vec3::Zero();       // about its body's centre of mass / the link's origin (N m)
  Vec3 point = Vec3::Zero();        // the force-weighted centre of the loaded nodes' hits (m)
  double area = 0.0;                // projected contact area (m^2): nodes in contact * dx dy
  double b = 0.0;                   // the patch's smaller dimension used in k_c / b (m)
  double max_sinkage = 0.0;         // deepest total sinkage among its nodes (m)
  std::uint32_t nodes = 0;          // nodes in contact
};

// One deformable terrain: a heightmap object (ObjectType::kHeightMap, a HEIGHTMAP for rendering,
// as the seed says) whose samples are the soil's current levels, plus the soil state per node.
class DeformableTerrain : public SingleBodyObject {
 public:
  // validated: the grid as HeightMapData checks it, finite heights, finite centre, the material
  DeformableTerrain(ObjectId id, std::shared_ptr<const HeightMapData> initial, double center_x,
                    double center_y, const SoilMaterial& soil);
  DeformableTerrain(const DeformableTerrain&) = default;

  void append_collision_shapes(std::vector<CollisionShapeEntry>& out) const override;

  const SoilMaterial& soil() const { return soil_; }
  void set_soil(const SoilMaterial& m);  // validated; takes effect at the next step

  // the samples it was made with (never change; the topology fingerprint and XML use them)
  const HeightMapData& initial() const { return *initial_; }
  const std::shared_ptr<const HeightMapData>& initial_ptr() const { return initial_; }
  // the current surface (the shape's samples)
  const HeightMapData& current() const { return *shape().height_map; }
  std::size_t node_count() const { return reference_.size(); }

  // per node, x fastest (as the heights): the reference level the sinkage is measured from
  // (the initial height, raised where bulldozed soil landed), the plastic sinkage, the last
  // step's pressure (Pa) and the shear displacement (m, world frame), and whether it was in
  // contact in the last step
  const std::vector<double>& reference() const { return reference_; }
  const std::vector<double>& plastic_sinkage() const { return plastic_; }
  const std::vector<double>& pressure() const { return sigma_; }
  const std::vector<Vec3>& shear_displacement() const { return shear_; }
  const std::vector<std::uint8_t>& in_contact() const { return touched_; }
  // the forces of the last step, one per shape that touched it, in collision-shape order
  const std::vector<SoilContact>& contacts() const { return contacts_; }
  // the granular particles' load of the last step (object 0; force: the soil's vertical push on
  // the particles; b: the widest patch's; nodes 0 when no particle pressed it)
  const SoilContact& particle_contact() const { return particle_contact_; }
  // where the world's granular stage appends the particles' pushes on this terrain's surface,
  // each divided by its system's substep count (their sum is the step's mean load); step()
  // takes them as the soil's load and empties it
  std::vector<GranularPointLoad>& particle_loads() { return particle_loads_; }

  // the soil back to its initial heights, undisturbed (not mid-step)
  void reset();

  // the state as data (checkpoints, world XML): levels (the current heights) and the per-node
  // arrays above; set_state checks sizes and values (std::invalid_argument naming the field)
  struct State {
    std::vector<double> level, reference, plastic, sigma;
    std::vector<Vec3> shear;
    std::vector<std::uint8_t> touched;
  };
  State state() const;
  // std::invalid_argument naming the field unless every array holds n finite values (pressures
  // >= 0, flags 0 or 1)
  static void check_state(const State& s, std::size_t n);
  // material and state written back as data, without the setters' side effects (checkpoints,
  // the world XML reader); `s` must pass check_state
  void restore(const SoilMaterial& m, State s);

  // the per-node state arrays as raw bytes, in a fixed order, for a lean state
  // (batch/lean_state.cpp): bytes(pointer, size) is called on each; after writing into them,
  // state_written() makes the surface and what is derived from the state follow
  template <class Bytes>
  void raw_state(Bytes&& bytes) {
    bytes(level_.data(), level_.size() * sizeof(double));
    bytes(reference_.data(), reference_.size() * sizeof(double));
    bytes(plastic_.data(), plastic_.size() * sizeof(double));
    bytes(sigma_.data(), sigma_.size() * sizeof(double));
    bytes(shear_.data(), shear_.size() * sizeof(Vec3));
    bytes(touched_.data(), touched_.size());
  }
  void state_written();

  // the step's stage: forces from every shape on this terrain, its heights updated
  void step(World& world, double dt);

 private:
  // the changed levels into the shape's samples: in place when they are the data this terrain
  // made and nothing else holds them (a ray scene snapshot, a heightmap cloned from it), else
  // into a new HeightMapData
  void publish_levels();
  void mark_level(std::size_t idx) { dirty_.push_back(static_cast<std::uint32_t>(idx)); }
  // the particle loads of this step onto the nodes no shape claims (step(), before the nodes
  // that left contact are released): sets pressed_ for the nodes it loads
  void press_by_particles(double x0, double y0, double dt);
  void rebuild_derived();  // touched_list_ and top_ from the state
  // its shape, whose heightmap samples it swaps: SingleBodyObject keeps the one the world's
  // collision-shape list points at, and hands out only a const reference (the member itself is
  // not const, so writing through it is defined)
  Shape& mutable_shape() { return const_cast<Shape&>(shape()); }

  std::shared_ptr<const HeightMapData> initial_;
  SoilMaterial soil_;
  std::vector<double> level_;      // current surface (local z)
  std::vector<double> reference_;  // the level the sinkage is measured from
  std::vector<double> plastic_;    // plastic sinkage z_p
  std::vector<double> sigma_;      // last pressure
  std::vector<Vec3> shear_;        // Janosi shear displacement j
  std::vector<std::uint8_t> touched_;
  std::vector<SoilContact> contacts_;
  // scratch of a step (no state): per node the shape claiming it, its hit, normal and velocity
  struct Hit {
    std::int32_t shape = -1;  // index into the step's candidate list
    double z = 0.0;
    Vec3 normal = Vec3::Zero();
  };
  std::vector<Hit> hits_;
  std::vector<std::uint32_t> hit_nodes_;
  // scratch of the particles' loads: the pushes of this step, the vertical load per node (N),
  // the loaded nodes, the nodes the particles pressed in this step, and each node's patch
  std::vector<GranularPointLoad> particle_loads_;
  std::vector<double> load_;
  std::vector<std::uint32_t> load_nodes_;
  std::vector<std::uint8_t> pressed_;
  std::vector<std::int32_t> patch_;
  SoilContact particle_contact_;
  // derived from the state (rebuild_derived): the nodes in contact, in index order, and an upper
  // bound of the elastic surface reference - plastic (plastic flow only lowers it; bulldozing
  // raises it where soil lands)
  std::vector<std::uint32_t> touched_list_;
  double top_ = 0.0;
  // the samples this terrain made (the shape's while `own_` is its height_map) and the nodes
  // whose level changed since the last publish
  std::shared_ptr<HeightMapData> own_;
  std::vector<std::uint32_t> dirty_;
};

// the soil of `o`, or nullptr if it is not a deformable terrain
DeformableTerrain* as_deformable_terrain(Object& o);
const DeformableTerrain* as_deformable_terrain(const Object& o);

// World.add_deformable_terrain: validated (the seed's arguments), not mid-step
DeformableTerrain& add_deformable_terrain(World& world, long long x_samples, long long y_samples,
                                          double x_size, double y_size, double center_x,
                                          double center_y, std::vector<double> heights,
                                          const SoilMaterial& soil, const std::string& material,
                                          CollisionGroup group, CollisionGroup mask);

// true if the world holds a deformable terrain
bool has_deformable_terrain(const World& world);

// the world's "deformable_terrain" stage: every terrain in world-index order
void stage_deformable_terrain(World& world, double dt);

}  // namespace torsion
