#include "world/world.hpp"

#include <atomic>
#include <stdexcept>

#include "core/check.hpp"
#include "world/ray_queries.hpp"
#include "world/articulated_system.hpp"
#include "world/mesh_object.hpp"
#include "world/tendons.hpp"
#include "world/time_step.hpp"
#include "world/world_deformable.hpp"
#include "terrain/deformable_terrain.hpp"

namespace torsion {

namespace {
// lifetime identities: a process-wide counter, the only shared state of the core. It is atomic,
// and no result of any world depends on it (it only names worlds apart).
std::uint64_t next_lifetime_identity() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}
}  // namespace

World::World() : deformables_(std::make_unique<DeformableSet>()) {
  state_.lifetime_identity = next_lifetime_identity();
}

World::~World() = default;  // here, where DeformableSet is complete

void check_time_step(double dt, const char* name) {
  check_positive(dt, name);
  if (!(dt >= kMinTimeStep && dt <= kMaxTimeStep))
    throw_invalid(std::string(name) + " must be in [" + fmt(kMinTimeStep) + ", " +
                  fmt(kMaxTimeStep) + "] s, got " + fmt(dt));
}

void World::set_time_step(double dt) {
  check_time_step(dt, "dt");
  dt_ = dt;
}

void World::set_world_time(double t) {
  check_finite(t, "time");
  time_ = t;
}

void World::set_gravity(const Vec3& g) {
  // integrate1() computed the robots' gravity terms with the old value; single bodies would take
  // the new one in integrate2(): one step under two gravities
  require_not_mid_step("set_gravity");
  check_finite_vec(g, "gravity");
  if (state_.sleeping_enabled && g != gravity_) wake_all();  // every resting body is loaded anew
  gravity_ = g;
}

void World::require_not_mid_step(const char* what) const {
  if (mid_step_)
    throw std::logic_error(std::string(what) +
                           " is not allowed between integrate1() and integrate2()");
  if (!use_.free_for_this_thread()) throw_world_in_use(what);
}

void throw_world_in_use(const char* what) {
  throw std::logic_error(std::string(what) +
                         ": another thread is using this World right now (stepping, restoring a "
                         "checkpoint, ray casting, ...); a World shared between threads must be "
                         "used under `with world.lock():` by every thread");
}

SingleBodyObject& World::add_single_body(ObjectType type, const Shape& shape, double mass,
                                         const std::string& material, CollisionGroup group,
                                         CollisionGroup mask) {
  require_not_mid_step("adding an object");
  check_material_name(material, "material");
  const ObjectId id = id_to_index_.size();
  auto obj = std::make_unique<SingleBodyObject>(id, type, shape, mass);
  obj->collision().material = material;
  if (type != ObjectType::kGround) obj->collision().group = group;
  obj->collision().mask = mask;
  SingleBodyObject& ref = *obj;
  insert_object(std::move(obj));
  return ref;
}

void World::insert_object(std::unique_ptr<Object> obj) {
  obj->index_ = objects_.size();
  obj->state_version_ = &state_version_;
  obj->world_mid_step_ = &mid_step_;
  obj->world_objects_ = &objects_;
  obj->world_shapes_ = &shapes_;
  id_to_index_.push_back(static_cast<std::int64_t>(objects_.size()));
  objects_.push_back(std::move(obj));
  shapes_.add(*objects_.back());
  ++configuration_number_;
  ++state_version_;
}

Object& World::add_object(std::unique_ptr<Object> obj) {
  require_not_mid_step("adding an object");
  if (!obj || obj->id() != next_object_id())
    throw_invalid("add_object: the object must have id " + std::to_string(next_object_id()));
  Object& ref = *obj;
  insert_object(std::move(obj));
  return ref;
}

