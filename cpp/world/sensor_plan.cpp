#include "world/sensor_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "collision/contact.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "geometry/aabb.hpp"
#include "math/constants.hpp"
#include "query/slab.hpp"
#include "query/ray_scene.hpp"
#include "query/ray_shapes.hpp"
#include "world/articulated_system.hpp"
#include "world/ray_queries.hpp"
#include "world/world.hpp"

namespace torsion {

namespace {

// NumPy's minimum(maximum(x, lo), hi) for numbers that are not NaN
inline double clamp(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

void check_index(long long i, long long n, const std::string& what) {
  if (i < 0 || i >= n)
    throw_invalid(what + " " + std::to_string(i) + " is out of range [0, " + std::to_string(n) + ")");
}

void check_out(int out, int count, int size, const std::string& what) {
  if (out < 0 || count < 0 || out + count > size)
    throw_invalid(what + ": sensor values [" + std::to_string(out) + ", " + std::to_string(out + count) +
                  ") lie outside the sensor block of " + std::to_string(size));
}

void check_finite3(const Vec3& v, const std::string& what) {
  for (int k = 0; k < 3; ++k) check_finite(v[k], what.c_str());
}

void check_rotation(const Mat3& r, const std::string& what) {
  for (int i = 0; i < 9; ++i) check_finite(r.data()[i], what.c_str());
  if (!((r.transpose() * r - Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-6) || !(r.determinant() > 0.0))
    throw_invalid(what + " must be a rotation matrix");
}

}  // namespace

// ------------------------------------------------------------------------------- actuators

void HalActuatorPlan::check(const ArticulatedSystem& s) const {
  const auto n = static_cast<long long>(start_value.size());
  if (static_cast<long long>(start_stiffness.size()) != n)
    throw_invalid("start_stiffness must have one value per actuator (" + std::to_string(n) + ")");
  for (long long i = 0; i < n; ++i)
    if (!std::isfinite(start_value[i]))
      throw_invalid("start_value of actuator " + std::to_string(i) + " must be finite, got " + fmt(start_value[i]));
  if (q_ref.size() != s.gc_dim())
    throw_invalid("q_ref must have " + std::to_string(s.gc_dim()) + " values (gc), got " + std::to_string(q_ref.size()));
  for (const auto& p : position) {
    check_index(p.actuator, n, "position row: actuator");
    check_index(p.gc, s.gc_dim(), "position row: gc index");
    check_index(p.dof, s.dof(), "position row: dof");
    for (double v : {p.ratio, p.kp, p.kd, p.lo, p.hi}) check_finite(v, "position row: ratio, kp, kd, lo and hi");
    if (p.kp < 0 || p.kd < 0) throw_invalid("position row: kp and kd must be >= 0");
    if (!std::isfinite(start_stiffness[p.actuator]))
      throw_invalid("start_stiffness of actuator " + std::to_string(p.actuator) + " must be finite");
  }
  for (const auto& v : velocity) {
    check_index(v.actuator, n, "velocity row: actuator");
    check_index(v.dof, s.dof(), "velocity row: dof");
    check_finite(v.kd, "velocity row: kd");
    if (v.kd < 0 || !(v.max >= 0)) throw_invalid("velocity row: kd and max must be >= 0");
    if (!std::isfinite(start_stiffness[v.actuator]))
      throw_invalid("start_stiffness of actuator " + std::to_string(v.actuator) + " must be finite");
  }
  for (const auto& t : torque) {
    check_index(t.actuator, n, "torque row: actuator");
    check_index(t.dof, s.dof(), "torque row: dof");
    if (!(t.max >= 0)) throw_invalid("torque row: max must be >= 0");
    if (!std::isfinite(start_stiffness[t.actuator]))
      throw_invalid("start_stiffness of actuator " + std::to_string(t.actuator) + " must be finite");
  }
  for (int i : leds) check_index(i, n, "led: actuator");
}

void HalActuatorPlan::apply(ArticulatedSystem& s, const double* values, const double* stiffness,
                            double* led_out) {
  const int nv = s.dof();
  if (kp_.size() != nv) {
    kp_ = VecX::Zero(nv);
    kd_ = VecX::Zero(nv);
    u_ref_ = VecX::Zero(nv);
    tau_ = VecX::Zero(nv);
    gains_sent_ = false;
  }
  auto value = [&](int i) { return std::isnan(values[i]) ? start_value[i] : values[i]; };
  auto stiff = [&](int i) {
    return clamp(std::isnan(stiffness[i]) ? start_stiffness[i] : stiffness[i], 0.0, 1.0);
  };
  bool gains_changed = !gains_sent_;
  auto set_gain = [&](VecX& g, int dof, double v) {
    if (!(g[dof] == v) || std::signbit(g[dof]) != std::signbit(v)) gains_changed = true;
    g[dof] = v;
  };
  for (const auto& p : position) {
    const double sp = stiff(p.actuator);
    set_gain(kp_, p.dof, sp * p.kp);
    set_gain(kd_, p.dof, sp * p.kd);
    q_ref[p.gc] = clamp(value(p.actuator), p.lo, p.hi) * p.ratio;
  }
  for (const auto& v : velocity) {
    set_gain(kd_, v.dof, stiff(v.actuator) * v.kd);
    u_ref_[v.dof] = clamp(value(v.actuator), -v.max, v.max);
  }
  if (gains_changed) {
    s.set_pd_gains(kp_, kd_);
    gains_sent_ = true;
  }
  s.set_pd_target(q_ref, u_ref_);
  if (!torque.empty()) {
    tau_.setZero();
    for (const auto& t : torque) {
      const double lim = stiff(t.actuator) * t.max;
      tau_[t.dof] += clamp(value(t.actuator), -lim, lim);
    }
    s.set_generalized_force(tau_);
  }
  for (std::size_t k = 0; k < leds.size(); ++k) led_out[k] = clamp(value(leds[k]), 0.0, 1.0);
}

// ------------------------------------------------------------------------------- sensors

void HalSensorPlan::check(const ArticulatedSystem& s) const {
  const auto& m = s.model();
  const auto n_frames = static_cast<long long>(m.frames.size());
  const auto n_bodies = static_cast<long long>(m.bodies.size());
  if (size < 0) throw_invalid("size must be >= 0, got " + std::to_string(size));
  if (!std::isfinite(period) || !(period > 0)) throw_invalid("period must be finite and > 0, got " + fmt(period));
  for (const auto& e : encoders) {
    check_index(e.index, e.kind == EncoderKind::kAngle ? s.gc_dim() : s.dof(),
                e.kind == EncoderKind::kAngle ? "encoder: gc index" : "encoder: dof");
    check_out(e.out, 1, size, "encoder");
    check_finite(e.mul, "encoder: mul");
    check_finite(e.add, "encoder: add");
  }
  for (const auto& c : coupled) {
    check_out(c.out, 1, size, "coupled");
    if (c.gc.empty() || c.mul.size() != c.gc.size() || c.add.size() != c.gc.size() || c.ratio.size() != c.gc.size())
      throw_invalid("coupled: gc, mul, add and ratio must have the same number (> 0) of entries");
    for (std::size_t k = 0; k < c.gc.size(); ++k) {
      check_index(c.gc[k], s.gc_dim(), "coupled: gc index");
      check_finite(c.mul[k], "coupled: mul");
      check_finite(c.add[k], "coupled: add");
      if (!std::isfinite(c.ratio[k]) || c.ratio[k] == 0.0) throw_invalid("coupled: ratio must be finite and non-zero");
    }
  }
  for (const auto& i : imus) {
    check_out(i.out, 7, size, "imu");
    check_index(i.frame, n_frames, "imu: frame");
    check_finite3(i.xyz, "imu: xyz");
    check_rotation(i.rotation, "imu: rotation");
  }
  for (const auto& g : fsr_groups) {
    check_index(g.body, n_bodies, "fsr group: body");
    check_index(g.frame, n_frames, "fsr group: frame");
    if (g.out.empty() || g.x.size() != g.out.size() || g.y.size() != g.out.size())
      throw_invalid("fsr group: out, x and y must have the same number (> 0) of entries");
    for (std::size_t k = 0; k < g.out.size(); ++k) {
      check_out(g.out[k], 1, size, "fsr group");
      check_finite(g.x[k], "fsr group: x");
      check_finite(g.y[k], "fsr group: y");
    }
  }
  for (const auto& r : regions) {
    check_index(r.body, n_bodies, "region: body");
    check_index(r.frame, n_frames, "region: frame");
    check_out(r.out, 1, size, "region");
    check_finite3(r.centre, "region: centre");
    check_finite3(r.half, "region: half");
    if (!(r.half.minCoeff() >= 0)) throw_invalid("region: half lengths must be >= 0");
  }
  for (const auto& r : rays) {
    check_index(r.frame, n_frames, "rays: frame");
    if (r.directions.empty()) throw_invalid("rays: at least one direction is needed");
    if (r.sonar && r.echoes < 1) throw_invalid("rays: a sonar needs echoes >= 1");
    check_out(r.out, r.sonar ? r.echoes : 1, size, "rays");
    check_finite3(r.xyz, "rays: xyz");
    check_rotation(r.rotation, "rays: rotation");
    for (const Vec3& d : r.directions) check_finite3(d, "rays: directions");
    check_finite(r.min_range, "rays: min_range");
    check_finite(r.max_range, "rays: max_range");
    if (!(r.min_range >= 0.0 && r.max_range > r.min_range))
      throw_invalid("rays: need 0 <= min_range < max_range, got " + fmt(r.min_range) + ", " + fmt(r.max_range));
  }
}

void HalSensorPlan::compile(const ArticulatedSystem& s) {
  slots_.clear();
  slots_of_body_.assign(s.model().bodies.size(), {});
  auto slot_of = [&](int body, int frame) {
    for (int k : slots_of_body_[body])
      if (slots_[k].frame == frame) return k;
    slots_.push_back({body, frame, false, Vec3::Zero(), Mat3::Identity()});
    const int k = static_cast<int>(slots_.size()) - 1;
    slots_of_body_[body].push_back(k);
    return k;
  };
  fsr_slot_.clear();
  fsr_load_.clear();
  rect_.clear();
  is_rect_.clear();
  for (const auto& g : fsr_groups) {
    fsr_slot_.push_back(slot_of(g.body, g.frame));
    fsr_load_.emplace_back(g.out.size(), 0.0);
    // four FSRs on a rectangle (two distinct x, two distinct y) share a load bilinearly
    std::vector<double> xs(g.x), ys(g.y);
    std::sort(xs.begin(), xs.end());
    std::sort(ys.begin(), ys.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    Rect r{};
    const bool rect = g.out.size() == 4 && xs.size() == 2 && ys.size() == 2;
    if (rect) {
      r = Rect{xs[0], 1.0 / (xs[1] - xs[0]), ys[0], 1.0 / (ys[1] - ys[0]), {}, {}};
      for (int k = 0; k < 4; ++k) {
        r.at_x1[k] = g.x[k] == xs[1];
        r.at_y1[k] = g.y[k] == ys[1];
      }
    }
    rect_.push_back(r);
    is_rect_.push_back(rect);
  }
  region_slot_.clear();
  for (const auto& r : regions) region_slot_.push_back(slot_of(r.body, r.frame));
  imu_v0_.assign(imus.size(), Vec3::Zero());
  unit_directions_.clear();
  cone_axis_.clear();
  cone_cos_.clear();
  for (const Rays& r : rays) {
    std::vector<Vec3> d;
    Vec3 sum = Vec3::Zero();
    for (const Vec3& v : r.directions) {
      d.push_back(normalized_ray_direction(v));
      sum += d.back();
    }
    // the cone around the mean direction that holds every ray (a sonar's: its axis and half
    // angle); none when the rays spread over a half space or more
    double cos_half = -1.0;
    Vec3 axis = Vec3::UnitX();
    if (sum.norm() > 1e-6 * static_cast<double>(d.size())) {
      axis = sum / sum.norm();
      cos_half = 1.0;
      for (const Vec3& v : d) cos_half = std::min(cos_half, v.dot(axis));
      if (!(cos_half > 0.0)) cos_half = -1.0;
    }
    unit_directions_.push_back(std::move(d));
    cone_axis_.push_back(axis);
    cone_cos_.push_back(cos_half);
  }
}

bool HalSensorPlan::compiled(const ArticulatedSystem& s) const {
  return slots_of_body_.size() == s.model().bodies.size() && fsr_slot_.size() == fsr_groups.size() &&
         region_slot_.size() == regions.size() && imu_v0_.size() == imus.size() &&
         unit_directions_.size() == rays.size();
}

namespace {

// the IMU's frame rotation R_f, angular velocity and the sensor point's velocity (world)
void imu_state(const ArticulatedSystem& s, const HalSensorPlan::Imu& imu, Mat3& r_f, Vec3& w, Vec3& v) {
  const auto& m = s.model();
  const Pose f = frame_placement(m, s.data(), imu.frame);
  const int body = m.frames[imu.frame].body;
  r_f = f.rotation;
  w = body_angular_velocity(s.data(), body);
  v = body_point_velocity(s.data(), body, f.position);
  if (imu.xyz != Vec3::Zero()) v += w.cross(r_f * imu.xyz);  // the offset point: v + w x (R_f xyz)
}

}  // namespace

void HalSensorPlan::begin_cycle(ArticulatedSystem& s) {
  if (!compiled(s)) compile(s);
  if (imus.empty()) return;
  s.ensure_kinematics();
  s.ensure_velocities();
  Mat3 r_f;
  Vec3 w;
  for (std::size_t k = 0; k < imus.size(); ++k) imu_state(s, imus[k], r_f, w, imu_v0_[k]);
}

void HalSensorPlan::measure(const World& world, ArticulatedSystem& s, double* out) {
  if (!compiled(s)) compile(s);
  s.ensure_kinematics();
  s.ensure_velocities();
  const VecX& q = s.data().q;
  const VecX& u = s.data().u;
  const VecX& tau = s.applied_force();
  for (const auto& e : encoders) {
    switch (e.kind) {
      case EncoderKind::kAngle: out[e.out] = q[e.index] * e.mul + e.add; break;
      case EncoderKind::kSpeed: out[e.out] = u[e.index] * e.mul; break;
      case EncoderKind::kTorque: out[e.out] = tau[e.index]; break;
    }
  }
  for (const auto& c : coupled) {
    double sum = 0.0;
    for (std::size_t k = 0; k < c.gc.size(); ++k) sum += (q[c.gc[k]] * c.mul[k] + c.add[k]) / c.ratio[k];
    out[c.out] = sum / static_cast<double>(c.gc.size());
  }
  if (!imus.empty()) {
    const Vec3 g = world.gravity();
    const double inv_t = 1.0 / period;
    for (std::size_t k = 0; k < imus.size(); ++k) {
      Mat3 r_f;
      Vec3 w, v;
      imu_state(s, imus[k], r_f, w, v);
      const Mat3 r = r_f * imus[k].rotation;
      const Vec3 f = r.transpose() * Vec3((v - imu_v0_[k]) * inv_t - g);  // proper acceleration, sensor frame
      const Vec3 gyr = r.transpose() * w;
      double* o = out + imus[k].out;
      o[0] = std::atan2(r(2, 1), r(2, 2));
      o[1] = std::atan2(-r(2, 0), std::hypot(r(2, 1), r(2, 2)));
      o[2] = f[0];
      o[3] = f[1];
      o[4] = f[2];
      o[5] = gyr[0];
      o[6] = gyr[1];
    }
  }
  if (!slots_.empty()) contact_sensors(world, s, out);
  if (!rays.empty()) ray_sensors(world, s, out);
}

void HalSensorPlan::contact_sensors(const World& world, ArticulatedSystem& s, double* out) {
  for (auto& l : fsr_load_) std::fill(l.begin(), l.end(), 0.0);
  for (const auto& r : regions) out[r.out] = 0.0;
  for (auto& sl : slots_) sl.posed = false;
  const auto me = static_cast<std::uint32_t>(s.index_in_world());
  const double dt = world.time_step();
  const auto& m = s.model();
  for (const Contact& c : world.contacts()) {
    if (c.object_a == c.object_b) continue;  // self-contacts are not sensed
    std::uint32_t body;
    if (c.object_a == me) body = c.local_a;
    else if (c.object_b == me) body = c.local_b;
    else continue;
    if (body >= slots_of_body_.size() || slots_of_body_[body].empty()) continue;
    // the normal force on the robot: the world force on A, impulse / dt, along the normal (which
    // points from B into A); on B both signs flip. Pulling contacts read 0.
    const Vec3 f = contact_frame(c.normal).transpose() * c.impulse / dt;
    const double fn = std::max(f.dot(c.normal), 0.0);
    for (int k : slots_of_body_[body]) {
      Slot& sl = slots_[k];
      if (!sl.posed) {
        const Pose pl = frame_placement(m, s.data(), sl.frame);
        sl.position = pl.position;
        sl.rotation = pl.rotation;
        sl.posed = true;
      }
      const Vec3 p = sl.rotation.transpose() * Vec3(c.position - sl.position);  // in the slot's frame
      for (std::size_t gi = 0; gi < fsr_groups.size(); ++gi) {
        if (fsr_slot_[gi] != k) continue;
        const FsrGroup& g = fsr_groups[gi];
        std::vector<double>& load = fsr_load_[gi];
        if (is_rect_[gi]) {
          const Rect& r = rect_[gi];
          const double uu = clamp((p[0] - r.x0) * r.inv_dx, 0.0, 1.0);
          const double vv = clamp((p[1] - r.y0) * r.inv_dy, 0.0, 1.0);
          for (int j = 0; j < 4; ++j) load[j] += fn * ((r.at_x1[j] ? uu : 1.0 - uu) * (r.at_y1[j] ? vv : 1.0 - vv));
        } else {
          std::size_t best = 0;
          double best_d = std::numeric_limits<double>::infinity();
          for (std::size_t j = 0; j < g.out.size(); ++j) {
            const double dx = p[0] - g.x[j], dy = p[1] - g.y[j];
            const double d = dx * dx + dy * dy;
            if (d < best_d) best_d = d, best = j;
          }
          load[best] += fn;
        }
      }
      for (std::size_t ri = 0; ri < regions.size(); ++ri) {
        if (region_slot_[ri] != k) continue;
        const Region& r = regions[ri];
        const Vec3 d = (p - r.centre).cwiseAbs();
        if (d[0] <= r.half[0] && d[1] <= r.half[1] && d[2] <= r.half[2]) out[r.out] = 1.0;
      }
    }
  }
  const double g = world.gravity().norm();
  for (std::size_t gi = 0; gi < fsr_groups.size(); ++gi)
    for (std::size_t j = 0; j < fsr_groups[gi].out.size(); ++j) out[fsr_groups[gi].out[j]] = fsr_load_[gi][j] / g;
}

namespace {

}  // namespace

// The rays of a bundle start at one point and lie in a narrow cone (a sonar's 60 degrees), so the
// bodies that can be hit are found once per bundle: those whose bounding sphere meets the cone
// within the range, and the unbounded ones (the ground). Each ray then tests those few (a slab
// test of the body's box, then the exact shape), keeping the nearest hit as RayScene::cast does
// with its hierarchy (World::ray_scene()): the same shapes, poses and intersection routine give the same distances.
void HalSensorPlan::ray_sensors(const World& world, ArticulatedSystem& s, double* out) {
  // the world's collision bodies as ray tests see them (what World::ray_scene() snapshots, without
  // its hierarchy, which these bundles do not need), into a buffer kept between cycles
  collect_ray_cast_bodies(world, ray_bodies_);
  const std::vector<RayCastBody>& bodies = ray_bodies_;
  const RayFilter filter;
  scene_bodies_.resize(bodies.size());
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    SceneBody& sb = scene_bodies_[b];
    sb.skipped = filter.skips(bodies[b]);
    sb.bounded = shape_is_bounded(bodies[b].shape);
    if (sb.skipped || !sb.bounded) continue;
    const Aabb box = shape_aabb(bodies[b].shape, bodies[b].pose, 0.0);
    sb.lo = box.min;
    sb.hi = box.max;
    sb.centre = 0.5 * (box.min + box.max);
    sb.radius = 0.5 * (box.max - box.min).norm();
  }
  const auto& m = s.model();
  for (std::size_t ri = 0; ri < rays.size(); ++ri) {
    const Rays& r = rays[ri];
    const Pose pl = frame_placement(m, s.data(), r.frame);
    const Vec3 start = pl.position + pl.rotation * r.xyz;
    const Mat3 rot = pl.rotation * r.rotation;
    // candidates: unbounded bodies first, then the bounded ones the cone may reach (a
    // conservative test with a margin for round-off)
    candidates_.clear();
    for (std::uint32_t b = 0; b < bodies.size(); ++b)
      if (!scene_bodies_[b].skipped && !scene_bodies_[b].bounded) candidates_.push_back(b);
    const Vec3 axis = rot * cone_axis_[ri];
    const double cos_half = cone_cos_[ri];
    const double half = cos_half > -1.0 ? std::acos(std::min(cos_half, 1.0)) : kPi;
    for (std::uint32_t b = 0; b < bodies.size(); ++b) {
      const SceneBody& sb = scene_bodies_[b];
      if (sb.skipped || !sb.bounded) continue;
      const Vec3 v = sb.centre - start;
      const double dist = v.norm();
      const double radius = sb.radius * (1.0 + 1e-9) + 1e-9;
      if (dist - radius > r.max_range) continue;  // beyond every ray's reach
      if (dist > radius && half < kPi) {
        const double beta = std::acos(std::max(-1.0, std::min(1.0, v.dot(axis) / dist)));
        if (beta - std::asin(radius / dist) > half + 1e-9) continue;  // outside the cone
      }
      candidates_.push_back(b);
    }
    // a body whose box holds the start needs no slab test (it would pass: entry 0)
    bool any_slab = false;
    for (const std::uint32_t b : candidates_) {
      SceneBody& sb = scene_bodies_[b];
      sb.slab = sb.bounded && !((start.array() >= sb.lo.array()).all() && (start.array() <= sb.hi.array()).all());
      any_slab = any_slab || sb.slab;
    }
    // each ray's nearest hit among the candidates: its distance and the candidate's echo group
    // (its object and local body: the shapes of one link are one echo)
    const std::vector<Vec3>& dirs = unit_directions_[ri];
    const std::size_t n = dirs.size();
    ray_distance_.resize(n);
    ray_group_.resize(n);
    echo_keys_.clear();
    group_of_candidate_.clear();
    for (const std::uint32_t b : candidates_) {
      const std::uint64_t key = (static_cast<std::uint64_t>(bodies[b].object_index) << 32) | bodies[b].local_index;
      std::size_t g = 0;
      while (g < echo_keys_.size() && echo_keys_[g] != key) ++g;
      if (g == echo_keys_.size()) echo_keys_.push_back(key);
      group_of_candidate_.push_back(static_cast<int>(g));
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3 dir = rot * dirs[i];
      Vec3 inv_d = Vec3::Zero();
      if (any_slab) inv_d = Vec3(1.0 / dir.x(), 1.0 / dir.y(), 1.0 / dir.z());
      double best = r.max_range;
      int group = -1;
      for (std::size_t k = 0; k < candidates_.size(); ++k) {
        const std::uint32_t b = candidates_[k];
        const SceneBody& sb = scene_bodies_[b];
        if (sb.slab && slab_entry(sb.lo, sb.hi, start, inv_d, best) > best) continue;
        ShapeRayHit h;
        if (ray_shape(bodies[b].shape, bodies[b].pose, start, dir, best, h) && (group < 0 || h.t < best)) {
          best = h.t;
          group = group_of_candidate_[k];
        }
      }
      ray_distance_[i] = group >= 0 ? best : std::numeric_limits<double>::infinity();
      ray_group_[i] = group;
    }
    double* o = out + r.out;
    if (!r.sonar) {
      const double v = ray_distance_[0];
      o[0] = v > r.max_range ? r.max_range : (v < r.min_range ? r.min_range : v);
      continue;
    }
    // the nearest distance of each object (body) the cone sees, nearest first, then 0s; nothing
    // seen: max_range
    echo_distance_.assign(echo_keys_.size(), std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < n; ++i)
      if (ray_group_[i] >= 0) echo_distance_[ray_group_[i]] = std::min(echo_distance_[ray_group_[i]], ray_distance_[i]);
    std::sort(echo_distance_.begin(), echo_distance_.end());
    std::fill(o, o + r.echoes, 0.0);
    int e = 0;
    for (; e < r.echoes && e < static_cast<int>(echo_distance_.size()); ++e) {
      if (!(echo_distance_[e] <= r.max_range)) break;
      o[e] = std::max(echo_distance_[e], r.min_range);
    }
    if (e == 0) o[0] = r.max_range;  // nothing seen
  }
}

}  // namespace torsion
