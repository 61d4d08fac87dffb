// The recommended one-call solve for a chain group: damped least squares from the start
// configuration with per-iteration step limits and joint limits; when that local resolution
// fails, restarts from seeded random configurations within the joint limits (a configuration
// search without the distance threshold). Deterministic: same inputs and seed, same result.
#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/check.hpp"
#include "ik/environment.hpp"
#include "math/unit_vector.hpp"

namespace torsion::ik {

namespace {

struct Attempt {
  bool success = false;
  double score = 0.0;  // weighted remaining error, to keep the best failed attempt
  int iterations = 0;
};

// buffers of one solve, allocated once
struct Work {
  MatX A, JW;
  VecX dq, winv, e;
  Eigen::LDLT<MatX> ldlt;
  std::vector<double> q_saved;
};

// Levenberg-Marquardt-style damped least squares on the group's own system: rows weighted by
// the element weights, columns by the joint IK weights; the damping grows when a step does
// not reduce the error and shrinks when it does.
Attempt local_solve(Environment& env, int group, const SolveOptions& opt, GroupSystem& sys,
                    Work& w) {
  MatX& A = w.A;
  VecX& dq = w.dq;
  std::vector<double>& q_saved = w.q_saved;
  Attempt a;
  const int cols = int(sys.column_joint.size());
  double lambda = opt.damping;
  double prev = std::numeric_limits<double>::infinity();
  int stalls = 0;
  for (int it = 0; it < opt.max_iterations; ++it) {
    env.tick();  // Ctrl-C from Python (solve() restores the joints)
    env.evaluate_group(group, 1.0, sys);
    ++a.iterations;
    const double err = sys.e.cwiseProduct(sys.row_weight).squaredNorm();
    if (sys.within_tolerance) {
      a.success = true;
      a.score = err;
      return a;
    }
    if (err >= prev) {
      // the last step made things worse: take it back, damp more
      for (int c = 0; c < cols; ++c) env.set_position_raw(sys.column_joint[c], q_saved[c]);
      lambda = std::min(lambda * 10.0, 1.0);
      if (++stalls > 6) break;
      env.evaluate_group(group, 1.0, sys);
    } else {
      lambda = std::max(lambda * 0.3, opt.damping);
      prev = err;
      stalls = 0;
    }
    w.e = sys.e.cwiseProduct(sys.row_weight);
    for (int c = 0; c < cols; ++c) w.winv[c] = env.joint(sys.column_joint[c]).ik_weight;
    w.JW.noalias() = sys.J * w.winv.asDiagonal();
    A.noalias() = w.JW * sys.J.transpose();
    A.diagonal().array() += lambda * lambda;
    w.ldlt.compute(A);
    w.e = w.ldlt.solve(w.e);
    dq.noalias() = w.JW.transpose() * w.e;
    const double biggest = dq.cwiseAbs().maxCoeff();
    if (!(biggest < std::numeric_limits<double>::infinity())) break;
    if (biggest > opt.max_step) dq *= opt.max_step / biggest;
    for (int c = 0; c < cols; ++c) {
      const int j = sys.column_joint[c];
      q_saved[c] = env.joint(j).position;
      env.set_position_raw(j, q_saved[c] + dq[c]);
    }
    a.score = err;
  }
  env.evaluate_group(group, 1.0, sys);
  a.success = sys.within_tolerance;
  a.score = sys.e.cwiseProduct(sys.row_weight).squaredNorm();
  return a;
}

}  // namespace

SolveResult Environment::solve(int group_handle, const Pose& target, const std::vector<double>* q_start,
                               const SolveOptions& opt) {
  const Group& g = group(group_handle);
  check_finite_vec(target.p, "target_position");
  check_finite_vec(target.q.coeffs(), "target_quaternion_wxyz");
  const Vec4 target_q = unit_or_throw(
      Vec4(target.q.w(), target.q.x(), target.q.y(), target.q.z()), "target_quaternion_wxyz");
  if (opt.max_iterations < 1) throw std::invalid_argument("max_iterations must be >= 1");
  if (opt.max_restarts < 0) throw std::invalid_argument("max_restarts must be >= 0");
  check_non_negative(opt.damping, "damping");
  check_positive(opt.max_step, "max_step");
  // the first enabled element with a target defines the chain
  int target_dummy = -1;
  for (const Element& e : g.elements)
    if (e.enabled && object(e.tip).linked_dummy >= 0) {
      target_dummy = object(e.tip).linked_dummy;
      break;
    }
  if (target_dummy < 0)
    throw std::logic_error("IK group " + std::to_string(group_handle) +
                           " has no enabled element whose tip is linked to a target dummy");
  set_object_pose(target_dummy, kHandleWorld,
                  Pose(Quat(target_q[0], target_q[1], target_q[2], target_q[3]), target.p));

  GroupSystem& sys = scratch_;
  if (!evaluate_group(group_handle, 1.0, sys))
    throw std::logic_error("IK group " + std::to_string(group_handle) +
                           " has no element with IK joints between its tip and base");
  const int cols = int(sys.column_joint.size());
  for (int c = 0; c < cols; ++c)
    if (joint(sys.column_joint[c]).type == kJointTypeSpherical)
      throw std::invalid_argument("solve() handles revolute and prismatic chains; joint " +
                                  std::to_string(sys.column_joint[c]) +
                                  " is spherical (use handle() for groups with spherical joints)");
  const JointSnapshot at_call = snapshot();
  if (q_start) {
    if (int(q_start->size()) != cols)
      throw std::invalid_argument("q_start must have shape (" + std::to_string(cols) +
                                  ",) (one value per IK joint), got (" +
                                  std::to_string(q_start->size()) + ",)");
    for (double v : *q_start) check_finite(v, "q_start");
    for (int c = 0; c < cols; ++c) set_position_raw(sys.column_joint[c], (*q_start)[c]);
  }

  Work work;
  work.dq.resize(cols);
  work.winv.resize(cols);
  work.q_saved.resize(cols);
  std::vector<double> best_q(cols);
  Rng rng;
  rng.state = opt.seed;
  SolveResult r;
  double best = std::numeric_limits<double>::infinity();
  for (int attempt = 0; attempt <= opt.max_restarts; ++attempt) {
    if (attempt > 0) {
      for (int c = 0; c < cols; ++c) {
        const JointData& j = joint(sys.column_joint[c]);
        const double lo = j.cyclic ? -kPi : j.min;
        const double span = j.cyclic ? 2.0 * kPi : j.range;
        set_position_raw(sys.column_joint[c], lo + span * rng.uniform());
      }
    }
    Attempt a;
    try {
      a = local_solve(*this, group_handle, opt, sys, work);
    } catch (...) {
      restore(at_call);  // interrupted: the joints as the call found them
      throw;
    }
    r.iterations += a.iterations;
    r.attempts = attempt + 1;
    if (a.success || a.score < best) {
      best = a.score;
      for (int c = 0; c < cols; ++c) best_q[c] = joint(sys.column_joint[c]).position;
    }
    if (a.success) {
      r.success = true;
      break;
    }
  }
  // leave the environment at the returned configuration
  for (int c = 0; c < cols; ++c) set_position_raw(sys.column_joint[c], best_q[c]);
  evaluate_group(group_handle, 1.0, sys);
  r.q = best_q;
  r.position_error = sys.worst_linear;
  r.orientation_error = sys.worst_angular;
  r.success = sys.within_tolerance;
  return r;
}

}  // namespace torsion::ik
