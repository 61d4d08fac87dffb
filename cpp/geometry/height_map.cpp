#include "geometry/height_map.hpp"

#include <cmath>
#include <string>

#include "core/check.hpp"

namespace torsion {

HeightMapData::HeightMapData(long long x_samples, long long y_samples, double x_size,
                             double y_size, std::vector<double> heights) {
  if (x_samples < 2 || y_samples < 2 || x_samples > (1 << 20) || y_samples > (1 << 20))
    throw_invalid("x_samples and y_samples must be in [2, 2^20], got " +
                  std::to_string(x_samples) + " and " + std::to_string(y_samples));
  check_positive(x_size, "x_size");
  check_positive(y_size, "y_size");
  const long long n = x_samples * y_samples;
  if (static_cast<long long>(heights.size()) != n)
    throw_invalid("heights must hold x_samples * y_samples = " + std::to_string(n) +
                  " samples, got " + std::to_string(heights.size()));
  nx_ = static_cast<int>(x_samples);
  ny_ = static_cast<int>(y_samples);
  x_size_ = x_size, y_size_ = y_size;
  dx_ = x_size / (nx_ - 1);
  dy_ = y_size / (ny_ - 1);
  heights_ = std::move(heights);
  for (double h : heights_) {
    if (!std::isfinite(h)) continue;
    if (!any_finite_) min_h_ = max_h_ = h, any_finite_ = true;
    min_h_ = std::min(min_h_, h);
    max_h_ = std::max(max_h_, h);
  }
}

bool HeightMapData::triangle(int ci, int cj, int t, Vec3 corners[3]) const {
  const int i1 = ci + 1, j1 = cj + 1;
  // triangle 0: (i,j) (i+1,j) (i+1,j+1); triangle 1: (i,j) (i+1,j+1) (i,j+1)
  const double h0 = sample(ci, cj), h2 = sample(i1, j1);
  const double h1 = t == 0 ? sample(i1, cj) : sample(ci, j1);
  if (!std::isfinite(h0) || !std::isfinite(h1) || !std::isfinite(h2)) return false;
  corners[0] = vertex(ci, cj);
  if (t == 0) corners[1] = vertex(i1, cj), corners[2] = vertex(i1, j1);
  else corners[1] = vertex(i1, j1), corners[2] = vertex(ci, j1);
  return true;
}

bool HeightMapData::triangle_normal(int ci, int cj, int t, Vec3& normal) const {
  const double h00 = sample(ci, cj), h11 = sample(ci + 1, cj + 1);
  const double h1 = t == 0 ? sample(ci + 1, cj) : sample(ci, cj + 1);
  if (!std::isfinite(h00) || !std::isfinite(h1) || !std::isfinite(h11)) return false;
  // triangle 0: (dx, 0, h10 - h00) x (dx, dy, h11 - h00)
  //             = (-dy (h10 - h00), -dx (h11 - h10), dx dy)
  // triangle 1: (dx, dy, h11 - h00) x (0, dy, h01 - h00)
  //             = (-dy (h11 - h01), -dx (h01 - h00), dx dy)
  const Vec3 n = t == 0 ? Vec3(-dy_ * (h1 - h00), -dx_ * (h11 - h1), dx_ * dy_)
                        : Vec3(-dy_ * (h11 - h1), -dx_ * (h1 - h00), dx_ * dy_);
  normal = n / n.norm();
  return true;
}

bool HeightMapData::cell_of(double x, double y, int& ci, int& cj) const {
  const double u = (x + 0.5 * x_size_) / dx_, v = (y + 0.5 * y_size_) / dy_;
  if (!(u >= 0.0 && u <= nx_ - 1 && v >= 0.0 && v <= ny_ - 1)) return false;
  ci = std::min(static_cast<int>(u), nx_ - 2);
  cj = std::min(static_cast<int>(v), ny_ - 2);
  return true;
}

bool HeightMapData::surface_at(double x, double y, double& height, Vec3& normal) const {
  int ci, cj;
  if (!cell_of(x, y, ci, cj)) return false;
  const double u = (x + 0.5 * x_size_) / dx_ - ci, v = (y + 0.5 * y_size_) / dy_ - cj;
  const int t = u >= v ? 0 : 1;  // below the diagonal: triangle 0
  Vec3 c[3];
  if (!triangle(ci, cj, t, c)) return false;
  const Vec3 n = (c[1] - c[0]).cross(c[2] - c[0]).normalized();
  // plane through c[0]: n . (p - c0) = 0 solved for z (n.z > 0 on a heightmap)
  height = c[0].z() - (n.x() * (x - c[0].x()) + n.y() * (y - c[0].y())) / n.z();
  normal = n;
  return true;
}

}  // namespace torsion
