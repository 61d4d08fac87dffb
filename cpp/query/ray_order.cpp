#include "query/ray_order.hpp"

#include <algorithm>
#include <cmath>

namespace torsion {

namespace {

constexpr int kDirGrid = 32;   // direction cells per side of the octahedral map (10 bits)
constexpr int kStartGrid = 4;  // start cells per axis (6 bits)

int cell(double x, double lo, double scale, int n) {
  // x in [lo, lo + n / scale]; clamped (round-off at the upper bound). scale 0: one cell (a
  // zero extent, or one that overflows, where x - lo may be inf)
  if (!(scale > 0.0)) return 0;
  const int c = static_cast<int>((x - lo) * scale);
  return c < 0 ? 0 : (c >= n ? n - 1 : c);
}

// the direction's cell: the octahedral map folds the unit sphere onto the square [-1, 1]^2 (the
// upper half inside the diamond |u| + |v| <= 1, the lower half on its four corners), so nearby
// directions get nearby cells. The map is scale-free: the raw direction is used.
std::uint32_t direction_cell(double x, double y, double z) {
  const double l1 = std::abs(x) + std::abs(y) + std::abs(z);
  if (!(l1 > 0.0)) x = 0.0, y = 0.0, z = 1.0;  // the zero direction is +z
  const double inv = l1 > 0.0 ? 1.0 / l1 : 1.0;
  double u = x * inv, v = y * inv;
  if (z < 0.0) {
    const double fu = 1.0 - std::abs(v), fv = 1.0 - std::abs(u);
    u = std::copysign(fu, x);
    v = std::copysign(fv, y);
  }
  constexpr double scale = 0.5 * kDirGrid;
  const int iu = cell(u, -1.0, scale, kDirGrid), iv = cell(v, -1.0, scale, kDirGrid);
  // serpentine rows: the last cell of a row touches the first of the next
  return static_cast<std::uint32_t>(iv * kDirGrid + ((iv & 1) != 0 ? kDirGrid - 1 - iu : iu));
}

// one stable counting pass over 8 bits of the keys; false (nothing done) when every key has
// the same digit there
bool radix_pass(const std::vector<std::uint16_t>& keys, int shift,
                const std::vector<std::uint32_t>& in, std::vector<std::uint32_t>& out) {
  std::uint32_t count[257] = {};
  for (const std::uint32_t k : in) ++count[((keys[k] >> shift) & 0xffu) + 1];
  for (int b = 0; b < 256; ++b)
    if (count[b + 1] == in.size()) return false;
  for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
  out.resize(in.size());
  for (const std::uint32_t k : in) out[count[(keys[k] >> shift) & 0xffu]++] = k;
  return true;
}

}  // namespace

void coherent_ray_order(const double* starts, const double* dirs, std::size_t n,
                        std::vector<std::uint32_t>& order) {
  order.resize(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = static_cast<std::uint32_t>(k);
  if (n < 2) return;
  // the starts' bounds: one start cell when they all coincide (a sensor's rays)
  // (four running bounds per axis, merged at the end: one bound waited on the last comparison
  // of the same axis, a third of the sort's time for 10k rays; min and max are exact, so the
  // bounds are the same)
  double lo[3], hi[3];
  {
    double lo4[4][3], hi4[4][3];
    for (int j = 0; j < 4; ++j)
      for (int a = 0; a < 3; ++a) lo4[j][a] = hi4[j][a] = starts[a];
    std::size_t i = 1;
    for (; i + 4 <= n; i += 4)
      for (std::size_t j = 0; j < 4; ++j)
        for (int a = 0; a < 3; ++a) {
          lo4[j][a] = std::min(lo4[j][a], starts[3 * (i + j) + a]);
          hi4[j][a] = std::max(hi4[j][a], starts[3 * (i + j) + a]);
        }
    for (; i < n; ++i)
      for (int a = 0; a < 3; ++a) {
        lo4[0][a] = std::min(lo4[0][a], starts[3 * i + a]);
        hi4[0][a] = std::max(hi4[0][a], starts[3 * i + a]);
      }
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min({lo4[0][a], lo4[1][a], lo4[2][a], lo4[3][a]});
      hi[a] = std::max({hi4[0][a], hi4[1][a], hi4[2][a], hi4[3][a]});
    }
  }
  double scale[3];
  bool one_start = true;
  for (int a = 0; a < 3; ++a) {
    const double extent = hi[a] - lo[a];
    // an extent that overflows (starts near +-1e308) gives scale 0: one cell along that axis
    scale[a] = extent > 0.0 && std::isfinite(extent) ? kStartGrid / extent : 0.0;
    one_start = one_start && !(extent > 0.0);
  }
  std::vector<std::uint16_t> keys(n);
  // (one start cell: the keys are the direction cells alone, 10 bits)
  constexpr std::uint32_t kDirCells = kDirGrid * kDirGrid;
  std::vector<std::uint32_t> count;
  if (one_start) count.assign(kDirCells + 1, 0);
  for (std::size_t k = 0; k < n; ++k) {
    std::uint32_t key = direction_cell(dirs[3 * k], dirs[3 * k + 1], dirs[3 * k + 2]);
    if (!one_start) {
      const int cx = cell(starts[3 * k], lo[0], scale[0], kStartGrid);
      const int cy = cell(starts[3 * k + 1], lo[1], scale[1], kStartGrid);
      const int cz = cell(starts[3 * k + 2], lo[2], scale[2], kStartGrid);
      key |= static_cast<std::uint32_t>((cz * kStartGrid + cy) * kStartGrid + cx) << 10;
    } else {
      ++count[key + 1];
    }
    keys[k] = static_cast<std::uint16_t>(key);
  }
  if (one_start) {
    // one stable counting pass over the 1024 direction cells, its histogram taken above (the
    // two 8-bit passes below read the keys four times and cost twice as much)
    for (std::uint32_t c = 0; c < kDirCells; ++c) count[c + 1] += count[c];
    for (std::size_t k = 0; k < n; ++k) order[count[keys[k]]++] = static_cast<std::uint32_t>(k);
    return;
  }
  // least significant digit first (each pass stable): sorted by the whole key
  std::vector<std::uint32_t> tmp;
  if (radix_pass(keys, 0, order, tmp)) order.swap(tmp);
  if (radix_pass(keys, 8, order, tmp)) order.swap(tmp);
}

}  // namespace torsion
