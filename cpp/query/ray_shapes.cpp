#include "query/ray_shapes.hpp"

#include <cmath>
#include <limits>

#include "query/ray_mesh.hpp"

namespace torsion {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Candidate crossings are collected as (t, body-frame normal); the smallest t in [0, length] wins.
struct Best {
  double t = kInf;
  Vec3 n_b = Vec3::UnitZ();
  void offer(double t_new, const Vec3& n) {
    if (t_new >= 0.0 && t_new < t) {
      t = t_new;
      n_b = n;
    }
  }
};

// crossings of the sphere |x - c| = r by o + t d (|d| = 1)
void sphere_crossings(const Vec3& o, const Vec3& d, const Vec3& c, double r, Best& best,
                      double z_min, double z_max) {
  const Vec3 oc = o - c;
  const double b = oc.dot(d);
  const double q = oc.squaredNorm() - r * r;
  const double disc = b * b - q;
  if (disc < 0.0) return;
  const double s = std::sqrt(disc);
  for (const double t : {-b - s, -b + s}) {
    const Vec3 x = o + t * d;
    if (x.z() < z_min || x.z() > z_max) continue;
    best.offer(t, (x - c) / r);
  }
}

// crossings of the infinite cylinder x^2 + y^2 = r^2 restricted to |z| <= h
void side_crossings(const Vec3& o, const Vec3& d, double r, double h, Best& best) {
  const double a = d.x() * d.x() + d.y() * d.y();
  if (a <= 0.0) return;  // parallel to the axis: never crosses the side
  const double b = o.x() * d.x() + o.y() * d.y();
  const double q = o.x() * o.x() + o.y() * o.y() - r * r;
  const double disc = b * b - a * q;
  if (disc < 0.0) return;
  const double s = std::sqrt(disc);
  for (const double t : {(-b - s) / a, (-b + s) / a}) {
    const Vec3 x = o + t * d;
    if (std::abs(x.z()) > h) continue;
    best.offer(t, Vec3(x.x() / r, x.y() / r, 0.0));
  }
}

// crossings of the discs z = +-h, x^2 + y^2 <= r^2
void cap_crossings(const Vec3& o, const Vec3& d, double r, double h, Best& best) {
  if (d.z() == 0.0) return;
  for (const double zc : {-h, h}) {
    const double t = (zc - o.z()) / d.z();
    const Vec3 x = o + t * d;
    if (x.x() * x.x() + x.y() * x.y() > r * r) continue;
    best.offer(t, Vec3(0.0, 0.0, zc > 0.0 ? 1.0 : -1.0));
  }
}

// crossings of the box |x_i| <= h_i by the slab method: entry at the largest near-slab t, exit at
// the smallest far-slab t
void box_crossings(const Vec3& o, const Vec3& d, const Vec3& h, Best& best) {
  double t_near = -kInf, t_far = kInf;
  int axis_near = 0, axis_far = 0;
  double sign_near = 1.0, sign_far = 1.0;
  for (int i = 0; i < 3; ++i) {
    if (d[i] == 0.0) {
      if (std::abs(o[i]) > h[i]) return;  // parallel to this slab and outside it
      continue;
    }
    const double inv = 1.0 / d[i];
    double t0 = (-h[i] - o[i]) * inv;  // crossing of the face at -h
    double t1 = (h[i] - o[i]) * inv;   // crossing of the face at +h
    double s0 = -1.0, s1 = 1.0;
    if (t0 > t1) {
      std::swap(t0, t1);
      std::swap(s0, s1);
    }
    if (t0 > t_near) {
      t_near = t0;
      axis_near = i;
      sign_near = s0;
    }
    if (t1 < t_far) {
      t_far = t1;
      axis_far = i;
      sign_far = s1;
    }
  }
  if (t_near > t_far) return;
  Vec3 n = Vec3::Zero();
  if (t_near >= 0.0) {
    n[axis_near] = sign_near;
    best.offer(t_near, n);
  } else {
    n[axis_far] = sign_far;  // inside: the exit face
    best.offer(t_far, n);
  }
}

}  // namespace

bool ray_shape(const Shape& shape, const Pose& pose, const Vec3& start, const Vec3& dir,
               double length, ShapeRayHit& hit) {
  Best best;
  if (shape.type == ShapeType::kGround) {
    // half space z <= height (world frame); its surface is crossed once at most
    if (dir.z() != 0.0) best.offer((shape.height - start.z()) / dir.z(), Vec3::UnitZ());
    if (best.t > length) return false;
    hit.t = best.t;
    hit.normal = Vec3::UnitZ();
    return true;
  }
  if (shape.type == ShapeType::kHeightMap) return ray_height_map(shape, pose, start, dir, length, hit);
  if (shape.type == ShapeType::kSphere) {  // rotation-free: test in the world frame
    sphere_crossings(start, dir, pose.position, shape.radius, best, -kInf, kInf);
    if (best.t > length) return false;
    hit.t = best.t;
    hit.normal = best.n_b;
    return true;
  }
  // ray in the body frame
  const Vec3 o = pose.to_body(start);
  const Vec3 d = pose.rotation.transpose() * dir;
  switch (shape.type) {
    case ShapeType::kSphere:
      sphere_crossings(o, d, Vec3::Zero(), shape.radius, best, -kInf, kInf);
      break;
    case ShapeType::kBox:
      box_crossings(o, d, shape.half_extents, best);
      break;
    case ShapeType::kCylinder:
      side_crossings(o, d, shape.radius, 0.5 * shape.height, best);
      cap_crossings(o, d, shape.radius, 0.5 * shape.height, best);
      break;
    case ShapeType::kCapsule: {
      const double h = 0.5 * shape.height;
      side_crossings(o, d, shape.radius, h, best);
      sphere_crossings(o, d, Vec3(0.0, 0.0, h), shape.radius, best, h, kInf);
      sphere_crossings(o, d, Vec3(0.0, 0.0, -h), shape.radius, best, -kInf, -h);
      break;
    }
    case ShapeType::kConvexMesh:
    case ShapeType::kTriangleMesh: {
      double t;
      Vec3 n;
      const bool hit_mesh = shape.type == ShapeType::kConvexMesh
                                ? ray_convex_hull(*shape.hull, o, d, length, t, n)
                                : ray_triangle_mesh(*shape.mesh, o, d, length, t, n);
      if (hit_mesh) best.offer(t, n);
      break;
    }
    case ShapeType::kGround:
    case ShapeType::kHeightMap:
      break;
  }
  if (best.t > length) return false;
  hit.t = best.t;
  hit.normal = pose.rotation * best.n_b;
  return true;
}

}  // namespace torsion
