#include "geometry/convex_hull.hpp"
#include "geometry/convex_hull_faces.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <string>

#include "core/check.hpp"

namespace torsion {

namespace {

Vec3 face_mean(const ConvexHull& h, int f) {
  const int b0 = h.face_begin[f], m = h.face_begin[f + 1] - b0;
  Vec3 c = Vec3::Zero();
  for (int i = 0; i < m; ++i) c += h.vertices[h.face_vertices[b0 + i]];
  return c / m;
}

}  // namespace

bool hull_face_plane(const ConvexHull& h, int f, Vec3& normal, double& offset) {
  const int b0 = h.face_begin[f], m = h.face_begin[f + 1] - b0;
  const Vec3 c = face_mean(h, f);
  Vec3 n = Vec3::Zero();
  for (int i = 0; i < m; ++i) {
    const Vec3& p = h.vertices[h.face_vertices[b0 + i]];
    const Vec3& q = h.vertices[h.face_vertices[b0 + (i + 1) % m]];
    n += (p - c).cross(q - c);
  }
  if (!(n.norm() > 0.0)) return false;
  normal = n.normalized();
  offset = normal.dot(c);
  return true;
}

ConvexHull convex_hull_from_faces(const std::vector<Vec3>& vertices,
                                  const std::vector<std::array<int, 3>>& triangles,
                                  const std::vector<std::vector<int>>& faces, const char* what) {
  const int nv = static_cast<int>(vertices.size());
  if (nv < 4 || triangles.size() < 4 || faces.size() < 4)
    throw_invalid(std::string(what) + ": a hull needs at least 4 vertices, triangles and faces");
  ConvexHull h;
  h.vertices = vertices;
  for (const Vec3& v : vertices)
    if (!v.allFinite()) throw_invalid(std::string(what) + ": a vertex is not finite");
  for (const auto& t : triangles)
    for (int i : t)
      if (i < 0 || i >= nv) throw_invalid(std::string(what) + ": a triangle index is out of range");
  h.triangles = triangles;
  for (const auto& face : faces) {
    if (face.size() < 3) throw_invalid(std::string(what) + ": a face has fewer than 3 vertices");
    h.face_begin.push_back(static_cast<int>(h.face_vertices.size()));
    for (int i : face) {
      if (i < 0 || i >= nv) throw_invalid(std::string(what) + ": a face index is out of range");
      h.face_vertices.push_back(i);
    }
  }
  h.face_begin.push_back(static_cast<int>(h.face_vertices.size()));
  for (int f = 0; f < static_cast<int>(faces.size()); ++f) {
    Vec3 n;
    double offset = 0.0;
    if (!hull_face_plane(h, f, n, offset))
      throw_invalid(std::string(what) + ": face " + std::to_string(f) + " has no area");
    h.face_normals.push_back(n);
    h.face_offsets.push_back(offset);
  }
  h.local_min = h.local_max = h.vertices[0];
  for (const Vec3& v : h.vertices) h.local_min = h.local_min.cwiseMin(v), h.local_max = h.local_max.cwiseMax(v);
  return h;
}

int ConvexHull::support_index(const Vec3& d) const {
  int best = 0;
  double best_dot = vertices[0].dot(d);
  for (int i = 1; i < static_cast<int>(vertices.size()); ++i) {
    const double s = vertices[i].dot(d);
    if (s > best_dot) best_dot = s, best = i;
  }
  return best;
}

void ConvexHull::translate(const Vec3& offset) {
  for (Vec3& v : vertices) v += offset;
  for (int f = 0; f < face_count(); ++f) face_offsets[f] += face_normals[f].dot(offset);
  local_min += offset;
  local_max += offset;
}

namespace {

struct Face {
  int v[3];
  int adj[3];  // the face across edge v[k] -> v[(k + 1) % 3]
  Vec3 n;      // unit outward normal
  double d;    // n . x = d on the plane
  std::vector<int> outside;  // points above this face (more than the tolerance)
  bool alive = true;
};

class QuickHull {
 public:
  QuickHull(const std::vector<Vec3>& p, const char* what) : p_(p), what_(what) {}

