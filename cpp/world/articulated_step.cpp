// The stages of one step of an articulated system (see articulated_system.hpp for the equations).
#include <algorithm>
#include <cmath>

#include "dynamics/articulated/configuration.hpp"
#include "dynamics/articulated/dynamics.hpp"
#include "world/articulated_system.hpp"

namespace torsion {

namespace {

// The diagonal the free velocity's system adds to M: dt damping, and for the dofs under the
// implicit PD (pd, and not held at their effort limit) dt kd + dt^2 kp.
void free_diagonal(const ArticulatedModel& m, const ArticulatedSystem::ControlState& ctl,
                   bool pd, double dt, VecX& diag) {
  for (int k = 0; k < m.nv; ++k) {
    const bool implicit_pd = pd && !ctl.saturated[k];
    diag[k] = dt * m.damping[k] + (implicit_pd ? dt * ctl.kd[k] + dt * dt * ctl.kp[k] : 0.0);
  }
}

// The right-hand side of that system at the start velocity u: dt (the actuators' torque with the
// implicit PD's at the end-of-step velocity, held dofs at their limit, + tau_ext - h - damping u),
// with h = nonlinear and error the PD's position error.
void free_rhs(const ArticulatedModel& m, const ArticulatedSystem::ControlState& ctl, bool pd,
              double dt, const VecX& u, const VecX& error, const VecX& tau_ext,
              const VecX& nonlinear, VecX& rhs) {
  for (int k = 0; k < m.nv; ++k) {
    const bool implicit_pd = pd && !ctl.saturated[k];
    double actuator = ctl.tau_ff[k];
    if (implicit_pd)
      actuator += ctl.kp[k] * (error[k] - dt * u[k]) + ctl.kd[k] * (ctl.u_ref[k] - u[k]);
    // held at its limit, on the side it saturated
    if (ctl.saturated[k]) actuator = std::copysign(ctl.effort_limit[k], ctl.tau_applied[k]);
    rhs[k] = dt * (actuator + tau_ext[k] - nonlinear[k] - m.damping[k] * u[k]);
  }
}

}  // namespace

void ArticulatedSystem::step_dynamics_terms(const Vec3& gravity) {
  if (check_start_limits_) check_start_limits();
  q_start_ = data_.q;
  update_kinematics(*model_, data_);
  crba(*model_, data_);
  // c(q, u), the velocity-product terms alone (h at zero gravity); also sets the body velocities.
  // step_free_velocity adds gravity in its RNEA at the midpoint velocity (h_mid = g + c(u_mid)).
  nonlinear_effects(*model_, data_, Vec3::Zero());
  step_gravity_ = gravity;
  u_start_ = data_.u;  // the velocity h is of (see step_free_velocity)
  velocities_valid_ = true;
}

void ArticulatedSystem::step_free_velocity(double dt) {
  const ArticulatedModel& m = *model_;
  const bool pd = ctl_.mode == ControlMode::kPdPlusFeedforwardTorque;

  // generalized external force: tau_ext = sum_b J_b^T F_b, F_b = (moment about ref, force)
  tau_ext_.setZero();
  if (ctl_.has_external) {
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      if (ctl_.ext_force[b].isZero(0.0) && ctl_.ext_moment[b].isZero(0.0)) continue;
      const Vec6 f =
          vec6(ctl_.ext_moment[b] - data_.ref.cross(ctl_.ext_force[b]), ctl_.ext_force[b]);
      for (int c = m.body_last_col[b]; c >= 0; c = m.col_parent[c])
        tau_ext_[m.col_dof[c]] += m.col_weight[c] * data_.S.col(c).dot(f);
      ctl_.ext_force[b].setZero();
      ctl_.ext_moment[b].setZero();
    }
    ctl_.has_external = false;
  }
  if (any_gravity_comp_) add_gravity_compensation();