void World::copy_objects_from(const World& src) {
  if (!objects_.empty())
    throw std::invalid_argument("copy_world: the destination world must have no objects, it has " +
                                std::to_string(objects_.size()));
  for (const auto& o : src.objects_) {
    // each object copied whole (state, control, collision properties, scratch); what it shares
    // with the source (robot model, heightmap samples, meshes) is immutable
    std::unique_ptr<Object> copy;
    // (a deformable terrain shares its initial heights, and its current samples until either
    // world's soil changes them: DeformableTerrain::publish_levels writes in place only into
    // samples no one else holds)
    if (const DeformableTerrain* t = as_deformable_terrain(*o))
      copy = std::make_unique<DeformableTerrain>(*t);
    else if (const auto* a = dynamic_cast<const ArticulatedSystem*>(o.get()))
      copy = std::make_unique<ArticulatedSystem>(*a);
    else if (const auto* m = dynamic_cast<const MeshObject*>(o.get()))
      copy = std::make_unique<MeshObject>(*m);
    else if (const auto* s = dynamic_cast<const SingleBodyObject*>(o.get()))
      copy = std::make_unique<SingleBodyObject>(*s);
    else
      throw std::logic_error("copy_world: object id " + std::to_string(o->id()) +
                             " is of a kind that cannot be copied");
    insert_object(std::move(copy));
  }
  // ids: removed objects leave holes that insert_object does not know of
  id_to_index_ = src.id_to_index_;
}

ArticulatedSystem& World::add_articulated_system(std::shared_ptr<const ArticulatedModel> model,
                                                 CollisionGroup group, CollisionGroup mask,
                                                 bool do_not_collide_with_parent,
                                                 bool self_collision) {
  require_not_mid_step("adding an object");
  if (!model) throw_invalid("model must not be null");
  auto obj = std::make_unique<ArticulatedSystem>(id_to_index_.size(), std::move(model));
  obj->set_collision_filter(group, mask);
  obj->do_not_collide_with_parent = do_not_collide_with_parent;
  obj->self_collision = self_collision;
  ArticulatedSystem& ref = *obj;
  insert_object(std::move(obj));
  return ref;
}

SingleBodyObject& World::add_sphere(double radius, double mass, const std::string& material,
                                    CollisionGroup group, CollisionGroup mask) {
  return add_single_body(ObjectType::kSphere, Shape::sphere(radius), mass, material, group, mask);
}

SingleBodyObject& World::add_box(double x_length, double y_length, double z_length, double mass,
                                 const std::string& material, CollisionGroup group,
                                 CollisionGroup mask) {
  return add_single_body(ObjectType::kBox, Shape::box(x_length, y_length, z_length), mass,
                         material, group, mask);
}

SingleBodyObject& World::add_cylinder(double radius, double height, double mass,
                                      const std::string& material, CollisionGroup group,
                                      CollisionGroup mask) {
  return add_single_body(ObjectType::kCylinder, Shape::cylinder(radius, height), mass, material,
                         group, mask);
}

SingleBodyObject& World::add_capsule(double radius, double height, double mass,
                                     const std::string& material, CollisionGroup group,
                                     CollisionGroup mask) {
  return add_single_body(ObjectType::kCapsule, Shape::capsule(radius, height), mass, material,
                         group, mask);
}

SingleBodyObject& World::add_ground(double z_height, const std::string& material,
                                    CollisionGroup mask) {
  return add_single_body(ObjectType::kGround, Shape::ground(z_height), 0.0, material,
                         kStaticCollisionGroup, mask);
}

Object* World::find_object(ObjectId id) {
  if (id >= id_to_index_.size() || id_to_index_[id] < 0) return nullptr;
  return objects_[static_cast<std::size_t>(id_to_index_[id])].get();
}

Object* World::find_object(const std::string& name) {
  for (auto& o : objects_)
    if (o->name() == name) return o.get();
  return nullptr;
}

Object& World::object_at(std::size_t index) {
  if (index >= objects_.size())
    throw std::out_of_range("object index " + std::to_string(index) + " is out of range [0, " +
                            std::to_string(objects_.size()) + ")");
  return *objects_[index];
}

bool World::is_object_alive(ObjectId id) const {
  return id < id_to_index_.size() && id_to_index_[id] >= 0;
}

void World::remove_object(ObjectId id) {
  require_not_mid_step("remove_object");
  if (!is_object_alive(id))
    throw_invalid("object id " + std::to_string(id) + " is not alive in this world");
  const std::size_t index = static_cast<std::size_t>(id_to_index_[id]);
  // its sleeping island loses a member, and what rested on it its support: every island must
  // move again (which ones touched it is not part of the world's state, see sleeping.cpp)
  wake_all();
  state_.sources.erase(id);
  // the wires attached to it go with it (World seed)
  for (std::size_t k = wires_.wires.size(); k-- > 0;)
    if (wires_.wires[k].end[0].object == id || wires_.wires[k].end[1].object == id)
      remove_wire(wires_.wires[k].id);
  remove_tendons_of_object(*this, id);  // the tendons over its joints (world/tendons.hpp)
  const std::size_t last = objects_.size() - 1;
  if (index != last) {
    objects_[index] = std::move(objects_[last]);
    objects_[index]->index_ = index;
    id_to_index_[objects_[index]->id()] = static_cast<std::int64_t>(index);
  }
  objects_.pop_back();
  shapes_.remove(index, last);
  id_to_index_[id] = -1;
  // contacts refer to world indices, which just changed: drop them (the next step finds them)
  collision_.contacts.clear();
  ++configuration_number_;
  ++state_version_;
}

}  // namespace torsion

