// RaiSim's heightmap text file: whitespace-separated numbers,
//   x_samples y_samples x_size y_size
//   then x_samples * y_samples heights (m) in the sample order of geometry/height_map.hpp
// (x fastest). Heights may be written nan or inf (holes). Nothing may follow the samples.
#pragma once

#include <memory>
#include <string>

#include "geometry/height_map.hpp"

namespace torsion {

// std::invalid_argument naming the file and what is wrong when it cannot be read or is malformed
std::shared_ptr<const HeightMapData> load_height_map_text(const std::string& path);

}  // namespace torsion
