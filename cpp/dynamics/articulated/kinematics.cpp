#include "dynamics/articulated/kinematics.hpp"

#include <cmath>

namespace torsion {

namespace {

// the joint's own motion: rotation and translation of the child frame in the joint frame
void joint_motion(const ArticulatedBody& b, const VecX& q, Mat3& rot, Vec3& trans) {
  const double* qj = q.data() + b.gc_index;
  switch (b.joint_type) {
    case JointType::kFixed:
      rot.setIdentity();
      trans.setZero();
      break;
    case JointType::kRevolute:
      rot = Eigen::AngleAxisd(qj[0], b.axis).toRotationMatrix();
      trans.setZero();
      break;
    case JointType::kPrismatic:
      rot.setIdentity();
      trans = qj[0] * b.axis;
      break;
    case JointType::kSpherical:
      rot = Quat(qj[0], qj[1], qj[2], qj[3]).normalized().toRotationMatrix();
      trans.setZero();
      break;
    case JointType::kFloating:
      rot = Quat(qj[3], qj[4], qj[5], qj[6]).normalized().toRotationMatrix();
      trans = Vec3(qj[0], qj[1], qj[2]);
      break;
  }
}

}  // namespace

void update_kinematics(const ArticulatedModel& model, ArticulatedData& data) {
  const int nb = static_cast<int>(model.bodies.size());
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    Mat3 rj;
    Vec3 tj;
    joint_motion(b, data.q, rj, tj);
    // pose of the joint frame in the world
    Mat3 r_joint;
    Vec3 p_joint;
    if (b.parent < 0) {
      r_joint = b.joint_placement.rotation;
      p_joint = b.joint_placement.position;
    } else {
      const Mat3& rp = data.body_rotation[b.parent];
      r_joint = rp * b.joint_placement.rotation;
      p_joint = data.body_position[b.parent] + rp * b.joint_placement.position;
    }
    data.body_rotation[i] = r_joint * rj;
    data.body_position[i] = p_joint + r_joint * tj;
  }

  // the reference point: the root body's origin at this instant
  data.ref = data.body_position[0];

  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    const Mat3& r = data.body_rotation[i];
    const Vec3 p = data.body_position[i] - data.ref;
    for (int k = 0; k < b.gv_size; ++k) {
      const int col = b.gv_index + k;
      Vec3 s_ang = Vec3::Zero(), s_lin = Vec3::Zero();
      switch (b.joint_type) {
        case JointType::kFixed: break;
        case JointType::kRevolute:
          s_ang = r * b.axis;
          s_lin = p.cross(s_ang);  // rotation about the axis through the joint origin
          break;
        case JointType::kPrismatic: s_lin = r * b.axis; break;
        case JointType::kSpherical:
          s_ang = r.col(k);  // child-frame angular velocity components
          s_lin = p.cross(s_ang);
          break;
        case JointType::kFloating:
          // gv = (v of the root origin, omega), both world; the root origin is the reference
          if (k < 3) s_lin[k] = 1.0;
          else s_ang[k - 3] = 1.0;
          break;
      }
      data.S.col(col) << s_ang, s_lin;
    }
    data.inertia[i] = SpatialInertia::from_body(b.mass, p + r * b.com,
                                                r * b.inertia * r.transpose());
  }
  data.kinematics_valid = true;
}

void update_velocities(const ArticulatedModel& model, ArticulatedData& data) {
  const int nb = static_cast<int>(model.bodies.size());
  for (int i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    Vec6 v = b.parent < 0 ? Vec6::Zero() : data.body_velocity[b.parent];
    for (int k = 0; k < b.gv_size; ++k) v += data.S.col(b.gv_index + k) * data.u[b.gv_index + k];
    data.body_velocity[i] = v;
  }
}

Placement frame_placement(const ArticulatedModel& model, const ArticulatedData& data, int frame) {
  const ArticulatedFrame& f = model.frames[frame];
  const Mat3& r = data.body_rotation[f.body];
  Placement out;
  out.rotation = r * f.placement.rotation;
  out.position = data.body_position[f.body] + r * f.placement.position;
  return out;
}

Vec3 body_point_velocity(const ArticulatedData& data, int body, const Vec3& point) {
  const Vec6& v = data.body_velocity[body];
  return lin(v) + ang(v).cross(point - data.ref);
}

Vec3 body_angular_velocity(const ArticulatedData& data, int body) {
  return ang(data.body_velocity[body]);
}

void point_jacobian(const ArticulatedModel& model, const ArticulatedData& data, int body,
                    const Vec3& point, Eigen::Ref<Mat3X> jp) {
  const Vec3 r = point - data.ref;
  for (int k = model.body_last_dof[body]; k >= 0; k = model.dof_parent[k]) {
    const auto s = data.S.col(k);
    jp.col(k) = s.tail<3>() + s.head<3>().cross(r);
  }
}

void rotational_jacobian(const ArticulatedModel& model, const ArticulatedData& data, int body,
                         Eigen::Ref<Mat3X> jr) {
  for (int k = model.body_last_dof[body]; k >= 0; k = model.dof_parent[k])
    jr.col(k) = data.S.col(k).head<3>();
}

}  // namespace torsion