  ConvexHull run() {
    double extent = 0.0;
    for (const Vec3& q : p_) extent = std::max(extent, q.cwiseAbs().maxCoeff());
    // round-off of a plane distance: a few ulps of the coordinates' magnitude
    eps_ = 3.0 * std::numeric_limits<double>::epsilon() * 3.0 * std::max(extent, 1e-300) * 16.0;
    initial_tetrahedron();
    while (!stack_.empty()) {
      const int f = stack_.back();
      stack_.pop_back();
      if (!faces_[f].alive || faces_[f].outside.empty()) continue;
      add_point(f);
    }
    return finish();
  }

 private:
  double dist(int face, int point) const { return faces_[face].n.dot(p_[point]) - faces_[face].d; }

  int make_face(int a, int b, int c) {
    Face f;
    f.v[0] = a, f.v[1] = b, f.v[2] = c;
    f.adj[0] = f.adj[1] = f.adj[2] = -1;
    const Vec3 n = (p_[b] - p_[a]).cross(p_[c] - p_[a]);
    const double len = n.norm();
    f.n = len > 0.0 ? Vec3(n / len) : Vec3::UnitZ();
    f.d = f.n.dot(p_[a]);
    faces_.push_back(std::move(f));
    return static_cast<int>(faces_.size()) - 1;
  }

  void fail_flat(const std::string& why) {
    throw_invalid(std::string(what_) + ": a convex hull needs at least 4 points that are not "
                  "all coplanar (" + why + ")");
  }

