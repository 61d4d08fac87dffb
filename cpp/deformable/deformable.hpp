// Deformable objects (the seed's DeformableObject): cloth (particles on a triangle mesh) and
// elastic solids (particles on a tetrahedral mesh), solved with XPBD (Macklin, Mueller and
// Chentanez 2016, "XPBD: Position-Based Simulation of Compliant Constrained Dynamics").
//
// Constraints:
//   cloth   edge distance  C = |xi - xj| - l0             compliance stretch_compliance (m/N)
//           bending        C = |xk - xl| - d0 across each interior edge (k, l: the vertices
//                          opposite the edge in its two triangles)    bending_compliance (m/N)
//   volume  youngs_modulus > 0: the stable neo-Hookean pair of Macklin and Mueller 2021 ("A
//           Constraint-based Formulation of Stable Neo-Hookean Materials") per tetrahedron,
//             C_D = |F|_F                     compliance 1 / (mu V0)
//             C_H = det F - (1 + mu / lam)    compliance 1 / (lam V0)
//           with lam = lambda_L + mu_L (mu = mu_L): the energy's small-strain limit is then
//           linear elasticity with Lame parameters lambda_L, mu_L of (E, nu);
//           youngs_modulus == 0: edge distance constraints (stretch_compliance) and a volume
//           constraint C = V - V0 (volume_compliance, m^3/N... per tetrahedron)
//
// Compliance enters as alpha / h^2 (h the substep), so the stiffness does not depend on the time
// step. Once the Gauss-Seidel sweeps converge (compliance dominates: alpha / h^2 large against
// the constraint's inverse mass, which small substeps give), the static shape depends neither on
// the iteration count nor on dt (docs/deformables.md has the settings and the measurements).
//
// Particles collide as spheres of radius proxy_radius (one per vertex, as the seed) with the
// world's collision bodies (world/world_deformable.cpp builds the list), with Coulomb friction
// from the material pair on the particle's slip relative to the body's surface. The coupling is
// two way: every push of a particle out of a body is an impulse m dx / h on the particle, and its
// opposite is summed on the collider (impulse and moment), which the world adds to the body's
// external force for its next step; an attached vertex sums the force its constraints pull it
// with (and its weight) for the body it is attached to.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "deformable/fem_solid.hpp"
#include "geometry/aabb.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"
#include "math/types.hpp"

