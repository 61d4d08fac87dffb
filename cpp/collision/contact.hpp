// A contact point between two collision bodies, as the narrow phase produces it and the contact
// solver consumes it. This struct is the interface between collision/ and contact/.
//
// Conventions (DESIGN.md): the normal points from B to A; depth > 0 means penetration. The
// contact frame (rows: x, y, z = normal) follows RaiSim: x = normalize(n_y, -n_x, 0), or (1, 0, 0)
// when the normal is vertical; y = z cross x.
#pragma once

#include <cstdint>

#include "math/types.hpp"

namespace torsion {

struct Contact {
  Vec3 position = Vec3::Zero();  // world (m), midway between the two surfaces
  Vec3 normal = Vec3::UnitZ();   // world, unit, from B to A
  double depth = 0.0;            // penetration (m), > 0 when overlapping

  std::uint32_t object_a = 0;  // world index of object A
  std::uint32_t object_b = 0;  // world index of object B
  std::uint32_t local_a = 0;   // local body index on A (0 for a single body)
  std::uint32_t local_b = 0;   // local body index on B
  std::uint32_t feature = 0;   // id of the contact feature pair, stable while the contact
                               // persists (for warm starting); 0 if the pair routine has none

  // filled by the contact solver (contact/), zero until then
  Vec3 impulse = Vec3::Zero();  // in the contact frame (x, y, z = normal), acting on A (N s)
};

// contact frame: rows are the frame's x, y, z axes in world coordinates (z = normal)
Mat3 contact_frame(const Vec3& normal);

}  // namespace torsion
