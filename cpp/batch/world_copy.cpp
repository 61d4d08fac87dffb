#include "batch/world_copy.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "granular/granular_world.hpp"
#include "world/checkpoint.hpp"
#include "world/mesh_object.hpp"
#include "world/state_access.hpp"

namespace torsion {

void StateAccess::copy_objects(World& src, World& dst) {
  if (!dst.objects_.empty())
    throw std::invalid_argument("copy_world: the destination world must have no objects, it has " +
                                std::to_string(dst.objects_.size()));
  for (const auto& o : src.objects_) {
    // each object copied whole (state, control, collision properties, scratch); what it shares
    // with the source (robot model, heightmap samples, meshes) is immutable
    std::unique_ptr<Object> copy;
    if (const auto* a = dynamic_cast<const ArticulatedSystem*>(o.get()))
      copy = std::make_unique<ArticulatedSystem>(*a);
    else if (const auto* m = dynamic_cast<const MeshObject*>(o.get()))
      copy = std::make_unique<MeshObject>(*m);
    else if (const auto* s = dynamic_cast<const SingleBodyObject*>(o.get()))
      copy = std::make_unique<SingleBodyObject>(*s);
    else
      throw std::logic_error("copy_world: object id " + std::to_string(o->id()) +
                             " is of a kind that cannot be copied");
    dst.insert_object(std::move(copy));
  }
  // ids: removed objects leave holes that insert_object does not know of
  dst.id_to_index_ = src.id_to_index_;
}

void copy_world(World& src, World& dst) {
  if (src.is_mid_step() || dst.is_mid_step())
    throw std::logic_error("copy_world is not allowed between integrate1() and integrate2()");
  // a batch's lean state (batch/lean_state.hpp) does not carry particles: a copied world's reset
  // would leave them where they were, so such worlds are refused rather than copied wrongly
  if (const GranularWorld* gw = src.granular_if_any(); gw && !gw->systems.empty())
    throw std::invalid_argument("copy_world: a world with granular systems cannot be copied (a "
                                "world batch does not carry particles yet)");
  StateAccess::copy_objects(src, dst);
  WorldStateData& s = StateAccess::state(src);
  WorldStateData& d = StateAccess::state(dst);
  d.sources = s.sources;
  d.config_file = s.config_file;
  dst.contact_state().contact_space.set_enabled(src.contact_state().contact_space.enabled());
  dst.set_collision_counters_enabled(src.collision_counters_enabled());
  // the world's own state through its portable checkpoint (checked against dst's topology,
  // which is the source's)
  const std::vector<std::uint8_t> bytes = capture_checkpoint(src).to_bytes();
  const std::string why =
      restore_checkpoint(dst, Checkpoint::from_bytes(bytes.data(), bytes.size()));
  if (!why.empty()) throw std::logic_error("copy_world: restoring the source's state failed: " + why);
}

}  // namespace torsion
