// handle_ik_group and compute_jacobian: Coppelia's resolution loop (semantics.md §B2, §B4).
#include "ik/solver.hpp"

#include <Eigen/QR>
#include <cmath>

#include "math/rotation.hpp"

namespace torsion::ik {

bool compute_dq(const Environment& env, GroupSystem& sys, int method, double damping,
                bool avoid_limits, VecX& dq, MatX* jinv, MatX* j_used) {
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
    if (jinv) *jinv = winv.asDiagonal() * J.transpose();
  } else {
    double lambda = 0.0;
    if (method == kMethodPseudoInverse) lambda = kPseudoInverseDamping;
    if (method == kMethodDampedLeastSquares) lambda = damping;
    const MatX JW = J * winv.asDiagonal();  // J W^-1
    MatX A = JW * J.transpose();
    A.diagonal().array() += lambda * lambda;
    Eigen::CompleteOrthogonalDecomposition<MatX> cod(A);
    dq = JW.transpose() * cod.solve(e);
    if (jinv) *jinv = JW.transpose() * cod.pseudoInverse();  // J# = W^-1 J^T (J W^-1 J^T + l^2)^-1
  }
  if (j_used) *j_used = J;
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
      jd.spherical = limit_spherical(jd, (jd.spherical * quat_from_rotvec(w)).normalized(),
                                     &jd.overshoot);
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
    // the seed's ik_handle_all: every enabled group in turn, each on its own (as Coppelia's
    // computeAllIkGroups); fail if any failed, success if any succeeded
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
  return handle_groups({group_handle}, result);
}

namespace {

// the columns of `sys` spread into the union layout (zero columns for the other groups' joints)
void pad_to_union(const GroupSystem& sys, const std::vector<int>& to_union,
                  const GroupSystem& layout, GroupSystem& out) {
  out.column_joint = layout.column_joint;
  out.column_axis = layout.column_axis;
  out.row_type = sys.row_type;
  out.e = sys.e;
  out.row_weight = sys.row_weight;
  out.J.setZero(sys.J.rows(), Eigen::Index(layout.column_joint.size()));
  for (size_t c = 0; c < to_union.size(); ++c) out.J.col(to_union[c]) = sys.J.col(Eigen::Index(c));
}

}  // namespace

