// Perlin-noise terrain (World seed: TerrainProperties, addHeightMap(centerX, centerY, props)).
//
// height(x, y) = height_offset + z_scale * sum_{o < fractal_octaves} fractal_gain^o *
//                noise(frequency * fractal_lacunarity^o * (x, y))
// where noise is 2-D gradient noise in the manner of Perlin's improved noise (2002): a
// permutation of 0..255 shuffled from `seed` (SplitMix64 + Fisher-Yates), 8 unit gradients, the
// quintic fade 6t^5 - 15t^4 + 10t^3; noise is 0 on integer lattice points and within about
// [-1, 1]. (x, y) are the sample's coordinates relative to the grid centre (m). When step_size > 0
// the height is rounded to a multiple of step_size (terraces). Same properties -> same samples,
// on every platform with IEEE doubles (no unordered state, no platform RNG).
#pragma once

#include <cstdint>
#include <memory>

#include "geometry/height_map.hpp"

namespace torsion {

struct TerrainProperties {
  double frequency = 0.3;          // 1/m, of the first octave
  double z_scale = 1.0;            // m, amplitude of the first octave
  double x_size = 10.0;            // m
  double y_size = 10.0;            // m
  long long x_samples = 100;       // >= 2
  long long y_samples = 100;       // >= 2
  long long fractal_octaves = 5;   // >= 1
  double fractal_lacunarity = 2.0; // frequency ratio between octaves
  double fractal_gain = 0.5;       // amplitude ratio between octaves
  std::uint64_t seed = 0;
  double step_size = 0.0;          // m, >= 0; 0: smooth
  double height_offset = 0.0;      // m
};

// validates (std::invalid_argument naming the field) and samples the terrain
std::shared_ptr<const HeightMapData> make_perlin_terrain(const TerrainProperties& p);

}  // namespace torsion
