// What ray tests see: every collision body of a world, with its world pose, in a bounding-volume
// hierarchy, so that a ray visits only the bodies whose boxes it crosses (front to back, stopping
// as soon as no closer hit is possible).
//
// A RayScene is a snapshot of bodies and poses (the world layer collects them, see
// world/ray_queries.hpp); a later step or pose change needs a new build(). Casting is const and
// thread-safe, so many rays can be cast in parallel.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/ids.hpp"
#include "geometry/aabb.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"
#include "query/ray_surface.hpp"

namespace torsion {

// one collision body, exactly as ray tests see it (RaiSim's RayCastBody)
struct RayCastBody {
  Shape shape;
  Pose pose;
  CollisionGroup group = 1;
  CollisionGroup mask = kAllGroups;
  std::uint32_t object_index = 0;  // world index of the owning object
  std::uint32_t local_index = 0;   // local body index within the object
  ObjectId object_id = 0;
};

// the index that disables the "ignore this body" filter (RaiSim's size_t(-10))
constexpr std::uint64_t kNoIgnore = static_cast<std::uint64_t>(-10);

struct RayFilter {
  CollisionGroup mask = kAllGroups;        // hits a body only if (body.group & mask) != 0
  std::uint64_t ignore_object = kNoIgnore;  // world index of an ignored body ...
  std::uint64_t ignore_local = kNoIgnore;   // ... and its local index (both must be set)

  bool skips(const RayCastBody& b) const {
    if ((b.group & mask) == 0 || b.mask == 0) return true;
    return ignore_object != kNoIgnore && ignore_local != kNoIgnore &&
           b.object_index == ignore_object && b.local_index == ignore_local;
  }
  // a deformable's surface: the same group/mask rule (it is no world object: never ignored)
  bool skips(const RaySurface& s) const { return (s.group & mask) == 0 || s.mask == 0; }
};

struct RayHit {
  double distance = std::numeric_limits<double>::infinity();  // along the ray (m)
  Vec3 position = Vec3::Zero();                                // world (m)
  Vec3 normal = Vec3::UnitZ();                                 // outward surface normal, world
  std::uint32_t body = 0;                                      // index into RayScene::bodies()
  // a deformable's surface was hit (then `body` means nothing): its index into
  // RayScene::surfaces(), and the triangle's index in that surface (-1: a body was hit)
  std::int32_t surface = -1;
  std::int64_t triangle = -1;
};

class RayScene {
 public:
  RayScene();
  ~RayScene();
  RayScene(const RayScene&) = delete;
  RayScene& operator=(const RayScene&) = delete;

  // take these bodies and build the hierarchy over them; reuses its buffers
  void build(const std::vector<RayCastBody>& bodies);
  // and the deformables' surfaces (taken; each gets its own hierarchy), tested by every ray
  void build(const std::vector<RayCastBody>& bodies, std::vector<RaySurface>&& surfaces);

  // closest hit of start + t dir (|dir| = 1), 0 <= t <= length, among bodies `filter` keeps
  bool cast(const Vec3& start, const Vec3& dir, double length, const RayFilter& filter,
            RayHit& hit) const;

  // Two rays at once, as two cast() calls give them, bit for bit (found[r], hit[r]): the rays
  // walk the hierarchy together, each node's boxes tested for both, the children visited when
  // either ray crosses them and a leaf's bodies tested for the rays that reach it. Worth it for
  // neighbours of a coherent order (query/ray_order.hpp), which cross mostly the same nodes.
  // Falls back to two cast() calls when the scene has deformable surfaces or the rays' directions
  // differ in sign along an axis.
  void cast2(const Vec3 start[2], const Vec3 dir[2], const double length[2],
             const RayFilter& filter, RayHit hit[2], bool found[2]) const;

  const std::vector<RayCastBody>& bodies() const { return bodies_; }
  const std::vector<RaySurface>& surfaces() const { return surfaces_; }

 private:
  struct Tree;  // the hierarchy, laid out for the traversal (ray_scene.cpp)
  std::vector<RayCastBody> bodies_;
  std::vector<RaySurface> surfaces_;
  std::unique_ptr<Tree> tree_;
};

// normalise a ray direction as the seed says: a zero (or non-finite-free tiny) vector means +z
Vec3 normalized_ray_direction(const Vec3& direction);

}  // namespace torsion
