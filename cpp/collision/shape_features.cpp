#include "collision/shape_features.hpp"

#include <cmath>

#include "math/constants.hpp"

namespace torsion {

BoxFeature box_feature(const Vec3& h, const Pose& p, const Vec3& d, double cos_tol,
                       double sin_tol) {
  BoxFeature f;
  const Mat3& r = p.rotation;
  const Vec3 dl = r.transpose() * d;
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(dl[i]) > std::abs(dl[k])) k = i;
  if (std::abs(dl[k]) >= cos_tol) {
    // a face: its four corners in cyclic order
    const double sg = dl[k] >= 0.0 ? 1.0 : -1.0;
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    const Vec3 c = p.position + r.col(k) * (sg * h[k]);
    const Vec3 e1 = r.col(k1) * h[k1], e2 = r.col(k2) * h[k2];
    f.pts[0] = c + e1 + e2, f.pts[1] = c - e1 + e2, f.pts[2] = c - e1 - e2,
    f.pts[3] = c + e1 - e2;
    f.count = 4;
    f.axis = k;
    f.positive = sg > 0;
    return f;
  }
  int flat = -1, nflat = 0;
  for (int i = 0; i < 3; ++i)
    if (std::abs(dl[i]) <= sin_tol) flat = i, ++nflat;
  if (nflat == 1) {
    // an edge along axis `flat`
    Vec3 c = p.position;
    for (int i = 0; i < 3; ++i)
      if (i != flat) {
        c += r.col(i) * (dl[i] >= 0.0 ? h[i] : -h[i]);
        f.corner_code = 2 * f.corner_code + (dl[i] >= 0.0);
      }
    f.pts[0] = c - r.col(flat) * h[flat];
    f.pts[1] = c + r.col(flat) * h[flat];
    f.count = 2;
    f.axis = flat;
  }
  return f;
}

CylinderFeature cylinder_feature(double radius, double height, const Pose& p, const Vec3& d,
                                 double cos_tol, double sin_tol) {
  CylinderFeature f;
  const Mat3& r = p.rotation;
  const Vec3 axis = r.col(2);
  const double ad = axis.dot(d), hh = 0.5 * height;
  if (std::abs(ad) >= cos_tol) {
    // a cap: its rim sampled at 8 points (exact surface points)
    const double sg = ad >= 0.0 ? 1.0 : -1.0;
    const Vec3 c = p.position + axis * (sg * hh);
    for (int j = 0; j < 8; ++j) {
      const double ang = j * kPi / 4.0;
      f.pts[j] = c + radius * (std::cos(ang) * r.col(0) + std::sin(ang) * r.col(1));
    }
    f.count = 8;
    f.positive = sg > 0;
    f.normal = axis * sg;
    return f;
  }
  if (std::abs(ad) <= sin_tol) {
    // the side line farthest along d
    const Vec3 radial = (d - ad * axis).normalized();
    f.pts[0] = p.position + radius * radial - hh * axis;
    f.pts[1] = p.position + radius * radial + hh * axis;
    f.count = 2;
    f.normal = radial;
  }
  return f;
}

}  // namespace torsion
