#include "math/rotation.hpp"

#include <cmath>

namespace torsion {

Quat quat_from_rotvec(const Vec3& rotvec) {
  const double angle = rotvec.norm();
  const double half = 0.5 * angle;
  // sin(half)/angle, with its Taylor series near zero to keep full precision
  double s;
  if (angle < 1e-4) {
    const double a2 = angle * angle;
    s = 0.5 - a2 / 48.0 + a2 * a2 / 3840.0;
  } else {
    s = std::sin(half) / angle;
  }
  return Quat(std::cos(half), s * rotvec.x(), s * rotvec.y(), s * rotvec.z());
}

}  // namespace torsion