namespace torsion {

struct ContactSettings;

// how a volume's elasticity is solved each substep: Gauss-Seidel sweeps over the XPBD constraints,
// or Newton's method on the finite-element implicit step (fem_solid.hpp; elastic solids only)
enum class DeformableSolver : std::uint8_t { kXpbd = 0, kNewton = 1 };

// the seed's DeformableObject::Material: solver and material parameters (SI units)
struct DeformableMaterial {
  double density = 1000.0;           // kg/m^3 (volumes)
  double areal_density = 0.2;        // kg/m^2 (cloth)
  double stretch_compliance = 1e-7;  // m/N: edge distance constraints (cloth; volumes without E)
  double bending_compliance = 1e-4;  // m/N: cloth bending (opposite-vertex distance)
  double youngs_modulus = 0.0;       // Pa; > 0 makes a volume an elastic (neo-Hookean) solid
  double poisson_ratio = 0.3;        // in [0, 0.5)
  double volume_compliance = 0.0;    // m^3/N... per tetrahedron, volumes without E
  double damping = 0.0;              // 1/s: velocities decay as exp(-damping t)
  int substeps = 1;                  // XPBD substeps per world step
  int iterations = 10;               // Gauss-Seidel sweeps per substep
  double proxy_radius = 0.005;       // m: radius of each vertex's collision sphere
  bool self_collision = false;       // particle-particle contact within the object
  DeformableSolver solver = DeformableSolver::kXpbd;  // kNewton: elastic solids (E > 0) only
  int element_order = 1;            // 1: linear tetrahedra; 2: quadratic (kNewton only)
};

void validate_deformable_material(const DeformableMaterial& m);  // std::invalid_argument

enum class DeformableKind : std::uint8_t { kCloth = 0, kVolume = 1 };

// a vertex held to a rigid body: its position follows body pose * offset (body frame)
struct DeformableAttachment {
  std::uint32_t vertex = 0;
  ObjectId object = 0;       // the body's (or robot's) id
  std::int64_t local = -1;   // robot: link (body) index; -1 for a single body
  Vec3 offset = Vec3::Zero();  // in the body (link) frame, m
};

// one rigid collision body as the particles see it (built per step by the world)
struct DeformableCollider {
  const Shape* shape = nullptr;
  Pose pose;
  Aabb aabb;
  double friction = 0.8;
  double static_friction = 0.8;
  // the body's motion: its surface moves at velocity + angular_velocity x (p - origin) (world
  // frame); friction acts on the particles' slip relative to it. Zero for a static body.
  Vec3 origin = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  std::uint32_t entry = 0;  // the world's index of its collision shape entry
  // written by step(): the reaction on the body over the step, an impulse (N s) and its moment
  // about the world origin (N m s): minus what the pushes gave the particles
  Vec3 impulse = Vec3::Zero();
  Vec3 moment = Vec3::Zero();
};

// what a deformable did to one body (a single body, or link `local` of a robot) in its last
// step: the mean force (N) and its moment about the world origin (N m), contacts and
// attachments together. The world adds them to the body's external force of its next step.
struct DeformableReaction {
  ObjectId object = 0;
  std::int64_t local = -1;  // robot: link (body) index; -1 for a single body
  Vec3 force = Vec3::Zero();
  Vec3 moment = Vec3::Zero();
};

// the constraint kinds, in the order one sweep visits them
enum class XpbdKind : std::uint8_t { kDistance = 0, kVolume = 1, kNeoDeviatoric = 2, kNeoHydro = 3 };

struct XpbdConstraint {
  XpbdKind kind = XpbdKind::kDistance;
  std::uint32_t v[4] = {0, 0, 0, 0};
  double rest = 0.0;        // distance: l0; volume: V0; hydrostatic: gamma
  double compliance = 0.0;  // alpha
  std::uint32_t tet = 0;    // neo-Hookean: index into the rest-shape inverses
};

class DeformableObject {
 public:
  // cloth: vertices (n, 3), triangles (m, 3); refuses out-of-range indices, repeated indices in
  // a triangle, zero-area triangles, unreferenced vertices and edges of more than two triangles
  static DeformableObject cloth(ObjectId id, const std::vector<Vec3>& vertices,
                                const std::vector<std::array<std::int64_t, 3>>& triangles,
                                const std::vector<std::int64_t>& pinned,
                                const DeformableMaterial& material);
  // volume: vertices (n, 3), tetrahedra (m, 4) with positive volume (right-handed order);
  // refuses out-of-range indices, degenerate and inverted tetrahedra, unreferenced vertices
  static DeformableObject volume(ObjectId id, const std::vector<Vec3>& vertices,
                                 const std::vector<std::array<std::int64_t, 4>>& tetrahedra,
                                 const std::vector<std::int64_t>& pinned,
                                 const DeformableMaterial& material);

  ObjectId id() const { return id_; }
  DeformableKind kind() const { return kind_; }
  const DeformableMaterial& material() const { return material_; }
  void set_material(const DeformableMaterial& m);  // same mesh, new parameters

