// Tendons and tendon couplings (the World seed's addFixedTendon, addTendonCoupling, getTendon(s),
// getTendonCouplings, removeTendon, removeTendonCoupling).
//
// A fixed tendon is a weighted sum of scalar joint coordinates of one or two articulated systems:
//   length L = sum_k c_k q_k,  dL/dt = J u with J = sum_k c_k e_{dof_k}  (its Jacobian).
// Its properties:
//   spring and damping: a force f = -stiffness (L - spring_length) - damping dL/dt along it
//     (generalized force J^T f), applied implicitly in the step (see stage_tendon_forces);
//   limits [lower, upper]: hard one-sided rows of the contact solver, as the joint limits of
//     contact/joint_rows.hpp and the stiff wires (world/wires.hpp): the length approaches a limit by
//     at most the gap per step, and a violation is removed at kTendonErp of it per step;
//   friction: a row with target dL/dt = 0 and |impulse| <= dt * friction (a Coulomb force, N or
//     N m, MuJoCo's frictionloss);
//   armature a: an inertia along the tendon, the mass matrix M + a J^T J as MuJoCo's (the smooth
//     dynamics of the step, stage_tendon_forces).
// Its rows are the wires' kind (RowKind::kWire), built in integrate1 after the wire rows, so the
// Delassus stage fills their A^-1 J^T and g from the step's factorised mass matrix and the sweeps
// solve them with the contacts. The rows' sign is chosen so that every limit impulse is >= 0
// (lower: J, upper: -J).
//
// A tendon coupling holds the length of a first tendon to a polynomial of a second's:
//   e = L1 - (c_0 + c_1 L2 + c_2 L2^2 + ...) = 0      (no second tendon: e = L1 - c_0),
// with Jacobian J1 - p'(L2) J2. Compliance 0: a hard bilateral row whose target removes
// `erp` of the error per step (error correction). Compliance > 0 (m/N): a spring of stiffness
// 1 / compliance on e, applied implicitly like a tendon's spring.
//
// Ids and indices behave as objects' and wires' do: a stable id never reused in its world, an
// index the last one takes over when one is removed. Removing a tendon removes its couplings;
// removing an articulated system removes its tendons.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "math/types.hpp"

