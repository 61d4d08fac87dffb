#include "geometry/perlin_terrain.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "core/check.hpp"

namespace torsion {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Noise2 {
 public:
  explicit Noise2(std::uint64_t seed) {
    for (int i = 0; i < 256; ++i) perm_[i] = static_cast<std::uint8_t>(i);
    std::uint64_t s = seed;
    for (int i = 255; i > 0; --i) {  // Fisher-Yates
      const int j = static_cast<int>(splitmix64(s) % static_cast<std::uint64_t>(i + 1));
      std::swap(perm_[i], perm_[j]);
    }
    for (int i = 0; i < 256; ++i) perm_[256 + i] = perm_[i];
  }

  double operator()(double x, double y) const {
    const double fx = std::floor(x), fy = std::floor(y);
    const int xi = static_cast<int>(static_cast<long long>(fx) & 255);
    const int yi = static_cast<int>(static_cast<long long>(fy) & 255);
    const double u = x - fx, v = y - fy;
    const double a = grad(perm_[perm_[xi] + yi], u, v);
    const double b = grad(perm_[perm_[xi + 1] + yi], u - 1.0, v);
    const double c = grad(perm_[perm_[xi] + yi + 1], u, v - 1.0);
    const double d = grad(perm_[perm_[xi + 1] + yi + 1], u - 1.0, v - 1.0);
    const double su = fade(u), sv = fade(v);
    const double ab = a + su * (b - a), cd = c + su * (d - c);
    return ab + sv * (cd - ab);
  }

 private:
  static double fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }
  // 8 gradients: the axes and the diagonals (diagonals scaled to unit length)
  static double grad(int hash, double x, double y) {
    constexpr double k = 0.70710678118654752;
    switch (hash & 7) {
      case 0: return x;
      case 1: return -x;
      case 2: return y;
      case 3: return -y;
      case 4: return k * (x + y);
      case 5: return k * (x - y);
      case 6: return k * (-x + y);
      default: return -k * (x + y);
    }
  }
  std::uint8_t perm_[512];
};

}  // namespace

std::shared_ptr<const HeightMapData> make_perlin_terrain(const TerrainProperties& p) {
  check_positive(p.frequency, "frequency");
  check_finite(p.z_scale, "z_scale");
  check_positive(p.x_size, "x_size");
  check_positive(p.y_size, "y_size");
  if (p.fractal_octaves < 1 || p.fractal_octaves > 32)
    throw_invalid("fractal_octaves must be in [1, 32], got " + std::to_string(p.fractal_octaves));
  check_positive(p.fractal_lacunarity, "fractal_lacunarity");
  check_finite(p.fractal_gain, "fractal_gain");
  check_non_negative(p.step_size, "step_size");
  check_finite(p.height_offset, "height_offset");
  if (p.x_samples < 2 || p.y_samples < 2 || p.x_samples > (1 << 14) || p.y_samples > (1 << 14))
    throw_invalid("x_samples and y_samples must be in [2, 16384], got " +
                  std::to_string(p.x_samples) + " and " + std::to_string(p.y_samples));
  const Noise2 noise(p.seed);
  const int nx = static_cast<int>(p.x_samples), ny = static_cast<int>(p.y_samples);
  const double dx = p.x_size / (nx - 1), dy = p.y_size / (ny - 1);
  std::vector<double> h(static_cast<std::size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j) {
    const double y = -0.5 * p.y_size + j * dy;
    for (int i = 0; i < nx; ++i) {
      const double x = -0.5 * p.x_size + i * dx;
      double sum = 0.0, amp = 1.0, freq = p.frequency;
      for (long long o = 0; o < p.fractal_octaves; ++o) {
        sum += amp * noise(freq * x, freq * y);
        amp *= p.fractal_gain;
        freq *= p.fractal_lacunarity;
      }
      double z = p.z_scale * sum;
      if (p.step_size > 0.0) z = std::round(z / p.step_size) * p.step_size;
      h[static_cast<std::size_t>(j) * nx + i] = z + p.height_offset;
    }
  }
  return std::make_shared<const HeightMapData>(nx, ny, p.x_size, p.y_size, std::move(h));
}

}  // namespace torsion