  std::size_t vertex_count() const { return x_.size(); }
  // the total mass (kg), the internal edge nodes of quadratic elements included
  double total_mass() const;
  const std::vector<Vec3>& positions() const { return x_; }
  const std::vector<Vec3>& velocities() const { return v_; }
  const std::vector<Vec3>& rest_positions() const { return x0_; }
  const std::vector<double>& masses() const { return mass_; }
  const std::vector<std::array<std::uint32_t, 3>>& triangles() const { return tris_; }
  const std::vector<std::array<std::uint32_t, 4>>& tetrahedra() const { return tets_; }
  // the surface: cloth triangles, or the volume's boundary faces (outward)
  const std::vector<std::array<std::uint32_t, 3>>& surface() const { return surface_; }
  const std::vector<std::uint8_t>& pinned() const { return pinned_; }
  // extra distance constraints between vertex pairs (compliance stretch_compliance): a shell's
  // struts across its inside (deformable/mesh_build.hpp). Part of the mesh (topology).
  const std::vector<std::array<std::uint32_t, 2>>& struts() const { return struts_; }
  // std::out_of_range / std::invalid_argument for an index out of range or a pair of one vertex
  void set_struts(const std::vector<std::array<std::int64_t, 2>>& pairs);
  const std::vector<DeformableAttachment>& attachments() const { return attachments_; }
  const std::vector<XpbdConstraint>& constraints() const { return constraints_; }
  // the force each constraint carried in the last substep (lambda / h^2)
  const std::vector<double>& constraint_forces() const { return force_; }
  // per attachment (same order as attachments()): the impulse (N s) its vertex gave its body
  // over the last step: the pull of the vertex's constraints (their last lambda along their
  // gradient, each substep) and the vertex's weight
  const std::vector<Vec3>& attachment_impulses() const { return attach_impulse_; }

  // state setters (std::invalid_argument for a wrong count or a non-finite value)
  void set_positions(const std::vector<Vec3>& x);
  void set_velocities(const std::vector<Vec3>& v);
  void set_constraint_forces(const std::vector<double>& f);
  // pin (true) or free a vertex; a pinned vertex keeps its position
  void set_pinned(std::int64_t vertex, bool pinned);
  void add_attachment(const DeformableAttachment& a);  // vertex checked here, object by the world
  void remove_attachment(std::size_t k);  // its vertex is free again unless pinned

  // the state a checkpoint holds (world/checkpoint.cpp), written in place; after writing the
  // pinned flags or the attachments call refresh_inverse_masses()
  std::vector<Vec3>& state_positions() { return x_; }
  std::vector<Vec3>& state_velocities() { return v_; }
  std::vector<double>& state_forces() { return force_; }
  std::vector<std::uint8_t>& state_pinned() { return pinned_; }
  std::vector<DeformableAttachment>& state_attachments() { return attachments_; }
  // quadratic elements' internal edge nodes (empty otherwise): positions and velocities
  std::vector<Vec3>& state_edge_positions() { return xe_; }
  std::vector<Vec3>& state_edge_velocities() { return ve_; }
  const std::vector<Vec3>& edge_positions() const { return xe_; }
  void refresh_inverse_masses();

  // energies (J): kinetic; gravitational potential for gravity g; elastic (sum of C^2 / 2 alpha)
  double kinetic_energy() const;
  double gravity_potential(const Vec3& g) const;
  double elastic_energy() const;

  // one world step of dt (returns false, and leaves the object at its start positions at rest,
  // if its state went non-finite): substeps of prediction (gravity), constraint sweeps, collision with the
  // colliders and velocity update. attach_targets: the world positions of the attached vertices
  // at the end of the step (same order as attachments()), moved to linearly over the substeps.
  // The colliders' impulse and moment are written (the reactions on their bodies).
  bool step(const Vec3& gravity, double dt, std::vector<DeformableCollider>& colliders,
            const std::vector<Vec3>& attach_targets, const ContactSettings& settings);

  // the bounding box of the particles grown by their proxy radius and `margin`
  Aabb bounds(double margin) const;

  // the reactions of the last step on dynamic bodies (world_deformable.cpp writes them)
  std::vector<DeformableReaction> reactions;

  // contact material and filter of the proxies
  std::string contact_material = "default";
  CollisionGroup group = 1;
  CollisionGroup mask = kAllGroups;
  std::string name;

 private:
  DeformableObject() = default;
  void build_masses_and_constraints();
  double project_constraints(double h);  // one sweep; returns its largest |dx|^2
  bool step_newton(const Vec3& gravity, double dt, std::vector<DeformableCollider>& colliders,
                   const std::vector<Vec3>& attach_targets, const ContactSettings& settings);
  bool newton() const { return material_.solver == DeformableSolver::kNewton; }
  void collide(std::vector<DeformableCollider>& colliders, const ContactSettings& settings,
               double h);
  void accumulate_attachment_impulses(double h, const Vec3& gravity);
  void self_collide();

