// The compiled kinematics of an IK group: see kinematics_plan.hpp.
//
// Column rule (the analytic Jacobian of semantics.md §B3, as in jacobian.cpp): a joint with
// world axis a at world point o moves the tip (world point t) with linear velocity a x (t - o)
// (plus pitch * a for a screw) and angular velocity a; a prismatic joint with a. The terms of
// one column sum every joint the column moves (the master and its dependents, times d q / d q
// column), with sign -1 when the joint moves the constraint base instead of the tip. Linear
// rows are expressed in the constraint-base frame, angular rows in the tip frame.
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
  for (const GroupSystem::ElementCache& ec : sys.elements) add_with_ancestors(env, sys, ec.target_slot);
  for (GroupSystem::ElementCache& ec : sys.elements) {
    ec.tip_node = sys.plan_node_of_slot[ec.tip_slot];
    ec.target_node = sys.plan_node_of_slot[ec.target_slot];
    ec.base_node = ec.base_slot >= 0 ? sys.plan_node_of_slot[ec.base_slot] : -1;
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
        sys.plan_terms.push_back({sys.plan_node_of_slot[s], sys.column_axis[col], sign * coeff});
      }
    }
  }
  sys.plan_term_begin.push_back(int(sys.plan_terms.size()));
  sys.world_R.resize(sys.plan_nodes.size());
  sys.world_p.resize(sys.plan_nodes.size());
  sys.plan_pose_version = ~uint64_t(0);  // local matrices are filled by the next plan_forward
}

void plan_forward(const Environment& env, GroupSystem& sys, int node_count) {
  if (sys.plan_pose_version != env.pose_version()) {
    for (GroupSystem::PlanNode& node : sys.plan_nodes) {
      const Pose& local = env.object_at(node.slot).local;
      node.R_local = local.q.toRotationMatrix();
      node.p_local = local.p;
      node.rotated = !(node.R_local == Mat3::Identity());
    }
    sys.plan_pose_version = env.pose_version();
  }
  for (int i = 0; i < node_count; ++i) {
    const GroupSystem::PlanNode& node = sys.plan_nodes[i];
    Mat3& R = sys.world_R[i];
    Vec3& p = sys.world_p[i];
    if (node.parent < 0) {
      R = node.R_local;
      p = node.p_local;
    } else {
      const Mat3& Rp = sys.world_R[node.parent];
      p = sys.world_p[node.parent] + Rp * node.p_local;
      if (node.rotated)
        R.noalias() = Rp * node.R_local;
      else
        R = Rp;
    }
    if (node.kind == 0) continue;
    const JointData& j = env.object_at(node.slot).joint;
    if (node.kind == kJointTypeRevolute) {
      // R * Rz(q): mix the first two columns; the screw translates along z
      const double c = std::cos(j.position), s = std::sin(j.position);
      const Vec3 c0 = R.col(0), c1 = R.col(1);
      R.col(0) = c * c0 + s * c1;
      R.col(1) = c * c1 - s * c0;
      if (j.screw_pitch != 0.0) p += (j.screw_pitch * j.position) * R.col(2);
    } else if (node.kind == kJointTypePrismatic) {
      p += j.position * R.col(2);
    } else {
      R = R * j.spherical.toRotationMatrix();
    }
  }
}

void plan_jacobian(const Environment& env, const Group& g, GroupSystem& sys) {
  const int cols = int(sys.column_joint.size());
  sys.J.setZero(sys.cached_rows, cols);
  int row = 0;
  const int* begin = sys.plan_term_begin.data();
  for (const GroupSystem::ElementCache& ec : sys.elements) {
    const int c = g.elements[ec.index].constraints;
    const Vec3& tip = sys.world_p[ec.tip_node];
    const Mat3& Rt = sys.world_R[ec.tip_node];
    for (int col = 0; col < cols; ++col, ++begin) {
      Vec3 v = Vec3::Zero();  // world, at the tip
      Vec3 w = Vec3::Zero();  // world
      for (int t = begin[0]; t < begin[1]; ++t) {
        const GroupSystem::PlanTerm& term = sys.plan_terms[t];
        const int kind = sys.plan_nodes[term.node].kind;
        const Mat3& R = sys.world_R[term.node];
        if (kind == kJointTypePrismatic) {
          v += term.k * R.col(2);
          continue;
        }
        const Vec3 a = R.col(kind == kJointTypeSpherical ? term.axis : 2);
        Vec3 vj = a.cross(tip - sys.world_p[term.node]);
        if (kind == kJointTypeRevolute) {
          const double pitch = env.object_at(sys.plan_nodes[term.node].slot).joint.screw_pitch;
          if (pitch != 0.0) vj += pitch * a;
        }
        v += term.k * vj;
        w += term.k * a;
      }
      const Vec3 vr = ec.base_node >= 0 ? Vec3(sys.world_R[ec.base_node].transpose() * v) : v;
      const Vec3 wr = Rt.transpose() * w;
      int r = row;
      for (int i = 0; i < 3; ++i)
        if (c & (1 << i)) sys.J(r++, col) = vr[i];
      if (c & kConstraintAlphaBeta) {
        sys.J(r++, col) = wr.x();
        sys.J(r++, col) = wr.y();
      }
      if (c & kConstraintGamma) sys.J(r++, col) = wr.z();
    }
    for (int bit = 0; bit < 3; ++bit) row += (c >> bit) & 1;
    row += (c & kConstraintAlphaBeta ? 2 : 0) + (c & kConstraintGamma ? 1 : 0);
  }
}

}  // namespace torsion::ik
