// The World's granular systems and its "granular" stage (see granular_world.hpp).
#include "granular/granular_world.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "batch/thread_pool.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "dynamics/rigid_body.hpp"
#include "geometry/aabb.hpp"
#include "terrain/deformable_terrain.hpp"
#include "world/articulated_system.hpp"
#include "world/collision_shapes.hpp"
#include "world/object.hpp"
#include "world/world.hpp"

namespace torsion {

GranularWorld& World::granular() {
  if (!granular_) granular_ = std::make_shared<GranularWorld>();
  return *granular_;
}

GranularSystem* GranularWorld::find(std::uint64_t id) {
  for (Entry& e : systems)
    if (e.id == id) return e.system.get();
  return nullptr;
}

std::uint64_t GranularWorld::add(std::unique_ptr<GranularSystem> system) {
  Entry e;
  e.id = next_id++;
  e.system = std::move(system);
  systems.push_back(std::move(e));
  return systems.back().id;
}

bool GranularWorld::remove(std::uint64_t id) {
  const auto it = std::find_if(systems.begin(), systems.end(),
                               [id](const Entry& e) { return e.id == id; });
  if (it == systems.end()) return false;
  systems.erase(it);  // keeps the others' order (the stage steps them in this order)
  return true;
}

std::uint64_t add_granular_system(World& world, std::unique_ptr<GranularSystem> system) {
  if (world.is_mid_step())
    throw std::logic_error("adding a granular system is not allowed between integrate1() and "
                           "integrate2()");
  const std::uint64_t id = world.granular().add(std::move(system));
  world.note_topology_changed();
  return id;
}

bool remove_granular_system(World& world, std::uint64_t id) {
  if (world.is_mid_step())
    throw std::logic_error("removing a granular system is not allowed between integrate1() and "
                           "integrate2()");
  GranularWorld* gw = world.granular_if_any();
  if (!gw || !gw->remove(id)) return false;
  world.note_topology_changed();
  return true;
}

std::vector<Vec3> granular_box_positions(const GranularBoxOptions& o) {
  if (!o.lower.allFinite() || !o.upper.allFinite())
    throw_invalid("box_lower and box_upper must be finite");
  if (!(o.lower.array() < o.upper.array()).all())
    throw_invalid("box_lower must be below box_upper on every axis");
  if (!std::isfinite(o.particle_radius) || !(o.particle_radius > 0.0))
    throw_invalid("particle_radius must be finite and > 0, got " + fmt(o.particle_radius));
  if (!std::isfinite(o.spacing) || o.spacing < 0.0)
    throw_invalid("spacing must be finite and >= 0 (0: one particle diameter), got " +
                  fmt(o.spacing));
  const double r = o.particle_radius;
  const double s = o.spacing > 0.0 ? o.spacing : 2.0 * r;
  // particles wholly inside the box: centres from lower + r to upper - r, s apart
  const Vec3 room = o.upper - o.lower - Vec3::Constant(2.0 * r);
  if ((room.array() < 0.0).any())
    throw_invalid("the box is smaller than one particle on some axis");
  std::int64_t count[3];
  double total = 1.0;
  for (int a = 0; a < 3; ++a) {
    count[a] = static_cast<std::int64_t>(std::floor(room[a] / s + 1e-9)) + 1;
    total *= static_cast<double>(count[a]);
  }
  if (total > 5e7) throw_invalid("the box would hold more than 5e7 particles");
  std::vector<Vec3> out;
  out.reserve(static_cast<std::size_t>(total));
  for (std::int64_t z = 0; z < count[2]; ++z)
    for (std::int64_t y = 0; y < count[1]; ++y)
      for (std::int64_t x = 0; x < count[0]; ++x)
        out.push_back(o.lower + Vec3::Constant(r) +
                      s * Vec3(static_cast<double>(x), static_cast<double>(y),
                               static_cast<double>(z)));
  return out;
}

void stage_granular(World& world, double dt, const Vec3& gravity) {
  GranularWorld* gw = world.granular_if_any();
  if (!gw || gw->systems.empty()) return;
  // the rigid shapes at their start-of-step pose and velocity (the world's Ground object is not
  // one: a system has its own ground plane, as the seed's)
  const std::vector<CollisionShapeEntry>& entries = world.collision_shapes().entries();
  std::vector<GranularObstacle> obstacles;
  std::vector<std::uint32_t> source;  // the entry of each obstacle
  obstacles.reserve(entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const CollisionShapeEntry& e = entries[k];
    if (e.shape->type == ShapeType::kGround) continue;
    GranularObstacle o;
    o.shape = e.shape;
    e.world_pose(o.pose);
    o.bounds = shape_aabb(*e.shape, o.pose, 0.0);
    o.key = (static_cast<std::uint64_t>(e.object->id()) << 32) | e.source_index;
    o.group = e.filter->group;
    o.mask = e.filter->mask;
    if (e.body) {
      o.origin = e.body->position;
      if (e.body->type != BodyType::kStatic) {
        o.velocity = e.body->linear_velocity;
        o.angular_velocity = e.body->angular_velocity;
      }
    } else if (e.system) {
      auto* sys = static_cast<ArticulatedSystem*>(e.object);
      sys->ensure_velocities();
      o.origin = o.pose.position;
      o.velocity = body_point_velocity(sys->data(), e.link, o.origin);
      o.angular_velocity = body_angular_velocity(sys->data(), e.link);
    }
    // a deformable terrain's soil takes the particles' pushes as its load (its stage follows)
    if (DeformableTerrain* soil = as_deformable_terrain(*e.object)) {
      soil->particle_loads().clear();
      o.point_loads = &soil->particle_loads();
    }
    obstacles.push_back(o);
    source.push_back(static_cast<std::uint32_t>(k));
  }
  const SleepSettings& sleep = world.sleeping_parameters();
  for (GranularWorld::Entry& s : gw->systems) {
    GranularSystem& g = *s.system;
    std::vector<std::size_t> loads_before;
    for (const GranularObstacle& o : obstacles)
      if (o.point_loads) loads_before.push_back(o.point_loads->size());
    g.step(dt, gravity, ThreadPool::resolve_thread_count(g.num_threads), obstacles);
    // the pushes on soil, each substep's over the substep count: they sum to the step's mean
    const double per_substep = 1.0 / std::max(1, g.stats().substeps);
    std::size_t q = 0;
    for (const GranularObstacle& o : obstacles) {
      if (!o.point_loads) continue;
      std::vector<GranularPointLoad>& loads = *o.point_loads;
      for (std::size_t k = loads_before[q++]; k < loads.size(); ++k) loads[k].force *= per_substep;
    }
    // the reactions into the dynamics of this step (in shape order: deterministic)
    for (std::size_t k = 0; k < obstacles.size(); ++k) {
      GranularObstacle& o = obstacles[k];
      if (o.force.isZero(0.0) && o.torque.isZero(0.0)) continue;
      const CollisionShapeEntry& e = entries[source[k]];
      if (e.object->is_sleeping()) {
        // a sleeping object is held still: it takes no reaction. Particles moving faster than
        // the world's sleeping threshold wake its island at the start of the next step (a
        // quiet bed under it does not), as an awake body touching it would
        if (world.sleeping_enabled() && e.object->sleep_state().island != Object::kNoIsland &&
            !(o.touch_speed2 < sleep.linear_velocity_threshold * sleep.linear_velocity_threshold))
          e.object->sleep_state().wake_requested = true;
        continue;
      }
      if (e.body) {
        if (!e.body->is_dynamic()) continue;
        RigidBody& b = static_cast<SingleBodyObject*>(e.object)->body();
        b.external_force += o.force;
        b.external_torque += o.torque;
      } else if (e.system) {
        auto* sys = static_cast<ArticulatedSystem*>(e.object);
        sys->add_external_force(e.link, o.force, o.origin);
        sys->add_external_torque(e.link, o.torque);
      }
    }
  }
}

}  // namespace torsion
