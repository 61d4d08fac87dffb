#include "dynamics/articulated/kinematics.hpp"

#include <cmath>

#include "core/assert.hpp"
#include "core/cpu_dispatch.hpp"

namespace torsion {

namespace {

// (The bodies of update_kinematics and update_inertias, built twice: core/cpu_dispatch.hpp.)
TORSION_ALWAYS_INLINE void update_kinematics_body(const ArticulatedModel& model,
                                                  ArticulatedData& data) {
  const int nb = static_cast<int>(model.bodies.size());
  const double* q = data.q.data();
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    Mat3& r = data.body_rotation[i];
    Vec3& p = data.body_position[i];
    // the joint frame in the world
    if (b.parent < 0) {
      r = b.joint_placement.rotation;
      p = b.joint_placement.position;
    } else {
      const Mat3& rp = data.body_rotation[b.parent];
      p = data.body_position[b.parent] + rp * b.joint_placement.position;
      if (b.placement_rotation_is_identity) r = rp;
      else r.noalias() = rp * b.joint_placement.rotation;
    }
    // then the joint's own motion; a mimic joint's coordinate follows its master
    const double* qj = q + b.gc_index;
    double mimic_q = 0.0;
    if (b.is_mimic()) {
      mimic_q = b.mimic_multiplier * q[b.mimic_gc] + b.mimic_offset;
      qj = &mimic_q;
    }
    switch (b.joint_type) {
      case JointType::kFixed: break;
      case JointType::kRevolute:
        if (b.axis_index >= 0) {
          // rotation about a frame axis: only the two other columns change
          const double angle = b.axis_sign * qj[0];
          const double c = std::cos(angle), s = std::sin(angle);
          const int ib = b.axis_index == 2 ? 0 : b.axis_index + 1;
          const int ic = b.axis_index == 0 ? 2 : b.axis_index - 1;
          const Vec3 cb = r.col(ib), cc = r.col(ic);
          r.col(ib) = c * cb + s * cc;
          r.col(ic) = c * cc - s * cb;
        } else {
          r = r * Eigen::AngleAxisd(qj[0], b.axis).toRotationMatrix();
        }
        break;
      case JointType::kPrismatic: p += r * (qj[0] * b.axis); break;
      case JointType::kSpherical:
        r = r * Quat(qj[0], qj[1], qj[2], qj[3]).normalized().toRotationMatrix();
        break;
      case JointType::kFloating:
        r = Quat(qj[3], qj[4], qj[5], qj[6]).normalized().toRotationMatrix();
        p = Vec3(qj[0], qj[1], qj[2]);
        break;
    }
  }

  // the reference point: the root body's origin at this instant
  data.ref = data.body_position[0];

  // joint motion columns (omega; velocity of the point at ref), world frame
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    if (b.col_size == 0) continue;
    const Mat3& r = data.body_rotation[i];
    const Vec3 p = data.body_position[i] - data.ref;
    double* col = data.S.data() + 6 * b.col_index;
    auto set = [](double* c, const Vec3& a, const Vec3& l) {
      c[0] = a[0], c[1] = a[1], c[2] = a[2], c[3] = l[0], c[4] = l[1], c[5] = l[2];
    };
    switch (b.joint_type) {
      case JointType::kFixed: break;
      case JointType::kRevolute: {
        const Vec3 s = b.axis_index >= 0 ? Vec3(b.axis_sign * r.col(b.axis_index)) : Vec3(r * b.axis);
        set(col, s, p.cross(s));  // rotation about the axis through the joint origin
        break;
      }
      case JointType::kPrismatic: set(col, Vec3::Zero(), r * b.axis); break;
      case JointType::kSpherical:
        for (int k = 0; k < 3; ++k) {
          const Vec3 s = r.col(k);  // child-frame angular velocity components
          set(col + 6 * k, s, p.cross(s));
        }
        break;
      case JointType::kFloating:
        // gv = (v of the root origin, omega), both world; the root origin is the reference
        for (int k = 0; k < 6; ++k)
          for (int e = 0; e < 6; ++e) col[6 * k + e] = (k < 3 ? e == k + 3 : e == k - 3) ? 1.0 : 0.0;
        break;
    }
  }
}

TORSION_ALWAYS_INLINE void update_inertias_body(const ArticulatedModel& model,
                                                ArticulatedData& data) {
  const int nb = static_cast<int>(model.bodies.size());
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    const Mat3& r = data.body_rotation[i];
    SpatialInertia& s = data.inertia[i];
    const Vec3 c = data.body_position[i] - data.ref + r * b.com;
    const Mat3& in = b.inertia;
    // R I: with a diagonal I (principal axes along the body's: most URDF links), column k is
    // R's column k times I_kk, the very value of the full product (its other terms are zeros)
    Mat3 ri;
    if (b.inertia_is_diagonal) {
      ri.col(0) = r.col(0) * in(0, 0);
      ri.col(1) = r.col(1) * in(1, 1);
      ri.col(2) = r.col(2) * in(2, 2);
    } else {
      ri.noalias() = r * in;
    }
    // I_O = R I R^T + m (|c|^2 1 - c c^T), symmetric: fill the upper triangle and mirror
    const double m = b.mass;
    const double cc = c.squaredNorm();
    for (int x = 0; x < 3; ++x)
      for (int y = x; y < 3; ++y) {
        const double rr = ri(x, 0) * r(y, 0) + ri(x, 1) * r(y, 1) + ri(x, 2) * r(y, 2);
        const double v = rr + m * ((x == y ? cc : 0.0) - c[x] * c[y]);
        s.i_o(x, y) = v;
        s.i_o(y, x) = v;
      }
    s.m = m;
    s.h = m * c;
  }
}

