#include "batch/lean_state.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "granular/granular_world.hpp"
#include "terrain/deformable_terrain.hpp"
#include "world/checkpoint.hpp"
#include "world/articulated_system.hpp"
#include "world/world.hpp"
#include "world/world_deformable.hpp"

namespace torsion {


struct LeanStateData {
  std::uint64_t fingerprint = 0;
  double time = 0.0;
  std::vector<std::uint8_t> bytes;  // size() is the capacity in use; `used` bytes hold data
  std::size_t used = 0;
  std::vector<WarmStartCache::Entry> warm;
  std::vector<WarmStartCache::RowEntry> warm_rows;
  std::vector<std::uint8_t> granular;  // scratch: one granular system's state bytes
  // per deformable: its constraint count and its count of quadratic edge nodes (a material's
  // Young's modulus, solver and element order change them, and the topology fingerprint does not
  // say which), checked before restoring
  std::vector<std::uint64_t> deformable_constraints;
};

namespace {
void deformable_constraint_counts(World& w, std::vector<std::uint64_t>& out) {
  out.clear();
  for (const auto& d : w.deformable_set().objects) {
    out.push_back(d->state_forces().size());
    out.push_back(d->state_edge_positions().size());
  }
}


// The walk over a world's state that both capture (Writing) and restore (!Writing) take, so the
// two cannot disagree about the layout. Fields are copied raw: the state comes from a world of
// this process and topology.
template <bool Writing>
struct Io {
  static constexpr bool kWriting = Writing;
  LeanStateData& d;
  std::size_t pos = 0;