  ObjectId id_ = 0;
  DeformableKind kind_ = DeformableKind::kCloth;
  DeformableMaterial material_;
  std::vector<Vec3> x_, v_, x0_;
  std::vector<double> mass_, inv_mass_;
  std::vector<std::uint8_t> pinned_;
  std::vector<std::array<std::uint32_t, 3>> tris_;
  std::vector<std::array<std::uint32_t, 4>> tets_;
  std::vector<std::array<std::uint32_t, 2>> struts_;
  std::vector<std::array<std::uint32_t, 3>> surface_;
  std::vector<Mat3> dm_inv_;  // rest-shape inverse per tetrahedron
  // an elastic solid's tetrahedra packed for the sweeps (project_constraints): the neo-Hookean
  // pair of tetrahedron k is constraints_[neo_begin_ + 2 k] (deviatoric) and [... + 1]
  // (hydrostatic); everything a projection reads but the positions and inverse masses is here
  struct NeoTet {
    std::uint32_t v[4];
    Mat3 dmi;        // rest-shape inverse
    Mat3 dmi_t;      // and its transpose (the corner gradients are the columns of P Dm^-T)
    double alpha_d;  // compliances
    double alpha_h;
    double gamma;    // the hydrostatic constraint's rest value 1 + mu / lam
    // sum_j |grad C|^2 / m_j of each constraint at the rest shape (warm_start_neo's test)
    double wg_d;
    double wg_h;
  };
  std::vector<NeoTet> neo_;
  std::size_t neo_begin_ = 0;
  // the same tetrahedra as the sweeps visit them: graph-coloured (no two tetrahedra of a colour
  // share a vertex), each colour cut into groups of four projected together (lanes.hpp), in
  // structure-of-arrays layout: entry [j][l] is lane l's. A colour's last group may have fewer
  // than four: its other lanes repeat lane 0 and are computed but never written back.
  struct NeoGroup {
    std::uint32_t v[4][4];   // corner j of lane l
    double b[6][4];          // Dm^-1 Dm^-T: entries 00, 01, 02, 11, 12, 22
    double s[4];             // det Dm^-1 = 1 / (6 V0)
    double alpha_d[4], alpha_h[4], gamma[4], wg_d[4], wg_h[4];  // as NeoTet
    double ld[4], lh[4];     // the substep's multipliers (deviatoric, hydrostatic)
    std::uint32_t tet[4];    // the tetrahedron (index into neo_) of each lane
    std::uint32_t count;     // lanes in use (1..4)
  };
  std::vector<NeoGroup> neo_groups_;
  void build_neo_groups();
  void store_neo_multipliers(double h);
  void warm_start_neo(double h);  // the last substep's forces as the sweeps' starting point
  std::vector<Vec3> warm_dx_;     // scratch of warm_start_neo
  double sweep_max_ = 0.0;  // the current sweep's largest |dx|^2
  std::vector<XpbdConstraint> constraints_;
  std::vector<DeformableAttachment> attachments_;
  std::vector<double> force_;   // per constraint, lambda / h^2 of the last substep
  std::vector<Vec3> attach_impulse_;  // per attachment, over the last step
  // (constraint, attachment, slot of the vertex in the constraint): rebuilt each step
  std::vector<std::array<std::uint32_t, 3>> attach_rows_;
  std::vector<std::int32_t> attach_of_vertex_;  // scratch: attachment of each vertex, or -1
  // scratch (no allocation in steady state)
  std::vector<double> lambda_;
  std::vector<Vec3> x_prev_, x_start_, x_begin_;
  std::vector<std::uint32_t> cell_order_, cell_start_;
  std::vector<std::uint64_t> cell_key_;
  // the finite-element solid (solver kNewton): its nodes are the vertices, then the quadratic
  // elements' edge nodes (xe_, ve_); xn_, vn_, xt_, xp_, fixed_ are the substep's scratch
  FemSolid fem_;
  double length_scale_ = 1.0;
  std::vector<Vec3> xe_, ve_, xe_begin_;
  std::vector<Vec3> xn_, vn_, xt_, xp_;
  std::vector<std::uint8_t> fixed_;
};

}  // namespace torsion
