// An articulated system (a robot) in a World: a shared immutable model, its own data (state and
// the algorithms' results), control (torques or an implicit PD) and the per-step scratch.
//
// The step (articulated_step.cpp, called from step.cpp):
//   integrate1: kinematics, mass matrix M (CRBA), velocity-product terms c(q, u) (RNEA)
//   integrate2: the free velocity with the implicit ("damped") mass matrix
//                 A = M + dt diag(kd + damping) + dt^2 diag(kp)
//                 A (u+ - u) = dt (tau_ff + tau_ext - h_mid + kp (q_ref (-) q - dt u)
//                                  + kd (u_ref - u) - damping u)
//               with h_mid = g(q) + c(q, u + du_c / 2), A du_c = -dt c(q, u): the velocity-
//               product terms c (h at zero gravity) at a predicted midpoint velocity (explicit
//               midpoint), h_mid from one RNEA with gravity at that velocity
//               the contact solver (world/contact_stages.cpp), with M^-1 J^T = A^-1 J^T from
//               A's factorisation (apply_inverse_mass)
//               with the joint-limit and joint-friction rows (contact/joint_rows.hpp)
//               semi-implicit position update q+ = q (+) dt u+.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "dynamics/articulated/model.hpp"
#include "geometry/pose.hpp"
#include "world/object.hpp"

namespace torsion {

enum class ControlMode : std::uint8_t { kForceAndTorque = 0, kPdPlusFeedforwardTorque = 1 };

class ArticulatedSystem : public Object {
 public:
  ArticulatedSystem(ObjectId id, std::shared_ptr<const ArticulatedModel> model);

  const ArticulatedModel& model() const { return *model_; }
  const std::shared_ptr<const ArticulatedModel>& model_ptr() const { return model_; }
  ArticulatedData& data() { return data_; }
  const ArticulatedData& data() const { return data_; }
  int dof() const { return model_->nv; }
  int gc_dim() const { return model_->nq; }

  // state (validated: sizes, finite values, non-zero quaternions, which are normalised)
  using VecRef = Eigen::Ref<const VecX>;
  void set_generalized_coordinate(VecRef q);  // also re-arms the start limit check
  void set_generalized_velocity(VecRef u);
  void set_state(VecRef q, VecRef u);

  // control (every setter wakes a sleeping system: its motion under the new control may differ)
  void set_control_mode(ControlMode mode) {
    ctl_.mode = mode;
    clear_saturation();
    mark_modified();
  }
  ControlMode control_mode() const { return ctl_.mode; }
  // kp, kd: nv values >= 0; the floating base's six gains are forced to zero (as RaiSim does).
  // Switches to PD_PLUS_FEEDFORWARD_TORQUE.
  void set_pd_gains(VecRef kp, VecRef kd);
  void set_pd_target(VecRef q_ref, VecRef u_ref);
  void set_generalized_force(VecRef tau);  // persistent feedforward (nv)
  const VecX& kp() const { return ctl_.kp; }
  const VecX& kd() const { return ctl_.kd; }
  const VecX& q_ref() const { return ctl_.q_ref; }
  const VecX& u_ref() const { return ctl_.u_ref; }
  const VecX& feedforward() const { return ctl_.tau_ff; }
  // torque applied by the actuators in the last step: feedforward plus the implicit PD
  const VecX& applied_force() const { return ctl_.tau_applied; }
  // clamp the actuator torque (feedforward + PD) of each dof to its effort limit
  void set_effort_limits(VecRef limits);  // nv values > 0 (inf: none)
  const VecX& effort_limits() const { return ctl_.effort_limit; }
  void set_clamp_to_effort_limits(bool on) {
    ctl_.clamp_effort = on;
    clear_saturation();
    mark_modified();
  }
  bool clamp_to_effort_limits() const { return ctl_.clamp_effort; }

  // Gravity compensation (MuJoCo's gravcomp): each compensated body gets the force -m g at its
  // COM every step, a passive generalized force (not an actuator: effort limits do not clamp it).
  // Off by default; a robot with every body compensated floats (a floating base too).
  void set_gravity_compensation(bool on);  // every body
  void set_body_gravity_compensation(int body, bool on);
  bool body_gravity_compensation(int body) const { return ctl_.gravity_comp[body] != 0; }