namespace torsion {

class World;
struct ContactState;

enum class TendonKind : std::uint8_t { kFixed = 0, kSpatial = 1 };

// A spatial tendon's path (the seed's Tendon::PathElement): branches of sites, with a wrapping
// obstacle allowed between two sites, separated by pulleys. Its length is the sum over branches
// of the branch's length / the divisor of the pulley that starts it (1 for the first branch), as
// MuJoCo's. Elements are points of bodies: (object, local body index, position in that body's
// frame); the movable bodies must belong to at most two articulated systems (a solver row has two
// sides); single bodies must be static (fixed anchors).
enum class PathElementKind : std::uint8_t { kSite = 0, kSphere = 1, kCylinder = 2, kPulley = 3 };

struct TendonPathElement {
  PathElementKind kind = PathElementKind::kSite;
  ObjectId object = 0;
  std::uint32_t local = 0;
  Vec3 position_b = Vec3::Zero();  // the site, or the obstacle's centre
  Vec3 axis_b = Vec3::UnitZ();     // cylinder: its axis in the body frame (unit)
  double radius = 0.0;             // sphere, cylinder (m, > 0)
  bool has_side = false;           // obstacles: a side point (MuJoCo's sidesite), body frame
  Vec3 side_b = Vec3::Zero();
  // the side point on another body than the obstacle's (MuJoCo allows a sidesite anywhere: its
  // world position is what counts): side_b is then in the frame of (side_object, side_local)
  bool side_elsewhere = false;
  ObjectId side_object = 0;
  std::uint32_t side_local = 0;
  double divisor = 1.0;  // pulley: the divisor of the branch it starts (> 0)
};

constexpr double kTendonErp = 0.2;  // fraction of a limit violation removed per step
// a limit closer than this (m or rad, after a step at the current rate) gets its row
constexpr double kTendonLimitMargin = 0.02;

struct TendonJointTerm {
  ObjectId object = 0;  // the articulated system
  std::string joint;    // its joint (revolute or prismatic, not a mimic)
  double coefficient = 0.0;
  // derived at creation from the (immutable) model
  int dof = -1, gc = -1;
};

struct TendonProperties {
  double stiffness = 0.0;  // N/m (or N m / rad), >= 0
  double damping = 0.0;    // N s/m, >= 0
  double spring_length = std::numeric_limits<double>::quiet_NaN();  // NaN: the length at creation
  // with spring_length a dead band [spring_length, spring_upper] (MuJoCo 3's springlength with
  // two values): no spring force inside it, -stiffness (L - nearer end) outside; NaN: equal to
  // spring_length (no band); set at creation, then always >= spring_length
  double spring_upper = std::numeric_limits<double>::quiet_NaN();
  double lower = -std::numeric_limits<double>::infinity();  // limits of the length
  double upper = std::numeric_limits<double>::infinity();
  double friction = 0.0;  // Coulomb force along the tendon, >= 0
  // inertia along the tendon (kg, or kg m^2 for a length in rad), >= 0: the step's dynamics use
  // M + armature J^T J (MuJoCo's tendon armature); see stage_tendon_forces
  double armature = 0.0;
};

struct Tendon {
  std::uint64_t id = 0;
  TendonKind kind = TendonKind::kFixed;
  std::string name;
  std::vector<TendonJointTerm> joints;    // fixed
  std::vector<TendonPathElement> path;    // spatial
  TendonProperties props;
  double actuator_force = 0.0;  // applied along the tendon every step (N, set by the user)
  // of the last step: the limit force (N, >= 0 pushing the length up from its lower limit,
  // <= 0 pulling it down from the upper one), friction force, spring-damper force
  double limit_force = 0.0, friction_force = 0.0, spring_force = 0.0;
};

struct TendonCoupling {
  std::uint64_t id = 0;
  std::string name;
  std::uint64_t first = 0;
  bool has_second = false;
  std::uint64_t second = 0;
  std::vector<double> polynomial{0.0};  // c_0, c_1, ... (L1 = sum c_i L2^i)
  double compliance = 0.0;               // m/N, >= 0 (0: hard)
  double erp = kTendonErp;               // in (0, 1]
  double force = 0.0;                    // of the last step (N): along J1 - p'(L2) J2
};

struct TendonSet {
  std::vector<Tendon> tendons;
  std::vector<std::int64_t> id_index;  // per id ever given: index, -1 once removed
  std::vector<TendonCoupling> couplings;
  std::vector<std::int64_t> coupling_id_index;
  // scratch of the step: per tendon its velocity at the step's start (integrate1; armature)
  std::vector<double> start_velocity;
  // per tendon, its rows (lower limit, upper limit, friction; -1: none)
  // and per coupling its row, in ContactProblems::scalar_rows
  std::vector<std::int32_t> row;  // 3 per tendon
  std::vector<std::int32_t> coupling_row;
  // The constraint rows' effective mass (stage_tendon_constraint_mass): per group of one or two
  // movable objects joined by implicit tendon rows (m of them), the low-rank part of
  // (A + J^T diag(D) J)^-1 = A^-1 - Y S Y^T with Y = A^-1 J^T, S = (diag(1 / D) + J Y)^-1.
  struct MassCorrection {
    int count = 0;                           // objects (1 or 2)
    std::int32_t dof_begin[2] = {-1, -1};    // each object's slice of u
    MatX jt[2], y[2];                        // per object: its block of J^T and Y (n x m)
    MatX s;                                  // S (m x m)
  };
  std::vector<MassCorrection> mass_corrections;

