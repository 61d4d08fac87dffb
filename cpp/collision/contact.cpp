#include "collision/contact.hpp"

#include <cmath>

namespace torsion {

// x is horizontal, n x e_z normalized, while the normal leans more than 30 degrees from the
// vertical (h = |(n_x, n_y)| >= 0.5); nearer the vertical it is e_x projected onto the tangent
// plane. Both are continuous where they are used: a normal a hair off the vertical (round-off in
// a stack or on the ground) keeps the frame of the vertical instead of turning x towards the
// direction of its horizontal part, so contact-frame impulses do not spin with noise. The switch
// between the two lies at an oblique normal, away from the axes where contacts cluster.
Mat3 contact_frame(const Vec3& n) {
  constexpr double kSteep = 0.5;  // h = sin(30 degrees)
  const double h = std::sqrt(n.x() * n.x() + n.y() * n.y());
  const Vec3 x = h >= kSteep ? Vec3(n.y() / h, -n.x() / h, 0.0)
                             : Vec3(Vec3::UnitX() - n.x() * n).normalized();  // |.| >= 0.866
  const Vec3 y = n.cross(x);
  Mat3 f;
  f.row(0) = x.transpose();
  f.row(1) = y.transpose();
  f.row(2) = n.transpose();
  return f;
}

}  // namespace torsion
