// The group Jacobian and the linearised error, analytic (semantics.md §B3).
//
// Coppelia fills J by forward differences with dq = 0.01; torsion differentiates exactly. Each
// column is one IK joint (a dependent joint is folded into its ultimate master with the chain
// rule dq_slave/dq_master = product of mults, and left out while clamped at a limit the column
// pushes it into, as the seed's forward difference sees it; a spherical joint gives three
// columns, rotations about its own moving x, y, z axes). Rows, per enabled element, in order:
//   x, y, z      d(tip position relative to the constraint base)/dq, in the constraint-base frame
//   alpha, beta  d(tip rotation relative to the constraint base)/dq as a rotation vector in the
//   gamma        tip's own frame (x, y / z components); the first-order limit of Coppelia's
//                Euler angles of tipQ^-1 * baseQ * baseQ'^-1 * tipQ'.
// The orientation error is the exact log map of tipQ^-1 * targetQ (Coppelia: Euler angles of a
// 0.01 slerp step divided by 0.01, which agrees to first order).
#include <cmath>
#include <limits>

#include "ik/environment.hpp"
#include "ik/kinematics_plan.hpp"

namespace torsion::ik {

namespace {

// flags[slot] = 1 for `handle` (if a joint) and every ancestor of it
void mark_movers(const Environment& env, int handle, std::vector<char>& flags) {
  flags.assign(env.object_count(), 0);
  if (handle < 0) return;
  int h = handle;
  while (h >= 0) {
    const int s = env.slot(h);
    flags[s] = 1;
    h = env.object_at(s).parent;
  }
}

// Row quantities of one element.
struct ElementFrames {
  Pose base;       // world pose of the constraint base
  Pose tip;        // tip relative to the constraint base
  Pose target;     // target relative to the constraint base
};

// the target orientation adjusted for partial orientation constraints (§B3)
Quat adjusted_target(const Quat& tip, const Quat& target, int constraints) {
  const bool ab = constraints & kConstraintAlphaBeta;
  const bool g = constraints & kConstraintGamma;
  if (ab && !g) {
    // rotate the target about its own z so its x best matches the tip's x (zeroes gamma)
    const Vec3 x = target.conjugate() * (tip * Vec3::UnitX());
    const double psi = std::atan2(x.y(), x.x());
    return target * Quat(Eigen::AngleAxisd(psi, Vec3::UnitZ()));
  }
  if (g && !ab) {
    // minimal rotation that brings the target's z onto the tip's z
    const Quat align = Quat::FromTwoVectors(target * Vec3::UnitZ(), tip * Vec3::UnitZ());
    return align * target;
  }
  return target;
}

// Rebuilds the structure cache of `sys` for group `g`: valid elements, the columns (the union of
// every valid element's IK joints, first-seen, base -> tip), which joints move each tip and
// constraint base, and, per column, every joint it moves with its chain-rule coefficient.
void build_structure(const Environment& env, const Group& g, GroupSystem& sys) {
  sys.cached_group = g.handle;
  sys.cached_version = env.structure_version();
  sys.column_joint.clear();
  sys.column_axis.clear();
  sys.elements.clear();
  sys.cached_rows = 0;
  const size_t n = env.object_count();
  for (size_t index = 0; index < g.elements.size(); ++index) {
    const Element& e = g.elements[index];
    if (!e.enabled || env.object(e.tip).linked_dummy < 0) continue;
    sys.chain.clear();
    for (int h = env.object(e.tip).parent; h >= 0 && h != e.base; h = env.object(h).parent)
      if (env.object(h).type == kObjectTypeJoint) sys.chain.push_back(h);
    bool has_column = false;
    for (size_t k = sys.chain.size(); k-- > 0;) {
      int j = sys.chain[k];
      if (env.joint(j).master >= 0) j = env.ultimate_master(j);
      if (env.joint(j).mode != kJointModeIk) continue;
      has_column = true;
      bool seen = false;
      for (int c : sys.column_joint) seen = seen || c == j;
      if (seen) continue;
      const int axes = env.joint(j).type == kJointTypeSpherical ? 3 : 1;
      for (int a = 0; a < axes; ++a) {
        sys.column_joint.push_back(j);
        sys.column_axis.push_back(a);
      }
    }
    if (!has_column) continue;  // an element without IK joints is not valid
    GroupSystem::ElementCache ec;
    ec.index = int(index);
    ec.constraints = e.constraints;
    ec.tip_slot = env.slot(e.tip);
    ec.target_slot = env.slot(env.object(e.tip).linked_dummy);
    const int cbase = e.constraints_base >= 0 ? e.constraints_base : e.base;
    ec.base_slot = cbase >= 0 ? env.slot(cbase) : -1;
    mark_movers(env, e.tip, sys.moves_tip);
    mark_movers(env, cbase, sys.moves_base);
    ec.sign.assign(n, 0);
    for (size_t s = 0; s < n; ++s) ec.sign[s] = static_cast<signed char>(sys.moves_tip[s] - sys.moves_base[s]);
    sys.elements.push_back(std::move(ec));
    for (int bit = 0; bit < 3; ++bit) sys.cached_rows += (e.constraints >> bit) & 1;
    if (e.constraints & kConstraintAlphaBeta) sys.cached_rows += 2;
    if (e.constraints & kConstraintGamma) sys.cached_rows += 1;
  }
  sys.cached_valid = !sys.elements.empty();
  sys.has_dependents = false;
  for (size_t s = 0; s < n; ++s) {
    const Object& o = env.object_at(s);
    sys.has_dependents = sys.has_dependents || (o.type == kObjectTypeJoint && o.joint.master >= 0);
  }
  // per column: the master and, recursively, its dependents (dq_dep/dq_master = product of mults)
  const size_t cols = sys.column_joint.size();
  sys.movers.assign(cols, {});
  for (size_t col = 0; col < cols; ++col) {
    const int m = sys.column_joint[col];
    auto& list = sys.movers[col];
    list.emplace_back(env.slot(m), 1.0);
    if (env.joint(m).type == kJointTypeSpherical) continue;
    for (size_t k = 0; k < list.size(); ++k) {  // breadth-first over the dependency tree
      const int master = env.object_at(list[k].first).handle;
      for (size_t s = 0; s < n; ++s) {
        const Object& o = env.object_at(s);
        if (o.type == kObjectTypeJoint && o.joint.master == master)
          list.emplace_back(int(s), o.joint.mult * list[k].second);
      }
    }
  }
  compile_plan(env, sys);
}

}  // namespace

const GroupSystem& Environment::group_structure(int group_handle) {
  GroupSystem& sys = scratch_;
  if (sys.cached_group != group_handle || sys.cached_version != structure_version_)
    build_structure(*this, group(group_handle), sys);
  return sys;
}

void Environment::set_column_positions(int group_handle, const double* q) {
  const GroupSystem& sys = group_structure(group_handle);
  const size_t cols = sys.column_joint.size();
  for (size_t c = 0; c < cols; ++c)
    if (!std::isfinite(q[c])) throw std::invalid_argument("q must be finite");
  if (sys.spherical_columns)
    for (size_t c = 0; c < cols; ++c)
      if (joint(sys.column_joint[c]).type == kJointTypeSpherical)
        throw std::invalid_argument("q cannot set spherical joints (column " + std::to_string(c) +
                                    ")");
  if (sys.has_dependents) {
    // set_position_raw drives the dependents
    for (size_t c = 0; c < cols; ++c) set_position_raw(sys.column_joint[c], q[c]);
    return;
  }
  for (size_t c = 0; c < cols; ++c) {
    JointData& j = objects_[sys.column_slot[c]].joint;
    const double v = j.cyclic ? wrap_angle(q[c]) : std::min(std::max(q[c], j.min), j.min + j.range);
    j.overshoot = q[c] - v;
    j.position = v;
  }
}

bool Environment::evaluate_group(int group_handle, double interpolation, GroupSystem& sys,
                                 bool jacobian_only) const {
  const Group& g = group(group_handle);
  if (sys.cached_group != group_handle || sys.cached_version != structure_version_)
    build_structure(*this, g, sys);
  plan_forward(*this, sys, jacobian_only ? sys.plan_jacobian_nodes : int(sys.plan_nodes.size()));
  sys.row_type.clear();
  sys.worst_linear = 0.0;
  sys.worst_angular = 0.0;
  sys.within_tolerance = true;
  sys.position_missed = false;
  sys.orientation_missed = false;
  const int rows = sys.cached_rows;
  const int cols = int(sys.column_joint.size());
  if (!sys.cached_valid) {
    sys.J.setZero(rows, cols);
    sys.e.setZero(rows);
    sys.row_weight.setOnes(rows);
    return false;
  }
  plan_jacobian(*this, sys);
  if (jacobian_only) {
    sys.within_tolerance = false;
    return true;
  }
  sys.e.setZero(rows);
  sys.row_weight.setOnes(rows);

  int row = 0;
  for (const GroupSystem::ElementCache& ec : sys.elements) {
    const Element& e = g.elements[ec.index];
    const int c = e.constraints;
    // tip and target relative to the constraint base (quaternions only here, once per element)
    const Mat3 RbT = ec.base_node >= 0 ? Mat3(sys.world_R[ec.base_node].transpose())
                                        : Mat3::Identity();
    const Vec3 pb = ec.base_node >= 0 ? sys.world_p[ec.base_node] : Vec3::Zero();
    const Pose tip(Quat(Mat3(RbT * sys.world_R[ec.tip_node])),
                   RbT * (sys.world_p[ec.tip_node] - pb));
    const Pose target(Quat(Mat3(RbT * sys.world_R[ec.target_node])),
                      RbT * (sys.world_p[ec.target_node] - pb));

    // linearised error toward the target interpolated by `interpolation`
    const Vec3 dp = (target.p - tip.p) * interpolation;
    const Quat qg = adjusted_target(tip.q, target.q, c);
    const Quat qi = interpolation == 1.0 ? qg : tip.q.slerp(interpolation, qg);
    const Vec3 rot = rotvec_from_quat(tip.q.conjugate() * qi);
    for (int i = 0; i < 3; ++i)
      if (c & (1 << i)) {
        sys.e[row] = dp[i];
        sys.row_weight[row] = e.linear_weight * e.weight;
        sys.row_type.push_back(i);
        ++row;
      }
    if (c & kConstraintAlphaBeta) {
      for (int i = 0; i < 2; ++i) {
        sys.e[row] = rot[i];
        sys.row_weight[row] = e.angular_weight * e.weight;
        sys.row_type.push_back(3 + i);
        ++row;
      }
    }
    if (c & kConstraintGamma) {
      sys.e[row] = rot.z();
      sys.row_weight[row] = e.angular_weight * e.weight;
      sys.row_type.push_back(5);
      ++row;
    }

    // tolerance (§B6), against the real target
    double lin2 = 0.0;
    const Vec3 d = tip.p - target.p;
    for (int i = 0; i < 3; ++i)
      if (c & (1 << i)) lin2 += d[i] * d[i];
    // sqrt of the summed squares overflows to inf past ~1e154 m: then the scaled norm (hypot)
    const double lin = lin2 <= std::numeric_limits<double>::max()
                           ? std::sqrt(lin2)
                           : std::hypot((c & 1) ? d[0] : 0.0, (c & 2) ? d[1] : 0.0,
                                        (c & 4) ? d[2] : 0.0);
    double ang = 0.0;
    const bool ab = c & kConstraintAlphaBeta;
    const bool ga = c & kConstraintGamma;
    if (ab && ga) {
      ang = quat_angle(tip.q.conjugate() * target.q);
    } else if (ab) {
      const double dotz = (tip.q * Vec3::UnitZ()).dot(target.q * Vec3::UnitZ());
      ang = std::acos(std::max(-1.0, std::min(1.0, dotz)));
    } else if (ga) {
      ang = quat_angle(tip.q.conjugate() * qg);
    }
    sys.worst_linear = std::max(sys.worst_linear, lin);
    sys.worst_angular = std::max(sys.worst_angular, ang);
    if ((c & kConstraintPosition) && lin > e.linear_precision) sys.position_missed = true;
    if ((c & kConstraintOrientation) && ang > e.angular_precision) sys.orientation_missed = true;
  }
  sys.within_tolerance = !jacobian_only && !sys.position_missed && !sys.orientation_missed;
  return true;
}

}  // namespace torsion::ik
