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
#include "geometry/triangle_mesh.hpp"

namespace torsion {

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
      collide_convex_triangle(a, pa, tri, settings, out);
    }
  }
}

void collide_triangle_mesh_ground(const Shape& a, const Pose& pa, const Shape&, const Pose& pg,
                                  const ContactSettings& settings, Manifold& out) {
  // the solid behind a closed mesh is bounded by its vertices, so its deepest points below the
  // plane are vertices; an open mesh (a sheet) touches the plane at its vertices too
  collide_vertices_ground(a.mesh->vertices(), pa, pg, settings, out);
}

}  // namespace torsion