  // A fixed base's mounting: the placement of the root body in the world (the URDF world joint's
  // origin, or the identity). Setting it moves every root body by the same rigid motion; the
  // system then has its own copy of the model (the shared one is immutable). std::logic_error
  // for a floating base (its pose is gc[0:7]) or between integrate1() and integrate2().
  const Pose& fixed_base_placement() const { return model_->bodies[0].joint_placement; }
  void set_fixed_base_placement(const Pose& placement);

  // A configuration set from outside (at creation, set_generalized_coordinate, set_state) is
  // checked against the joint limits by the first step that starts from it; a revolute or
  // prismatic joint outside its limits by more than kStartLimitTolerance is recorded once per
  // system (the bindings turn it into a Python warning, joint_limit_stage.cpp's correction
  // pushes it back).
  static constexpr double kStartLimitTolerance = 1e-4;  // rad or m
  struct LimitViolation {
    int body = -1;  // the joint's body; -1: none
    double value = 0.0, lower = 0.0, upper = 0.0;
  };
  // the recorded violation, cleared; false if none is pending
  bool take_start_limit_violation(LimitViolation& out) {
    if (start_violation_.body < 0) return false;
    out = start_violation_;
    start_violation_.body = -1;
    return true;
  }

  // forward kinematics (ensure_kinematics) and body velocities (ensure_velocities) of the
  // current state, computed when first needed after a state change or a step (queries call them)
  void ensure_kinematics();
  void ensure_velocities();

  // external forces for the next step (world frame), on a body at a world point
  void add_external_force(int body, const Vec3& force, const Vec3& point);
  void add_external_torque(int body, const Vec3& torque);

  // collision properties. Every collision shape of body b has body_collision[b] (group, mask,
  // material; set for all bodies from the group and mask given at creation). Bodies of this
  // system touch each other (self-collision) when self_collision is on and their groups and
  // masks allow it, except a body and its parent with do_not_collide_with_parent. Off by default
  // (as PyBullet; RaiSim collides by default): simplified collision shapes of neighbouring links
  // often overlap (the bundled arm's wrist does), and such a robot would fight itself.
  CollisionGroup collision_group = 1;    // as given at creation
  CollisionGroup collision_mask = kAllGroups;
  bool do_not_collide_with_parent = true;
  bool self_collision = false;
  std::vector<CollisionProps> body_collision;  // per body
  // from the API: turning self-collision on or off wakes a sleeping system
  void set_self_collision(bool on) {
    self_collision = on;
    mark_modified();
  }
  void set_collision_filter(CollisionGroup group, CollisionGroup mask) {
    collision_group = group;
    collision_mask = mask;
    for (auto& c : body_collision) c.group = group, c.mask = mask;
  }

  // the dofs that can have a joint-limit or joint-friction row (contact/joint_rows.hpp), derived
  // once from the immutable model
  const std::vector<int>& joint_row_dofs() const { return joint_row_dofs_; }
  // the velocity at the start of the step (valid inside integrate2): soft joint limits aim at a
  // velocity from it (contact/joint_rows.hpp)
  const VecX& step_start_velocity() const { return u_start_; }

  // world pose of collision shape `k` of the model (needs ensure_kinematics()), returned or
  // written into `out`
  Pose collision_pose(std::size_t k) const {
    Pose p;
    collision_pose(k, p);
    return p;
  }
  void collision_pose(std::size_t k, Pose& out) const { collision_pose(data_, k, out); }
  // the same from the kinematics in `data` (of this system's model): a query that must not
  // write into the system computes them in a copy
  void collision_pose(const ArticulatedData& data, std::size_t k, Pose& out) const;

  // every collision shape of every link, in the model's order; local index = the link's body
  // index, group, mask and material = its body's (body_collision)
  void append_collision_shapes(std::vector<CollisionShapeEntry>& out) const override;
  std::size_t local_count() const override { return model_->bodies.size(); }

  // --- hooks for the contact solver (valid between step_free_velocity and
  //     step_integrate_position, i.e. inside integrate2) ---
  // Jacobian (3 x dof, world) of the point of `body` at the world point `point`: a contact's
  // velocity on this system is J gv. Writes only the columns on the body's path to the root;
  // zero J first.
  void point_jacobian(int body, const Vec3& point, Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> j) const;
  // cols <- A^-1 cols (dof x k), with A the step's damped mass matrix M + dt (kd + damping) +
  // dt^2 kp (RaiSim's "damped inverse"): M^-1 J^T for the Delassus blocks, and the velocity
  // change u += A^-1 J^T lambda of an impulse lambda.
  void apply_inverse_mass(Eigen::Ref<MatX> cols) const;

