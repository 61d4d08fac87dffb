// handle_ik_group and compute_jacobian: Coppelia's resolution loop (semantics.md §B2, §B4).
#include "ik/solver.hpp"

#include <Eigen/QR>
#include <cmath>

#include "math/rotation.hpp"

namespace torsion::ik {

bool compute_dq(const Environment& env, GroupSystem& sys, int method, double damping,
                bool avoid_limits, VecX& dq) {
  const int cols = int(sys.column_joint.size());
  MatX J = sys.J;
  VecX e = sys.e.cwiseProduct(sys.row_weight);
  if (avoid_limits) {
    // one extra row per joint inside its limit margin: push it back out (§B4.2)
    for (int c = 0; c < cols; ++c) {
      const JointData& j = env.joint(sys.column_joint[c]);
      if (j.cyclic || j.type == kJointTypeSpherical) continue;
      double err = 0.0;
      if (j.position < j.min + j.limit_margin) err = j.min + j.limit_margin - j.position;
      if (j.position > j.min + j.range - j.limit_margin)
        err = j.min + j.range - j.limit_margin - j.position;
      if (err == 0.0) continue;
      J.conservativeResize(J.rows() + 1, Eigen::NoChange);
      J.row(J.rows() - 1).setZero();
      J(J.rows() - 1, c) = 1.0;
      e.conservativeResize(e.size() + 1);
      e[e.size() - 1] = err;
      sys.row_type.push_back(6);
    }
  }
  VecX winv(cols);  // W^-1 = diag(ik weight): a larger weight gives more motion
  for (int c = 0; c < cols; ++c) winv[c] = env.joint(sys.column_joint[c]).ik_weight;

  if (method == kMethodJacobianTranspose) {
    dq = winv.asDiagonal() * (J.transpose() * e);
  } else {
    double lambda = 0.0;
    if (method == kMethodPseudoInverse) lambda = kPseudoInverseDamping;
    if (method == kMethodDampedLeastSquares) lambda = damping;
    const MatX JW = J * winv.asDiagonal();  // J W^-1
    MatX A = JW * J.transpose();
    A.diagonal().array() += lambda * lambda;
    Eigen::CompleteOrthogonalDecomposition<MatX> cod(A);
    dq = JW.transpose() * cod.solve(e);
  }
  // wrap revolute/spherical steps to (-pi, pi]
  for (int c = 0; c < cols; ++c)
    if (env.joint(sys.column_joint[c]).type != kJointTypePrismatic) {
      double& d = dq[c];
      if (!std::isfinite(d)) return false;
      d = -wrap_angle(-d);
    }
  return dq.allFinite();
}

void apply_dq(Environment& env, const GroupSystem& sys, const VecX& dq) {
  const int cols = int(sys.column_joint.size());
  for (int c = 0; c < cols; ++c) {
    const int j = sys.column_joint[c];
    if (env.joint(j).type == kJointTypeSpherical) {
      // the three columns of a spherical joint are consecutive: one rotation q * exp(w)
      const Vec3 w(dq[c], dq[c + 1], dq[c + 2]);
      JointData& jd = env.joint_mut(j);
      jd.spherical = (jd.spherical * quat_from_rotvec(w)).normalized();
      c += 2;
      continue;
    }
    env.set_position_raw(j, env.joint(j).position + dq[c]);
  }
}

namespace {
constexpr int kMaxRedos = 50;
}  // namespace

int Environment::handle_group(int group_handle, int* result) {
  if (group_handle == kHandleAll) {
    // every enabled group in turn; fail if any failed, success if any succeeded
    int worst = kResultNotPerformed;
    int flags_all = 0;
    for (size_t i = 0; i < groups_.size(); ++i) {
      if (!(groups_[i].flags & kGroupEnabled)) continue;
      int r = kResultNotPerformed;
      flags_all |= handle_group(groups_[i].handle, &r);
      if (r == kResultFail || (r == kResultSuccess && worst == kResultNotPerformed)) worst = r;
    }
    if (result) *result = worst;
    return flags_all;
  }
  // a copy of the settings (the group itself is not modified while solving)
  struct {
    int flags, method, max_iterations;
    double damping;
  } const g{group(group_handle).flags, group(group_handle).method,
            group(group_handle).max_iterations, group(group_handle).damping};
  auto finish = [&](int flags) {
    int r = kResultSuccess;
    if (flags & kCalcNotPerformed) r = kResultNotPerformed;
    else if (flags & (kCalcCannotInvert | kCalcNotWithinTolerance)) r = kResultFail;
    if (result) *result = r;
    return flags;
  };
  if (!(g.flags & kGroupEnabled)) return finish(kCalcNotPerformed);

  GroupSystem& sys = scratch_;
  if (!evaluate_group(group_handle, 1.0, sys))
    return finish(kCalcNotPerformed | kCalcNotWithinTolerance);

  const JointSnapshot memory = snapshot();
  int flags = kCalcNotWithinTolerance;
  double interpolation = 1.0;
  VecX dq;
  int redos = 0;  // retreats of the interpolated target within one iteration (bounded)
  for (int it = 0; it < g.max_iterations; ++it) {
    evaluate_group(group_handle, interpolation, sys);
    if (sys.within_tolerance) {
      flags &= ~kCalcNotWithinTolerance;
      break;
    }
    if (!compute_dq(*this, sys, g.method, g.damping, g.flags & kGroupAvoidLimits, dq)) {
      flags |= kCalcCannotInvert;
      break;
    }
    // checkDq: the largest step relative to its joint's max step, and limit hits
    double step_factor = 0.0;
    bool limit_hit = false;
    for (int c = 0; c < int(sys.column_joint.size()); ++c) {
      const JointData& j = joint(sys.column_joint[c]);
      step_factor = std::max(step_factor, std::abs(dq[c]) / j.max_step);
      if (j.type != kJointTypeSpherical && !j.cyclic) {
        const double q = j.position + dq[c];
        limit_hit = limit_hit || q < j.min || q > j.min + j.range;
      }
    }
    if (step_factor > 1.0) flags |= kCalcStepsTooBig;
    if (limit_hit) flags |= kCalcLimitHit;
    if (!(g.flags & kGroupIgnoreMaxSteps) && step_factor > 1.0 && redos < kMaxRedos) {
      // retreat the interpolated target and redo the pass (Coppelia: /= 1.1 * factor); a redo
      // does not count as an iteration
      interpolation /= 1.1 * step_factor;
      ++redos;
      --it;
      continue;
    }
    if (!(g.flags & kGroupIgnoreMaxSteps) && step_factor > 1.0) dq /= step_factor;  // safety net
    redos = 0;
    apply_dq(*this, sys, dq);
    if (step_factor < 0.8) interpolation = std::min(1.0, interpolation * 1.2);
    if ((g.flags & kGroupStopOnLimitHit) && limit_hit) break;
  }
  if (flags & kCalcNotWithinTolerance) {
    if (!(flags & kCalcCannotInvert)) evaluate_group(group_handle, 1.0, sys);
    if (!(flags & kCalcCannotInvert) && sys.within_tolerance) flags &= ~kCalcNotWithinTolerance;
  }
  // restore the memorised configuration on failure, when the flags ask for it (§B2.4)
  const bool missed = flags & kCalcNotWithinTolerance;
  if ((flags & kCalcCannotInvert) ||
      (missed && (g.flags & kGroupRestoreOnBadLinTol) && sys.position_missed) ||
      (missed && (g.flags & kGroupRestoreOnBadAngTol) && sys.orientation_missed))
    restore(memory);
  return finish(flags);
}

bool Environment::compute_jacobian(int group_handle, int options) {
  GroupSystem& sys = scratch_;
  Group& g = group_mut(group_handle);
  const bool ok = evaluate_group(group_handle, 1.0, sys);
  g.jacobian = sys.J;
  g.error = sys.e;
  if (options & 1)
    for (int c = 0; c < int(sys.column_joint.size()); ++c)
      g.jacobian.col(c) *= joint(sys.column_joint[c]).ik_weight;
  g.jacobian_valid = ok;
  return ok;
}

}  // namespace torsion::ik
