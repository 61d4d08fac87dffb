#include "dynamics/articulated/model.hpp"

#include <cmath>
#include <stdexcept>

#include "core/check.hpp"

namespace torsion {

const char* joint_type_name(JointType type) {
  switch (type) {
    case JointType::kFixed: return "fixed";
    case JointType::kRevolute: return "revolute";
    case JointType::kPrismatic: return "prismatic";
    case JointType::kSpherical: return "spherical";
    case JointType::kFloating: return "floating";
  }
  return "unknown";
}

int joint_gc_size(JointType type) {
  switch (type) {
    case JointType::kFixed: return 0;
    case JointType::kRevolute:
    case JointType::kPrismatic: return 1;
    case JointType::kSpherical: return 4;
    case JointType::kFloating: return 7;
  }
  return 0;
}

int joint_gv_size(JointType type) {
  switch (type) {
    case JointType::kFixed: return 0;
    case JointType::kRevolute:
    case JointType::kPrismatic: return 1;
    case JointType::kSpherical: return 3;
    case JointType::kFloating: return 6;
  }
  return 0;
}

void ArticulatedModel::finalize() {
  const int nb = static_cast<int>(bodies.size());
  if (nb == 0) throw_invalid("an articulated system needs at least one body");
  nq = 0;
  nv = 0;
  floating_base = false;
  movable_joints.clear();
  dof_parent.clear();
  dof_body.clear();
  body_last_dof.assign(nb, -1);
  std::vector<int> depth(nb, 0);
  max_depth = 0;
  for (int i = 0; i < nb; ++i) {
    ArticulatedBody& b = bodies[i];
    if (b.parent >= i) throw_invalid("bodies must be in topological order (parent before child)");
    if (b.joint_type == JointType::kFloating && (i != 0 || b.parent != -1))
      throw_invalid("a floating joint is only supported as the root joint, joint '" +
                    b.joint_name + "'");
    if (b.joint_type == JointType::kFloating) floating_base = true;
    b.gc_index = nq;
    b.gc_size = joint_gc_size(b.joint_type);
    b.gv_index = nv;
    b.gv_size = joint_gv_size(b.joint_type);
    nq += b.gc_size;
    nv += b.gv_size;
    if (b.gv_size > 0) movable_joints.push_back(b.joint_name);
    b.placement_rotation_is_identity = b.joint_placement.rotation == Mat3::Identity();
    b.axis_index = -1;
    b.axis_sign = 1.0;
    for (int a = 0; a < 3; ++a) {
      if (std::abs(b.axis[a]) == 1.0) {
        b.axis_index = a;
        b.axis_sign = b.axis[a];
      }
    }
    depth[i] = b.parent < 0 ? 1 : depth[b.parent] + 1;
    max_depth = std::max(max_depth, depth[i]);
    // dof chain: within the joint, each dof's parent is the previous one
    int prev = b.parent < 0 ? -1 : body_last_dof[b.parent];
    for (int k = 0; k < b.gv_size; ++k) {
      dof_parent.push_back(prev);
      dof_body.push_back(i);
      prev = b.gv_index + k;
    }
    body_last_dof[i] = prev;
    if (!(b.mass >= 0.0) || !std::isfinite(b.mass))
      throw_invalid("body '" + b.name + "' has an invalid mass " + fmt(b.mass));
  }
  dof_ancestors.clear();
  dof_ancestor_start.assign(1, 0);
  for (int k = 0; k < nv; ++k) {
    for (int a = dof_parent[k]; a >= 0; a = dof_parent[a]) dof_ancestors.push_back(a);
    dof_ancestor_start.push_back(static_cast<int>(dof_ancestors.size()));
  }
  auto per_dof = [&](VecX& v, double fill) {
    if (v.size() != nv) v = VecX::Constant(nv, fill);
  };
  per_dof(lower, -kNoLimit);
  per_dof(upper, kNoLimit);
  per_dof(effort_limit, kNoLimit);
  per_dof(velocity_limit, kNoLimit);
  per_dof(damping, 0.0);
  per_dof(friction, 0.0);
  for (const auto& f : frames)
    if (f.body < 0 || f.body >= nb) throw_invalid("frame '" + f.name + "' has no valid body");
}

int ArticulatedModel::find_frame(const std::string& name) const {
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (frames[i].name == name) return static_cast<int>(i);
  return -1;
}

int ArticulatedModel::find_body(const std::string& name) const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].name == name) return static_cast<int>(i);
  return -1;
}

double ArticulatedModel::total_mass() const {
  double m = 0.0;
  for (const auto& b : bodies) m += b.mass;
  return m;
}

VecX ArticulatedModel::neutral_gc() const {
  VecX q = VecX::Zero(nq);
  for (const auto& b : bodies) {
    if (b.joint_type == JointType::kFloating) q[b.gc_index + 3] = 1.0;
    if (b.joint_type == JointType::kSpherical) q[b.gc_index] = 1.0;
  }
  return q;
}

ArticulatedData::ArticulatedData(const ArticulatedModel& model) {
  const std::size_t nb = model.bodies.size();
  q = model.neutral_gc();
  u = VecX::Zero(model.nv);
  body_rotation.assign(nb, Mat3::Identity());
  body_position.assign(nb, Vec3::Zero());
  S = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv);
  inertia.assign(nb, SpatialInertia());
  body_velocity.assign(nb, Vec6::Zero());
  body_acceleration.assign(nb, Vec6::Zero());
  body_force.assign(nb, Vec6::Zero());
  composite.assign(nb, SpatialInertia());
  mass_matrix = MatX::Zero(model.nv, model.nv);
  nonlinear = VecX::Zero(model.nv);
  factor_l = VecX::Zero(static_cast<Eigen::Index>(model.dof_ancestors.size()));
  factor_d = VecX::Zero(model.nv);
}

}  // namespace torsion