  if (pd) configuration_difference(m, data_.q, ctl_.q_ref, error_);
  // A PD's held dofs carry over from the end of the last step (step_integrate_position): the
  // free motion cannot see a load that comes through a contact (a standing robot's knees), so
  // that set is the best first guess; step_update_saturations corrects it at the solved velocity.
  // A constant torque's are decided here, exactly.
  if (!(pd && ctl_.clamp_effort)) std::fill(ctl_.saturated.begin(), ctl_.saturated.end(), 0);
  // a velocity set between integrate1() and integrate2(): c of the one the step starts from
  if (data_.u != u_start_) nonlinear_effects(m, data_, Vec3::Zero());
  u_start_ = data_.u;

  // The velocity-product (Coriolis, centrifugal, gyroscopic) terms at the step's midpoint
  // velocity. A step with c(q, u) at the start velocity alone (semi-implicit Euler) gains energy
  // in proportion to dt wherever c acts: a torque-free link spinning fast about an axis of low
  // inertia, the base of a tumbling robot (a humanoid falling over unactuated blew up in 1 of 20
  // pushes at dt = 5 ms). The half step those terms alone give, A du_c = -dt c(q, u), predicts the
  // midpoint velocity u_mid = u + du_c / 2, and the step uses h_mid = g(q) + c(q, u_mid) (explicit
  // midpoint for c), one RNEA with gravity at u_mid. Gravity, the PD and the external forces stay
  // out of the prediction: a robot at rest (u = 0) has c = 0 and keeps h = g, so its contact
  // forces balance its weight. The first solve reuses the prediction's factorisation of A (the
  // held set the step starts from). data_.nonlinear holds c(q, u) from step_dynamics_terms.
  free_diagonal(m, ctl_, pd, dt, diag_);
  rhs_ = -dt * data_.nonlinear;
  factorize_solve(m, data_, diag_.data(), rhs_);  // (its L^T half during the elimination)
  data_.u = u_start_ + 0.5 * rhs_;
  nonlinear_effects(m, data_, step_gravity_);  // h_mid; sets the body velocities at u_mid
  data_.u = u_start_;
  velocities_valid_ = false;
  solve_free_velocity(dt, true, true);
}

void ArticulatedSystem::build_free_system(double dt) {
  const bool pd = ctl_.mode == ControlMode::kPdPlusFeedforwardTorque;
  free_diagonal(*model_, ctl_, pd, dt, diag_);
  free_rhs(*model_, ctl_, pd, dt, u_start_, error_, tau_ext_, data_.nonlinear, rhs_);
}

void ArticulatedSystem::solve_free_velocity(double dt, bool grow_held_set, bool factored) {
  const ArticulatedModel& m = *model_;
  const int nv = m.nv;
  const bool pd = ctl_.mode == ControlMode::kPdPlusFeedforwardTorque;
  const VecX& u = u_start_;

  // Solve, and if torques are clamped and grow_held_set re-solve with the saturated dofs' torques
  // held constant (an active set that only grows, so at most nv + 1 solves; usually one).
  for (int pass = 0; pass <= nv; ++pass) {
    if (pass == 0 && factored) {
      // A is factorised with the diagonal of the current held set (step_free_velocity)
      free_rhs(m, ctl_, pd, dt, u, error_, tau_ext_, data_.nonlinear, rhs_);
      factor_solve(m, data_, rhs_);
    } else {
      build_free_system(dt);
      factorize_solve(m, data_, diag_.data(), rhs_);
    }

    // Without effort clamping nothing saturates, and the PD's applied torque is set by
    // step_integrate_position from the velocity after the contacts (which replaces any value
    // computed here): done. A re-solve for step_update_saturations keeps the set it was given:
    // that set was chosen at the solved velocity, which sees the contacts; growing it here from
    // the free motion could hold again a dof the contacts had just shown to be within its limit.
    if ((pd && !ctl_.clamp_effort) || !grow_held_set) break;
    // the torque the actuators applied, with the end-of-step velocity of the implicit PD
    bool newly_saturated = false;
    for (int k = 0; k < nv; ++k) {
      if (ctl_.saturated[k]) continue;
      const double u1 = u[k] + rhs_[k];
      double t = ctl_.tau_ff[k];
      if (pd) t += ctl_.kp[k] * (error_[k] - dt * u1) + ctl_.kd[k] * (ctl_.u_ref[k] - u1);
      ctl_.tau_applied[k] = t;
      if (ctl_.clamp_effort && std::abs(t) > ctl_.effort_limit[k]) {
        ctl_.tau_applied[k] = std::copysign(ctl_.effort_limit[k], t);
        ctl_.saturated[k] = 1;
        newly_saturated = true;
      }
    }
    if (!newly_saturated) break;
  }
  data_.u = u_start_ + rhs_;
}