int Environment::handle_groups(const std::vector<int>& handles, int* result) {
  auto finish = [&](int flags) {
    int r = kResultSuccess;
    if (flags & kCalcNotPerformed) r = kResultNotPerformed;
    else if (flags & (kCalcCannotInvert | kCalcNotWithinTolerance)) r = kResultFail;
    if (result) *result = r;
    return flags;
  };
  // the enabled groups, in the given order; the first one's settings drive the loop (§B2)
  std::vector<int> active;
  for (int h : handles) {
    if (h == kHandleAll)
      throw std::invalid_argument("invalid IK group handle: ik_handle_all cannot be listed");
    if (group(h).flags & kGroupEnabled) active.push_back(h);
  }
  for (size_t i = 0; i < active.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (active[i] == active[k])
        throw std::invalid_argument("invalid IK group list: group " + std::to_string(active[i]) +
                                    " is listed twice");
  if (active.empty()) return finish(kCalcNotPerformed | kCalcNotWithinTolerance);
  const size_t n = active.size();
  struct {
    int flags, max_iterations;
  } const first{group(active[0]).flags, group(active[0]).max_iterations};

  // one system per group (the first is the shared scratch, so single groups keep its cache)
  if (multi_scratch_.size() < n - 1) multi_scratch_.resize(n - 1);
  auto system = [&](size_t i) -> GroupSystem& { return i == 0 ? scratch_ : multi_scratch_[i - 1]; };
  for (size_t i = 0; i < n; ++i)
    if (!evaluate_group(active[i], 1.0, system(i)))
      return finish(kCalcNotPerformed | kCalcNotWithinTolerance);

  // the union of the groups' columns, first seen first (Coppelia's allJoints)
  GroupSystem& layout = union_scratch_;
  std::vector<std::vector<int>> to_union(n);
  if (n > 1) {
    layout.column_joint.clear();
    layout.column_axis.clear();
    for (size_t i = 0; i < n; ++i) {
      const GroupSystem& sys = system(i);
      for (size_t c = 0; c < sys.column_joint.size(); ++c) {
        size_t u = 0;
        while (u < layout.column_joint.size() && (layout.column_joint[u] != sys.column_joint[c] ||
                                                  layout.column_axis[u] != sys.column_axis[c]))
          ++u;
        if (u == layout.column_joint.size()) {
          layout.column_joint.push_back(sys.column_joint[c]);
          layout.column_axis.push_back(sys.column_axis[c]);
        }
        to_union[i].push_back(int(u));
      }
    }
  }
  const GroupSystem& columns = n > 1 ? layout : scratch_;
  const int cols = int(columns.column_joint.size());

  const JointSnapshot memory = snapshot();
  int flags = kCalcNotWithinTolerance;
  double interpolation = 1.0;
  VecX dq, dq_i;
  std::vector<VecX> dqs(n);
  std::vector<MatX> jinv(n), jused(n);
  GroupSystem padded;
  bool position_missed = false, orientation_missed = false;
  // evaluates every group toward the interpolated targets; true when all are within tolerance
  auto evaluate_all = [&](double interp) {
    position_missed = orientation_missed = false;
    for (size_t i = 0; i < n; ++i) {
      evaluate_group(active[i], interp, system(i));
      position_missed = position_missed || system(i).position_missed;
      orientation_missed = orientation_missed || system(i).orientation_missed;
    }
    return !position_missed && !orientation_missed;
  };
  int redos = 0;  // retreats of the interpolated target within one iteration (bounded)
  for (int it = 0; it < first.max_iterations; ++it) {
    try {
      tick();  // Ctrl-C from Python: max_iterations may be up to 2**31-1
    } catch (...) {
      restore(memory);
      throw;
    }
    if (evaluate_all(interpolation)) {
      flags &= ~kCalcNotWithinTolerance;
      break;
    }
    // every group's own step (its method, damping, weights, limit rows), over the union columns
    bool inverted = true;
    for (size_t i = 0; i < n && inverted; ++i) {
      const Group& g = group(active[i]);
      const bool avoid = g.flags & kGroupAvoidLimits;
      if (n == 1) {
        inverted = compute_dq(*this, scratch_, g.method, g.damping, avoid, dqs[i]);
      } else {
        pad_to_union(system(i), to_union[i], layout, padded);
        const bool last = i + 1 == n;  // the last group's null space is not needed
        inverted = compute_dq(*this, padded, g.method, g.damping, avoid, dqs[i],
                              last ? nullptr : &jinv[i], last ? nullptr : &jused[i]);
      }
    }
    if (!inverted) {
      flags |= kCalcCannotInvert;
      break;
    }
    // dq = dq0 + N0 (dq1 + N1 (dq2 + ...)), N = I - J# J: each group acts in the null space of
    // the groups before it (§B2)
    dq = dqs[n - 1];
    for (size_t i = n - 1; i-- > 0;) {
      dq_i = dq - jinv[i] * (jused[i] * dq);
      dq = dqs[i] + dq_i;
    }
    // checkDq: the largest step relative to its joint's max step, and limit hits
    double step_factor = 0.0;
    bool limit_hit = false;
    for (int c = 0; c < cols; ++c) {
      const JointData& j = joint(columns.column_joint[c]);
      step_factor = std::max(step_factor, std::abs(dq[c]) / j.max_step);
      if (j.type != kJointTypeSpherical && !j.cyclic) {
        const double q = j.position + dq[c];
        limit_hit = limit_hit || q < j.min || q > j.min + j.range;
      } else if (j.type == kJointTypeSpherical && columns.column_axis[c] == 0) {
        // the three consecutive columns rotate the joint; beyond its cone is a limit hit
        double excess = 0.0;
        limit_spherical(j, j.spherical * quat_from_rotvec(Vec3(dq[c], dq[c + 1], dq[c + 2])),
                        &excess);
        limit_hit = limit_hit || excess > 0.0;
      }
    }
    if (step_factor > 1.0) flags |= kCalcStepsTooBig;
    if (limit_hit) flags |= kCalcLimitHit;
    if (!(first.flags & kGroupIgnoreMaxSteps) && step_factor > 1.0 && redos < kMaxRedos) {
      // retreat the interpolated target and redo the pass (Coppelia: /= 1.1 * factor); a redo
      // does not count as an iteration
      interpolation /= 1.1 * step_factor;
      ++redos;
      --it;
      continue;
    }
    if (!(first.flags & kGroupIgnoreMaxSteps) && step_factor > 1.0) dq /= step_factor;  // safety
    redos = 0;
    apply_dq(*this, columns, dq);
    // steps well below their max: back toward the real target, straight to a step of about
    // the max size (Coppelia's computeIk: interpolFact /= 1.1 * maxStepFact when maxStepFact <
    // 0.8, capped at 1; a step_factor of 0 gives inf, capped too)
    if (step_factor < 0.8 && interpolation < 1.0)
      interpolation = std::min(1.0, interpolation / (1.1 * step_factor));
    if ((first.flags & kGroupStopOnLimitHit) && limit_hit) break;
  }
  if (flags & kCalcNotWithinTolerance) {
    if (!(flags & kCalcCannotInvert) && evaluate_all(1.0)) flags &= ~kCalcNotWithinTolerance;
  }
  // restore the memorised configuration on failure, when the first group's flags ask (§B2.4)
  const bool missed = flags & kCalcNotWithinTolerance;
  if ((flags & kCalcCannotInvert) ||
      (missed && (first.flags & kGroupRestoreOnBadLinTol) && position_missed) ||
      (missed && (first.flags & kGroupRestoreOnBadAngTol) && orientation_missed))
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
