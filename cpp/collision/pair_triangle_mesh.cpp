// Primitive shapes (sphere, box, cylinder, capsule) against a triangle mesh
// (ShapeType::kTriangleMesh): the mesh's BVH yields the triangles whose bounds meet the shape's
// box (in the mesh frame, grown by the margin), and each goes through the convex-vs-triangle
// routine of collision/triangle_contact.hpp with the mesh's edge adjacency: the neighbour's normal
// across every shared edge (so flat and concave internal edges make no "ghost" normals) and one
// owner per shared edge (the lower triangle index), so an edge contact is reported once.
// Triangles are visited in BVH order, which is fixed: the result is deterministic.
#include "collision/narrow_phase.hpp"
#include "collision/triangle_contact.hpp"
#include "geometry/aabb.hpp"
#include "geometry/support.hpp"
#include "geometry/triangle_mesh.hpp"

namespace torsion {

namespace {

// Vertex region of mesh vertex vi (the triangle routine covers faces and edges): the vertex is
// the point of the surface closest to the shape when the direction u from it to the shape's
// closest core point makes an obtuse angle with every edge leaving it (Ericson's vertex-region
// test over the one-ring) and points to the front of at least one triangle around it (the
// surface is one-sided). Then the contact normal is u, the depth radius - |u|. This is what
// bounds the edge regions at an open boundary, where an edge ends at a vertex with free edges.
void vertex_contact(const Shape& a, const Pose& pa, const TriangleMesh& mesh, const Pose& pb,
                    int vi, const ContactSettings& settings, Manifold& out) {
  const Vec3 v = pb.to_world(mesh.vertices()[vi]);
  const Vec3 q = closest_core_point(a, pa, v);
  const Vec3 u = q - v;
  const double dist = u.norm();
  const double r = core_radius(a);
  if (dist > r + settings.margin) return;
  const auto& ring = mesh.ring_vertices();
  const auto& faces = mesh.ring_faces();
  Vec3 n;
  double depth;
  if (!(dist > 1e-12)) {
    // v inside a box, cylinder or hull (no direction from the closest point): the face
    // direction in the vertex's cone that pushes it out least (inside_vertex_contact)
    constexpr int kMaxRing = 64;
    Vec3 edges[kMaxRing];
    int count = 0;
    for (int k = mesh.ring_begin(vi); k < mesh.ring_begin(vi + 1) && count < kMaxRing; ++k)
      edges[count++] = pb.to_world(mesh.vertices()[ring[k]]) - v;
    if (count < mesh.ring_begin(vi + 1) - mesh.ring_begin(vi)) return;  // (a 64+-edge fan)
    Vec3 vertex_normal = Vec3::Zero();
    for (int k = mesh.faces_begin(vi); k < mesh.faces_begin(vi + 1); ++k)
      vertex_normal += pb.rotation * mesh.triangle_normal(faces[k]);
    if (!inside_vertex_contact(a, pa, v, edges, count, vertex_normal, n, depth)) return;
  } else {
    for (int k = mesh.ring_begin(vi); k < mesh.ring_begin(vi + 1); ++k) {
      const Vec3 e = pb.to_world(mesh.vertices()[ring[k]]) - v;
      if (u.dot(e) > 1e-9 * dist * e.norm()) return;  // round-off tolerance: never lose a vertex
    }
    n = u / dist;
    depth = r - dist;
  }
  bool in_front = false;
  for (int k = mesh.faces_begin(vi); k < mesh.faces_begin(vi + 1) && !in_front; ++k)
    in_front = n.dot(pb.rotation * mesh.triangle_normal(faces[k])) > 0.0;
  if (!in_front) return;
  make_room(out, 1);
  out.add_from_b(v, n, depth, (static_cast<std::uint32_t>(vi) * 2654435761u) ^ 0x1B873593u);
}

}  // namespace

void collide_convex_triangle_mesh(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                                  const ContactSettings& settings, Manifold& out) {
  const TriangleMesh& mesh = *b.mesh;
  // the shape's box in the mesh frame
  Pose local;
  local.position = pb.to_body(pa.position);
  local.rotation = pb.rotation.transpose() * pa.rotation;
  const Aabb box = shape_aabb(a, local, settings.margin);
  const auto& nodes = mesh.nodes();
  const auto& verts = mesh.vertices();
  std::uint32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const std::uint32_t ni = stack[--top];
    const TriangleMesh::Node& n = nodes[ni];
    if (!(Aabb{n.min, n.max}).overlaps(box)) continue;
    if (n.count == 0) {
      // right child pushed first so the left one is visited first
      if (top + 2 > 64) continue;  // depth ~ log2(triangles / 4): never for real meshes
      stack[top++] = n.first;
      stack[top++] = ni + 1;
      continue;
    }
    for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
      const int t = static_cast<int>(mesh.leaf_triangles()[i]);
      const auto& tv = mesh.triangles()[t];
      ContactTriangle tri;
      for (int k = 0; k < 3; ++k) tri.v[k] = pb.to_world(verts[tv[k]]);
      Vec3 lo = verts[tv[0]], hi = lo;
      for (int k = 1; k < 3; ++k) lo = lo.cwiseMin(verts[tv[k]]), hi = hi.cwiseMax(verts[tv[k]]);
      if (!(Aabb{lo, hi}).overlaps(box)) continue;
      for (int k = 0; k < 3; ++k) {
        const int nb = mesh.neighbour(t, k);
        tri.edges[k].has_neighbour = nb >= 0;
        if (nb >= 0) tri.edges[k].neighbour_normal = pb.rotation * mesh.triangle_normal(nb);
        tri.edges[k].owned = nb < 0 || t < nb;
      }
      tri.id = static_cast<std::uint32_t>(t);
      tri.vertex_regions = false;  // every vertex is tested once below, over its whole one-ring
      collide_convex_triangle(a, pa, tri, settings, out);
      for (int k = 0; k < 3; ++k)
        if (mesh.vertex_owner(tv[k]) == t) vertex_contact(a, pa, mesh, pb, tv[k], settings, out);
    }
  }
}

void collide_triangle_mesh_height_map(const Shape& a, const Pose& pa, const Shape& b,
                                      const Pose& pb, const ContactSettings& settings,
                                      Manifold& out) {
  // the mesh's convex hull stands in for its surface: conservative (the hull holds the mesh),
  // exact for a convex mesh; a flat mesh (no hull) makes no contact
  const std::shared_ptr<const ConvexHull> hull = a.mesh->hull();
  if (!hull) return;
  collide_convex_height_map(Shape::convex_mesh(hull), pa, b, pb, settings, out);
}

void collide_triangle_mesh_ground(const Shape& a, const Pose& pa, const Shape&, const Pose& pg,
                                  const ContactSettings& settings, Manifold& out) {
  // the solid behind a closed mesh is bounded by its vertices, so its deepest points below the
  // plane are vertices; an open mesh (a sheet) touches the plane at its vertices too
  collide_vertices_ground(a.mesh->vertices(), pa, pg, settings, out);
}

}  // namespace torsion
