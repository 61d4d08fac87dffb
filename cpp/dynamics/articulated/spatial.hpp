// Spatial (6-D) algebra for the articulated-body algorithms, all in the world frame.
//
// Every spatial vector of one system is expressed in world axes about a common reference point O
// (the root body's origin at the current instant, treated as fixed in space; it keeps the numbers
// small when the robot is far from the world origin). Motion vectors are (omega, v_O): the angular
// velocity and the velocity of the body point passing through O. Force vectors are (n_O, f): the
// moment about O and the force. Working in one frame means no per-joint transforms are needed:
// composite inertias add directly and joint columns are plain world-frame 6-vectors.
#pragma once

#include "math/rotation.hpp"
#include "math/types.hpp"

namespace torsion {

using Vec6 = Eigen::Matrix<double, 6, 1>;

inline Vec3 ang(const Vec6& x) { return x.head<3>(); }
inline Vec3 lin(const Vec6& x) { return x.tail<3>(); }

inline Vec6 vec6(const Vec3& a, const Vec3& b) {
  Vec6 r;
  r << a, b;
  return r;
}

// motion x motion: the derivative of the motion vector m carried by a frame moving with v
inline Vec6 cross_motion(const Vec6& v, const Vec6& m) {
  const Vec3 w = ang(v);
  return vec6(w.cross(ang(m)), w.cross(lin(m)) + lin(v).cross(ang(m)));
}

// motion x* force: the derivative of the force vector f carried by a frame moving with v
inline Vec6 cross_force(const Vec6& v, const Vec6& f) {
  const Vec3 w = ang(v);
  return vec6(w.cross(ang(f)) + lin(v).cross(lin(f)), w.cross(lin(f)));
}

// Spatial inertia of a rigid body (or a composite of bodies) about the reference point O, in
// world axes, stored compactly: mass m, first moment h = m (c - O) and the rotational inertia
// about O, I_O = I_c - m [c-O]x [c-O]x. As a 6x6 matrix it is [[I_O, [h]x], [-[h]x, m 1]].
struct SpatialInertia {
  double m = 0.0;
  Vec3 h = Vec3::Zero();
  Mat3 i_o = Mat3::Zero();

  // momentum (n_O, f) of the motion (omega, v_O)
  Vec6 apply(const Vec6& x) const {
    const Vec3 w = ang(x);
    const Vec3 v = lin(x);
    return vec6(i_o * w + h.cross(v), m * v - h.cross(w));
  }
  SpatialInertia& operator+=(const SpatialInertia& o) {
    m += o.m;
    h += o.h;
    i_o += o.i_o;
    return *this;
  }
  // body of mass m, centre of mass c_rel = c - O (world) and world-frame inertia about the COM
  static SpatialInertia from_body(double mass, const Vec3& c_rel, const Mat3& inertia_c_w) {
    SpatialInertia s;
    s.m = mass;
    s.h = mass * c_rel;
    const Mat3 cx = skew(c_rel);
    s.i_o = inertia_c_w - mass * cx * cx;
    return s;
  }
};

}  // namespace torsion
