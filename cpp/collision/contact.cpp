#include "collision/contact.hpp"

#include <cmath>

namespace torsion {

Mat3 contact_frame(const Vec3& n) {
  Vec3 x;
  const double h = std::sqrt(n.x() * n.x() + n.y() * n.y());
  if (h < 1e-12) {
    x = Vec3::UnitX();
  } else {
    x = Vec3(n.y() / h, -n.x() / h, 0.0);
  }
  const Vec3 y = n.cross(x);
  Mat3 f;
  f.row(0) = x.transpose();
  f.row(1) = y.transpose();
  f.row(2) = n.transpose();
  return f;
}

}  // namespace torsion
