// Sleeping islands: the World's settings and the three stages (see sleeping.hpp).
#include "world/sleeping.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "world/articulated_system.hpp"
#include "world/world.hpp"

namespace torsion {

namespace {


bool is_node(const Object& o) {
  if (o.type() == ObjectType::kArticulatedSystem) return true;
  return static_cast<const SingleBodyObject&>(o).body().is_dynamic();
}

bool is_static(const Object& o) {
  if (o.type() == ObjectType::kArticulatedSystem) return false;
  return static_cast<const SingleBodyObject&>(o).body().type == BodyType::kStatic;
}

void wake(Object& o) {
  o.sleep_state().sleeping = false;
  o.sleep_state().quiet_steps = 0;
  o.sleep_state().wake_requested = false;
  o.sleep_state().island = Object::kNoIsland;
}

// wakes every object of `island` (the whole island, whatever member asked)
void wake_island(World& world, ObjectId island) {
  if (island == Object::kNoIsland) return;
  for (const auto& o : world.objects())
    if (o->sleep_state().island == island) wake(*o);
}

bool is_quiet(Object& o, const SleepSettings& s) {
  if (o.type() == ObjectType::kArticulatedSystem) {
    auto& a = static_cast<ArticulatedSystem&>(o);
    const VecX& u = a.data().u;
    double lin = 0.0, ang = 0.0;
    int start = 0;
    if (a.model().floating_base) {
      lin = u.head<3>().norm();
      ang = u.segment<3>(3).norm();
      start = 6;
    }
    for (Eigen::Index k = start; k < u.size(); ++k) ang = std::max(ang, std::abs(u[k]));
    return lin < s.linear_velocity_threshold && ang < s.angular_velocity_threshold;
  }
  const RigidBody& b = static_cast<SingleBodyObject&>(o).body();
  return b.linear_velocity.norm() < s.linear_velocity_threshold &&
         b.angular_velocity.norm() < s.angular_velocity_threshold;
}

void put_to_sleep(Object& o, ObjectId island) {
  o.sleep_state().sleeping = true;
  o.sleep_state().island = island;
  o.sleep_state().wake_requested = false;
  if (o.type() == ObjectType::kArticulatedSystem) {
    static_cast<ArticulatedSystem&>(o).data().u.setZero();
  } else {
    RigidBody& b = static_cast<SingleBodyObject&>(o).body();
    b.linear_velocity.setZero();
    b.angular_velocity.setZero();
  }
}

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace

// --- World API ---

void World::set_sleeping_enabled(bool on) {
  if (!on) wake_all();
  state_.sleeping_enabled = on;
}

void World::set_sleeping_parameters(double linear, double angular, int quiet_steps) {
  set_sleeping_velocity_thresholds(linear, angular);
  state_.sleep.quiet_steps = std::max(1, quiet_steps);
}

void World::set_sleeping_velocity_thresholds(double linear, double angular) {
  if (std::isnan(linear)) throw std::invalid_argument("linear velocity threshold must not be NaN");
  if (std::isnan(angular))
    throw std::invalid_argument("angular velocity threshold must not be NaN");
  state_.sleep.linear_velocity_threshold = std::max(0.0, linear);
  state_.sleep.angular_velocity_threshold = std::max(0.0, angular);
}

void World::wake_object(Object& obj) {
  const ObjectId island = obj.sleep_state().island;
  wake(obj);
  wake_island(*this, island);
}

void World::wake_all() {
  for (const auto& o : objects_) wake(*o);
}

const ArticulatedSource* World::articulated_source(ObjectId id) const {
  const auto it = state_.sources.find(id);
  return it == state_.sources.end() ? nullptr : &it->second;
}

void World::set_articulated_source(ObjectId id, ArticulatedSource source) {
  state_.sources[id] = std::move(source);
}

// --- stages ---

void stage_sleep_wake_requests(World& world) {
  for (const auto& o : world.objects()) {
    if (!o->sleep_state().wake_requested) continue;
    if (is_static(*o)) {
      // a static body the user moved or changed: whatever rests on it must move again (a box
      // asleep on a static table stayed in the air when the table was moved away). Which
      // islands touched it is not part of the world's state (contacts are not kept in
      // checkpoints), so every island wakes; they fall asleep again after quiet_steps steps
      world.wake_all();
      return;
    }
    const ObjectId island = o->sleep_state().island;
    wake(*o);
    wake_island(world, island);
  }
}

bool stage_wake_on_contact(World& world) {
  if (!world.sleeping_enabled()) return false;
  const auto& objects = world.objects();
  bool woke = false;
  for (const Contact& c : world.contacts()) {
    Object& a = *objects[c.object_a];
    Object& b = *objects[c.object_b];
    if (a.is_sleeping() == b.is_sleeping()) continue;
    Object& sleeper = a.is_sleeping() ? a : b;
    const Object& other = a.is_sleeping() ? b : a;
    if (is_static(other)) continue;
    world.wake_object(sleeper);
    woke = true;
  }
  return woke;
}

void stage_update_sleeping(World& world) {
  if (!world.sleeping_enabled()) return;
  const auto& objects = world.objects();
  const SleepSettings& s = world.sleeping_parameters();
  const std::size_t n = objects.size();
  // quiet counters of the awake nodes
  for (const auto& o : objects) {
    if (o->is_sleeping() || !is_node(*o)) continue;
    std::uint32_t& q = o->sleep_state().quiet_steps;
    q = is_quiet(*o, s) ? std::min<std::uint32_t>(q + 1, 1u << 30) : 0;
  }
  // islands: union over this step's contacts between awake nodes; a contact with an awake
  // kinematic body keeps the node's island awake
  WorldStateData& st = world.state_data();  // scratch: no allocation in steady state
  std::vector<std::size_t>& parent = st.island_parent;
  parent.resize(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  std::vector<char>& pinned = st.island_pinned;
  pinned.assign(n, 0);
  for (const Contact& c : world.contacts()) {
    const Object& a = *objects[c.object_a];
    const Object& b = *objects[c.object_b];
    const bool na = is_node(a) && !a.is_sleeping(), nb = is_node(b) && !b.is_sleeping();
    if (na && nb) {
      const std::size_t ra = find_root(parent, c.object_a), rb = find_root(parent, c.object_b);
      if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
    } else if (na && !is_static(b)) {
      pinned[c.object_a] = 1;
    } else if (nb && !is_static(a)) {
      pinned[c.object_b] = 1;
    }
  }
  // a node touching an awake kinematic body starts counting its quiet steps afresh once it
  // leaves it: a box resting on a still platform that was then moved away had counted all
  // along, and fell asleep in the air on the first step of its fall (g dt is under 0.01 m/s)
  for (std::size_t i = 0; i < n; ++i)
    if (pinned[i]) objects[i]->sleep_state().quiet_steps = 0;
  // per root: can the island sleep, and its smallest member id
  std::vector<char>& can_sleep = st.island_can_sleep;
  can_sleep.assign(n, 1);
  std::vector<ObjectId>& island_id = st.island_id;
  island_id.assign(n, Object::kNoIsland);
  for (std::size_t i = 0; i < n; ++i) {
    const Object& o = *objects[i];
    if (o.is_sleeping() || !is_node(o)) continue;
    const std::size_t r = find_root(parent, i);
    if (pinned[i] ||
        objects[i]->sleep_state().quiet_steps < static_cast<std::uint32_t>(s.quiet_steps))
      can_sleep[r] = 0;
    island_id[r] = std::min(island_id[r], o.id());
  }
  for (std::size_t i = 0; i < n; ++i) {
    Object& o = *objects[i];
    if (o.is_sleeping() || !is_node(o)) continue;
    const std::size_t r = find_root(parent, i);
    if (can_sleep[r]) put_to_sleep(o, island_id[r]);
  }
}

}  // namespace torsion
