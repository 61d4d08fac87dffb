#include "batch/world_copy.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "granular/granular_world.hpp"
#include "world/checkpoint.hpp"
#include "world/mesh_object.hpp"
#include "world/tendons.hpp"
#include "world/world.hpp"
#include "world/world_deformable.hpp"

namespace torsion {

void copy_world(World& src, World& dst) {
  if (src.is_mid_step() || dst.is_mid_step())
    throw std::logic_error("copy_world is not allowed between integrate1() and integrate2()");
  dst.copy_objects_from(src);
  // the wires between them (world/wires.hpp), same ids and indices
  dst.wire_set().wires = src.wire_set().wires;
  dst.wire_set().id_index = src.wire_set().id_index;
  // the deformables (world/world_deformable.hpp): same ids, meshes, materials, filters, pins and
  // attachments (their state follows through the checkpoint below)
  {
    const DeformableSet& from = src.deformable_set();
    DeformableSet& to = dst.deformable_set();
    to.objects.clear();
    for (const auto& d : from.objects) to.objects.push_back(std::make_unique<DeformableObject>(*d));
    to.next_id = from.next_id;
    to.non_finite_resets = from.non_finite_resets;
    if (!from.objects.empty()) dst.note_deformables_changed();
  }
  // the tendons and couplings (world/tendons.hpp), same ids and indices
  if (const TendonSet* tendons = find_tendon_set(src)) tendon_set(dst) = *tendons;
  else if (TendonSet* old = find_tendon_set(dst)) *old = TendonSet{};
  const WorldStateData& s = src.state_data();
  WorldStateData& d = dst.state_data();
  d.sources = s.sources;
  d.config_file = s.config_file;
  dst.contact_state().contact_space.set_enabled(src.contact_state().contact_space.enabled());
  // the granular systems, same ids and order (a system's configuration and state are plain
  // data: copied whole; the checkpoint below checks and restores their state again)
  if (const GranularWorld* gw = src.granular_if_any(); gw && !gw->systems.empty()) {
    GranularWorld& dg = dst.granular();
    dg.systems.clear();
    for (const GranularWorld::Entry& e : gw->systems) {
      GranularWorld::Entry copy;
      copy.id = e.id;
      copy.system = std::make_unique<GranularSystem>(*e.system);
      dg.systems.push_back(std::move(copy));
    }
    dg.next_id = gw->next_id;
    dst.note_topology_changed();
  }
  dst.set_collision_counters_enabled(src.collision_counters_enabled());
  // the world's own state through its portable checkpoint (checked against dst's topology,
  // which is the source's)
  const std::vector<std::uint8_t> bytes = capture_checkpoint(src).to_bytes();
  const std::string why =
      restore_checkpoint(dst, Checkpoint::from_bytes(bytes.data(), bytes.size()));
  if (!why.empty()) throw std::logic_error("copy_world: restoring the source's state failed: " + why);
}

}  // namespace torsion
