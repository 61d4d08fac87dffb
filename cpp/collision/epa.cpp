#include <cmath>
#include <utility>

#include "collision/gjk_epa.hpp"
#include "geometry/support.hpp"

namespace torsion {

namespace {

constexpr int kMaxVerts = 128;
constexpr int kMaxFaces = 512;
constexpr int kMaxEdges = 128;

struct Polytope {
  int nv = 0, nf = 0;
  Vec3 w[kMaxVerts], a[kMaxVerts], b[kMaxVerts];
  struct Face {
    int v[3];
    Vec3 n;       // outward unit normal
    double dist;  // n . w[v[0]], the distance of its plane from the origin
    bool alive;
  } f[kMaxFaces];

  bool add_face(int i, int j, int k) {
    if (nf >= kMaxFaces) return false;
    Face& face = f[nf++];
    face.v[0] = i, face.v[1] = j, face.v[2] = k;
    const Vec3 n = (w[j] - w[i]).cross(w[k] - w[i]);
    const double len = n.norm();
    face.alive = true;
    if (len > 1e-300) {
      face.n = n / len;
      face.dist = face.n.dot(w[i]);
    } else {
      // a sliver: never the closest face, and removed together with its neighbours
      face.n = Vec3::Zero();
      face.dist = INFINITY;
    }
    return true;
  }
};

}  // namespace

EpaResult epa_penetration(const ConvexQuery& q, const GjkResult& start, int max_iterations,
                          double tolerance) {
  EpaResult res;
  Polytope p;  // ~40 kB on the stack: no allocation
  auto support = [&](const Vec3& d, int slot) {
    p.a[slot] = support_core(*q.shape_a, *q.pose_a, d);
    p.b[slot] = support_core(*q.shape_b, *q.pose_b, -d);
    p.w[slot] = p.a[slot] - p.b[slot];
  };
  for (int i = 0; i < start.simplex_size; ++i)
    p.w[i] = start.simplex_w[i], p.a[i] = start.simplex_a[i], p.b[i] = start.simplex_b[i];
  p.nv = start.simplex_size;
  if (p.nv == 0) {
    support(Vec3::UnitX(), 0);
    p.nv = 1;
  }
  const double scale = 1.0 + p.w[0].norm();
  const double eps = 1e-10 * scale;

  // grow the simplex into a tetrahedron (the origin lies in it or on its boundary)
  static const Vec3 kAxes[6] = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(),
                                -Vec3::UnitY(), Vec3::UnitZ(), -Vec3::UnitZ()};
  if (p.nv == 1) {
    for (const Vec3& d : kAxes) {
      support(d, 1);
      if ((p.w[1] - p.w[0]).norm() > eps) {
        p.nv = 2;
        break;
      }
    }
    if (p.nv < 2) return res;
  }
  if (p.nv == 2) {
    const Vec3 line = (p.w[1] - p.w[0]).normalized();
    Vec3 e1 = line.cross(Vec3::UnitX());
    if (e1.norm() < 0.5) e1 = line.cross(Vec3::UnitY());
    e1.normalize();
    const Vec3 e2 = line.cross(e1);
    const Vec3 dirs[4] = {e1, e2, -e1, -e2};
    for (const Vec3& d : dirs) {
      support(d, 2);
      if ((p.w[2] - p.w[0]).cross(line).norm() > eps) {
        p.nv = 3;
        break;
      }
    }
    if (p.nv < 3) return res;
  }
  if (p.nv == 3) {
    Vec3 n = (p.w[1] - p.w[0]).cross(p.w[2] - p.w[0]);
    if (n.norm() <= 1e-300) return res;
    n.normalize();
    support(n, 3);
    if (std::abs((p.w[3] - p.w[0]).dot(n)) <= eps) support(-n, 3);
    if (std::abs((p.w[3] - p.w[0]).dot(n)) <= eps) return res;
    p.nv = 4;
  }
  // the four faces, wound so that their normals point away from the tetrahedron's centroid
  const Vec3 centroid = 0.25 * (p.w[0] + p.w[1] + p.w[2] + p.w[3]);
  static constexpr int kTet[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  for (const auto& t : kTet) {
    int i = t[0], j = t[1], k = t[2];
    if ((p.w[j] - p.w[i]).cross(p.w[k] - p.w[i]).dot(centroid - p.w[i]) > 0.0) std::swap(j, k);
    p.add_face(i, j, k);
  }

  int closest = -1;
  int edges[kMaxEdges][2];
  for (int it = 0; it < max_iterations; ++it) {
    closest = -1;
    for (int i = 0; i < p.nf; ++i)
      if (p.f[i].alive && (closest < 0 || p.f[i].dist < p.f[closest].dist)) closest = i;
    if (closest < 0 || !std::isfinite(p.f[closest].dist)) return res;
    const Vec3 n = p.f[closest].n;
    if (p.nv >= kMaxVerts) break;
    const int nw = p.nv;
    support(n, nw);
    if (p.w[nw].dot(n) - p.f[closest].dist <= tolerance) break;  // converged
    ++p.nv;
    // remove every face the new vertex sees; the horizon is the edges used by one removed face
    int ne = 0;
    bool overflow = false;
    for (int i = 0; i < p.nf; ++i) {
      Polytope::Face& face = p.f[i];
      if (!face.alive) continue;
      const bool sees = face.dist == INFINITY ||
                        face.n.dot(p.w[nw] - p.w[face.v[0]]) > 1e-14 * scale;
      if (!sees) continue;
      face.alive = false;
      for (int e = 0; e < 3; ++e) {
        const int u = face.v[e], v = face.v[(e + 1) % 3];
        int found = -1;
        for (int k = 0; k < ne; ++k)
          if (edges[k][0] == v && edges[k][1] == u) found = k;
        if (found >= 0) {
          edges[found][0] = edges[ne - 1][0], edges[found][1] = edges[ne - 1][1], --ne;
        } else if (ne < kMaxEdges) {
          edges[ne][0] = u, edges[ne][1] = v, ++ne;
        } else {
          overflow = true;
        }
      }
    }
    if (overflow) break;
    for (int k = 0; k < ne; ++k)
      if (!p.add_face(edges[k][0], edges[k][1], nw)) break;
    // compact the face list when it fills up with dead faces
    if (p.nf > kMaxFaces - kMaxEdges) {
      int m = 0;
      for (int i = 0; i < p.nf; ++i)
        if (p.f[i].alive) p.f[m++] = p.f[i];
      p.nf = m;
      if (p.nf > kMaxFaces - kMaxEdges) break;
    }
  }
  // the answer is the closest alive face found last
  closest = -1;
  for (int i = 0; i < p.nf; ++i)
    if (p.f[i].alive && (closest < 0 || p.f[i].dist < p.f[closest].dist)) closest = i;
  if (closest < 0 || !std::isfinite(p.f[closest].dist)) return res;
  const Polytope::Face& face = p.f[closest];
  // barycentric coordinates of the origin's projection onto the face
  const Vec3 x = face.n * face.dist;
  const Vec3 &w0 = p.w[face.v[0]], &w1 = p.w[face.v[1]], &w2 = p.w[face.v[2]];
  const Vec3 v0 = w1 - w0, v1 = w2 - w0, v2 = x - w0;
  const double d00 = v0.dot(v0), d01 = v0.dot(v1), d11 = v1.dot(v1);
  const double d20 = v2.dot(v0), d21 = v2.dot(v1);
  const double den = d00 * d11 - d01 * d01;
  double l1 = 0.0, l2 = 0.0;
  if (den > 1e-300) l1 = (d11 * d20 - d01 * d21) / den, l2 = (d00 * d21 - d01 * d20) / den;
  const double l0 = 1.0 - l1 - l2;
  res.point_a = l0 * p.a[face.v[0]] + l1 * p.a[face.v[1]] + l2 * p.a[face.v[2]];
  res.point_b = l0 * p.b[face.v[0]] + l1 * p.b[face.v[1]] + l2 * p.b[face.v[2]];
  res.normal = -face.n;
  res.depth = face.dist;
  res.ok = true;
  return res;
}

}  // namespace torsion
