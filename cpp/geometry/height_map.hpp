// Heightmap data: a regular grid of height samples, immutable once made and shared (by
// shared_ptr) between the shape, clones and the ray scene.
//
// Layout (local frame; the object's pose adds the centre (center_x, center_y, 0)): sample (i, j),
// i = 0 .. x_samples-1 along x and j = 0 .. y_samples-1 along y, is heights[j * x_samples + i]
// at x = -x_size/2 + i dx, y = -y_size/2 + j dy, with dx = x_size / (x_samples - 1),
// dy = y_size / (y_samples - 1). Row j = 0 is the lowest y (as MuJoCo's hfield).
//
// The surface is two triangles per cell, split along the diagonal from (i, j) to (i+1, j+1):
// triangle 0 = (i,j), (i+1,j), (i+1,j+1) and triangle 1 = (i,j), (i+1,j+1), (i,j+1), both
// counter-clockwise seen from above. A triangle with a non-finite corner (NaN or inf sample) does
// not exist: it is a hole. Outside the grid there is no surface.
#pragma once

#include <memory>
#include <vector>

#include "math/types.hpp"

namespace torsion {

class HeightMapData {
 public:
  // validates: x_samples, y_samples >= 2, sizes finite and > 0, heights.size() ==
  // x_samples * y_samples (std::invalid_argument naming the argument otherwise). Samples are
  // kept unchanged, non-finite ones included.
  HeightMapData(long long x_samples, long long y_samples, double x_size, double y_size,
                std::vector<double> heights);

  int x_samples() const { return nx_; }
  int y_samples() const { return ny_; }
  double x_size() const { return x_size_; }
  double y_size() const { return y_size_; }
  double dx() const { return dx_; }
  double dy() const { return dy_; }
  const std::vector<double>& heights() const { return heights_; }
  double sample(int i, int j) const { return heights_[static_cast<std::size_t>(j) * nx_ + i]; }
  Vec3 vertex(int i, int j) const {  // local frame
    return {-0.5 * x_size_ + i * dx_, -0.5 * y_size_ + j * dy_, sample(i, j)};
  }
  // lowest and highest finite sample (0, 0 when every sample is a hole)
  double min_height() const { return min_h_; }
  double max_height() const { return max_h_; }
  bool has_finite_sample() const { return any_finite_; }

  // true if triangle t (0 or 1) of cell (ci, cj) exists (all three corners finite); writes its
  // corners (local frame, counter-clockwise from above) when it does
  bool triangle(int ci, int cj, int t, Vec3 corners[3]) const;
  // true if that triangle exists; writes its unit front normal (z > 0), computed in closed form
  // from the three samples (one square root: the cross product of the grid-aligned edges)
  bool triangle_normal(int ci, int cj, int t, Vec3& normal) const;

  // the cell holding local (x, y), clamped to the grid; false when (x, y) is outside
  bool cell_of(double x, double y, int& ci, int& cj) const;

  // surface height and unit normal at local (x, y): false outside the grid or over a hole
  bool surface_at(double x, double y, double& height, Vec3& normal) const;

  // Sample k set to the finite height h in place: only for the deformable terrain
  // (terrain/deformable_terrain.hpp), on data it made (not const) and that nothing else holds.
  // min_height() and max_height() then bound the samples: they widen, never shrink.
  void set_sample_in_place(std::size_t k, double h) {
    heights_[k] = h;
    if (h < min_h_) min_h_ = h;
    if (h > max_h_) max_h_ = h;
  }

 private:
  int nx_, ny_;
  double x_size_, y_size_, dx_, dy_;
  std::vector<double> heights_;
  double min_h_ = 0.0, max_h_ = 0.0;
  bool any_finite_ = false;
};

using HeightMapPtr = std::shared_ptr<const HeightMapData>;

}  // namespace torsion
