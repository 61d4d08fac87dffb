#include "dynamics/articulated/configuration.hpp"

#include <cmath>

#include "core/assert.hpp"
#include "core/check.hpp"
#include "math/rotation.hpp"
#include "math/unit_vector.hpp"

namespace torsion {

namespace {

Quat quat_at(const VecX& q, int i) { return Quat(q[i], q[i + 1], q[i + 2], q[i + 3]); }

void store_quat(VecX& q, int i, const Quat& r) {
  q[i] = r.w();
  q[i + 1] = r.x();
  q[i + 2] = r.y();
  q[i + 3] = r.z();
}

}  // namespace

void integrate_configuration(const ArticulatedModel& model, VecX& q, const VecX& u, double dt) {
  for (const ArticulatedBody& b : model.bodies) {
    if (b.is_mimic()) continue;  // no coordinate of its own
    const int iq = b.gc_index, iv = b.gv_index;
    switch (b.joint_type) {
      case JointType::kFixed: break;
      case JointType::kRevolute:
      case JointType::kPrismatic: q[iq] += dt * u[iv]; break;
      case JointType::kSpherical: {
        Quat r = quat_at(q, iq) * quat_from_rotvec(dt * u.segment<3>(iv));
        store_quat(q, iq, r.normalized());
        break;
      }
      case JointType::kFloating: {
        q.segment<3>(iq) += dt * u.segment<3>(iv);
        Quat r = quat_from_rotvec(dt * u.segment<3>(iv + 3)) * quat_at(q, iq + 3);
        store_quat(q, iq + 3, r.normalized());
        break;
      }
    }
  }
}

void configuration_difference(const ArticulatedModel& model, const VecX& q, const VecX& q_target,
                              Eigen::Ref<VecX> out) {
  for (const ArticulatedBody& b : model.bodies) {
    if (b.is_mimic()) continue;  // no coordinate of its own
    const int iq = b.gc_index, iv = b.gv_index;
    switch (b.joint_type) {
      case JointType::kFixed: break;
      case JointType::kRevolute:
      case JointType::kPrismatic: out[iv] = q_target[iq] - q[iq]; break;
      case JointType::kSpherical:
        out.segment<3>(iv) =
            rotvec_from_quat(quat_at(q, iq).conjugate() * quat_at(q_target, iq));  // child frame
        break;
      case JointType::kFloating:
        out.segment<3>(iv) = q_target.segment<3>(iq) - q.segment<3>(iq);
        out.segment<3>(iv + 3) =
            rotvec_from_quat(quat_at(q_target, iq + 3) * quat_at(q, iq + 3).conjugate());  // world
        break;
    }
  }
}

void check_quaternions(const ArticulatedModel& model, const Eigen::Ref<const VecX>& q,
                       const char* what, bool skip_floating_base) {
  for (std::size_t k = 0; k < model.quaternion_gc.size(); ++k) {
    if (skip_floating_base &&
        model.bodies[model.quaternion_body[k]].joint_type == JointType::kFloating)
      continue;
    const int iq = model.quaternion_gc[k];
    const Vec4 v = q.segment<4>(iq);
    Vec4 unit = Vec4::Zero();  // set by normalize_scaled when it succeeds
    if (!normalize_scaled(v, &unit))
      throw_invalid(std::string(what) + ": the quaternion of joint '" +
                    model.bodies[model.quaternion_body[k]].joint_name + "' (" + what + "[" +
                    std::to_string(iq) + ":" + std::to_string(iq + 4) +
                    "], w x y z) must be finite with a non-zero norm (any such norm is "
                    "normalised), got " + fmt_vec(v));
  }
}

void normalize_quaternions(const ArticulatedModel& model, VecX& q) {
  for (const int iq : model.quaternion_gc) {
    Vec4 unit = Vec4::Zero();  // set by normalize_scaled when it succeeds
    const bool ok = normalize_scaled(Vec4(q.segment<4>(iq)), &unit);
    TORSION_ASSERT(ok);  // checked by check_quaternions
    (void)ok;
    q.segment<4>(iq) = unit;
  }
}

}  // namespace torsion
