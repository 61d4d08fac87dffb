// Object identities. An ObjectId is stable for the object's lifetime and never reused within a
// World; the world index (position in the world's object list) changes on removal.
#pragma once

#include <cstddef>
#include <cstdint>

namespace torsion {

using ObjectId = std::uint64_t;
using CollisionGroup = std::uint64_t;

// the group every static object (ground, heightmaps) belongs to: bit 63, as in RaiSim
constexpr CollisionGroup kStaticCollisionGroup = CollisionGroup(1) << 63;
constexpr CollisionGroup kAllGroups = ~CollisionGroup(0);

}  // namespace torsion
