// Convex meshes (ShapeType::kConvexMesh) and triangle meshes against the ground: every vertex
// within the margin of the plane is a contact point (feature = the vertex index), so a hull
// resting on a face gets all of that face's corners, as a box does. When more than a manifold's
// worth of vertices touch (a finely tessellated face), the deepest one and the extreme ones along
// eight directions of the ground plane are kept: the outline of the contact patch, which is what
// the solver needs.
//
// Every other pair with a convex mesh goes through collide_convex_convex (GJK/EPA, then face
// clipping of the supporting features; convex_pair.cpp).
#include <cmath>

#include "collision/narrow_phase.hpp"
#include "collision/segment.hpp"
#include "geometry/convex_hull.hpp"
#include "math/constants.hpp"

namespace torsion {

void collide_convex_ground(const Shape& a, const Pose& pa, const Shape&, const Pose& pg,
                           const ContactSettings& settings, Manifold& out) {
  collide_vertices_ground(a.hull->vertices, pa, pg, settings, out);
}

void collide_vertices_ground(const std::vector<Vec3>& vertices, const Pose& pa, const Pose& pg,
                             const ContactSettings& settings, Manifold& out) {
  const Vec3 n = pg.rotation.col(2);
  const double plane = n.dot(pg.position);
  const Vec3 n_b = pa.rotation.transpose() * n;  // ground normal in the hull's frame
  // depth of vertex i: plane - n . x_world = plane - n . p - n_b . v
  const double base = plane - n.dot(pa.position);
  int touching = 0, deepest = -1;
  double deepest_depth = -INFINITY;
  const int nv = static_cast<int>(vertices.size());
  for (int i = 0; i < nv; ++i) {
    const double depth = base - n_b.dot(vertices[i]);
    if (depth < -settings.margin) continue;
    ++touching;
    if (depth > deepest_depth) deepest_depth = depth, deepest = i;
  }
  if (touching == 0) return;
  auto add = [&](int i) {
    const double depth = base - n_b.dot(vertices[i]);
    const Vec3 x = pa.to_world(vertices[i]);
    out.add_from_b(x + depth * n, n, depth, static_cast<std::uint32_t>(i));
  };
  if (touching <= kMaxManifoldPoints) {
    for (int i = 0; i < nv; ++i)
      if (base - n_b.dot(vertices[i]) >= -settings.margin) add(i);
    return;
  }
  // the deepest vertex, then the extreme touching vertices along 8 in-plane directions
  add(deepest);
  const Vec3 t1 = any_perpendicular(n_b), t2 = n_b.cross(t1);
  int picked[8];
  for (int k = 0; k < 8; ++k) {
    const double ang = k * kPi / 4.0;
    const Vec3 dir = std::cos(ang) * t1 + std::sin(ang) * t2;
    int best = -1;
    double best_s = -INFINITY;
    for (int i = 0; i < nv; ++i) {
      if (base - n_b.dot(vertices[i]) < -settings.margin) continue;
      const double s = dir.dot(vertices[i]);
      if (s > best_s) best_s = s, best = i;
    }
    picked[k] = best;
    bool seen = best == deepest;
    for (int j = 0; j < k; ++j) seen = seen || picked[j] == best;
    if (!seen) add(best);
  }
}

}  // namespace torsion
