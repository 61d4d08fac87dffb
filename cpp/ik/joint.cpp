// Joint state: positions with limits or wrapping, modes, intervals, dependencies (semantics.md
// §B5) and the environment-wide joint snapshot used to restore configurations.
#include <stdexcept>

#include "core/check.hpp"
#include "ik/environment.hpp"
#include "math/rotation.hpp"
#include "math/unit_vector.hpp"

namespace torsion::ik {

namespace {

[[noreturn]] void not_a_joint(int handle) {
  throw std::invalid_argument("invalid joint handle: " + std::to_string(handle));
}

}  // namespace

Quat limit_spherical(const JointData& j, const Quat& q, double* overshoot) {
  if (overshoot) *overshoot = 0.0;
  if (!(j.range < 0.99 * kPi)) return q;  // a range of (about) pi or more: no limit
  const Vec3 z = q * Vec3::UnitZ();     // the joint's z axis after its rotation
  const double angle = std::atan2(z.head<2>().norm(), z.z());  // tilt from the rest z, [0, pi]
  if (angle <= j.range) return q;
  Vec3 axis = z.cross(Vec3::UnitZ());  // rotating z' about this axis brings it toward z
  const double n = axis.norm();
  axis = n > 1e-12 ? Vec3(axis / n) : Vec3::UnitX();  // z' = -z: any horizontal axis
  if (overshoot) *overshoot = angle - j.range;
  return (Quat(Eigen::AngleAxisd(angle - j.range, axis)) * q).normalized();
}

const JointData& Environment::joint(int handle) const {
  const Object& o = object(handle);
  if (o.type != kObjectTypeJoint) not_a_joint(handle);
  return o.joint;
}

JointData& Environment::joint_mut(int handle) {
  Object& o = object_mut(handle);
  if (o.type != kObjectTypeJoint) not_a_joint(handle);
  return o.joint;
}

void Environment::set_position_raw(int handle, double position) {
  JointData& j = joint_mut(handle);
  if (j.type == kJointTypeSpherical) return;
  double clamped = position;
  if (j.cyclic) {
    clamped = wrap_angle(position);
  } else {
    if (clamped < j.min) clamped = j.min;
    if (clamped > j.min + j.range) clamped = j.min + j.range;
  }
  j.overshoot = position - clamped;
  j.position = clamped;
  propagate_dependents(handle);
}

void Environment::propagate_dependents(int master) {
  // dependency chains are acyclic (set_joint_dependency refuses loops), so this terminates
  const double q = joint(master).position;
  for (Object& o : objects_)
    if (o.type == kObjectTypeJoint && o.joint.master == master)
      set_position_raw(o.handle, o.joint.mult * q + o.joint.offset);
}

void Environment::set_joint_position(int handle, double position) {
  check_finite(position, "position");
  const JointData& j = joint(handle);
  if (j.type == kJointTypeSpherical)
    throw std::invalid_argument(
        "invalid joint type: joint " + std::to_string(handle) +
        " is spherical; set its rotation with set_spherical_quaternion/matrix");
  if (j.master >= 0) return;  // a dependent joint follows its master; setting it is ignored
  set_position_raw(handle, position);
}

void Environment::set_joint_mode(int handle, int mode) {
  joint(handle);
  if (mode != kJointModePassive && mode != kJointModeIk && mode != kJointModeDependent)
    throw std::invalid_argument(
        "invalid joint mode: mode must be passive (0), ik (2) or dependent (4), got " +
        std::to_string(mode));
  joint_mut(handle).mode = mode;
  touch();
}

void Environment::set_joint_interval(int handle, bool cyclic, double min, double range) {
  const JointData& j = joint(handle);
  if (cyclic && (j.type != kJointTypeRevolute || j.screw_pitch != 0.0))
    throw std::invalid_argument("invalid interval: only revolute joints without screw pitch can "
                                "be cyclic (joint " + std::to_string(handle) + ")");
  if (!cyclic) {
    check_finite(min, "interval min");
    check_non_negative(range, "interval range");
  }
  JointData& m = joint_mut(handle);
  m.cyclic = cyclic;
  if (cyclic) {
    m.min = -kPi;
    m.range = 2.0 * kPi;
  } else {
    m.min = min;
    m.range = range;
  }
  if (m.type != kJointTypeSpherical)
    set_position_raw(handle, m.position);
  else
    m.spherical = limit_spherical(m, m.spherical, &m.overshoot);
}

void Environment::set_joint_screw_pitch(int handle, double pitch) {
  check_finite(pitch, "pitch");
  if (joint(handle).type != kJointTypeRevolute)
    throw std::invalid_argument("invalid joint type: only revolute joints have a screw pitch "
                                "(joint " + std::to_string(handle) + ")");
  JointData& j = joint_mut(handle);
  j.screw_pitch = pitch;
  if (pitch != 0.0 && j.cyclic) j.cyclic = false;  // a screw is not cyclic; keeps [-pi, pi]
}

void Environment::set_joint_max_step_size(int handle, double step) {
  joint(handle);
  check_positive(step, "max_step_size");
  joint_mut(handle).max_step = step;
}

void Environment::set_joint_ik_weight(int handle, double weight) {
  joint(handle);
  check_non_negative(weight, "ik_weight");
  joint_mut(handle).ik_weight = weight;
}

void Environment::set_joint_limit_margin(int handle, double margin) {
  joint(handle);
  check_non_negative(margin, "limit_margin");
  joint_mut(handle).limit_margin = margin;
}

int Environment::ultimate_master(int handle) const {
  int h = handle;
  for (size_t guard = 0; guard <= objects_.size(); ++guard) {
    const int m = joint(h).master;
    if (m < 0) return h;
    h = m;
  }
  throw std::logic_error("joint dependency loop");  // unreachable: loops are refused
}

void Environment::set_joint_dependency(int handle, int master, double offset, double mult) {
  const JointData& j = joint(handle);
  check_finite(offset, "offset");
  check_finite(mult, "mult");
  if (master != -1) {
    const JointData& m = joint(master);
    if (j.type == kJointTypeSpherical || m.type == kJointTypeSpherical)
      throw std::invalid_argument("invalid dependency: spherical joints cannot be dependent or "
                                  "masters");
    if (master == handle || ultimate_master(master) == handle)
      throw std::invalid_argument("invalid dependency: joint " + std::to_string(handle) +
                                  " depending on joint " + std::to_string(master) +
                                  " would make a dependency loop");
  }
  JointData& w = joint_mut(handle);
  w.master = master;
  w.offset = offset;
  w.mult = mult;
  touch();
  if (master >= 0) set_position_raw(handle, mult * joint(master).position + offset);
}

void Environment::set_spherical_quaternion(int handle, const Quat& q) {
  if (joint(handle).type != kJointTypeSpherical)
    throw std::invalid_argument("invalid joint type: joint " + std::to_string(handle) +
                                " is not spherical");
  check_finite_vec(q.coeffs(), "quaternion");
  const Vec4 u = unit_or_throw(Vec4(q.w(), q.x(), q.y(), q.z()), "quaternion (w, x, y, z)");
  JointData& j = joint_mut(handle);
  j.spherical = limit_spherical(j, Quat(u[0], u[1], u[2], u[3]), &j.overshoot);
}

void Environment::apply_joint_delta(int handle, int axis, double delta) {
  JointData& j = joint_mut(handle);
  if (j.type == kJointTypeSpherical) {
    Vec3 w = Vec3::Zero();
    w[axis] = delta;
    // rotate about the joint's own (moving) x, y or z axis
    j.spherical =
        limit_spherical(j, (j.spherical * quat_from_rotvec(w)).normalized(), &j.overshoot);
    return;
  }
  set_position_raw(handle, j.position + delta);
}

JointSnapshot Environment::snapshot() const {
  JointSnapshot s;
  for (const Object& o : objects_)
    if (o.type == kObjectTypeJoint) {
      s.handle.push_back(o.handle);
      s.position.push_back(o.joint.position);
      s.spherical.push_back(o.joint.spherical);
    }
  return s;
}

void Environment::restore(const JointSnapshot& s) {
  for (size_t i = 0; i < s.handle.size(); ++i) {
    const int sl = slot(s.handle[i]);
    if (sl < 0) continue;
    objects_[sl].joint.position = s.position[i];
    objects_[sl].joint.spherical = s.spherical[i];
  }
}

}  // namespace torsion::ik