  std::int64_t index_of(std::uint64_t id) const {
    return id < id_index.size() ? id_index[static_cast<std::size_t>(id)] : -1;
  }
  std::int64_t coupling_index_of(std::uint64_t id) const {
    return id < coupling_id_index.size() ? coupling_id_index[static_cast<std::size_t>(id)] : -1;
  }
};

// A World's tendons (made empty on first use); find_tendon_set: nullptr if it has none yet.
TendonSet& tendon_set(World& world);
TendonSet* find_tendon_set(const World& world);

// --- the World's tendon methods (std::invalid_argument naming the argument for bad input,
// std::logic_error mid-step) ---
// joints: at least one term, on at most two alive articulated systems, each a revolute or prismatic
// (not mimic) joint named once, finite coefficients not all zero; properties finite (limits may
// be infinite), stiffness, damping, friction >= 0, lower <= upper; a unique non-empty name.
Tendon& add_fixed_tendon(World& world, const std::string& name,
                         std::vector<TendonJointTerm> joints, const TendonProperties& props);
// path: see TendonPathElement; each branch starts and ends at a site and has at least two sites,
// an obstacle lies between two sites (consecutive obstacles need a via site), a pulley between
// branches; objects alive, local indices in range, finite points, radius and divisor > 0.
Tendon& add_spatial_tendon(World& world, const std::string& name,
                           std::vector<TendonPathElement> path, const TendonProperties& props);
// second == nullptr: the first tendon's length is held at polynomial[0]
TendonCoupling& add_tendon_coupling(World& world, const std::string& name, std::uint64_t first,
                                    const std::uint64_t* second, std::vector<double> polynomial,
                                    double compliance, double erp);
Tendon* find_tendon(World& world, std::uint64_t id);
Tendon* find_tendon(World& world, const std::string& name);
TendonCoupling* find_tendon_coupling(World& world, std::uint64_t id);
void remove_tendon(World& world, std::uint64_t id);  // and its couplings
void remove_tendon_coupling(World& world, std::uint64_t id);
void remove_tendons_of_object(World& world, ObjectId object);  // World::remove_object
// checks a property set (the same rules as add_fixed_tendon) and replaces the tendon's
void set_tendon_properties(World& world, Tendon& tendon, const TendonProperties& props);

// length and its rate now (m or rad, and per second)
double tendon_length(World& world, const Tendon& tendon);
double tendon_velocity(World& world, const Tendon& tendon);
// the length's Jacobian over an articulated system's generalized velocities (nv; zero where the
// tendon does not depend on it)
VecX tendon_jacobian(World& world, const Tendon& tendon, ObjectId system);
// a coupling's error now: L1 - p(L2) (no second tendon: L1 - polynomial[0])
double tendon_coupling_error(World& world, const TendonCoupling& coupling);

// --- the stages of a step (step.cpp has the order) ---
// integrate1, after the wire rows: each tendon's limit and friction rows and each hard
// coupling's row, appended to cs.problems.scalar_rows (impulses from 0).
void stage_build_tendon_rows(World& world, ContactState& cs);
// integrate2, after the free velocities are gathered into cs.u (before u_free is kept): each
// tendon's actuator force, spring-damper and armature and each compliant coupling's spring, as
// impulses p along their Jacobians J_i, u += A^-1 J^T p, all solved together (they share dofs):
//   p_i = a_i (v0_i - v+_i) + dt (f_i - k_i e_i - c_i v+_i),  c_i = b_i + dt k_i,
//   v+ = J u+ = v_f + G p,  G = J A^-1 J^T  (v0: the tendon velocity at the step's start, v_f:
//   after the free motion), i.e. (diag(1 / D) + G) p = (a v0 + dt (f - k e)) / D - v_f with
//   D = a + dt c. The spring-damper is thus implicit over the step (unconditionally stable) and
//   the armature makes the smooth velocity change exactly (A + J^T diag(a) J)^-1 of the free
//   motion's impulse (Woodbury), MuJoCo's qacc with M + armature J^T J. The constraint rows
//   (limits, contacts) solved afterwards act through the same matrix
//   (stage_tendon_constraint_mass): a hook in the tendon stage, not in the articulated dynamics.
void stage_tendon_forces(World& world, ContactState& cs);
// integrate2, right after each solve's Delassus stage: the constraint rows see the smooth step's
// mass matrix. stage_tendon_forces made the smooth velocity change (A + J^T diag(D) J)^-1 of the
// free motion's impulse (D = a + dt c per implicit row: armature, damping and the implicit
// stiffness); the rows built with A alone (contacts, joint limits and friction, wires, tendon
// limits, friction, couplings) get the same matrix: the sides' A^-1 J_r^T on each group of one
// or two movable objects (articulated systems, dynamic bodies) joined by implicit
// tendon rows becomes (A + J^T D J)^-1 J_r^T by Woodbury's identity, and the rows' Delassus
// blocks are formed again. A row must have sides on every object of its group (the corrected
// vector moves them all): with a group of two objects (a spatial tendon between two systems or
// bodies, a fixed tendon over two systems), the rows over both (the tendon's own limit and
// friction rows, a contact between the two) are corrected, a row on one of them alone is not;
// a group of three or more objects is not corrected, nor a single body's compact contacts (no
// A^-1 J^T stored). The contact-space solve is switched off for the step (stage_tendon_forces
// decides it before the solve selects its systems): the u-based sweep reads the corrected rows.
void stage_tendon_constraint_mass(World& world, ContactState& cs);
// integrate2, after the solve: each tendon's limit and friction forces, each coupling's force.
void stage_tendon_results(World& world, ContactState& cs);

}  // namespace torsion
