// Rays against the mesh shapes, in the shape's body frame: o + t d (|d| = 1), 0 <= t <= length.
// Same rules as ray_shapes.hpp: the first crossing at t >= 0 (the exit point for a ray starting
// inside a convex hull); the normal is the outward one of the crossed face, body frame.
#pragma once

#include "geometry/convex_hull.hpp"
#include "geometry/triangle_mesh.hpp"

namespace torsion {

// plane clipping: the ray's interval inside every face's half space
bool ray_convex_hull(const ConvexHull& hull, const Vec3& o, const Vec3& d, double length,
                     double& t, Vec3& normal_b);

// Moller-Trumbore, two-sided: true and t (the ray parameter, of either sign) when the line o + t d
// crosses triangle (a, b, c); false when it misses or lies in the triangle's plane
// slack (barycentric, >= 0): also accept a ray passing that far outside an edge (see
// ray_height_map.cpp)
bool ray_triangle(const Vec3& o, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c,
                  double& t, double slack = 0.0);

// BVH traversal (nearest box first) with the Moller-Trumbore ray-triangle test; either side of a
// triangle is hit, the reported normal is the triangle's own (right-hand rule)
bool ray_triangle_mesh(const TriangleMesh& mesh, const Vec3& o, const Vec3& d, double length,
                       double& t, Vec3& normal_b);

}  // namespace torsion
