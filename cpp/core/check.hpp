// Argument checks at the API boundary. Each throws std::invalid_argument (ValueError in
// Python) with a message that names the argument, what was expected and what came.
#pragma once

#include <cmath>
#include <cstddef>
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

// The position of the first byte of s that does not start a well-formed UTF-8 sequence (as
// Python's strict codec reads it: no overlong forms, no surrogates, nothing past U+10FFFF), or
// std::string::npos when all of s is UTF-8.
inline std::size_t invalid_utf8_at(const std::string& s) {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = b[i];
    std::size_t len;
    unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
    } else {
      return i;
    }
    if (i + len > n || b[i + 1] < lo || b[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k)
      if (b[i + k] < 0x80 || b[i + k] > 0xBF) return i;
    i += len;
  }
  return std::string::npos;
}

// s for a message: printable ASCII as is, every other byte as \xNN (a message must itself be
// valid UTF-8 to reach Python)
inline std::string escape_bytes(const std::string& s) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Names of objects and materials: a NUL byte would cut the name short wherever it becomes a C
// string (the world XML export, pugixml), so a world would reload with another name; bytes that
// are not UTF-8 (a bytes name from Python) could never be read back: every get_name(), repr()
// and reloaded export raised UnicodeDecodeError.
inline void check_name(const std::string& s, const char* name) {
  const auto at = s.find('\0');
  if (at != std::string::npos)
    throw_invalid(std::string(name) + " must not contain a NUL byte (found at position " +
                  std::to_string(at) + ")");
  const std::size_t bad = invalid_utf8_at(s);
  if (bad != std::string::npos)
    throw_invalid(std::string(name) + " must be UTF-8 text, got b'" + escape_bytes(s) +
                  "' (the byte at position " + std::to_string(bad) + " is not valid UTF-8)");
}

// Material names: check_name, and not empty. The empty name is no material: add_mesh,
// compound children and set_object_material refused it while add_box, add_ground and
// set_material_pair_prop took it as a real material; now every setter refuses it.
inline void check_material_name(const std::string& s, const char* name) {
  if (s.empty()) throw_invalid(std::string(name) + " must be a non-empty name");
  check_name(s, name);
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
