// The compiled kinematics of an IK group: see kinematics_plan.hpp.
//
// Column rule (the analytic Jacobian of semantics.md §B3, as in jacobian.cpp): a joint with
// world axis a at world point o moves the tip (world point t) with linear velocity a x (t - o)
// (plus pitch * a for a screw) and angular velocity a; a prismatic joint with a. The terms of
// one column sum every joint the column moves (the master and its dependents, times d q / d q
// column), with sign -1 when the joint moves the constraint base instead of the tip, leaving out
// dependents held at a limit (held_at_limit). Linear rows are expressed in the constraint-base
// frame, angular rows in the tip frame.
#include "ik/kinematics_plan.hpp"

#include <cmath>

namespace torsion::ik {

namespace {

// adds the object at `slot` and its missing ancestors as nodes, parent first
void add_with_ancestors(const Environment& env, GroupSystem& sys, int slot) {
  sys.chain.clear();
  for (int s = slot; s >= 0 && sys.plan_node_of_slot[s] < 0;) {
    sys.chain.push_back(s);
    const int parent = env.object_at(s).parent;
    s = parent < 0 ? -1 : env.slot(parent);
  }
  for (size_t k = sys.chain.size(); k-- > 0;) {
    const int s = sys.chain[k];
    const Object& o = env.object_at(s);
    GroupSystem::PlanNode node;
    node.slot = s;
    node.parent = o.parent < 0 ? -1 : sys.plan_node_of_slot[env.slot(o.parent)];
    node.kind = o.type == kObjectTypeJoint ? o.joint.type : 0;
    sys.plan_node_of_slot[s] = int(sys.plan_nodes.size());
    sys.plan_nodes.push_back(node);
  }
}

}  // namespace

void compile_plan(const Environment& env, GroupSystem& sys) {
  sys.plan_nodes.clear();
  sys.plan_node_of_slot.assign(env.object_count(), -1);
  // tips and constraint bases first: the Jacobian needs only this prefix
  for (const GroupSystem::ElementCache& ec : sys.elements) {
    add_with_ancestors(env, sys, ec.tip_slot);
    if (ec.base_slot >= 0) add_with_ancestors(env, sys, ec.base_slot);
  }
  sys.plan_jacobian_nodes = int(sys.plan_nodes.size());
  for (const GroupSystem::ElementCache& ec : sys.elements)
    add_with_ancestors(env, sys, ec.target_slot);
  int row = 0;
  for (GroupSystem::ElementCache& ec : sys.elements) {
    ec.tip_node = sys.plan_node_of_slot[ec.tip_slot];
    ec.target_node = sys.plan_node_of_slot[ec.target_slot];
    ec.base_node = ec.base_slot >= 0 ? sys.plan_node_of_slot[ec.base_slot] : -1;
    // rows x, y, z, alpha, beta, gamma of the constraints, from the twist (v, w): x, y, z are
    // v's components, alpha, beta, gamma w's
    const int c = ec.constraints;
    ec.row_offset = row;
    ec.row_count = 0;
    for (int i = 0; i < 3; ++i)
      if (c & (1 << i)) ec.row_source[ec.row_count++] = i;
    if (c & kConstraintAlphaBeta) {
      ec.row_source[ec.row_count++] = 3;
      ec.row_source[ec.row_count++] = 4;
    }
    if (c & kConstraintGamma) ec.row_source[ec.row_count++] = 5;
    row += ec.row_count;
  }
  // column joints by slot (set_column_positions)
  sys.column_slot.clear();
  sys.spherical_columns = false;
  for (int h : sys.column_joint) {
    sys.column_slot.push_back(env.slot(h));
    sys.spherical_columns = sys.spherical_columns || env.joint(h).type == kJointTypeSpherical;
  }
  // the joint terms of every (element, column)
  const size_t cols = sys.column_joint.size();
  sys.plan_terms.clear();
  sys.plan_term_begin.clear();
  for (const GroupSystem::ElementCache& ec : sys.elements) {
    for (size_t col = 0; col < cols; ++col) {
      sys.plan_term_begin.push_back(int(sys.plan_terms.size()));
      for (const auto& [s, coeff] : sys.movers[col]) {
        const int sign = ec.sign[s];
        if (sign == 0 || coeff == 0.0) continue;
        // a joint that moves the tip or the base is their ancestor: it is a node
        const int node = sys.plan_node_of_slot[s];
        sys.plan_terms.push_back(
            {node, sys.plan_nodes[node].kind, sys.column_axis[col], sign * coeff});
      }
    }
  }
  sys.plan_term_begin.push_back(int(sys.plan_terms.size()));
  sys.world_R.resize(sys.plan_nodes.size());
  sys.world_p.resize(sys.plan_nodes.size());
  sys.plan_pose_version = ~uint64_t(0);  // local matrices are filled by the next plan_forward
}

namespace {

// true when every entry of R is within kSnap of 0 or +-1 (a rotation by multiples of 90
// degrees, as URDF rpy values of pi/2 give); fills the permutation and the signs
constexpr double kSnap = 1e-14;
bool signed_permutation(const Mat3& R, int perm[3], double sign[3]) {
  for (int c = 0; c < 3; ++c) {
    int found = -1;
    for (int r = 0; r < 3; ++r) {
      const double x = R(r, c);
      if (std::abs(x) <= kSnap) continue;
      if (std::abs(std::abs(x) - 1.0) > kSnap || found >= 0) return false;
      found = r;
      sign[c] = x > 0.0 ? 1.0 : -1.0;
    }
    if (found < 0) return false;
    perm[c] = found;
  }
  return true;
}

}  // namespace

void plan_forward(const Environment& env, GroupSystem& sys, int node_count) {
  const Object* objects = env.objects_data();
  if (sys.plan_pose_version != env.pose_version()) {
    for (GroupSystem::PlanNode& node : sys.plan_nodes) {
      const Pose& local = objects[node.slot].local;
      node.R_local = local.q.toRotationMatrix();
      node.p_local = local.p;
      node.rotated = !(node.R_local == Mat3::Identity());
      node.permutation = node.rotated && signed_permutation(node.R_local, node.perm, node.sign);
    }
    sys.plan_pose_version = env.pose_version();
  }
  const GroupSystem::PlanNode* nodes = sys.plan_nodes.data();
  Mat3* world_R = sys.world_R.data();
  Vec3* world_p = sys.world_p.data();
  for (int i = 0; i < node_count; ++i) {
    const GroupSystem::PlanNode& node = nodes[i];
    Mat3& R = world_R[i];
    Vec3& p = world_p[i];
    if (node.parent < 0) {
      R = node.R_local;
      p = node.p_local;
    } else {
      const Mat3& Rp = world_R[node.parent];
      p.noalias() = world_p[node.parent] + Rp * node.p_local;
      if (node.permutation) {
        for (int c = 0; c < 3; ++c) R.col(c) = node.sign[c] * Rp.col(node.perm[c]);
      } else if (node.rotated) {
        R.noalias() = Rp * node.R_local;
      } else {
        R = Rp;
      }
    }
    if (node.kind == 0) continue;
    const JointData& j = objects[node.slot].joint;
    if (node.kind == kJointTypeRevolute) {
      // R * Rz(q): mix the first two columns; the screw translates along z
      const double c = std::cos(j.position), s = std::sin(j.position);
      for (int r = 0; r < 3; ++r) {
        const double x = R(r, 0), y = R(r, 1);
        R(r, 0) = c * x + s * y;
        R(r, 1) = c * y - s * x;
      }
      if (j.screw_pitch != 0.0) p += (j.screw_pitch * j.position) * R.col(2);
    } else if (node.kind == kJointTypePrismatic) {
      p += j.position * R.col(2);
    } else {
      R = R * j.spherical.toRotationMatrix();
    }
  }
}

namespace {

// A dependent joint clamped at a limit does not follow its master (set_position_raw clamps it),
// nor then do its own dependents: its term is dropped so that J is the derivative of the actual
// tip motion. Its requested position (mult * master + offset) beyond a limit holds it for any
// small move; exactly at a limit the direction is decided as the seed's Jacobian fill decides it,
// by moving the column forward (+dq): a dependent requested at its upper limit with
// d q_dep / d q_column > 0 (or at its lower limit with < 0) stays put; one that the forward move
// takes back inside the interval keeps its term.
bool held_at_limit(const Environment& env, GroupSystem& sys, int slot, int column_slot) {
  const Object* objects = env.objects_data();
  sys.chain.clear();  // the dependency path column joint -> ... -> slot, collected upward
  for (int s = slot; s != column_slot; s = env.slot(objects[s].joint.master))
    sys.chain.push_back(s);
  double c = 1.0;  // d q / d q_column along the path, from the column joint down
  for (size_t k = sys.chain.size(); k-- > 0;) {
    const JointData& j = objects[sys.chain[k]].joint;
    c *= j.mult;
    if (j.cyclic || j.type == kJointTypeSpherical) continue;
    const double requested = j.mult * objects[env.slot(j.master)].joint.position + j.offset;
    const double lo = j.min, hi = j.min + j.range;
    if (requested > hi || requested < lo || (c > 0.0 && requested == hi) ||
        (c < 0.0 && requested == lo))
      return true;
  }
  return false;
}

// the world twist (v at the tip, w) that column terms [t0, t1) give the tip relative to the base
void column_twist(const Environment& env, GroupSystem& sys, int col, int t0, int t1,
                  const Vec3& tip, Vec3& v, Vec3& w) {
  const Object* objects = env.objects_data();
  v.setZero();
  w.setZero();
  for (int t = t0; t < t1; ++t) {
    const GroupSystem::PlanTerm& term = sys.plan_terms[t];
    const int slot = sys.plan_nodes[term.node].slot;
    if (slot != sys.column_slot[col] && held_at_limit(env, sys, slot, sys.column_slot[col]))
      continue;
    const Mat3& R = sys.world_R[term.node];
    if (term.kind == kJointTypePrismatic) {
      v += term.k * R.col(2);
      continue;
    }
    const Vec3 a = R.col(term.kind == kJointTypeSpherical ? term.axis : 2);
    Vec3 vj = a.cross(tip - sys.world_p[term.node]);
    if (term.kind == kJointTypeRevolute) {
      const double pitch = objects[sys.plan_nodes[term.node].slot].joint.screw_pitch;
      if (pitch != 0.0) vj += pitch * a;
    }
    v += term.k * vj;
    w += term.k * a;
  }
}

}  // namespace

void plan_jacobian(const Environment& env, GroupSystem& sys) {
  const int cols = int(sys.column_joint.size());
  sys.J.resize(sys.cached_rows, cols);
  const Object* objects = env.objects_data();
  const GroupSystem::PlanTerm* terms = sys.plan_terms.data();
  const int* begin = sys.plan_term_begin.data();
  const Mat3* world_R = sys.world_R.data();
  const Vec3* world_p = sys.world_p.data();
  for (const GroupSystem::ElementCache& ec : sys.elements) {
    const Vec3 tip = world_p[ec.tip_node];
    const Mat3 RtT = world_R[ec.tip_node].transpose();
    // linear rows in the constraint-base frame: skip the rotation when it is the identity
    const bool base_rotated = ec.base_node >= 0 && !(world_R[ec.base_node] == Mat3::Identity());
    const Mat3 RbT = base_rotated ? Mat3(world_R[ec.base_node].transpose()) : Mat3::Identity();
    for (int col = 0; col < cols; ++col, ++begin) {
      Vec3 v, w;  // world; v at the tip
      const GroupSystem::PlanTerm* first = terms + begin[0];
      const int first_slot = sys.plan_nodes[first->node].slot;
      if (begin[1] - begin[0] == 1 && first->kind == kJointTypeRevolute && first->k == 1.0 &&
          first_slot == sys.column_slot[col] && objects[first_slot].joint.screw_pitch == 0.0) {
        w = world_R[first->node].col(2);  // the common case: one plain revolute joint
        v = w.cross(tip - world_p[first->node]);
      } else {
        column_twist(env, sys, col, begin[0], begin[1], tip, v, w);
      }
      double twist[6];
      Eigen::Map<Vec3> vr(twist), wr(twist + 3);
      if (base_rotated)
        vr.noalias() = RbT * v;
      else
        vr = v;
      wr.noalias() = RtT * w;
      double* out = sys.J.data() + Eigen::Index(col) * sys.cached_rows + ec.row_offset;
      for (int r = 0; r < ec.row_count; ++r) out[r] = twist[ec.row_source[r]];
    }
  }
}

}  // namespace torsion::ik
