// Argument checks at the API boundary. Each throws std::invalid_argument (ValueError in
// Python) with a message that names the argument, what was expected and what came.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

namespace torsion {

// format a double the way a user typed it: the shortest of 15 to 17 significant digits that
// reads back as the same double (0.6, not 0.59999999999999998)
inline std::string fmt(double v) {
  std::string out;
  for (int digits = 15; digits <= 17; ++digits) {
    std::ostringstream s;
    s.precision(digits);
    s << v;
    out = s.str();
    if (!std::isfinite(v) || std::strtod(out.c_str(), nullptr) == v) break;
  }
  return out;
}

[[noreturn]] inline void throw_invalid(const std::string& what) {
  throw std::invalid_argument(what);
}

inline void check_finite(double v, const char* name) {
  if (!std::isfinite(v)) throw_invalid(std::string(name) + " must be finite, got " + fmt(v));
}

inline void check_positive(double v, const char* name) {
  if (!std::isfinite(v) || !(v > 0.0))
    throw_invalid(std::string(name) + " must be finite and > 0, got " + fmt(v));
}

inline void check_non_negative(double v, const char* name) {
  if (!std::isfinite(v) || v < 0.0)
    throw_invalid(std::string(name) + " must be finite and >= 0, got " + fmt(v));
}

// Names of objects and materials: a NUL byte would cut the name short wherever it becomes a C
// string (the world XML export, pugixml), so a world would reload with another name.
inline void check_name(const std::string& s, const char* name) {
  const auto at = s.find('\0');
  if (at != std::string::npos)
    throw_invalid(std::string(name) + " must not contain a NUL byte (found at position " +
                  std::to_string(at) + ")");
}

// any fixed-size vector type with size() and operator[]
template <class V>
void check_finite_vec(const V& v, const char* name) {
  for (int i = 0; i < static_cast<int>(v.size()); ++i) {
    if (!std::isfinite(v[i])) {
      std::ostringstream s;
      s.precision(17);
      s << name << " must be finite, got [";
      for (int j = 0; j < static_cast<int>(v.size()); ++j) s << (j ? ", " : "") << v[j];
      s << "]";
      throw_invalid(s.str());
    }
  }
}

}  // namespace torsion
