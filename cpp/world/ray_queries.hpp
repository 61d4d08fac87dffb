// Ray tests over a World (RaiSim's rayTest, rayTestLidar, getRayCastBodies, captureDepthCamera).
// Each query snapshots the world's collision bodies into a RayScene (query/ray_scene.hpp) and
// casts through its hierarchy.
#pragma once

#include <cstdint>
#include <vector>

#include "core/random.hpp"
#include "query/ray_scene.hpp"

namespace torsion {

class World;

// every collision body of the world with its current pose, in world-index order
void collect_ray_cast_bodies(const World& world, std::vector<RayCastBody>& bodies);
// every deformable's surface (world/world_deformable.hpp: a cloth's triangles, a solid's
// boundary faces) at its particles' current positions, with its filter, in the world's order
void collect_ray_surfaces(const World& world, std::vector<RaySurface>& surfaces);

// A spinning lidar pattern in the sensor frame: ray (i, j) has yaw = yaw_start + i yaw_increment
// and pitch = pitch_start + j pitch_increment and direction
// (cos pitch cos yaw, cos pitch sin yaw, sin pitch); rays are ordered yaw-major (i outer).
struct LidarPattern {
  double yaw_start = 0.0, yaw_increment = 0.0;  // rad
  std::uint64_t yaw_count = 0;
  double pitch_start = 0.0, pitch_increment = 0.0;  // rad
  std::uint64_t pitch_count = 0;
  double range_min = 0.0, range_max = 0.0;  // m
};

// The most rays one call may cast (a lidar's yaw_count * pitch_count, a batch's rows, a depth
// camera's pixels): 2**28, whose results alone take gigabytes. std::invalid_argument beyond.
constexpr std::uint64_t kMaxRaysPerCall = std::uint64_t{1} << 28;

// std::invalid_argument naming the field: non-finite angles, bad ranges, more than
// kMaxRaysPerCall rays
void validate(const LidarPattern& pattern);

// points (sensor frame) of the rays whose hit lies in [range_min, range_max], in ray order. Only
// the bodies whose bounds meet the sensor's reach (a sphere of range_max, narrowed to the yaw
// sector when it spans less than a turn) are put in the scene: the frustum broad phase.
// The deformables' surfaces are tested by every ray.
void ray_test_lidar(const std::vector<RayCastBody>& bodies, std::vector<RaySurface>&& surfaces,
                    const Mat3& rot, const Vec3& pos, const LidarPattern& pattern,
                    const RayFilter& filter, RayScene& scratch, std::vector<Vec3>& scan);

// The CPU ray-cast depth camera. Camera frame: +X forward, +Y left, +Z up. A pinhole camera of
// horizontal field of view hfov; pixel (row r, column c) looks along (f, cx - (c + 1/2),
// cy - (r + 1/2)) with f = (width / 2) / tan(hfov / 2), cx = width / 2, cy = height / 2.
struct DepthCameraProperties {
  int width = 160;           // pixels
  int height = 120;          // pixels
  double clip_near = 0.05;   // m, along +X; closer hits are background
  double clip_far = 10.0;    // m, along +X; farther hits are background
  double hfov = 90.0;        // horizontal field of view (deg), in (0, 180)
  bool depth = true;         // write depth
  bool segmentation = true;  // write segmentation (world index, -1 background)
  bool point_cloud = false;  // write the hit points (world frame)
  double noise_std = 0.0;    // Gaussian depth noise (m), from the world's sensor noise stream
};

void validate(const DepthCameraProperties& props);

// Buffers are row-major (height x width); background pixels get depth = clip_far,
// segmentation = -1 (object_ids and links too) and a NaN point. With segmentation, object_ids
// holds the stable id of the object seen (unlike the world index, it survives removals) and links
// its local body index (a robot's body index, a compound's child index, 0 for a single body).
// A pixel that sees a deformable has segmentation, object_ids and links -1, and its deformable's
// id in deformable_ids and the surface triangle's index in triangles (-1 on every other pixel).
struct DepthCameraFrame {
  std::vector<double> depth;
  std::vector<std::int32_t> segmentation;
  std::vector<std::int64_t> object_ids;
  std::vector<std::int32_t> links;
  std::vector<std::int64_t> deformable_ids;
  std::vector<std::int64_t> triangles;
  std::vector<Vec3> points;
};

void capture_depth_camera(const RayScene& scene, const Vec3& pos, const Mat3& rot,
                          const DepthCameraProperties& props, const RayFilter& filter,
                          RandomStream& noise, DepthCameraFrame& frame, int num_threads);

}  // namespace torsion