namespace torsion {

std::shared_ptr<const RayScene> World::ray_scene() const {
  std::lock_guard<std::mutex> lock(ray_scene_mutex_);
  if (!ray_scene_ || ray_scene_version_ != state_version_) {
    std::vector<RayCastBody> bodies;
    collect_ray_cast_bodies(*this, bodies);
    std::vector<RaySurface> surfaces;
    collect_ray_surfaces(*this, surfaces);
    auto scene = std::make_shared<RayScene>();
    scene->build(bodies, std::move(surfaces));
    ray_scene_ = std::move(scene);
    ray_scene_version_ = state_version_;
  }
  return ray_scene_;
}

// --- collision properties and settings ---

namespace {

void check_local_index(const Object& obj, std::int64_t local_index, const char* what) {
  const std::int64_t n = static_cast<std::int64_t>(obj.local_count());
  if (local_index != -1 && (local_index < 0 || local_index >= n))
    throw std::out_of_range(std::string(what) + ": local_idx " + std::to_string(local_index) +
                            " is out of range for " + object_type_name(obj.type()) + " (" +
                            (n == 1 ? std::string("a single body has local index 0")
                                    : "local indices are [0, " + std::to_string(n) + ")") +
                            "; -1 means all bodies)");
}

}  // namespace

bool World::set_object_collision_filter(Object& obj, CollisionGroup group, CollisionGroup mask,
                                        std::int64_t local_index) {
  require_not_mid_step("set_object_collision_filter");
  if (find_object(obj.id()) != &obj) throw_invalid("object is not in this world");
  check_local_index(obj, local_index, "set_object_collision_filter");
  if (obj.type() == ObjectType::kArticulatedSystem) {
    auto& a = static_cast<ArticulatedSystem&>(obj);
    if (local_index < 0) {
      a.set_collision_filter(group, mask);
    } else {
      a.body_collision[static_cast<std::size_t>(local_index)].group = group;
      a.body_collision[static_cast<std::size_t>(local_index)].mask = mask;
    }
  } else {
    auto& c = static_cast<SingleBodyObject&>(obj).collision();
    c.group = group;
    c.mask = mask;
  }
  ++state_version_;  // rays and collision see the new filter
  if (state_.sleeping_enabled) wake_all();  // a support may have stopped colliding
  return true;
}

bool World::set_object_material(Object& obj, const std::string& material,
                                std::int64_t local_index) {
  require_not_mid_step("set_object_material");
  if (find_object(obj.id()) != &obj) throw_invalid("object is not in this world");
  check_local_index(obj, local_index, "set_object_material");
  check_material_name(material, "material");
  if (obj.type() == ObjectType::kArticulatedSystem) {
    auto& a = static_cast<ArticulatedSystem&>(obj);
    for (std::size_t b = 0; b < a.body_collision.size(); ++b)
      if (local_index < 0 || static_cast<std::size_t>(local_index) == b)
        a.body_collision[b].material = material;
  } else {
    auto& sb = static_cast<SingleBodyObject&>(obj);
    if (local_index < 0 || sb.children().empty()) sb.collision().material = material;
    for (std::size_t k = 0; k < sb.children().size(); ++k)
      if (local_index < 0 || static_cast<std::size_t>(local_index) == k)
        sb.children()[k].material = material;
  }
  contact_.material_index_valid = false;
  ++state_version_;
  if (state_.sleeping_enabled) wake_all();  // friction may no longer hold a resting body
  return true;
}

void World::set_contact_settings(const ContactSettings& s) {
  require_not_mid_step("set_contact_settings");
  check_contact_settings(s);
  collision_.contact_settings = s;
}

void World::set_broadphase_settings(const BroadphaseSettings& s) {
  require_not_mid_step("set_broadphase_settings");
  check_broadphase_settings(s);
  collision_.broadphase_settings = s;
}

}  // namespace torsion
