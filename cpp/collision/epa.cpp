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
    int adj[3];   // the face across edge v[e] -> v[e + 1]
    Vec3 n;       // outward unit normal
    double dist;  // n . w[v[0]], the distance of its plane from the origin
    bool alive;
  } f[kMaxFaces];

  int add_face(int i, int j, int k) {
    if (nf >= kMaxFaces) return -1;
    Face& face = f[nf];
    face.v[0] = i, face.v[1] = j, face.v[2] = k;
    face.adj[0] = face.adj[1] = face.adj[2] = -1;
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
    return nf++;
  }
  // the index of face g's edge u -> v (-1 if it has none)
  int edge_of(int g, int u, int v) const {
    for (int e = 0; e < 3; ++e)
      if (f[g].v[e] == u && f[g].v[(e + 1) % 3] == v) return e;
    return -1;
  }
};

// The faces the new vertex sees, found by walking from the closest face across edges, form one
// patch; its boundary (the horizon) is collected in order around the patch, each edge as the
// removed face has it (u -> v) with the kept face across it. Removing every face the vertex
// sees, wherever it lies, was not enough: where faces are nearly coplanar round-off makes a far
// face "seen", the removed set is no longer one patch, and the new faces fold inside out.
struct Horizon {
  int n = 0;
  int u[kMaxEdges], v[kMaxEdges], kept[kMaxEdges];
};

// face g lies across edge u -> v of a removed face; returns false if the horizon overflows or
// the polytope's adjacency is broken
bool silhouette(Polytope& p, int g, int u, int v, const Vec3& w, double see_tol, Horizon& h) {
  if (g < 0) return false;
  Polytope::Face& face = p.f[g];
  if (!face.alive) return true;  // removed already in this expansion
  const bool sees = face.dist == INFINITY || face.n.dot(w - p.w[face.v[0]]) > see_tol;
  if (!sees) {
    if (h.n >= kMaxEdges) return false;
    h.u[h.n] = u, h.v[h.n] = v, h.kept[h.n] = g, ++h.n;
    return true;
  }
  face.alive = false;
  const int k = p.edge_of(g, v, u);
  if (k < 0) return false;
  const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
  return silhouette(p, face.adj[k1], face.v[k1], face.v[k2], w, see_tol, h) &&
         silhouette(p, face.adj[k2], face.v[k2], face.v[k], w, see_tol, h);
}

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
  // the four faces, wound so that their normals point away from the tetrahedron's centroid,
  // each linked to the three it shares an edge with
  const Vec3 centroid = 0.25 * (p.w[0] + p.w[1] + p.w[2] + p.w[3]);
  static constexpr int kTet[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  for (const auto& t : kTet) {
    int i = t[0], j = t[1], k = t[2];
    if ((p.w[j] - p.w[i]).cross(p.w[k] - p.w[i]).dot(centroid - p.w[i]) > 0.0) std::swap(j, k);
    p.add_face(i, j, k);
  }
  for (int i = 0; i < 4; ++i)
    for (int e = 0; e < 3; ++e)
      for (int j = 0; j < 4; ++j)
        if (j != i && p.edge_of(j, p.f[i].v[(e + 1) % 3], p.f[i].v[e]) >= 0) p.f[i].adj[e] = j;

  auto find_closest = [&p]() {
    int c = -1;
    for (int i = 0; i < p.nf; ++i)
      if (p.f[i].alive && (c < 0 || p.f[i].dist < p.f[c].dist)) c = i;
    return c;
  };
  int closest = find_closest();
  if (closest < 0 || !std::isfinite(p.f[closest].dist)) return res;
  // the closest face of the last sound polytope: the answer if an expansion goes wrong
  Polytope::Face answer = p.f[closest];
  for (int it = 0; it < max_iterations; ++it) {
    const Vec3 n = answer.n;
    if (p.nv >= kMaxVerts) break;
    const int nw = p.nv;
    support(n, nw);
    if (p.w[nw].dot(n) - answer.dist <= tolerance) break;  // converged
    ++p.nv;
    // remove the patch of faces the new vertex sees and cone its horizon to the vertex. The patch
    // must be bounded by one closed loop of edges, each with a kept face across it; otherwise
    // (round-off on nearly coplanar faces) stop with the answer so far rather than build a
    // polytope that is no longer convex.
    Horizon h;
    p.f[closest].alive = false;
    bool sound = true;
    for (int e = 0; e < 3 && sound; ++e)
      sound = silhouette(p, answer.adj[e], answer.v[e], answer.v[(e + 1) % 3], p.w[nw],
                         1e-14 * scale, h);
    sound = sound && h.n >= 3 && p.nf + h.n <= kMaxFaces;
    int kept_edge[kMaxEdges];
    for (int k = 0; k < h.n && sound; ++k) {
      kept_edge[k] = p.edge_of(h.kept[k], h.v[k], h.u[k]);
      sound = kept_edge[k] >= 0 && h.v[k] == h.u[(k + 1) % h.n];
    }
    if (!sound) break;
    const int first = p.nf;
    for (int k = 0; k < h.n; ++k) {
      Polytope::Face& face = p.f[p.add_face(h.u[k], h.v[k], nw)];
      face.adj[0] = h.kept[k];
      face.adj[1] = first + (k + 1) % h.n;
      face.adj[2] = first + (k + h.n - 1) % h.n;
      p.f[h.kept[k]].adj[kept_edge[k]] = first + k;
    }
    // compact the face list when it fills up with dead faces
    if (p.nf > kMaxFaces - kMaxEdges) {
      int index[kMaxFaces];
      int m = 0;
      for (int i = 0; i < p.nf; ++i) index[i] = p.f[i].alive ? m++ : -1;
      for (int i = 0; i < p.nf; ++i) {
        if (!p.f[i].alive) continue;
        p.f[index[i]] = p.f[i];
        for (int& g : p.f[index[i]].adj) g = index[g];
      }
      p.nf = m;
    }
    // the polytope only grows, so its closest face can only recede; one that comes nearer is
    // round-off (a folded face) and the answer so far stands
    closest = find_closest();
    if (closest < 0 || !std::isfinite(p.f[closest].dist) ||
        p.f[closest].dist < answer.dist - 1e-12 * scale)
      break;
    answer = p.f[closest];
  }
  const Polytope::Face& face = answer;
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
