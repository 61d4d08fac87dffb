#include "batch/lean_state.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

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
    // the sleeping flags: adjacent members of Object (object.hpp: two bools, a uint32 and the
    // island id), one copy of their 16 bytes; a reordering there fails here, not silently
    bool* flags = &A::sleeping(o);
    ObjectId* flags_end = &A::island(o) + 1;
    if (reinterpret_cast<char*>(flags_end) - reinterpret_cast<char*>(flags) != 16 ||
        reinterpret_cast<char*>(&A::wake_requested(o)) != reinterpret_cast<char*>(flags) + 1 ||
        reinterpret_cast<char*>(&A::quiet_steps(o)) != reinterpret_cast<char*>(flags) + 4)
      throw std::logic_error("lean state: Object's sleeping members moved (bug)");
    io.span(flags, flags_end);
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
      // restored: its kinematics no longer describe gc (done here, not in a second pass over
      // the objects, whose memory is cold by then)
      if constexpr (!IO::kWriting) A::invalidate(a);
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

// from = to as one memcpy, the capacity of `to` reused. The warm-start records are most of a
// contact-rich state's bytes, and vector assignment copies their entries one by one (Eigen's
// vectors make them not trivially copyable, though they are plain bytes); resize() only
// constructs the entries past the old size, which the copy then overwrites.
template <class T>
void copy_raw(const std::vector<T>& from, std::vector<T>& to) {
  static_assert(std::is_standard_layout_v<T> && std::is_trivially_destructible_v<T>,
                "copy_raw: plain data only");
  to.resize(from.size());
  if (!from.empty()) std::memcpy(static_cast<void*>(to.data()), from.data(), sizeof(T) * from.size());
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
  WarmStartCache& cache = A::contact(w).warm_start;
  copy_raw(A::warm_entries(cache), d.warm);
  copy_raw(A::warm_rows(cache), d.warm_rows);
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
  copy_raw(d.warm, A::warm_entries(ct.warm_start));
  copy_raw(d.warm_rows, A::warm_rows(ct.warm_start));
  // what the last step found does not describe the restored state
  A::collision(w).contacts.clear();
  ++A::state_version(w);
  return "";
}

}  // namespace torsion
