// Access to the private state of the World and its parts for the code that saves, restores,
// hashes, exports and copies it (world/checkpoint.cpp, world/sleeping.cpp, io/world_xml.cpp,
// batch/world_copy.cpp). Only these files include it; everything else goes through the public API.
#pragma once

#include "world/articulated_system.hpp"
#include "world/world.hpp"

namespace torsion {

struct StateAccess {
  // World
  static double& dt(World& w) { return w.dt_; }
  static double& time(World& w) { return w.time_; }
  static Vec3& gravity(World& w) { return w.gravity_; }
  static StepWarnings& warnings(World& w) { return w.warnings_; }
  static std::uint64_t& sensor_noise_seed(World& w) { return w.sensor_noise_seed_; }
  static RandomStream& sensor_noise(World& w) { return w.sensor_noise_; }
  static CollisionData& collision(World& w) { return w.collision_; }
  static ContactState& contact(World& w) { return w.contact_; }
  static WorldStateData& state(World& w) { return w.state_; }
  static std::uint64_t& state_version(World& w) { return w.state_version_; }
  static std::size_t next_id(const World& w) { return w.id_to_index_.size(); }
  static bool mid_step(const World& w) { return w.mid_step_; }
  static std::uint64_t& configuration_number(World& w) { return w.configuration_number_; }
  // every object of src copied into dst (which has none), with the same ids, world indices and
  // state (batch/world_copy.cpp); std::invalid_argument for a dst that has objects
  static void copy_objects(World& src, World& dst);

  // Object (sleeping)
  static bool& sleeping(Object& o) { return o.sleeping_; }
  static bool& wake_requested(Object& o) { return o.wake_requested_; }
  static std::uint32_t& quiet_steps(Object& o) { return o.quiet_steps_; }
  static ObjectId& island(Object& o) { return o.island_; }

  // Objects: the world XML reader rebuilds a Mesh object from its exact collision geometry
  static void insert_object(World& w, std::unique_ptr<Object> o) { w.insert_object(std::move(o)); }

  // RandomStream
  static std::uint64_t* rng_words(RandomStream& r) { return r.s_; }
  static double& rng_spare(RandomStream& r) { return r.spare_; }
  static bool& rng_has_spare(RandomStream& r) { return r.has_spare_; }

  // ArticulatedSystem
  static ControlMode& control_mode(ArticulatedSystem& a) { return a.control_mode_; }
  static VecX& kp(ArticulatedSystem& a) { return a.kp_; }
  static VecX& kd(ArticulatedSystem& a) { return a.kd_; }
  static VecX& q_ref(ArticulatedSystem& a) { return a.q_ref_; }
  static VecX& u_ref(ArticulatedSystem& a) { return a.u_ref_; }
  static VecX& tau_ff(ArticulatedSystem& a) { return a.tau_ff_; }
  static VecX& tau_applied(ArticulatedSystem& a) { return a.tau_applied_; }
  static VecX& effort_limit(ArticulatedSystem& a) { return a.effort_limit_; }
  static bool& clamp_effort(ArticulatedSystem& a) { return a.clamp_effort_; }
  static std::vector<char>& saturated(ArticulatedSystem& a) { return a.saturated_; }
  static std::vector<Vec3>& ext_force(ArticulatedSystem& a) { return a.ext_force_; }
  static std::vector<Vec3>& ext_moment(ArticulatedSystem& a) { return a.ext_moment_; }
  static bool& has_external(ArticulatedSystem& a) { return a.has_external_; }
  static std::vector<char>& gravity_comp(ArticulatedSystem& a) { return a.gravity_comp_; }
  static void gravity_comp_changed(ArticulatedSystem& a) {
    a.any_gravity_comp_ = false;
    for (char c : a.gravity_comp_) a.any_gravity_comp_ |= c != 0;
  }
  // after the state was written directly: every derived quantity must be recomputed
  static void invalidate(ArticulatedSystem& a) {
    a.data_.kinematics_valid = false;
    a.data_.inertias_valid = false;
    a.data_.factor_valid = false;
    a.velocities_valid_ = false;
  }

  // WarmStartCache
  using WarmEntry = WarmStartCache::Entry;
  static std::vector<WarmEntry>& warm_entries(WarmStartCache& c) { return c.entries_; }
  using WarmRowEntry = WarmStartCache::RowEntry;
  static std::vector<WarmRowEntry>& warm_rows(WarmStartCache& c) { return c.rows_; }
  // the orders the two records are kept in (checkpoints check a restored record against them)
  static bool warm_key_less(const WarmStartKey& x, const WarmStartKey& y) {
    return WarmStartCache::less(x, y);
  }
  static bool warm_row_less(const WarmRowEntry& x, const WarmRowEntry& y) {
    return WarmStartCache::row_less(x, y);
  }

  // MaterialManager
  static const std::map<std::string, int>& material_names(const MaterialManager& m) {
    return m.names_;
  }
  static int material_slot(const MaterialManager& m, int a, int b) {
    return m.table_[static_cast<std::size_t>(a) * m.n_ + static_cast<std::size_t>(b)];
  }
  static const MaterialPairProperties& material_props(const MaterialManager& m, int slot) {
    return m.props_[static_cast<std::size_t>(slot)];
  }
  static std::uint64_t& material_revision(MaterialManager& m) { return m.revision_; }
};

}  // namespace torsion
