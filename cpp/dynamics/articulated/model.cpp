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
  ncol = 0;
  floating_base = false;
  has_mimic = false;
  movable_joints.clear();
  std::vector<int> depth(nb, 0);
  max_depth = 0;
  // gc/gv slices and columns
  for (int i = 0; i < nb; ++i) {
    ArticulatedBody& b = bodies[i];
    if (b.parent >= i) throw_invalid("bodies must be in topological order (parent before child)");
    if (b.joint_type == JointType::kFloating && (i != 0 || b.parent != -1))
      throw_invalid("a floating joint is only supported as the root joint, joint '" +
                    b.joint_name + "'");
    if (b.joint_type == JointType::kFloating) floating_base = true;
    if (b.is_mimic()) {
      if (b.joint_type != JointType::kRevolute && b.joint_type != JointType::kPrismatic)
        throw_invalid("mimic joint '" + b.joint_name + "' must be revolute or prismatic, it is " +
                      joint_type_name(b.joint_type));
      if (!std::isfinite(b.mimic_multiplier) || !std::isfinite(b.mimic_offset))
        throw_invalid("mimic joint '" + b.joint_name + "' needs a finite multiplier and offset");
      has_mimic = true;
    }
    b.gc_index = nq;
    b.gc_size = b.is_mimic() ? 0 : joint_gc_size(b.joint_type);
    b.gv_index = nv;
    b.gv_size = b.is_mimic() ? 0 : joint_gv_size(b.joint_type);
    b.col_index = ncol;
    b.col_size = b.is_mimic() ? 1 : b.gv_size;
    nq += b.gc_size;
    nv += b.gv_size;
    ncol += b.col_size;
    if (b.gv_size > 0) movable_joints.push_back(b.joint_name);
    b.placement_rotation_is_identity = b.joint_placement.rotation == Mat3::Identity();
    const Mat3& in = b.inertia;
    b.inertia_is_diagonal = in(0, 1) == 0.0 && in(0, 2) == 0.0 && in(1, 2) == 0.0 &&
                            in(1, 0) == 0.0 && in(2, 0) == 0.0 && in(2, 1) == 0.0;
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
    if (!(b.mass >= 0.0) || !std::isfinite(b.mass))
      throw_invalid("body '" + b.name + "' has an invalid mass " + fmt(b.mass));
  }
  quaternion_gc.clear();
  quaternion_body.clear();
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = bodies[i];
    if (b.joint_type != JointType::kFloating && b.joint_type != JointType::kSpherical) continue;
    quaternion_gc.push_back(b.joint_type == JointType::kFloating ? b.gc_index + 3 : b.gc_index);
    quaternion_body.push_back(i);
  }
  // masters of the mimic joints (their indices are known now)
  for (ArticulatedBody& b : bodies) {
    if (!b.is_mimic()) continue;
    if (b.mimic_body >= nb) throw_invalid("mimic joint '" + b.joint_name + "' has no valid master");
    const ArticulatedBody& m = bodies[b.mimic_body];
    if (m.is_mimic() || m.gv_size != 1 ||
        (m.joint_type != JointType::kRevolute && m.joint_type != JointType::kPrismatic))
      throw_invalid("mimic joint '" + b.joint_name + "' must mimic a revolute or prismatic joint "
                    "that is not itself a mimic, '" + m.joint_name + "' is not");
    b.mimic_dof = m.gv_index;
    b.mimic_gc = m.gc_index;
  }
  // column tree: within a joint, each column's parent is the previous one
  col_parent.clear();
  col_body.clear();
  col_dof.clear();
  col_weight.clear();
  dof_body.assign(nv, -1);
  body_last_col.assign(nb, -1);
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = bodies[i];
    int prev = b.parent < 0 ? -1 : body_last_col[b.parent];
    for (int k = 0; k < b.col_size; ++k) {
      col_parent.push_back(prev);
      col_body.push_back(i);
      col_dof.push_back(b.is_mimic() ? b.mimic_dof : b.gv_index + k);
      col_weight.push_back(b.is_mimic() ? b.mimic_multiplier : 1.0);
      prev = b.col_index + k;
    }
    body_last_col[i] = prev;
    for (int k = 0; k < b.gv_size; ++k) dof_body[b.gv_index + k] = i;
  }
  // the factorisation's pattern: the tree of the dofs, or dense with mimic joints
  dof_parent.assign(nv, -1);
  for (int c = 0; c < ncol; ++c) {
    if (bodies[col_body[c]].is_mimic()) continue;
    int p = col_parent[c];
    while (p >= 0 && bodies[col_body[p]].is_mimic()) p = col_parent[p];  // skip mimic columns
    dof_parent[col_dof[c]] = p < 0 ? -1 : col_dof[p];
  }
  if (has_mimic)
    for (int k = 0; k < nv; ++k) dof_parent[k] = k - 1;
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
  per_dof(armature, 0.0);
  has_armature = armature.size() > 0 && armature.cwiseAbs().maxCoeff() > 0.0;
  if (!limit_softness.empty() && limit_softness.size() != static_cast<std::size_t>(nv))
    throw_invalid("limit_softness must be empty or have one entry per dof");
  if (!collision_parent.empty() && collision_parent.size() != bodies.size())
    throw_invalid("collision_parent must be empty or have one entry per body");
  for (const auto& f : frames)
    if (f.body < 0 || f.body >= nb) throw_invalid("frame '" + f.name + "' has no valid body");
  for (auto& c : collisions)
    c.placement_rotation_is_identity = c.placement.rotation == Mat3::Identity();
}

int ArticulatedModel::find_frame(const std::string& name) const {
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (frames[i].name == name) return static_cast<int>(i);
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (!frames[i].link.empty() && frames[i].link == name) return static_cast<int>(i);
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
  S = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.ncol);
  inertia.assign(nb, SpatialInertia());
  body_velocity.assign(nb, Vec6::Zero());
  body_acceleration.assign(nb, Vec6::Zero());
  body_force.assign(nb, Vec6::Zero());
  composite.assign(nb, SpatialInertia());
  mass_matrix = MatX::Zero(model.nv, model.nv);
  nonlinear = VecX::Zero(model.nv);
  mass_packed = VecX::Zero(static_cast<Eigen::Index>(model.dof_ancestors.size()));
  factor_l = VecX::Zero(static_cast<Eigen::Index>(model.dof_ancestors.size()));
  factor_d = VecX::Zero(model.nv);
  factor_dinv = VecX::Zero(model.nv);
}

}  // namespace torsion
