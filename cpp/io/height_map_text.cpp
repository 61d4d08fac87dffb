#include "io/height_map_text.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/check.hpp"

namespace torsion {

namespace {

// one whitespace-separated token parsed as a double (strtod: accepts nan, inf), or throws
bool next_number(std::istream& in, double& v, const std::string& path, const char* what) {
  std::string tok;
  if (!(in >> tok)) return false;
  const char* s = tok.c_str();
  char* end = nullptr;
  errno = 0;
  v = std::strtod(s, &end);
  if (end == s || *end != '\0')
    throw_invalid("height map file '" + path + "': " + what + " must be a number, got '" + tok +
                  "'");
  return true;
}

long long sample_count(double v, const std::string& path, const char* name) {
  if (!(v >= 2.0 && v <= 1048576.0) || v != std::floor(v))
    throw_invalid("height map file '" + path + "': " + name +
                  " must be an integer >= 2, got " + fmt(v));
  return static_cast<long long>(v);
}

}  // namespace

std::shared_ptr<const HeightMapData> load_height_map_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw_invalid("cannot open height map file '" + path + "'");
  double head[4];
  const char* names[4] = {"x_samples", "y_samples", "x_size", "y_size"};
  for (int k = 0; k < 4; ++k)
    if (!next_number(in, head[k], path, names[k]))
      throw_invalid("height map file '" + path + "' ends before its header (x_samples " +
                    "y_samples x_size y_size)");
  const long long nx = sample_count(head[0], path, "x_samples");
  const long long ny = sample_count(head[1], path, "y_samples");
  if (!(std::isfinite(head[2]) && head[2] > 0.0) || !(std::isfinite(head[3]) && head[3] > 0.0))
    throw_invalid("height map file '" + path + "': x_size and y_size must be finite and > 0");
  std::vector<double> h;
  // the header's count is checked against the file's heights below: reserve no more than a
  // small file could hold before reading (up to 2^40 samples would be announced in 20 bytes)
  h.reserve(static_cast<std::size_t>(std::min(nx * ny, 1LL << 20)));
  double v;
  while (next_number(in, v, path, "a height")) h.push_back(v);
  if (static_cast<long long>(h.size()) != nx * ny)
    throw_invalid("height map file '" + path + "' must hold x_samples * y_samples = " +
                  std::to_string(nx * ny) + " heights, got " + std::to_string(h.size()));
  return std::make_shared<const HeightMapData>(nx, ny, head[2], head[3], std::move(h));
}

}  // namespace torsion