  // --- the step (articulated_step.cpp) ---
  void step_dynamics_terms(const Vec3& gravity);   // integrate1
  void step_free_velocity(double dt);              // integrate2, before the contact solver
  // After a solve of the step's velocity (integrate2: the contact solve, or the free solve when
  // the world has no contacts), with effort clamping: each PD dof's demand at the solved velocity
  // data().u decides its held state. A dof not held whose demand exceeds its limit is held at
  // the limit on that side; a held one whose demand is back within its limit or has changed sign
  // is released (the implicit PD applies) if may_release. If that changed any dof, the free
  // velocity is solved again into data().u with the new set and true is returned (the contacts
  // must then be solved again from there). The step's last re-solve passes may_release = false:
  // the solve it ends with is not checked again, and a held dof applies no more than its limit,
  // where a released one might demand more than its limit in that solve.
  bool step_update_saturations(double dt, bool may_release);
  void step_integrate_position(double dt);         // integrate2, after the contact solver
  bool step_recover_if_non_finite();               // true if the state was reset

  // --- its state as data: what checkpoints, saved states and world files save and restore
  //     beyond gc and gv (data()), written back exactly, without the setters' checks and side
  //     effects; after writing, call state_restored() ---
  struct ControlState {
    ControlMode mode = ControlMode::kForceAndTorque;
    VecX kp, kd, q_ref, u_ref, tau_ff, tau_applied, effort_limit;
    bool clamp_effort = false;
    // per dof: its actuator torque is held at its effort limit (on the side of tau_applied). A
    // PD's set carries from the end of one step to the next as the first guess, grows in
    // step_free_velocity and is settled at the solved velocity by step_update_saturations; a
    // state reset, new limits or control mode, or turning clamping off clears it.
    std::vector<char> saturated;
    // external forces of this step: per body, force and moment about the world origin
    std::vector<Vec3> ext_force, ext_moment;
    bool has_external = false;
    // per body: gravity compensated (set_gravity_compensation)
    std::vector<char> gravity_comp;
  };
  const ControlState& control_state() const { return ctl_; }
  ControlState& control_state() { return ctl_; }
  // after its state (data().q, data().u, control_state()) was written directly: every derived
  // quantity is recomputed when next needed
  void state_restored() {
    data_.kinematics_valid = false;
    data_.inertias_valid = false;
    data_.factor_valid = false;
    velocities_valid_ = false;
    any_gravity_comp_ = false;
    for (char c : ctl_.gravity_comp) any_gravity_comp_ |= c != 0;
  }

 private:
  // sizes, finite values and (gc) non-zero quaternions; std::invalid_argument naming `what`
  void check_gc(VecRef q, const char* what) const;
  void check_gv(VecRef u, const char* what) const;
  bool velocities_valid_ = false;

  std::shared_ptr<const ArticulatedModel> model_;
  ArticulatedData data_;

  ControlState ctl_;  // control, held efforts, external forces, gravity compensation
  void clear_saturation() { std::fill(ctl_.saturated.begin(), ctl_.saturated.end(), 0); }

  bool any_gravity_comp_ = false;  // any of ctl_.gravity_comp
  void add_gravity_compensation();  // into tau_ext_ (step_free_velocity)
  // the start limit check (take_start_limit_violation): armed by a configuration set from
  // outside, run by step_dynamics_terms; reported at most once per system
  bool check_start_limits_ = true;
  bool start_limit_reported_ = false;
  LimitViolation start_violation_;
  void check_start_limits();

  // scratch of the step
  VecX q_start_;                     // the configuration at the step's start, for recovery
  VecX u_start_;                     // the velocity at the step's start (free velocity re-solves)
  VecX diag_, rhs_, error_, tau_ext_;
  Vec3 step_gravity_ = Vec3::Zero();  // the gravity of the step's h
  // diag_ and rhs_ of the free velocity's system A du = rhs for the current held set and h
  void build_free_system(double dt);
  // u_start_ + the step's free motion into data_.u; grow_held_set: also hold the dofs whose
  // demand at the free velocity exceeds their limit (the first solve of a step); factored: A of
  // the current held set is already factorised (the first pass solves without factorising)
  void solve_free_velocity(double dt, bool grow_held_set, bool factored = false);
  std::vector<int> joint_row_dofs_;
};

}  // namespace torsion
