// The group Jacobian and the linearised error, analytic (semantics.md §B3).
//
// Coppelia fills J by forward differences with dq = 0.01; torsion differentiates exactly. Each
// column is one IK joint (a dependent joint is folded into its ultimate master with the chain
// rule dq_slave/dq_master = product of mults; a spherical joint gives three columns, rotations
// about its own moving x, y, z axes). Rows, per enabled element and in this order:
//   x, y, z      d(tip position relative to the constraint base)/dq, in the constraint-base frame
//   alpha, beta  d(tip rotation relative to the constraint base)/dq as a rotation vector in the
//   gamma        tip's own frame (x, y / z components); the first-order limit of Coppelia's
//                Euler angles of tipQ^-1 * baseQ * baseQ'^-1 * tipQ'.
// The orientation error is the exact log map of tipQ^-1 * targetQ (Coppelia: Euler angles of a
// 0.01 slerp step divided by 0.01, which agrees to first order).
#include <cmath>

#include "ik/environment.hpp"

namespace torsion::ik {

namespace {

// world poses (and rotation matrices) of the full frames of every object, memoised in sys.full
// and sys.rot. Positions are composed with the matrices (cheaper than quaternion rotations).
void compute_full_poses(const Environment& env, GroupSystem& sys) {
  const size_t n = env.object_count();
  sys.full.resize(n);
  sys.rot.resize(n);
  sys.full_done.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (sys.full_done[i]) continue;
    // climb to the first computed ancestor (or the root), then compose back down
    sys.chain.clear();
    int s = int(i);
    while (s >= 0 && !sys.full_done[s]) {
      sys.chain.push_back(s);
      const int parent = env.object_at(s).parent;
      s = parent < 0 ? -1 : env.slot(parent);
    }
    Pose acc = s >= 0 ? sys.full[s] : Pose();
    Mat3 R = s >= 0 ? sys.rot[s] : Mat3::Identity();
    for (size_t k = sys.chain.size(); k-- > 0;) {
      const int c = sys.chain[k];
      const Object& o = env.object_at(c);
      acc.p += R * o.local.p;
      acc.q = acc.q * o.local.q;
      R = acc.q.toRotationMatrix();
      if (o.type == kObjectTypeJoint) {
        const JointData& j = o.joint;
        if (j.type == kJointTypePrismatic) {
          acc.p += j.position * R.col(2);
        } else if (j.type == kJointTypeRevolute) {
          const double h = 0.5 * j.position;
          const double ch = std::cos(h), sh = std::sin(h);
          acc.p += (j.screw_pitch * j.position) * R.col(2);
          acc.q = acc.q * Quat(ch, 0.0, 0.0, sh);
          // R * Rz(q): mix the first two columns
          const double cq = ch * ch - sh * sh, sq = 2.0 * sh * ch;
          const Vec3 c0 = R.col(0), c1 = R.col(1);
          R.col(0) = cq * c0 + sq * c1;
          R.col(1) = cq * c1 - sq * c0;
        } else {
          acc.q = acc.q * j.spherical;
          R = acc.q.toRotationMatrix();
        }
      }
      sys.full[c] = acc;
      sys.rot[c] = R;
      sys.full_done[c] = 1;
    }
  }
}

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
  for (size_t c = 0; c < sys.column_joint.size(); ++c) {
    if (!std::isfinite(q[c])) throw std::invalid_argument("q must be finite");
    if (joint(sys.column_joint[c]).type == kJointTypeSpherical)
      throw std::invalid_argument("q cannot set spherical joints (column " + std::to_string(c) + ")");
  }
  for (size_t c = 0; c < sys.column_joint.size(); ++c) {
    Object& o = objects_[slot(sys.column_joint[c])];
    JointData& j = o.joint;
    if (sys.has_dependents) {
      set_position_raw(o.handle, q[c]);  // drives dependents
      continue;
    }
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
  compute_full_poses(*this, sys);
  sys.row_type.clear();
  sys.worst_linear = 0.0;
  sys.worst_angular = 0.0;
  sys.within_tolerance = true;
  sys.position_missed = false;
  sys.orientation_missed = false;
  const int rows = sys.cached_rows;
  const int cols = int(sys.column_joint.size());
  sys.J.setZero(rows, cols);
  sys.e.setZero(rows);
  sys.row_weight.setOnes(rows);
  if (!sys.cached_valid) return false;

  int row = 0;
  for (const GroupSystem::ElementCache& ec : sys.elements) {
    const Element& e = g.elements[ec.index];
    const Pose base_world = ec.base_slot >= 0 ? sys.full[ec.base_slot] : Pose();
    const Pose base_inv = base_world.inverse();
    const Pose& tip_world = sys.full[ec.tip_slot];
    const Pose tip = base_inv * tip_world;
    const Pose target = base_inv * sys.full[ec.target_slot];
    const Mat3 RbT = ec.base_slot >= 0 ? Mat3(sys.rot[ec.base_slot].transpose()) : Mat3::Identity();
    const Mat3 RtT = sys.rot[ec.tip_slot].transpose();
    const int c = e.constraints;

    // J: the relative twist of the tip w.r.t. the constraint base, per column
    for (int col = 0; col < cols; ++col) {
      const int axis = sys.column_axis[col];
      Vec3 v = Vec3::Zero();  // world, at the tip
      Vec3 w = Vec3::Zero();  // world
      for (const auto& [s, coeff] : sys.movers[col]) {
        const double sign = ec.sign[s];
        if (sign == 0.0 || coeff == 0.0) continue;
        const JointData& jd = objects_[s].joint;
        const Mat3& R = sys.rot[s];
        const double k = sign * coeff;
        if (jd.type == kJointTypePrismatic) {
          v += k * R.col(2);
          continue;
        }
        const Vec3 a = jd.type == kJointTypeSpherical ? Vec3(R.col(axis)) : Vec3(R.col(2));
        Vec3 vj = a.cross(tip_world.p - sys.full[s].p);
        if (jd.type == kJointTypeRevolute) vj += jd.screw_pitch * a;
        v += k * vj;
        w += k * a;
      }
      const Vec3 vr = RbT * v;  // constraint-base frame
      const Vec3 wr = RtT * w;  // tip frame
      int r = row;
      for (int i = 0; i < 3; ++i)
        if (c & (1 << i)) sys.J(r++, col) = vr[i];
      if (c & kConstraintAlphaBeta) {
        sys.J(r++, col) = wr.x();
        sys.J(r++, col) = wr.y();
      }
      if (c & kConstraintGamma) sys.J(r++, col) = wr.z();
    }
    if (jacobian_only) {
      for (int bit = 0; bit < 3; ++bit) row += (c >> bit) & 1;
      row += (c & kConstraintAlphaBeta ? 2 : 0) + (c & kConstraintGamma ? 1 : 0);
      continue;
    }

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
    const double lin = std::sqrt(lin2);
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
