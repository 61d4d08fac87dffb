#include "world/ray_queries.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "batch/thread_pool.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "math/constants.hpp"
#include "world/articulated_system.hpp"
#include "world/world.hpp"
#include "world/world_deformable.hpp"

namespace torsion {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

void collect_ray_cast_bodies(const World& world, std::vector<RayCastBody>& bodies) {
  const std::vector<CollisionShapeEntry>& shapes = world.collision_shapes().entries();
  bodies.clear();
  bodies.reserve(shapes.size());
  // A robot's cached link kinematics are used when current; otherwise they are computed in a
  // copy (one per robot, its shapes are consecutive), so a query never writes into the system
  // (rays may be cast from several threads)
  const ArticulatedSystem* fresh_of = nullptr;
  std::unique_ptr<ArticulatedData> fresh;
  for (const CollisionShapeEntry& e : shapes) {
    RayCastBody& b = bodies.emplace_back();
    b.shape = *e.shape;
    if (e.system != nullptr && !e.system->data().kinematics_valid) {
      if (fresh_of != e.system) {
        fresh = std::make_unique<ArticulatedData>(e.system->model());
        fresh->q = e.system->data().q;
        update_kinematics(e.system->model(), *fresh);
        fresh_of = e.system;
      }
      e.system->collision_pose(*fresh, e.source_index, b.pose);
    } else {
      e.world_pose(b.pose);
    }
    b.group = e.filter->group;
    b.mask = e.filter->mask;
    b.object_index = e.object_index;
    b.local_index = e.local_index;
    b.object_id = e.object->id();
  }
}

void collect_ray_surfaces(const World& world, std::vector<RaySurface>& surfaces) {
  surfaces.clear();
  const DeformableSet& set = world.deformable_set();
  surfaces.reserve(set.objects.size());
  for (const auto& dp : set.objects) {
    const DeformableObject& d = *dp;
    RaySurface& s = surfaces.emplace_back();
    s.vertices = d.positions();
    s.triangles = d.surface();
    s.two_sided = d.kind() == DeformableKind::kCloth;
    s.group = d.group;
    s.mask = d.mask;
    s.deformable_id = d.id();
  }
}

void validate(const LidarPattern& p) {
  check_finite(p.yaw_start, "yaw_start");
  check_finite(p.yaw_increment, "yaw_increment");
  check_finite(p.pitch_start, "pitch_start");
  check_finite(p.pitch_increment, "pitch_increment");
  check_non_negative(p.range_min, "range_min");
  check_positive(p.range_max, "range_max");
  if (p.range_min > p.range_max)
    throw_invalid("range_min must be <= range_max, got " + fmt(p.range_min) + " > " +
                  fmt(p.range_max));
  // each factor is checked first: their product could wrap around 2**64
  if (p.yaw_count > kMaxRaysPerCall || p.pitch_count > kMaxRaysPerCall ||
      p.yaw_count * p.pitch_count > kMaxRaysPerCall)
    throw_invalid("yaw_count * pitch_count must be at most 2**28 rays (the depth camera's pixel "
                  "cap), got " + std::to_string(p.yaw_count) + " * " +
                  std::to_string(p.pitch_count));
}

void ray_test_lidar(const std::vector<RayCastBody>& bodies, std::vector<RaySurface>&& surfaces,
                    const Mat3& rot, const Vec3& pos, const LidarPattern& p,
                    const RayFilter& filter, RayScene& scratch, std::vector<Vec3>& scan) {
  scan.clear();
  // frustum broad phase: keep the bodies whose box meets the sphere of reach; when the yaw sweep
  // covers less than a turn, also drop boxes entirely behind both edges of the sector
  const double yaw_span = std::abs(p.yaw_increment) * static_cast<double>(p.yaw_count);
  // a ray's horizontal direction is its yaw only while cos(pitch) > 0: a pitch past +-90 degrees
  // looks back, so the sector test holds only when every pitch of the pattern looks forward
  bool forward = true;
  for (std::uint64_t j = 0; j < p.pitch_count && forward; ++j)
    forward = std::cos(p.pitch_start + p.pitch_increment * static_cast<double>(j)) > 0.0;
  const bool sector = forward && yaw_span < 2.0 * kPi - 1e-9 && p.yaw_count > 0;
  double yaw_lo = std::min(p.yaw_start, p.yaw_start + p.yaw_increment * (p.yaw_count - 1.0));
  double yaw_hi = std::max(p.yaw_start, p.yaw_start + p.yaw_increment * (p.yaw_count - 1.0));
  // the sector moved into [-pi, pi] + [0, 2 pi): a spinning sensor's yaw_start grows without
  // bound, and the boxes' yaws (atan2) are compared with it a turn either way only
  const double turns = yaw_lo - std::remainder(yaw_lo, 2.0 * kPi);
  yaw_lo -= turns, yaw_hi -= turns;
  std::vector<RayCastBody> kept;
  kept.reserve(bodies.size());
  for (const RayCastBody& b : bodies) {
    if (filter.skips(b)) continue;
    if (!shape_is_bounded(b.shape)) {
      kept.push_back(b);
      continue;
    }
    const Aabb box = shape_aabb(b.shape, b.pose, 0.0);
    const Vec3 closest = pos.cwiseMax(box.min).cwiseMin(box.max);
    if ((closest - pos).squaredNorm() > p.range_max * p.range_max) continue;
    if (sector) {
      // the box as a bounding sphere seen from the sensor: its yaw interval
      const Vec3 c_s = rot.transpose() * (0.5 * (box.min + box.max) - pos);
      const double r = 0.5 * (box.max - box.min).norm();
      const double dxy = std::hypot(c_s.x(), c_s.y());
      if (dxy > r) {
        const double half = std::asin(std::min(1.0, r / dxy));
        const double yaw_c = std::atan2(c_s.y(), c_s.x());
        bool overlaps = false;
        for (int k = -1; k <= 1 && !overlaps; ++k) {  // the sweep may extend past +-pi
          const double c = yaw_c + 2.0 * kPi * k;
          overlaps = c + half >= yaw_lo && c - half <= yaw_hi;
        }
        if (!overlaps) continue;
      }
    }
    kept.push_back(b);
  }
  scratch.build(kept, std::move(surfaces));
  for (std::uint64_t i = 0; i < p.yaw_count; ++i) {
    const double yaw = p.yaw_start + p.yaw_increment * static_cast<double>(i);
    for (std::uint64_t j = 0; j < p.pitch_count; ++j) {
      const double pitch = p.pitch_start + p.pitch_increment * static_cast<double>(j);
      const Vec3 d_s(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                     std::sin(pitch));
      RayHit hit;
      if (!scratch.cast(pos, rot * d_s, p.range_max, filter, hit)) continue;
      if (hit.distance < p.range_min) continue;
      scan.push_back(hit.distance * d_s);
    }
  }
}

void validate(const DepthCameraProperties& c) {
  if (c.width <= 0 || c.height <= 0)
    throw_invalid("width and height must be > 0, got " + std::to_string(c.width) + " x " +
                  std::to_string(c.height));
  if (static_cast<std::uint64_t>(c.width) * static_cast<std::uint64_t>(c.height) > kMaxRaysPerCall)
    throw_invalid("width * height must be at most 2**28 pixels, got " + std::to_string(c.width) +
                  " * " + std::to_string(c.height));
  check_non_negative(c.clip_near, "clip_near");
  check_positive(c.clip_far, "clip_far");
  if (!(c.clip_near < c.clip_far))
    throw_invalid("clip_near must be < clip_far, got " + fmt(c.clip_near) + " >= " + fmt(c.clip_far));
  if (!std::isfinite(c.hfov) || !(c.hfov > 0.0) || !(c.hfov < 180.0))
    throw_invalid("hfov must be in (0, 180) degrees, got " + fmt(c.hfov));
  check_non_negative(c.noise_std, "noise_std");
}

void capture_depth_camera(const RayScene& scene, const Vec3& pos, const Mat3& rot,
                          const DepthCameraProperties& c, const RayFilter& filter,
                          RandomStream& noise, DepthCameraFrame& frame, int num_threads) {
  const int w = c.width, h = c.height;
  const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  frame.depth.assign(c.depth ? n : 0, c.clip_far);
  frame.segmentation.assign(c.segmentation ? n : 0, -1);
  frame.object_ids.assign(c.segmentation ? n : 0, -1);
  frame.links.assign(c.segmentation ? n : 0, -1);
  frame.deformable_ids.assign(c.segmentation ? n : 0, -1);
  frame.triangles.assign(c.segmentation ? n : 0, -1);
  frame.points.assign(c.point_cloud ? n : 0, Vec3::Constant(kNaN));
  std::vector<std::uint8_t> hit_mask(n, 0);
  // the pixel pitch on the image plane at unit distance along +X: 1 / f of the header. f itself
  // is never formed: for a tiny hfov (1e-200 deg) f and |(f, y, z)| overflowed and the depths
  // were NaN; at 1e-310 f was inf and no ray hit anything. Any hfov in (0, 180) is finite here.
  const double pitch = std::tan(0.5 * c.hfov * kPi / 180.0) / (0.5 * w);
  // the ray through pixel (r, col): rows top to bottom (+Z down the image), columns left to
  // right (+Y decreasing)
  auto render_rows = [&](int row_begin, int row_end) {
    // a row's pixels two at a time: neighbours walk the hierarchy together (RayScene::cast2,
    // the same results as one cast() each)
    for (int r = row_begin; r < row_end; ++r) {
      for (int col = 0; col < w; col += 2) {
        const int pair = col + 1 < w ? 2 : 1;
        Vec3 start[2] = {pos, pos}, dir[2];
        double d_len[2], length[2];
        for (int j = 0; j < pair; ++j) {
          const Vec3 d_c(1.0, (0.5 * w - (col + j + 0.5)) * pitch, (0.5 * h - (r + 0.5)) * pitch);
          d_len[j] = d_c.norm();  // >= 1
          dir[j] = rot * (d_c / d_len[j]);
          // the far clip plane along +X lies at ray distance clip_far * |d_c|
          length[j] = c.clip_far * d_len[j];
        }
        RayHit hits[2];
        bool found[2];
        if (pair == 2)
          scene.cast2(start, dir, length, filter, hits, found);
        else
          found[0] = scene.cast(start[0], dir[0], length[0], filter, hits[0]);
        for (int j = 0; j < pair; ++j) {
          if (!found[j]) continue;
          const RayHit& hit = hits[j];
          const double depth = hit.distance / d_len[j];
          if (depth < c.clip_near) continue;
          const std::size_t k = static_cast<std::size_t>(r) * w + col + j;
          hit_mask[k] = 1;
          if (c.depth) frame.depth[k] = depth;
          if (c.segmentation && hit.surface >= 0) {
            frame.deformable_ids[k] =
                static_cast<std::int64_t>(scene.surfaces()[static_cast<std::size_t>(hit.surface)].deformable_id);
            frame.triangles[k] = hit.triangle;
          } else if (c.segmentation) {
            const RayCastBody& body = scene.bodies()[hit.body];
            frame.segmentation[k] = static_cast<std::int32_t>(body.object_index);
            frame.object_ids[k] = static_cast<std::int64_t>(body.object_id);
            frame.links[k] = static_cast<std::int32_t>(body.local_index);
          }
          if (c.point_cloud) frame.points[k] = hit.position;
        }
      }
    }
  };
  // blocks of rows on the shared pool: every pixel is written by exactly one task, so the image
  // does not depend on the threads. Blocks of about 4096 pixels (a few hundred microseconds),
  // handed out one at a time: uneven rows balance, and a thread that gets its core late takes
  // fewer blocks instead of holding the frame up with a large one (there were four blocks per
  // thread: a quarter of a thread's share each).
  const int threads = std::max(1, std::min(num_threads, h));
  if (threads == 1) {
    render_rows(0, h);
  } else {
    const int rows_per_block = std::max(1, 4096 / w);
    const int blocks = (h + rows_per_block - 1) / rows_per_block;
    ThreadPool::shared().parallel_for(
        static_cast<std::size_t>(blocks), threads, [&](std::size_t b) {
          const int r0 = static_cast<int>(b) * rows_per_block;
          render_rows(r0, std::min(h, r0 + rows_per_block));
        });
  }
  // noise after the parallel part, in pixel order, so the result does not depend on threads
  if (c.depth && c.noise_std > 0.0) {
    for (std::size_t k = 0; k < n; ++k) {
      if (!hit_mask[k]) continue;
      frame.depth[k] += c.noise_std * noise.normal();
    }
  }
}

}  // namespace torsion
