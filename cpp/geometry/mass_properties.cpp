#include "geometry/mass_properties.hpp"

#include <cmath>

#include "geometry/convex_hull.hpp"
#include "geometry/mesh.hpp"
#include "math/constants.hpp"

namespace torsion {

double shape_volume(const Shape& s) {
  switch (s.type) {
    case ShapeType::kSphere: return 4.0 / 3.0 * kPi * s.radius * s.radius * s.radius;
    case ShapeType::kBox: return 8.0 * s.half_extents.prod();
    case ShapeType::kCylinder: return kPi * s.radius * s.radius * s.height;
    case ShapeType::kCapsule:
      return kPi * s.radius * s.radius * s.height + 4.0 / 3.0 * kPi * s.radius * s.radius * s.radius;
    case ShapeType::kGround:
    case ShapeType::kHeightMap: return 0.0;
    case ShapeType::kConvexMesh:
      return polyhedron_mass_properties(s.hull->vertices, s.hull->triangles).volume;
    case ShapeType::kTriangleMesh: return 0.0;  // surfaces: bodies carry their own (mesh.hpp)
  }
  return 0.0;
}

Mat3 shape_inertia(const Shape& s, double mass) {
  Vec3 d = Vec3::Zero();
  const double r2 = s.radius * s.radius;
  switch (s.type) {
    case ShapeType::kSphere:
      d.setConstant(0.4 * mass * r2);
      break;
    case ShapeType::kBox: {
      const Vec3 l2 = (2.0 * s.half_extents).cwiseAbs2();
      d = mass / 12.0 * Vec3(l2.y() + l2.z(), l2.x() + l2.z(), l2.x() + l2.y());
      break;
    }
    case ShapeType::kCylinder: {
      const double ixx = mass * (3.0 * r2 + s.height * s.height) / 12.0;
      d = Vec3(ixx, ixx, 0.5 * mass * r2);
      break;
    }
    case ShapeType::kCapsule: {
      // split the mass by volume between the cylinder and the two hemispheres; each hemisphere's
      // inertia is moved from its own centre of mass (3r/8 from the flat face) to the body centre
      const double h = s.height;
      const double v_cyl = kPi * r2 * h;
      const double v_sph = 4.0 / 3.0 * kPi * r2 * s.radius;
      const double m_cyl = mass * v_cyl / (v_cyl + v_sph);
      const double m_sph = mass - m_cyl;
      const double ixx = m_cyl * (3.0 * r2 + h * h) / 12.0 +
                         m_sph * (0.4 * r2 + 0.25 * h * h + 0.375 * h * s.radius);
      const double izz = 0.5 * m_cyl * r2 + 0.4 * m_sph * r2;
      d = Vec3(ixx, ixx, izz);
      break;
    }
    case ShapeType::kConvexMesh: {
      // about the hull's own centre of mass (the hull is stored with it at the origin)
      const SolidMassProperties mp = polyhedron_mass_properties(s.hull->vertices, s.hull->triangles);
      return mp.inertia * (mass / mp.volume);
    }
    case ShapeType::kGround:
    case ShapeType::kHeightMap:
    case ShapeType::kTriangleMesh:
      break;
  }
  return d.asDiagonal();
}

}  // namespace torsion