bool ArticulatedSystem::step_update_saturations(double dt, bool may_release) {
  if (ctl_.mode != ControlMode::kPdPlusFeedforwardTorque || !ctl_.clamp_effort) return false;
  const VecX& u1 = data_.u;
  bool changed = false;
  for (int k = 0; k < model_->nv; ++k) {
    const double demand = ctl_.tau_ff[k] + ctl_.kp[k] * (error_[k] - dt * u1[k]) +
                          ctl_.kd[k] * (ctl_.u_ref[k] - u1[k]);
    const double limit = ctl_.effort_limit[k];
    if (ctl_.saturated[k]) {
      // A held dof stays held while its demand is beyond the limit on its side, and is released
      // (the implicit PD applies) once the demand is within the limit or has changed sign. Not
      // moved straight to the other side: a dof swinging through its target can demand more
      // than the limit against either held torque, when the PD's torque between them is the
      // answer; released, it is held again on whichever side its own demand then exceeds.
      if (!may_release || (demand * ctl_.tau_applied[k] > 0.0 && std::abs(demand) > limit))
        continue;
      ctl_.saturated[k] = 0;
      changed = true;
    } else if (std::abs(demand) > limit) {
      ctl_.saturated[k] = 1;
      ctl_.tau_applied[k] = std::copysign(limit, demand);
      changed = true;
    }
  }
  if (changed) solve_free_velocity(dt, false);
  return changed;
}

void ArticulatedSystem::point_jacobian(int body, const Vec3& point,
                                       Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> j) const {
  torsion::point_jacobian(*model_, data_, body, point, j);
}

void ArticulatedSystem::apply_inverse_mass(Eigen::Ref<MatX> cols) const {
  factor_solve_columns(*model_, data_, cols);
}

void ArticulatedSystem::step_integrate_position(double dt) {
  // The torque the implicit PD applied over the step is that of the end-of-step velocity, which
  // the contact solver (and joint rows) changed since step_free_velocity: report that one. With
  // clamping, the held set was settled at that velocity (stage_solve_contacts), so this keeps it;
  // only when the step ran out of re-solves does the demand here change the set the next step
  // starts from (by step_update_saturations' rule).
  if (ctl_.mode == ControlMode::kPdPlusFeedforwardTorque) {
    const VecX& u1 = data_.u;
    for (int k = 0; k < model_->nv; ++k) {
      const double demand = ctl_.tau_ff[k] + ctl_.kp[k] * (error_[k] - dt * u1[k]) +
                            ctl_.kd[k] * (ctl_.u_ref[k] - u1[k]);
      const double limit = ctl_.effort_limit[k];
      if (ctl_.saturated[k]) {
        const double held = std::copysign(limit, ctl_.tau_applied[k]);
        ctl_.tau_applied[k] = held;
        ctl_.saturated[k] = ctl_.clamp_effort && std::abs(demand) > limit && demand * held > 0.0;
      } else {
        ctl_.tau_applied[k] = demand;
        ctl_.saturated[k] = ctl_.clamp_effort && std::abs(demand) > limit;
      }
    }
  }
  integrate_configuration(*model_, data_.q, data_.u, dt);
  data_.kinematics_valid = false;
  velocities_valid_ = false;
}

bool ArticulatedSystem::step_recover_if_non_finite() {
  if (data_.q.allFinite() && data_.u.allFinite()) return false;
  data_.q = q_start_;
  data_.u.setZero();
  std::fill(ctl_.saturated.begin(), ctl_.saturated.end(), 0);
  data_.kinematics_valid = false;
  velocities_valid_ = false;
  return true;
}

}  // namespace torsion
