#include "world/articulated_system.hpp"

#include <cmath>
#include <stdexcept>

#include "contact/joint_rows.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/configuration.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "world/collision_shapes.hpp"

namespace torsion {

namespace {

// check_finite_vec's test without its per-element branch (called per control step): x * 0 is 0
// for every finite x and NaN for NaN and +-inf, so the sum is 0 exactly when all are finite.
// Only on failure does check_finite_vec build its message.
void check_finite(const Eigen::Ref<const VecX>& v, const char* what) {
  const double* x = v.data();
  double acc = 0.0;
  for (Eigen::Index i = 0; i < v.size(); ++i) acc += x[i] * 0.0;
  if (acc != 0.0) check_finite_vec(v, what);
}

}  // namespace

ArticulatedSystem::ArticulatedSystem(ObjectId id, std::shared_ptr<const ArticulatedModel> model)
    : Object(id, ObjectType::kArticulatedSystem), model_(std::move(model)), data_(*model_) {
  const int nv = model_->nv;
  kp_ = VecX::Zero(nv);
  kd_ = VecX::Zero(nv);
  q_ref_ = model_->neutral_gc();
  u_ref_ = VecX::Zero(nv);
  tau_ff_ = VecX::Zero(nv);
  tau_applied_ = VecX::Zero(nv);
  effort_limit_ = model_->effort_limit;
  ext_force_.assign(model_->bodies.size(), Vec3::Zero());
  ext_moment_.assign(model_->bodies.size(), Vec3::Zero());
  diag_ = VecX::Zero(nv);
  rhs_ = VecX::Zero(nv);
  error_ = VecX::Zero(nv);
  tau_ext_ = VecX::Zero(nv);
  saturated_.assign(nv, 0);
  body_collision.assign(model_->bodies.size(), CollisionProps());
  gravity_comp_.assign(model_->bodies.size(), 0);
  joint_row_dofs_ = torsion::joint_row_dofs(*model_);
  ensure_kinematics();
}

void ArticulatedSystem::collision_pose(const ArticulatedData& data, std::size_t k,
                                       Pose& p) const {
  const LinkCollision& c = model_->collisions[k];
  const Mat3& r = data.body_rotation[c.body];
  // most link shapes are not rotated in their body (URDF origins without rpy)
  if (c.placement_rotation_is_identity) p.rotation = r;
  else p.rotation.noalias() = r * c.placement.rotation;
  p.position = data.body_position[c.body] + r * c.placement.position;
}

void ArticulatedSystem::append_collision_shapes(std::vector<CollisionShapeEntry>& out) const {
  const ArticulatedModel& m = *model_;
  for (std::size_t k = 0; k < m.collisions.size(); ++k) {
    const int body = m.collisions[k].body;
    CollisionShapeEntry& e = out.emplace_back();
    e.shape = &m.collisions[k].shape;
    e.object = const_cast<ArticulatedSystem*>(this);
    e.local_index = static_cast<std::uint32_t>(body);
    e.source_index = static_cast<std::uint32_t>(k);
    e.filter = &body_collision[static_cast<std::size_t>(body)];
    e.material = &body_collision[static_cast<std::size_t>(body)].material;
    e.system = this;
    e.link = body;
    e.pose = pose_on_link;
  }
}

void ArticulatedSystem::check_gc(VecRef q, const char* what) const {
  if (q.size() != model_->nq)
    throw_invalid(std::string(what) + " must have size " + std::to_string(model_->nq) +
                  " (the generalized coordinate dimension), got " + std::to_string(q.size()));
  check_finite(q, what);
  check_quaternions(*model_, q, what);
}

void ArticulatedSystem::check_gv(VecRef u, const char* what) const {
  if (u.size() != model_->nv)
    throw_invalid(std::string(what) + " must have size " + std::to_string(model_->nv) +
                  " (the number of degrees of freedom), got " + std::to_string(u.size()));
  check_finite(u, what);
}

void ArticulatedSystem::ensure_kinematics() {
  if (!data_.kinematics_valid) {
    update_kinematics(*model_, data_);
    velocities_valid_ = false;
  }
}

void ArticulatedSystem::ensure_velocities() {
  ensure_kinematics();
  if (!velocities_valid_) {
    update_velocities(*model_, data_);
    velocities_valid_ = true;
  }
}

void ArticulatedSystem::set_generalized_coordinate(VecRef q) {
  require_between_steps("set_generalized_coordinate");
  check_gc(q, "gc");
  data_.q = q;
  normalize_quaternions(*model_, data_.q);
  data_.kinematics_valid = false;
  velocities_valid_ = false;
  clear_saturation();
  check_start_limits_ = true;
  mark_modified();
}

void ArticulatedSystem::set_generalized_velocity(VecRef u) {
  check_gv(u, "gv");
  data_.u = u;
  velocities_valid_ = false;
  clear_saturation();
  mark_modified();
}

void ArticulatedSystem::set_state(VecRef q, VecRef u) {
  require_between_steps("set_state");
  check_gc(q, "gc");
  check_gv(u, "gv");
  data_.q = q;
  normalize_quaternions(*model_, data_.q);
  data_.u = u;
  data_.kinematics_valid = false;
  velocities_valid_ = false;
  clear_saturation();
  check_start_limits_ = true;
  mark_modified();
}

void ArticulatedSystem::set_pd_gains(VecRef kp, VecRef kd) {
  mark_modified();  // a new control or force wakes a sleeping system
  check_gv(kp, "kp");
  check_gv(kd, "kd");
  for (int k = 0; k < kp.size(); ++k) {
    if (kp[k] < 0.0) throw_invalid("kp must be >= 0, got " + fmt(kp[k]) + " at dof " + std::to_string(k));
    if (kd[k] < 0.0) throw_invalid("kd must be >= 0, got " + fmt(kd[k]) + " at dof " + std::to_string(k));
  }
  kp_ = kp;
  kd_ = kd;
  if (model_->floating_base) {
    kp_.head<6>().setZero();
    kd_.head<6>().setZero();
  }
  control_mode_ = ControlMode::kPdPlusFeedforwardTorque;
}

void ArticulatedSystem::set_pd_target(VecRef q_ref, VecRef u_ref) {
  mark_modified();  // a new control or force wakes a sleeping system
  if (q_ref.size() != model_->nq)
    throw_invalid("q_ref must have size " + std::to_string(model_->nq) +
                  " (the generalized coordinate dimension), got " + std::to_string(q_ref.size()));
  check_finite(q_ref, "q_ref");
  // A spherical joint's target quaternion is refused with a zero norm, as in gc: it names no
  // rotation (it used to be taken as identity, silently). The floating base's may be zero: its
  // gains are forced to zero, so its target is never used, and RaiSim environments pass a target
  // whose base part is left all zeros (pTarget.setZero(), then the joints filled in).
  check_quaternions(*model_, q_ref, "q_ref", /*skip_floating_base=*/true);
  check_gv(u_ref, "v_ref");
  q_ref_ = q_ref;
  u_ref_ = u_ref;
  for (const int iq : model_->quaternion_gc)  // (only the floating base's can be zero here)
    if (q_ref_.segment<4>(iq).isZero(0.0)) q_ref_[iq] = 1.0;
  normalize_quaternions(*model_, q_ref_);
}

void ArticulatedSystem::set_generalized_force(VecRef tau) {
  mark_modified();  // a new control or force wakes a sleeping system
  check_gv(tau, "tau");
  tau_ff_ = tau;
}

void ArticulatedSystem::set_effort_limits(VecRef limits) {
  if (limits.size() != model_->nv)
    throw_invalid("effort limits must have size " + std::to_string(model_->nv) + ", got " +
                  std::to_string(limits.size()));
  for (int k = 0; k < limits.size(); ++k)
    if (!(limits[k] > 0.0))
      throw_invalid("effort limits must be > 0 (inf for none), got " + fmt(limits[k]) +
                    " at dof " + std::to_string(k));
  effort_limit_ = limits;
  clear_saturation();
  mark_modified();  // new limits wake a sleeping system: they may no longer hold it up
}

void ArticulatedSystem::set_gravity_compensation(bool on) {
  mark_modified();  // a new force wakes a sleeping system
  std::fill(gravity_comp_.begin(), gravity_comp_.end(), on ? 1 : 0);
  any_gravity_comp_ = on && !gravity_comp_.empty();
}

void ArticulatedSystem::set_fixed_base_placement(const Placement& placement) {
  require_between_steps("set_fixed_base_placement");
  if (model_->floating_base)
    throw std::logic_error("a floating base is placed through its generalized coordinates");
  check_finite_vec(placement.position, "base position");
  const Mat3& r = placement.rotation;
  if (!r.allFinite() || (r.transpose() * r - Mat3::Identity()).cwiseAbs().maxCoeff() > 1e-9 ||
      r.determinant() < 0.0)
    throw_invalid("base orientation must be a rotation matrix (orthonormal, det +1)");
  // the rigid motion taking the current root placement to the new one, applied to every root
  auto model = std::make_shared<ArticulatedModel>(*model_);
  const Placement old = model->bodies[0].joint_placement;
  const Mat3 dr = placement.rotation * old.rotation.transpose();
  for (ArticulatedBody& b : model->bodies) {
    if (b.parent >= 0) continue;
    Placement& p = b.joint_placement;
    p.position = placement.position + dr * (p.position - old.position);
    p.rotation = dr * p.rotation;
    b.placement_rotation_is_identity = p.rotation == Mat3::Identity();
  }
  model->bodies[0].joint_placement = placement;  // exactly as given
  model->bodies[0].placement_rotation_is_identity = placement.rotation == Mat3::Identity();
  model_ = std::move(model);
  collision_shapes_changed();  // the world's entries pointed into the old model
  data_.kinematics_valid = false;
  velocities_valid_ = false;
  clear_saturation();
  mark_modified();
}

void ArticulatedSystem::check_start_limits() {
  check_start_limits_ = false;
  if (start_limit_reported_) return;
  const ArticulatedModel& m = *model_;
  for (std::size_t b = 0; b < m.bodies.size(); ++b) {
    const ArticulatedBody& body = m.bodies[b];
    if (body.gc_size != 1 || body.gv_size != 1) continue;  // revolute and prismatic joints
    const double q = data_.q[body.gc_index];
    const double lo = m.lower[body.gv_index], hi = m.upper[body.gv_index];
    if (q < lo - kStartLimitTolerance || q > hi + kStartLimitTolerance) {
      start_violation_ = {static_cast<int>(b), q, lo, hi};
      start_limit_reported_ = true;
      return;
    }
  }
}

void ArticulatedSystem::add_gravity_compensation() {
  const ArticulatedModel& m = *model_;
  for (std::size_t b = 0; b < m.bodies.size(); ++b) {
    if (!gravity_comp_[b]) continue;
    const ArticulatedBody& body = m.bodies[b];
    const Vec3 com = data_.body_position[b] + data_.body_rotation[b] * body.com;
    const Vec3 f = -body.mass * step_gravity_;
    const Vec6 w = vec6((com - data_.ref).cross(f), f);  // (moment about ref, force)
    for (int c = m.body_last_col[b]; c >= 0; c = m.col_parent[c])
      tau_ext_[m.col_dof[c]] += m.col_weight[c] * data_.S.col(c).dot(w);
  }
}

namespace {
void check_body(const ArticulatedModel& m, int body) {
  if (body < 0 || body >= static_cast<int>(m.bodies.size()))
    throw std::out_of_range("body index " + std::to_string(body) + " is out of range [0, " +
                            std::to_string(m.bodies.size()) + ")");
}
}  // namespace

void ArticulatedSystem::set_body_gravity_compensation(int body, bool on) {
  check_body(*model_, body);
  mark_modified();  // a new force wakes a sleeping system
  gravity_comp_[body] = on ? 1 : 0;
  any_gravity_comp_ = false;
  for (char c : gravity_comp_) any_gravity_comp_ |= c != 0;
}

void ArticulatedSystem::add_external_force(int body, const Vec3& force, const Vec3& point) {
  mark_modified();  // a new control or force wakes a sleeping system
  check_body(*model_, body);
  check_finite_vec(force, "force");
  check_finite_vec(point, "point");
  ext_force_[body] += force;
  ext_moment_[body] += point.cross(force);
  has_external_ = true;
}

void ArticulatedSystem::add_external_torque(int body, const Vec3& torque) {
  mark_modified();  // a new control or force wakes a sleeping system
  check_body(*model_, body);
  check_finite_vec(torque, "torque");
  ext_moment_[body] += torque;
  has_external_ = true;
}

}  // namespace torsion
