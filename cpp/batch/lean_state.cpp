#include "batch/lean_state.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "world/checkpoint.hpp"
#include "world/state_access.hpp"

namespace torsion {

using A = StateAccess;

struct LeanStateData {
  std::uint64_t fingerprint = 0;
  double time = 0.0;
  std::vector<std::uint8_t> bytes;  // size() is the capacity in use; `used` bytes hold data
  std::size_t used = 0;
  std::vector<A::WarmEntry> warm;
  std::vector<A::WarmRowEntry> warm_rows;
};

namespace {

// The walk over a world's state that both capture (Writing) and restore (!Writing) take, so the
// two cannot disagree about the layout. Fields are copied raw: the state comes from a world of
// this process and topology.
template <bool Writing>
struct Io {
  LeanStateData& d;
  std::size_t pos = 0;

  void bytes(void* p, std::size_t n) {
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
  io.val(A::time(w));
  StepWarnings& warn = A::warnings(w);
  io.val(warn.non_finite_state);
  io.val(warn.last_object);
  io.val(warn.last_time);
  io.val(A::sensor_noise_seed(w));
  RandomStream& rng = A::sensor_noise(w);
  io.bytes(A::rng_words(rng), 4 * sizeof(std::uint64_t));
  io.val(A::rng_spare(rng));
  io.val(A::rng_has_spare(rng));
  ContactState& ct = A::contact(w);
  bool forward = ct.solver.next_forward();
  io.val(forward);
  ct.solver.set_next_forward(forward);  // (writing: sets what it read)
  for (const auto& obj : w.objects()) {
    Object& o = *obj;
    io.val(A::sleeping(o));
    io.val(A::wake_requested(o));
    io.val(A::quiet_steps(o));
    io.val(A::island(o));
    if (o.type() == ObjectType::kArticulatedSystem) {
      auto& a = static_cast<ArticulatedSystem&>(o);
      io.dense(a.data().q);
      io.dense(a.data().u);
      io.dense(A::q_ref(a));
      io.dense(A::u_ref(a));
      io.dense(A::tau_ff(a));
      io.dense(A::tau_applied(a));
      auto& held = A::saturated(a);
      io.bytes(held.data(), held.size());
      auto& f = A::ext_force(a);
      auto& m = A::ext_moment(a);
      io.bytes(f.data(), f.size() * sizeof(Vec3));
      io.bytes(m.data(), m.size() * sizeof(Vec3));
      io.val(A::has_external(a));
    } else {
      auto& sb = static_cast<SingleBodyObject&>(o);
      if (sb.is_terrain()) continue;  // never moves
      // three runs of adjacent members (rigid_body.hpp), padding included: position to
      // angular_velocity, the external force and torque, rotation to start_angular_velocity_b
      RigidBody& b = sb.body();
      io.span(&b.position, &b.angular_velocity + 1);
      io.span(&b.external_force, &b.external_torque + 1);
      io.span(&b.rotation, &b.start_angular_velocity_b + 1);
    }
  }
}

}  // namespace

bool LeanState::empty() const { return !data_ || data_->used == 0; }
std::uint64_t LeanState::topology_fingerprint() const { return data_ ? data_->fingerprint : 0; }
double LeanState::world_time() const { return data_ ? data_->time : 0.0; }
std::size_t LeanState::byte_size() const {
  if (!data_) return 0;
  return data_->used + data_->warm.size() * sizeof(A::WarmEntry) +
         data_->warm_rows.size() * sizeof(A::WarmRowEntry);
}

void capture_lean_state(World& w, LeanState& out) {
  if (A::mid_step(w))
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
  const WarmStartCache& cache = A::contact(w).warm_start;
  d.warm = A::warm_entries(const_cast<WarmStartCache&>(cache));
  d.warm_rows = A::warm_rows(const_cast<WarmStartCache&>(cache));
}

std::string restore_lean_state(World& w, const LeanState& state) {
  if (A::mid_step(w))
    return "the world is between integrate1() and integrate2() (a split step); restore between "
           "complete steps";
  if (state.empty()) return "the state is empty";
  const LeanStateData& d = *state.data_;
  if (d.fingerprint != topology_fingerprint(w))
    return "the world's topology is not the state's (objects added or removed, or a world built "
           "differently)";
  Io<false> io{const_cast<LeanStateData&>(d)};
  walk(io, w);
  ContactState& ct = A::contact(w);
  A::warm_entries(ct.warm_start) = d.warm;
  A::warm_rows(ct.warm_start) = d.warm_rows;
  for (const auto& o : w.objects())
    if (o->type() == ObjectType::kArticulatedSystem)
      A::invalidate(static_cast<ArticulatedSystem&>(*o));
  // what the last step found does not describe the restored state
  A::collision(w).contacts.clear();
  ++A::state_version(w);
  return "";
}

}  // namespace torsion