  void initial_tetrahedron() {
    const int n = static_cast<int>(p_.size());
    if (n < 4) fail_flat("got " + std::to_string(n) + " points");
    // the extreme points along the axes; the farthest pair of them spans the first edge
    int ext[6];
    for (int k = 0; k < 3; ++k) {
      ext[2 * k] = ext[2 * k + 1] = 0;
      for (int i = 1; i < n; ++i) {
        if (p_[i][k] < p_[ext[2 * k]][k]) ext[2 * k] = i;
        if (p_[i][k] > p_[ext[2 * k + 1]][k]) ext[2 * k + 1] = i;
      }
    }
    int i0 = ext[0], i1 = ext[1];
    double best = -1.0;
    for (int a = 0; a < 6; ++a)
      for (int b = a + 1; b < 6; ++b) {
        const double d = (p_[ext[a]] - p_[ext[b]]).squaredNorm();
        if (d > best) best = d, i0 = ext[a], i1 = ext[b];
      }
    if (!(std::sqrt(best) > eps_)) fail_flat("all points coincide");
    // the point farthest from the line i0-i1
    const Vec3 u = (p_[i1] - p_[i0]).normalized();
    int i2 = -1;
    best = eps_;
    for (int i = 0; i < n; ++i) {
      const Vec3 w = p_[i] - p_[i0];
      const double d = (w - w.dot(u) * u).norm();
      if (d > best) best = d, i2 = i;
    }
    if (i2 < 0) fail_flat("all points are collinear");
    // the point farthest from the plane i0-i1-i2
    const Vec3 m = (p_[i1] - p_[i0]).cross(p_[i2] - p_[i0]).normalized();
    int i3 = -1;
    best = eps_;
    for (int i = 0; i < n; ++i) {
      const double d = std::abs(m.dot(p_[i] - p_[i0]));
      if (d > best) best = d, i3 = i;
    }
    if (i3 < 0) fail_flat("all points are coplanar");
    const int ids[4] = {i0, i1, i2, i3};
    const Vec3 centre = 0.25 * (p_[i0] + p_[i1] + p_[i2] + p_[i3]);
    const int tri[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
    for (const auto& t : tri) {
      int a = ids[t[0]], b = ids[t[1]], c = ids[t[2]];
      const Vec3 nrm = (p_[b] - p_[a]).cross(p_[c] - p_[a]);
      if (nrm.dot(centre - p_[a]) > 0.0) std::swap(b, c);
      make_face(a, b, c);
    }
    for (int f = 0; f < 4; ++f) link_by_search(f, 4);
    // every other point goes to the first face it is above
    for (int i = 0; i < n; ++i) {
      if (i == i0 || i == i1 || i == i2 || i == i3) continue;
      for (int f = 0; f < 4; ++f)
        if (dist(f, i) > eps_) {
          faces_[f].outside.push_back(i);
          break;
        }
    }
    for (int f = 3; f >= 0; --f) stack_.push_back(f);
  }

  // neighbours of face f among faces [0, count) by matching reversed edges
  void link_by_search(int f, int count) {
    for (int k = 0; k < 3; ++k) {
      const int a = faces_[f].v[k], b = faces_[f].v[(k + 1) % 3];
      for (int g = 0; g < count; ++g) {
        if (g == f) continue;
        for (int j = 0; j < 3; ++j)
          if (faces_[g].v[j] == b && faces_[g].v[(j + 1) % 3] == a) faces_[f].adj[k] = g;
      }
    }
  }

  struct HorizonEdge {
    int a, b;      // the edge, in the orientation of the visible face
    int neighbour; // the hidden face across it
  };

  void add_point(int start) {
    // the farthest outside point of this face
    const std::vector<int>& out = faces_[start].outside;
    int eye = out[0];
    double best = dist(start, eye);
    for (std::size_t i = 1; i < out.size(); ++i) {
      const double d = dist(start, out[i]);
      if (d > best) best = d, eye = out[i];
    }
    // the faces the eye sees (connected to `start`), and the horizon around them
    visible_.clear();
    horizon_.clear();
    visible_flag_.assign(faces_.size(), 0);  // 0 unknown, 1 visible, 2 hidden
    std::vector<int> todo{start};
    visible_flag_[start] = 1;
    while (!todo.empty()) {
      const int f = todo.back();
      todo.pop_back();
      visible_.push_back(f);
      for (int k = 0; k < 3; ++k) {
        const int g = faces_[f].adj[k];
        if (visible_flag_[g] == 1) continue;
        if (visible_flag_[g] == 0 && dist(g, eye) > eps_) {
          visible_flag_[g] = 1;
          todo.push_back(g);
          continue;
        }
        visible_flag_[g] = 2;
        horizon_.push_back({faces_[f].v[k], faces_[f].v[(k + 1) % 3], g});
      }
    }
    std::sort(visible_.begin(), visible_.end());
    // the cone of new faces (a, b, eye) over the horizon edges
    const int first_new = static_cast<int>(faces_.size());
    starts_.clear();
    for (const HorizonEdge& e : horizon_) {
      const int nf = make_face(e.a, e.b, eye);
      faces_[nf].adj[0] = e.neighbour;
      for (int j = 0; j < 3; ++j)
        if (faces_[e.neighbour].v[j] == e.b && faces_[e.neighbour].v[(j + 1) % 3] == e.a)
          faces_[e.neighbour].adj[j] = nf;
      starts_[e.a] = nf;
    }
    for (int nf = first_new; nf < static_cast<int>(faces_.size()); ++nf) {
      // edge (b, eye) meets the new face starting at b; edge (eye, a) the one ending at a
      const int b = faces_[nf].v[1], a = faces_[nf].v[0];
      const auto it = starts_.find(b);
      if (it == starts_.end()) fail_flat("degenerate horizon");
      faces_[nf].adj[1] = it->second;
      faces_[it->second].adj[2] = nf;
      (void)a;
    }
    // retire the visible faces and hand their points to the new ones
    for (int f : visible_) {
      faces_[f].alive = false;
      for (int i : faces_[f].outside) {
        if (i == eye) continue;
        for (int nf = first_new; nf < static_cast<int>(faces_.size()); ++nf)
          if (dist(nf, i) > eps_) {
            faces_[nf].outside.push_back(i);
            break;
          }
      }
      std::vector<int>().swap(faces_[f].outside);
    }
    for (int nf = static_cast<int>(faces_.size()) - 1; nf >= first_new; --nf)
      if (!faces_[nf].outside.empty()) stack_.push_back(nf);
  }

  ConvexHull finish() {
    ConvexHull h;
    // vertices in increasing input order
    std::vector<int> used;
    for (const Face& f : faces_)
      if (f.alive) used.insert(used.end(), f.v, f.v + 3);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    std::map<int, int> remap;
    for (int i : used) {
      remap[i] = static_cast<int>(h.vertices.size());
      h.vertices.push_back(p_[i]);
    }
    // merge coplanar neighbours (union-find over alive faces)
    const int nf = static_cast<int>(faces_.size());
    std::vector<int> parent(nf);
    std::iota(parent.begin(), parent.end(), 0);
    auto root = [&](int x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    const double merge_tol = 1e3 * eps_;
    for (int f = 0; f < nf; ++f) {
      if (!faces_[f].alive) continue;
      for (int k = 0; k < 3; ++k) {
        const int g = faces_[f].adj[k];
        if (g < f || !faces_[g].alive) continue;
        if (faces_[f].n.dot(faces_[g].n) < 1.0 - 1e-9) continue;
        bool coplanar = true;
        for (int j = 0; j < 3; ++j)
          if (std::abs(dist(f, faces_[g].v[j])) > merge_tol) coplanar = false;
        if (coplanar) parent[root(g)] = root(f);
      }
    }
    // each group's boundary loop
    std::map<int, std::vector<int>> groups;  // root -> faces, in index order
    for (int f = 0; f < nf; ++f)
      if (faces_[f].alive) groups[root(f)].push_back(f);
    for (const auto& [r, members] : groups) {
      std::map<int, int> next;  // boundary edge a -> b
      int first = -1;
      for (int f : members)
        for (int k = 0; k < 3; ++k)
          if (root(faces_[f].adj[k]) != r) {
            next[faces_[f].v[k]] = faces_[f].v[(k + 1) % 3];
            if (first < 0) first = faces_[f].v[k];
          }
      h.face_begin.push_back(static_cast<int>(h.face_vertices.size()));
      int v = first;
      for (std::size_t guard = 0; guard <= next.size(); ++guard) {
        h.face_vertices.push_back(remap[v]);
        v = next[v];
        if (v == first) break;
      }
      // Newell's normal of the polygon (about its vertex mean), and its plane through the mean
      const int f_index = static_cast<int>(h.face_begin.size()) - 1;
      h.face_begin.push_back(static_cast<int>(h.face_vertices.size()));  // closes f for now
      Vec3 n;
      double offset = 0.0;
      if (!hull_face_plane(h, f_index, n, offset)) {
        n = faces_[members[0]].n;
        offset = n.dot(face_mean(h, f_index));
      }
      h.face_begin.pop_back();
      h.face_normals.push_back(n);
      h.face_offsets.push_back(offset);
    }
    h.face_begin.push_back(static_cast<int>(h.face_vertices.size()));
    for (const Face& f : faces_)
      if (f.alive) h.triangles.push_back({remap[f.v[0]], remap[f.v[1]], remap[f.v[2]]});
    h.local_min = h.local_max = h.vertices[0];
    for (const Vec3& v : h.vertices) h.local_min = h.local_min.cwiseMin(v), h.local_max = h.local_max.cwiseMax(v);
    return h;
  }

  const std::vector<Vec3>& p_;
  const char* what_;
  double eps_ = 0.0;
  std::vector<Face> faces_;
  std::vector<int> stack_;
  std::vector<int> visible_;
  std::vector<HorizonEdge> horizon_;
  std::vector<char> visible_flag_;
  std::map<int, int> starts_;
};

}  // namespace

ConvexHull convex_hull(const std::vector<Vec3>& points, const char* what) {
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!points[i].allFinite())
      throw_invalid(std::string(what) + ": point " + std::to_string(i) + " is not finite");
  return QuickHull(points, what).run();
}

}  // namespace torsion
