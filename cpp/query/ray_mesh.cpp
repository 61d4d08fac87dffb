#include "query/ray_mesh.hpp"

#include <cmath>
#include <limits>

namespace torsion {

bool ray_convex_hull(const ConvexHull& h, const Vec3& o, const Vec3& d, double length,
                     double& t, Vec3& normal_b) {
  double t_in = -std::numeric_limits<double>::infinity();
  double t_out = std::numeric_limits<double>::infinity();
  int f_in = -1, f_out = -1;
  for (int f = 0; f < h.face_count(); ++f) {
    const Vec3& n = h.face_normals[f];
    const double dn = n.dot(d);
    const double gap = h.face_offsets[f] - n.dot(o);  // > 0: o is inside this face's plane
    if (dn == 0.0) {
      if (gap < 0.0) return false;  // parallel and outside
      continue;
    }
    const double s = gap / dn;
    if (dn < 0.0) {
      if (s > t_in) t_in = s, f_in = f;
    } else {
      if (s < t_out) t_out = s, f_out = f;
    }
    if (t_in > t_out) return false;
  }
  if (f_in >= 0 && t_in >= 0.0) {
    if (t_in > length) return false;
    t = t_in, normal_b = h.face_normals[f_in];
    return true;
  }
  // the ray starts inside: it sees the exit face
  if (f_out < 0 || t_out < 0.0 || t_out > length) return false;
  t = t_out, normal_b = h.face_normals[f_out];
  return true;
}

namespace {

// slab test of the ray against a box: the entry distance, or +inf if missed within [0, t_max]
double ray_box_entry(const Vec3& o, const Vec3& inv_d, const Vec3& lo, const Vec3& hi,
                     double t_max) {
  double t0 = 0.0, t1 = t_max;
  for (int k = 0; k < 3; ++k) {
    double a = (lo[k] - o[k]) * inv_d[k], b = (hi[k] - o[k]) * inv_d[k];
    if (std::isnan(a) || std::isnan(b)) {  // d[k] = 0 and o on a slab plane
      if (o[k] < lo[k] || o[k] > hi[k]) return std::numeric_limits<double>::infinity();
      continue;
    }
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a), t1 = std::min(t1, b);
    if (t0 > t1) return std::numeric_limits<double>::infinity();
  }
  return t0;
}

// Moller and Trumbore, "Fast, minimum storage ray-triangle intersection" (1997)
}  // namespace

bool ray_triangle(const Vec3& o, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c,
                  double& t, double slack) {
  const Vec3 e1 = b - a, e2 = c - a;
  const Vec3 p = d.cross(e2);
  const double det = e1.dot(p);
  if (std::abs(det) < 1e-300) return false;
  const double inv = 1.0 / det;
  const Vec3 s = o - a;
  const double u = s.dot(p) * inv;
  if (u < -slack || u > 1.0 + slack) return false;
  const Vec3 q = s.cross(e1);
  const double v = d.dot(q) * inv;
  if (v < -slack || u + v > 1.0 + slack) return false;
  t = e2.dot(q) * inv;
  return true;
}

bool ray_triangle_mesh(const TriangleMesh& mesh, const Vec3& o, const Vec3& d, double length,
                       double& t_hit, Vec3& normal_b) {
  const Vec3 inv_d(1.0 / d.x(), 1.0 / d.y(), 1.0 / d.z());
  const auto& nodes = mesh.nodes();
  const auto& verts = mesh.vertices();
  double best = length;
  int best_tri = -1;
  std::uint32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const TriangleMesh::Node& n = nodes[stack[--top]];
    if (ray_box_entry(o, inv_d, n.min, n.max, best) > best) continue;
    if (n.count > 0) {
      for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
        const std::uint32_t tri = mesh.leaf_triangles()[i];
        const auto& v = mesh.triangles()[tri];
        double t;
        // closer hit wins; equal distance keeps the lower triangle index (deterministic)
        if (ray_triangle(o, d, verts[v[0]], verts[v[1]], verts[v[2]], t) && t >= 0.0 &&
            (t < best || (t == best && static_cast<int>(tri) < best_tri)))
          best = t, best_tri = static_cast<int>(tri);
      }
      continue;
    }
    // inner: push the farther child first so the nearer is visited first
    const std::uint32_t left = static_cast<std::uint32_t>(&n - nodes.data()) + 1, right = n.first;
    const double tl = ray_box_entry(o, inv_d, nodes[left].min, nodes[left].max, best);
    const double tr = ray_box_entry(o, inv_d, nodes[right].min, nodes[right].max, best);
    if (top + 2 > 64) continue;  // depth is about log2(n / 4): never for real meshes
    if (tl <= tr) {
      if (tr <= best) stack[top++] = right;
      if (tl <= best) stack[top++] = left;
    } else {
      if (tl <= best) stack[top++] = left;
      if (tr <= best) stack[top++] = right;
    }
  }
  if (best_tri < 0) return false;
  t_hit = best;
  normal_b = mesh.triangle_normal(best_tri);
  return true;
}

}  // namespace torsion
