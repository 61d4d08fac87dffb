// Recursive Newton-Euler algorithm in the world frame (Featherstone, RBDA section 5.3, with all
// spatial vectors in world axes about the reference point data.ref).
#include "dynamics/articulated/dynamics.hpp"

namespace torsion {

namespace {

// udot may be nullptr (zero acceleration)
void rnea_impl(const ArticulatedModel& model, ArticulatedData& data, const double* udot,
               const Vec3& gravity, const std::vector<Vec6>* f_ext, Eigen::Ref<VecX> tau) {
  const int nb = static_cast<int>(model.bodies.size());
  if (!data.inertias_valid) update_inertias(model, data);
  // gravity enters as an upward acceleration of the world
  const Vec6 a_world = vec6(Vec3::Zero(), -gravity);

  // forward pass: velocities, accelerations and the net force on each body
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    const bool root = b.parent < 0;
    const Vec6 v_parent = root ? Vec6::Zero() : data.body_velocity[b.parent];
    Vec6 v_joint = Vec6::Zero(), a_joint = Vec6::Zero();
    for (int c = b.col_index; c < b.col_index + b.col_size; ++c) {
      // column c moves at w u[k] (w = 1 and k = c without mimic joints)
      const int k = model.col_dof[c];
      const double w = model.col_weight[c];
      v_joint += data.S.col(c) * (w * data.u[k]);
      if (udot) a_joint += data.S.col(c) * (w * udot[k]);
    }
    const Vec6 v = v_parent + v_joint;
    Vec6 a = (root ? a_world : data.body_acceleration[b.parent]) + a_joint;
    if (b.joint_type == JointType::kFloating) {
      // the floating columns are fixed in the world, but the reference point moves with the
      // root origin: d/dt of (omega, v_ref) at a point fixed in space adds (0, -omega x v)
      a.tail<3>() -= data.u.segment<3>(b.gv_index + 3).cross(data.u.segment<3>(b.gv_index));
    } else {
      // joint columns are fixed in the moving body: dS/dt = v_parent x S
      a += cross_motion(v_parent, v_joint);
    }
    data.body_velocity[i] = v;
    data.body_acceleration[i] = a;
    const SpatialInertia& in = data.inertia[i];
    Vec6 f = in.apply(a) + cross_force(v, in.apply(v));
    if (f_ext) f -= (*f_ext)[i];
    data.body_force[i] = f;
  }
  // backward pass: project onto the joints (tau = G^T tau_full: a mimic column adds, weighted,
  // to its master's dof) and pass the forces to the parents
  if (model.has_mimic) tau.setZero();
  for (int i = nb - 1; i >= 0; --i) {
    const ArticulatedBody& b = model.bodies[i];
    for (int c = b.col_index; c < b.col_index + b.col_size; ++c) {
      const double t = data.S.col(c).dot(data.body_force[i]);
      if (model.has_mimic) tau[model.col_dof[c]] += model.col_weight[c] * t;
      else tau[c] = t;
    }
    if (b.parent >= 0) data.body_force[b.parent] += data.body_force[i];
  }
}

}  // namespace

void rnea(const ArticulatedModel& model, ArticulatedData& data, const VecX& udot,
          const Vec3& gravity, const std::vector<Vec6>* f_ext, Eigen::Ref<VecX> tau) {
  rnea_impl(model, data, udot.data(), gravity, f_ext, tau);
}

void nonlinear_effects(const ArticulatedModel& model, ArticulatedData& data, const Vec3& gravity) {
  rnea_impl(model, data, nullptr, gravity, nullptr, data.nonlinear);
}

}  // namespace torsion
