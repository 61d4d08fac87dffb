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

// world poses of the full frames of every object, memoised in sys.full
void compute_full_poses(const Environment& env, GroupSystem& sys) {
  const size_t n = env.object_count();
  sys.full.resize(n);
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
    for (size_t k = sys.chain.size(); k-- > 0;) {
      const int c = sys.chain[k];
      const Object& o = env.object_at(c);
      acc = acc * o.local * env.joint_intrinsic(o.handle);
      sys.full[c] = acc;
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

}  // namespace

bool Environment::evaluate_group(int group_handle, double interpolation,
                                 GroupSystem& sys) const {
  const Group& g = group(group_handle);
  compute_full_poses(*this, sys);
  sys.column_joint.clear();
  sys.column_axis.clear();
  sys.row_type.clear();
  sys.worst_linear = 0.0;
  sys.worst_angular = 0.0;
  sys.within_tolerance = true;
  sys.position_missed = false;
  sys.orientation_missed = false;

  // ---- columns: the union of every valid element's IK joints, first-seen, base -> tip ----
  int valid = 0;
  int rows = 0;
  for (const Element& e : g.elements) {
    if (!e.enabled || object(e.tip).linked_dummy < 0) continue;
    sys.chain.clear();
    for (int h = object(e.tip).parent; h >= 0 && h != e.base; h = object(h).parent)
      if (object(h).type == kObjectTypeJoint) sys.chain.push_back(h);
    bool has_column = false;
    for (size_t k = sys.chain.size(); k-- > 0;) {
      int j = sys.chain[k];
      if (joint(j).master >= 0) j = ultimate_master(j);
      if (joint(j).mode != kJointModeIk) continue;
      has_column = true;
      bool seen = false;
      for (int c : sys.column_joint) seen = seen || c == j;
      if (seen) continue;
      const int axes = joint(j).type == kJointTypeSpherical ? 3 : 1;
      for (int a = 0; a < axes; ++a) {
        sys.column_joint.push_back(j);
        sys.column_axis.push_back(a);
      }
    }
    if (!has_column) continue;
    ++valid;
    for (int bit = 0; bit < 3; ++bit) rows += (e.constraints >> bit) & 1;
    if (e.constraints & kConstraintAlphaBeta) rows += 2;
    if (e.constraints & kConstraintGamma) rows += 1;
  }
  const int cols = int(sys.column_joint.size());
  sys.J.setZero(rows, cols);
  sys.e.setZero(rows);
  sys.row_weight.setOnes(rows);
  if (valid == 0) return false;

  bool any_dependency = false;
  for (const Object& o : objects_)
    any_dependency = any_dependency || (o.type == kObjectTypeJoint && o.joint.master >= 0);

  // ---- rows, element by element ----
  int row = 0;
  for (const Element& e : g.elements) {
    if (!e.enabled || object(e.tip).linked_dummy < 0) continue;
    // (an element without IK joints was counted invalid above; it adds no rows)
    bool has_column = false;
    for (int h = object(e.tip).parent; h >= 0 && h != e.base; h = object(h).parent)
      if (object(h).type == kObjectTypeJoint) {
        const int j = joint(h).master >= 0 ? ultimate_master(h) : h;
        has_column = has_column || joint(j).mode == kJointModeIk;
      }
    if (!has_column) continue;

    const int cbase = e.constraints_base >= 0 ? e.constraints_base : e.base;
    const Pose base_world = cbase >= 0 ? sys.full[slot(cbase)] : Pose();
    const Pose base_inv = base_world.inverse();
    const Pose tip_world = sys.full[slot(e.tip)];
    const Pose target_world = sys.full[slot(object(e.tip).linked_dummy)];
    const Pose tip = base_inv * tip_world;
    const Pose target = base_inv * target_world;
    const Mat3 Rb = base_world.q.toRotationMatrix();
    const Mat3 Rt = tip_world.q.toRotationMatrix();

    // which joints move the tip, which move the constraint base
    mark_movers(*this, e.tip, sys.moves_tip);
    mark_movers(*this, cbase, sys.moves_base);

    // J for this element's rows: the relative twist of the tip w.r.t. the constraint base
    const int first_row = row;
    const int c = e.constraints;
    for (int col = 0; col < cols; ++col) {
      const int m = sys.column_joint[col];
      const int axis = sys.column_axis[col];
      Vec3 v = Vec3::Zero();  // world, at the tip
      Vec3 w = Vec3::Zero();  // world
      auto add_joint = [&](int j, double coeff) {
        const int s = slot(j);
        const double sign = double(sys.moves_tip[s]) - double(sys.moves_base[s]);
        if (sign == 0.0 || coeff == 0.0) return;
        const Object& o = objects_[s];
        const Pose& f = sys.full[s];
        const JointData& jd = o.joint;
        Vec3 vj, wj;
        if (jd.type == kJointTypePrismatic) {
          wj.setZero();
          vj = f.q * Vec3::UnitZ();
        } else {
          wj = jd.type == kJointTypeSpherical ? Vec3(f.q * Vec3::Unit(axis))
                                              : Vec3(f.q * Vec3::UnitZ());
          vj = wj.cross(tip_world.p - f.p);
          if (jd.type == kJointTypeRevolute) vj += jd.screw_pitch * wj;
        }
        v += (sign * coeff) * vj;
        w += (sign * coeff) * wj;
      };
      add_joint(m, 1.0);
      if (any_dependency && joint(m).type != kJointTypeSpherical) {
        // dependents of m, recursively: coefficient = product of mults along the chain
        sys.coeff.assign(objects_.size(), 0.0);
        sys.coeff[slot(m)] = 1.0;
        bool changed = true;
        while (changed) {  // dependency trees are acyclic and shallow
          changed = false;
          for (size_t s = 0; s < objects_.size(); ++s) {
            const Object& o = objects_[s];
            if (o.type != kObjectTypeJoint || o.joint.master < 0 || sys.coeff[s] != 0.0) continue;
            const double cm = sys.coeff[slot(o.joint.master)];
            if (cm == 0.0) continue;
            sys.coeff[s] = o.joint.mult * cm;
            if (sys.coeff[s] == 0.0) continue;
            add_joint(o.handle, sys.coeff[s]);
            changed = true;
          }
        }
      }
      const Vec3 vr = Rb.transpose() * v;   // constraint-base frame
      const Vec3 wr = Rt.transpose() * w;   // tip frame
      int r = first_row;
      for (int k = 0; k < 3; ++k)
        if (c & (1 << k)) sys.J(r++, col) = vr[k];
      if (c & kConstraintAlphaBeta) {
        sys.J(r++, col) = wr.x();
        sys.J(r++, col) = wr.y();
      }
      if (c & kConstraintGamma) sys.J(r++, col) = wr.z();
    }

    // linearised error toward the target interpolated by `interpolation`
    const Vec3 dp = (target.p - tip.p) * interpolation;
    const Quat qg = adjusted_target(tip.q, target.q, c);
    const Quat qi = tip.q.slerp(interpolation, qg);
    const Vec3 rot = rotvec_from_quat(tip.q.conjugate() * qi);
    for (int k = 0; k < 3; ++k)
      if (c & (1 << k)) {
        sys.e[row] = dp[k];
        sys.row_weight[row] = e.linear_weight * e.weight;
        sys.row_type.push_back(k);
        ++row;
      }
    if (c & kConstraintAlphaBeta) {
      for (int k = 0; k < 2; ++k) {
        sys.e[row] = rot[k];
        sys.row_weight[row] = e.angular_weight * e.weight;
        sys.row_type.push_back(3 + k);
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
    for (int k = 0; k < 3; ++k)
      if (c & (1 << k)) lin2 += d[k] * d[k];
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
  sys.within_tolerance = !sys.position_missed && !sys.orientation_missed;
  return true;
}

}  // namespace torsion::ik
