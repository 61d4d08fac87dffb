// Recursive Newton-Euler algorithm in the world frame (Featherstone, RBDA section 5.3, with all
// spatial vectors in world axes about the reference point data.ref).
#include "core/cpu_dispatch.hpp"
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

// h = RNEA(q, u, udot = 0) of a model without mimic joints (columns are dofs, weight 1): the
// forward pass of rnea_impl on 3-vector halves, with the zero joint acceleration and the unit
// columns of a floating joint left out of the arithmetic. Every value is the one rnea_impl
// computes (its omitted terms are exact zeros, or products with exact ones). The halves are
// written into, and read from, the bodies' 6-vectors in place: a 6-vector assembled from two
// 3-vectors on the stack and copied out costs a failed store-to-load forward per half (two 8-byte
// stores read back as one 16-byte load), which was half of this function's time.
// (The body of nonlinear_effects_tree, built twice: core/cpu_dispatch.hpp.)
TORSION_ALWAYS_INLINE void nonlinear_effects_tree_body(const ArticulatedModel& model,
                                                       ArticulatedData& data,
                                                       const Vec3& gravity) {
  const int nb = static_cast<int>(model.bodies.size());
  const double* u = data.u.data();
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    // v = (w, vl), a = (aw, al): angular and linear halves
    Vec3 w, vl, aw, al;
    if (b.parent < 0) {
      w.setZero();
      vl.setZero();
      aw.setZero();
      al = -gravity;  // gravity enters as an upward acceleration of the world
    } else {
      const Vec6& vp = data.body_velocity[b.parent];
      const Vec6& ap = data.body_acceleration[b.parent];
      w = vp.head<3>();
      vl = vp.tail<3>();
      aw = ap.head<3>();
      al = ap.tail<3>();
    }
    if (b.joint_type == JointType::kFloating) {
      // gv = (v of the root origin, omega): the unit columns add u directly; the reference
      // point moves with the root origin, which adds (0, -omega x v) to the acceleration
      const Vec3 vj(u[b.gv_index], u[b.gv_index + 1], u[b.gv_index + 2]);
      const Vec3 wj(u[b.gv_index + 3], u[b.gv_index + 4], u[b.gv_index + 5]);
      w += wj;
      vl += vj;
      al -= wj.cross(vj);
    } else if (b.col_size > 0) {
      // joint columns are fixed in the moving body: dS/dt = v_parent x S adds
      // v_parent x v_joint = (w_p x wj, w_p x vj + vl_p x wj)
      Vec3 wj = Vec3::Zero(), vj = Vec3::Zero();
      for (int c = b.col_index; c < b.col_index + b.col_size; ++c) {
        const auto sc = data.S.col(c);
        wj += sc.head<3>() * u[c];
        vj += sc.tail<3>() * u[c];
      }
      aw += w.cross(wj);
      al += w.cross(vj) + vl.cross(wj);
      w += wj;
      vl += vj;
    }
    Vec6& v_out = data.body_velocity[i];
    Vec6& a_out = data.body_acceleration[i];
    v_out.head<3>() = w;
    v_out.tail<3>() = vl;
    a_out.head<3>() = aw;
    a_out.tail<3>() = al;
    // f = I a + v x* (I v), I v = (n, p)
    const SpatialInertia& in = data.inertia[i];
    const Vec3 n = in.i_o * w + in.h.cross(vl);
    const Vec3 p = in.m * vl - in.h.cross(w);
    const Vec3 fa = in.i_o * aw + in.h.cross(al);
    const Vec3 fl = in.m * al - in.h.cross(aw);
    Vec6& f_out = data.body_force[i];
    f_out.head<3>() = fa + (w.cross(n) + vl.cross(p));
    f_out.tail<3>() = fl + w.cross(p);
  }
  double* tau = data.nonlinear.data();
  for (int i = nb - 1; i >= 0; --i) {
    const ArticulatedBody& b = model.bodies[i];
    const Vec6& f = data.body_force[i];
    for (int c = b.col_index; c < b.col_index + b.col_size; ++c) tau[c] = data.S.col(c).dot(f);
    if (b.parent >= 0) data.body_force[b.parent] += f;
  }
}

void nonlinear_effects_tree_baseline(const ArticulatedModel& model, ArticulatedData& data,
                                     const Vec3& gravity) {
  nonlinear_effects_tree_body(model, data, gravity);
}

#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET void nonlinear_effects_tree_avx2(const ArticulatedModel& model,
                                                     ArticulatedData& data, const Vec3& gravity) {
  nonlinear_effects_tree_body(model, data, gravity);
}
#endif

void nonlinear_effects_tree(const ArticulatedModel& model, ArticulatedData& data,
                            const Vec3& gravity) {
  if (!data.inertias_valid) update_inertias(model, data);
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return nonlinear_effects_tree_avx2(model, data, gravity);
#endif
  nonlinear_effects_tree_baseline(model, data, gravity);
}

}  // namespace

void rnea(const ArticulatedModel& model, ArticulatedData& data, const VecX& udot,
          const Vec3& gravity, const std::vector<Vec6>* f_ext, Eigen::Ref<VecX> tau) {
  rnea_impl(model, data, udot.data(), gravity, f_ext, tau);
}

void nonlinear_effects(const ArticulatedModel& model, ArticulatedData& data, const Vec3& gravity) {
  if (!model.has_mimic) {
    nonlinear_effects_tree(model, data, gravity);
    return;
  }
  rnea_impl(model, data, nullptr, gravity, nullptr, data.nonlinear);
}

}  // namespace torsion