void update_kinematics_baseline(const ArticulatedModel& model, ArticulatedData& data) {
  update_kinematics_body(model, data);
}
void update_inertias_baseline(const ArticulatedModel& model, ArticulatedData& data) {
  update_inertias_body(model, data);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET void update_kinematics_avx2(const ArticulatedModel& model,
                                                ArticulatedData& data) {
  update_kinematics_body(model, data);
}
TORSION_AVX2_TARGET void update_inertias_avx2(const ArticulatedModel& model,
                                              ArticulatedData& data) {
  update_inertias_body(model, data);
}
#endif

}  // namespace

void update_kinematics(const ArticulatedModel& model, ArticulatedData& data) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) update_kinematics_avx2(model, data);
  else update_kinematics_baseline(model, data);
#else
  update_kinematics_baseline(model, data);
#endif
  data.kinematics_valid = true;
  data.inertias_valid = false;
}

void update_inertias(const ArticulatedModel& model, ArticulatedData& data) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) update_inertias_avx2(model, data);
  else update_inertias_baseline(model, data);
#else
  update_inertias_baseline(model, data);
#endif
  data.inertias_valid = true;
}

void update_velocities(const ArticulatedModel& model, ArticulatedData& data) {
  const int nb = static_cast<int>(model.bodies.size());
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    Vec6 v = b.parent < 0 ? Vec6::Zero() : data.body_velocity[b.parent];
    for (int c = b.col_index; c < b.col_index + b.col_size; ++c)
      v += data.S.col(c) * (model.col_weight[c] * data.u[model.col_dof[c]]);
    data.body_velocity[i] = v;
  }
}

Pose frame_placement(const ArticulatedModel& model, const ArticulatedData& data, int frame) {
  TORSION_ASSERT(frame >= 0 && frame < static_cast<int>(model.frames.size()));
  const ArticulatedFrame& f = model.frames[frame];
  const Mat3& r = data.body_rotation[f.body];
  Pose out;
  out.rotation = r * f.placement.rotation;
  out.position = data.body_position[f.body] + r * f.placement.position;
  return out;
}

Vec3 body_point_velocity(const ArticulatedData& data, int body, const Vec3& point) {
  TORSION_ASSERT(body >= 0 && body < static_cast<int>(data.body_velocity.size()));
  const Vec6& v = data.body_velocity[body];
  return lin(v) + ang(v).cross(point - data.ref);
}

Vec3 body_angular_velocity(const ArticulatedData& data, int body) {
  TORSION_ASSERT(body >= 0 && body < static_cast<int>(data.body_velocity.size()));
  return ang(data.body_velocity[body]);
}

void point_jacobian(const ArticulatedModel& model, const ArticulatedData& data, int body,
                    const Vec3& point, Eigen::Ref<Mat3X> jp) {
  // 3 x nv, one column per dof; the body is one of the model's
  TORSION_ASSERT(jp.cols() == model.nv);
  TORSION_ASSERT(body >= 0 && body < static_cast<int>(model.bodies.size()));
  const Vec3 r = point - data.ref;
  if (!model.has_mimic) {  // columns are dofs
    for (int k = model.body_last_col[body]; k >= 0; k = model.col_parent[k]) {
      const auto s = data.S.col(k);
      jp.col(k) = s.tail<3>() + s.head<3>().cross(r);
    }
    return;
  }
  // J = J_full G: a mimic column adds, weighted, to its master's dof
  for (int c = model.body_last_col[body]; c >= 0; c = model.col_parent[c]) {
    const auto s = data.S.col(c);
    jp.col(model.col_dof[c]) += model.col_weight[c] * (s.tail<3>() + s.head<3>().cross(r));
  }
}

void rotational_jacobian(const ArticulatedModel& model, const ArticulatedData& data, int body,
                         Eigen::Ref<Mat3X> jr) {
  TORSION_ASSERT(jr.cols() == model.nv);
  TORSION_ASSERT(body >= 0 && body < static_cast<int>(model.bodies.size()));
  if (!model.has_mimic) {
    for (int k = model.body_last_col[body]; k >= 0; k = model.col_parent[k])
      jr.col(k) = data.S.col(k).head<3>();
    return;
  }
  for (int c = model.body_last_col[body]; c >= 0; c = model.col_parent[c])
    jr.col(model.col_dof[c]) += model.col_weight[c] * data.S.col(c).head<3>();
}

}  // namespace torsion