  void bytes(void* p, std::size_t n) {
    if (n == 0) return;  // (an empty vector's data() may be null: no memcpy of it)
    if constexpr (Writing) {
      if (pos + n > d.bytes.size()) d.bytes.resize(std::max(2 * d.bytes.size(), pos + n));
      std::memcpy(d.bytes.data() + pos, p, n);
    } else {
      if (pos + n > d.used) throw std::logic_error("lean state: layout mismatch (bug)");
      std::memcpy(p, d.bytes.data() + pos, n);
    }
    pos += n;
  }
  template <class T>
  void val(T& v) {
    bytes(&v, sizeof(T));
  }
  template <class Derived>
  void dense(Eigen::PlainObjectBase<Derived>& m) {
    bytes(m.data(), sizeof(double) * static_cast<std::size_t>(m.size()));
  }
  // the bytes from `first` up to `end` (members of one struct, declared in that order)
  template <class T, class U>
  void span(T* first, U* end) {
    char* a = reinterpret_cast<char*>(first);
    bytes(a, static_cast<std::size_t>(reinterpret_cast<char*>(end) - a));
  }
};

template <class IO>
void walk(IO& io, World& w) {
  World::Globals g = w.globals();  // (the time step and gravity are not part of a lean state)
  io.val(g.time);
  io.val(g.warnings.non_finite_state);
  io.val(g.warnings.last_object);
  io.val(g.warnings.last_time);
  io.val(g.sensor_noise_seed);
  if constexpr (!IO::kWriting) w.restore_globals(g);
  RandomStream& rng = w.sensor_noise();
  RandomStream::State rs = rng.save_state();
  io.bytes(rs.words, sizeof rs.words);
  io.val(rs.spare);
  io.val(rs.has_spare);
  if constexpr (!IO::kWriting) rng.restore_state(rs);
  ContactState& ct = w.contact_state();
  bool forward = ct.solver.next_forward();
  io.val(forward);
  ct.solver.set_next_forward(forward);  // (writing: sets what it read)
  for (const auto& obj : w.objects()) {
    Object& o = *obj;
    Object::SleepState& sleep = o.sleep_state();
    io.val(sleep.sleeping);
    io.val(sleep.wake_requested);
    io.val(sleep.quiet_steps);
    io.val(sleep.island);
    if (o.type() == ObjectType::kArticulatedSystem) {
      auto& a = static_cast<ArticulatedSystem&>(o);
      io.dense(a.data().q);
      io.dense(a.data().u);
      io.dense(a.control_state().q_ref);
      io.dense(a.control_state().u_ref);
      io.dense(a.control_state().tau_ff);
      io.dense(a.control_state().tau_applied);
      auto& held = a.control_state().saturated;
      io.bytes(held.data(), held.size());
      auto& f = a.control_state().ext_force;
      auto& m = a.control_state().ext_moment;
      io.bytes(f.data(), f.size() * sizeof(Vec3));
      io.bytes(m.data(), m.size() * sizeof(Vec3));
      io.val(a.control_state().has_external);
      // restored: its kinematics no longer describe gc (done here, not in a second pass over
      // the objects, whose memory is cold by then)
      if constexpr (!IO::kWriting) a.state_restored();
    } else {
      auto& sb = static_cast<SingleBodyObject&>(o);
      if (sb.is_terrain()) {  // never moves; a deformable terrain's soil is state
        if (DeformableTerrain* t = as_deformable_terrain(o)) {
          t->raw_state([&io](void* p, std::size_t n) { io.bytes(p, n); });
          if constexpr (!IO::kWriting) t->state_written();
        }
        continue;
      }
      // three runs of adjacent members (rigid_body.hpp), padding included: position to
      // angular_velocity, the external force and torque, rotation to start_angular_velocity_b
      RigidBody& b = sb.body();
      io.span(&b.position, &b.angular_velocity + 1);
      io.span(&b.external_force, &b.external_torque + 1);
      io.span(&b.rotation, &b.start_angular_velocity_b + 1);
    }
  }
  // every granular system's full state (particles, their materials and container, contact
  // histories: GranularSystem::save_state's bytes), after its size
  if (GranularWorld* gw = w.granular_if_any()) {
    for (GranularWorld::Entry& e : gw->systems) {
      std::uint64_t size = 0;
      if constexpr (IO::kWriting) {
        io.d.granular.clear();  // (keeps its capacity)
        e.system->save_state(io.d.granular);
        size = io.d.granular.size();
        io.val(size);
        io.bytes(io.d.granular.data(), io.d.granular.size());
      } else {
        io.val(size);
        if (io.pos + size > io.d.used) throw std::logic_error("lean state: layout mismatch (bug)");
        e.system->load_state(io.d.bytes.data() + io.pos, static_cast<std::size_t>(size));
        io.pos += static_cast<std::size_t>(size);
      }
    }
  }
  // the deformables' particles (world/world_deformable.hpp): positions, velocities, the
  // constraint forces of the last substep, and the count of non-finite resets. Their meshes,
  // materials, pins and attachments are configuration (the topology fingerprint covers the
  // meshes).
  DeformableSet& defs = w.deformable_set();
  io.val(defs.non_finite_resets);
  for (auto& dp : defs.objects) {
    DeformableObject& d = *dp;
    io.bytes(d.state_positions().data(), d.state_positions().size() * sizeof(Vec3));
    io.bytes(d.state_velocities().data(), d.state_velocities().size() * sizeof(Vec3));
    io.bytes(d.state_forces().data(), d.state_forces().size() * sizeof(double));
    // quadratic elements' edge nodes (empty for linear ones)
    io.bytes(d.state_edge_positions().data(), d.state_edge_positions().size() * sizeof(Vec3));
    io.bytes(d.state_edge_velocities().data(), d.state_edge_velocities().size() * sizeof(Vec3));
  }
}

}  // namespace

bool LeanState::empty() const { return !data_ || data_->used == 0; }
std::uint64_t LeanState::topology_fingerprint() const { return data_ ? data_->fingerprint : 0; }
double LeanState::world_time() const { return data_ ? data_->time : 0.0; }
std::size_t LeanState::byte_size() const {
  if (!data_) return 0;
  return data_->used + data_->warm.size() * sizeof(WarmStartCache::Entry) +
         data_->warm_rows.size() * sizeof(WarmStartCache::RowEntry);
}

void capture_lean_state(World& w, LeanState& out) {
  if (w.is_mid_step())
    throw std::logic_error(
        "capture_state() is not allowed between integrate1() and integrate2() (a split step)");
  if (!out.data_) out.data_ = std::make_shared<LeanStateData>();
  LeanStateData& d = *out.data_;
  d.fingerprint = topology_fingerprint(w);  // cached per configuration number
  d.time = w.world_time();
  Io<true> io{d};
  walk(io, w);
  d.used = io.pos;
  // vector assignment reuses the capacity
  const WarmStartCache& cache = w.contact_state().warm_start;
  d.warm = cache.entries();
  d.warm_rows = cache.row_entries();
  deformable_constraint_counts(w, d.deformable_constraints);
}

std::string restore_lean_state(World& w, const LeanState& state) {
  if (w.is_mid_step())
    return "the world is between integrate1() and integrate2() (a split step); restore between "
           "complete steps";
  if (state.empty()) return "the state is empty";
  const LeanStateData& d = *state.data_;
  if (d.fingerprint != topology_fingerprint(w))
    return "the world's topology is not the state's (objects added or removed, or a world built "
           "differently)";
  std::vector<std::uint64_t> counts;
  deformable_constraint_counts(w, counts);
  if (counts != d.deformable_constraints)
    return "a deformable's constraints differ from the state's (its material changed between "
           "a Young's modulus and none)";
  Io<false> io{const_cast<LeanStateData&>(d)};
  walk(io, w);
  ContactState& ct = w.contact_state();
  ct.warm_start.restore_state(d.warm, d.warm_rows);
  // what the last step found does not describe the restored state
  w.collision_data().contacts.clear();
  w.mark_state_changed();
  return "";
}

}  // namespace torsion
