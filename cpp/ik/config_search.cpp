// The configuration search (the seed's ikGetConfigForTipPose, semantics.md §B7): sample joint
// configurations, run the group's resolution from those whose tip is near the target, keep the
// first valid result. Sampling uses the environment's own SplitMix64 stream, so a search is
// reproducible from the same environment state and the same call order.
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/check.hpp"
#include "ik/environment.hpp"

namespace torsion::ik {

namespace {

// Σ over valid elements of sqrt((m0 dx)^2 + (m1 dy)^2 + (m2 dz)^2 + (m3 angle)^2), in each
// element's constraint-base frame, with the full rotation angle between tip and target
double pose_distance(const Environment& env, const Group& g, const double metric[4]) {
  double sum = 0.0;
  for (const Element& e : g.elements) {
    const int target = env.object(e.tip).linked_dummy;
    if (!e.enabled || target < 0) continue;
    const int cb = e.constraints_base >= 0 ? e.constraints_base : e.base;
    const Pose inv = (cb >= 0 ? env.full_pose(cb) : Pose()).inverse();
    const Pose tip = inv * env.full_pose(e.tip);
    const Pose tgt = inv * env.full_pose(target);
    const Vec3 d = tip.p - tgt.p;
    const double a = quat_angle(tip.q.conjugate() * tgt.q);
    const double m2 = metric[0] * metric[0] * d.x() * d.x() +
                      metric[1] * metric[1] * d.y() * d.y() +
                      metric[2] * metric[2] * d.z() * d.z() + metric[3] * metric[3] * a * a;
    // past ~1e154 the sum of squares overflows: then the scaled norm, not inf
    sum += m2 <= std::numeric_limits<double>::max()
               ? std::sqrt(m2)
               : Vec4(metric[0] * d.x(), metric[1] * d.y(), metric[2] * d.z(), metric[3] * a)
                     .stableNorm();
  }
  return sum;
}

}  // namespace

int Environment::config_for_tip_pose(int group_handle, const std::vector<int>& joints,
                                     const ConfigSearchOptions& opt, std::vector<double>& out) {
  const Group g = group(group_handle);
  const size_t n = joints.size();
  if (n == 0) throw std::invalid_argument("joint_handles must not be empty");
  for (int h : joints) {
    if (joint(h).type == kJointTypeSpherical)
      throw std::invalid_argument("invalid joint handle: spherical joint " + std::to_string(h) +
                                  " cannot take part in the configuration search");
  }
  check_non_negative(opt.threshold, "threshold_dist");
  for (int k = 0; k < 4; ++k) check_non_negative(opt.metric[k], "metric");
  if (opt.max_iterations == 0) throw std::invalid_argument("max_iterations must not be 0");
  if (!opt.low_limits.empty() && opt.low_limits.size() != n)
    throw std::invalid_argument("low_limits must have one value per joint (" + std::to_string(n) +
                                "), got " + std::to_string(opt.low_limits.size()));
  if (!opt.ranges.empty() && opt.ranges.size() != n)
    throw std::invalid_argument("ranges must have one value per joint (" + std::to_string(n) +
                                "), got " + std::to_string(opt.ranges.size()));
  if (!opt.joint_options.empty() && opt.joint_options.size() != n)
    throw std::invalid_argument("joint_options must have one value per joint (" +
                                std::to_string(n) + "), got " +
                                std::to_string(opt.joint_options.size()));
  for (double v : opt.low_limits) check_finite(v, "low_limits");
  for (double v : opt.ranges) check_finite(v, "ranges");

  // the sampling interval of every listed joint
  std::vector<double> lo(n), span(n);
  std::vector<char> sampled(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const JointData& j = joint(joints[i]);
    if (!opt.joint_options.empty() && (opt.joint_options[i] & 1)) sampled[i] = 0;
    if (j.master >= 0) sampled[i] = 0;  // dependents follow their master
    lo[i] = j.cyclic ? -kPi : j.min;
    span[i] = j.cyclic ? 2.0 * kPi : j.range;
    if (!opt.low_limits.empty()) lo[i] = opt.low_limits[i];
    if (!opt.ranges.empty()) {
      if (opt.ranges[i] < 0.0) {  // a window centred on the current value
        span[i] = -opt.ranges[i];
        lo[i] = j.position - 0.5 * span[i];
      } else {
        span[i] = opt.ranges[i];
      }
    }
  }

  const JointSnapshot memory = snapshot();
  // only the listed joints may move (the seed: setAllInvolvedJointsToPassiveMode, then the listed
  // joints in IK mode): an unlisted IK joint would otherwise take part in the resolution and be
  // restored afterwards, so the returned values of the listed joints missed the target (1.8 m).
  // The group is enabled for the search as the seed does. Modes and flags are put back after.
  std::vector<std::pair<int, int>> modes;  // (handle, mode) of every joint
  for (const Object& o : objects_)
    if (o.type == kObjectTypeJoint) modes.emplace_back(o.handle, o.joint.mode);
  const int flags_before = g.flags;
  for (const auto& hm : modes) {
    bool listed_unsampled = false;
    for (size_t i = 0; i < n; ++i) listed_unsampled |= joints[i] == hm.first && !sampled[i];
    if (!listed_unsampled) joint_mut(hm.first).mode = kJointModePassive;
  }
  for (size_t i = 0; i < n; ++i)
    if (sampled[i]) joint_mut(joints[i]).mode = kJointModeIk;
  group_mut(group_handle).flags |= kGroupEnabled;
  touch();
  auto put_back = [&]() {
    restore(memory);
    for (const auto& hm : modes) joint_mut(hm.first).mode = hm.second;
    group_mut(group_handle).flags = flags_before;
    touch();
  };

  const auto start = std::chrono::steady_clock::now();
  const bool timed = opt.max_iterations < 0;
  int found = 0;
  try {
    for (long it = 0;; ++it) {
      tick();  // Ctrl-C from Python (put_back restores the joints)
      if (timed) {
        const double ms = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - start).count();
        if (ms > -opt.max_iterations) break;
      } else if (it >= opt.max_iterations) {
        break;
      }
      for (size_t i = 0; i < n; ++i)
        if (sampled[i]) set_position_raw(joints[i], lo[i] + span[i] * rng_.uniform());
      if (pose_distance(*this, g, opt.metric) > opt.threshold) continue;
      int result = 0;
      const int flags = handle_group(group_handle, &result);
      if (flags & (kCalcNotPerformed | kCalcNotWithinTolerance | kCalcCannotInvert)) continue;
      std::vector<double> q(n);
      bool inside = true;
      for (size_t i = 0; i < n; ++i) {
        const JointData& j = joint(joints[i]);
        q[i] = j.position;
        if (!j.cyclic && (q[i] < j.min - 1e-12 || q[i] > j.min + j.range + 1e-12)) inside = false;
        if (sampled[i] && !j.cyclic && (q[i] < lo[i] - 1e-12 || q[i] > lo[i] + span[i] + 1e-12))
          inside = false;
      }
      if (!inside) continue;
      if (opt.validate && !opt.validate(q)) continue;
      out = q;
      found = 1;
      break;
    }
  } catch (...) {
    put_back();
    throw;
  }
  put_back();
  return found;
}

}  // namespace torsion::ik
