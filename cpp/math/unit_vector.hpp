// Unit vectors and quaternions from user input of any finite magnitude: the one normalisation
// every API boundary uses for a quaternion or an axis.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <string>

#include "core/check.hpp"

namespace torsion {

// v / |v| for a finite, non-zero v of any magnitude, denormals included; false (out untouched)
// when v is zero or not finite. The plain squared norm overflows to inf past about 1e154 (and
// v / inf is zero: (1e200, 1e200, 0, 0) became the zero quaternion) and underflows to 0 below
// about 1e-154 (so (1e-160, 1e-160, 0, 0) was called zero, with "got norm 1.41e-160" in the
// same message): out of a safe range v is divided by its largest |component| first. Within it,
// v / |v| as before, bit for bit (a unit quaternion read back and set again keeps its bits).
template <int N>
bool normalize_scaled(const Eigen::Matrix<double, N, 1>& v, Eigen::Matrix<double, N, 1>* out) {
  if (!v.allFinite()) return false;
  const double squared = v.squaredNorm();
  // a component whose square is subnormal is below 1e-108 of the norm here: lost to round-off
  if (squared >= 1e-200 && squared <= std::numeric_limits<double>::max()) {
    *out = v / std::sqrt(squared);
    return true;
  }
  const double scale = v.cwiseAbs().maxCoeff();
  if (!(scale > 0.0)) return false;
  const Eigen::Matrix<double, N, 1> u = v / scale;  // its largest |component| is exactly 1
  *out = u / u.norm();
  return true;
}

// "[a, b, c]" with the shortest exact digits, for messages
template <int N>
std::string fmt_vec(const Eigen::Matrix<double, N, 1>& v) {
  std::string s = "[";
  for (int i = 0; i < static_cast<int>(v.size()); ++i) s += (i ? ", " : "") + fmt(v[i]);
  return s + "]";
}

// v / |v|, or std::invalid_argument naming `name` when v is not finite or zero
template <int N>
Eigen::Matrix<double, N, 1> unit_or_throw(const Eigen::Matrix<double, N, 1>& v,
                                          const std::string& name) {
  Eigen::Matrix<double, N, 1> u;
  if (!normalize_scaled(v, &u))
    throw_invalid(name + " must be finite with a non-zero norm (any such norm is normalised), " +
                  "got " + fmt_vec(v));
  return u;
}

}  // namespace torsion
