// The World owns every object and advances them in time. It holds all of its state: no global or
// static mutable state, so independent worlds may be stepped on different threads at once.
//
// One step is integrate1() then integrate2() (see step.cpp for the stages). Between the two the
// world is "mid-step": adding or removing objects and integrate() are refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "collision/collision_detection.hpp"
#include "collision/contact.hpp"
#include "contact/contact_state.hpp"
#include "core/ids.hpp"
#include "core/random.hpp"
#include "query/ray_scene.hpp"
#include "world/collision_shapes.hpp"
#include "world/object.hpp"
#include "world/step_profile.hpp"
#include "world/wires.hpp"
#include "world/world_state.hpp"

namespace torsion {
class ArticulatedModel;
class ArticulatedSystem;
class MeshObject;
struct MeshSpec;
struct CompoundChildSpec;
struct DeformableSet;
struct TendonSet;
struct GranularWorld;
}  // namespace torsion

namespace torsion {

// Numerical trouble inside a step never goes silent: it is counted here, and the offending body
// is reset to its state at the start of the step with zero velocity (see step.cpp).
struct StepWarnings {
  std::uint64_t non_finite_state = 0;  // bodies whose state became NaN/inf and were reset
  ObjectId last_object = 0;            // id of the last such body
  double last_time = 0.0;              // world time at which it happened (s)
};

class World {
 public:
  World();
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // time
  void set_time_step(double dt);
  double time_step() const { return dt_; }
  void set_world_time(double t);
  double world_time() const { return time_; }
  void set_gravity(const Vec3& g);
  const Vec3& gravity() const { return gravity_; }

  // objects; the returned reference stays valid until the object is removed
  SingleBodyObject& add_sphere(double radius, double mass, const std::string& material,
                               CollisionGroup group, CollisionGroup mask);
  SingleBodyObject& add_box(double x_length, double y_length, double z_length, double mass,
                            const std::string& material, CollisionGroup group,
                            CollisionGroup mask);
  SingleBodyObject& add_cylinder(double radius, double height, double mass,
                                 const std::string& material, CollisionGroup group,
                                 CollisionGroup mask);
  SingleBodyObject& add_capsule(double radius, double height, double mass,
                                const std::string& material, CollisionGroup group,
                                CollisionGroup mask);
  SingleBodyObject& add_ground(double z_height, const std::string& material, CollisionGroup mask);
  // a static heightmap whose grid centre is at (center_x, center_y, 0) (world_terrain.cpp)
  SingleBodyObject& add_height_map(std::shared_ptr<const HeightMapData> data, double center_x,
                                   double center_y, const std::string& material,
                                   CollisionGroup group, CollisionGroup mask);
  // a robot from a compiled model (io/urdf.hpp builds one); several systems may share a model
  ArticulatedSystem& add_articulated_system(std::shared_ptr<const ArticulatedModel> model,
                                            CollisionGroup group, CollisionGroup mask,
                                            bool do_not_collide_with_parent,
                                            bool self_collision = false);

  // meshes and compounds (world/mesh_object.hpp; defined in mesh_object.cpp)
  MeshObject& add_mesh(const MeshSpec& spec, const std::string& material, CollisionGroup group,
                       CollisionGroup mask);
  // shares the source's geometry; an empty material keeps the source's
  MeshObject& add_mesh_clone(const MeshObject& source, const std::string& material,
                             CollisionGroup group, CollisionGroup mask);
  SingleBodyObject& add_compound(const std::vector<CompoundChildSpec>& children, double mass,
                                 const std::optional<Vec3>& com,
                                 const std::optional<Mat3>& inertia, CollisionGroup group,
                                 CollisionGroup mask);
  // one OBJ per collision mesh of every Mesh object, "<prefix>_<name or index>_<k>.obj", in
  // world order; the directory is created if needed. Returns the paths.
  std::vector<std::string> export_mesh_assets_to_obj(const std::string& directory,
                                                     const std::string& prefix) const;

  std::size_t object_count() const { return objects_.size(); }
  // nullptr if no such object (dead id, unknown name)
  Object* find_object(ObjectId id);
  Object* find_object(const std::string& name);  // first object with that name
  // std::out_of_range for an index outside [0, object_count())
  Object& object_at(std::size_t index);
  bool is_object_alive(ObjectId id) const;
  // swap-with-last: the last object takes the removed one's world index.
  // std::logic_error mid-step; std::invalid_argument for an object of another world.
  void remove_object(ObjectId id);
  // incremented every time an object is added or removed
  std::uint64_t configuration_number() const { return configuration_number_; }

  // stepping
  void integrate();
  void integrate(std::int64_t steps);
  void integrate1();
  void integrate2();
  bool is_mid_step() const { return mid_step_; }

  const StepWarnings& warnings() const { return warnings_; }

  // the time of every stage of the last step and their sums (world/step_profile.hpp); off by
  // default. Enabling clears it; std::logic_error mid-step.
  void set_step_profile_enabled(bool on);
  const StepProfile& step_profile() const { return profile_; }
  void reset_step_profile() { profile_.reset_totals(); }

  // a number that changes whenever an object is added, removed or modified through its setters,
  // and at every step: caches of world-derived data compare against it
  std::uint64_t state_version() const { return state_version_; }

  // the ray-cast scene of the current state, rebuilt only when the state version moved on.
  // Thread-safe; the snapshot stays valid (and unchanged) while the caller holds it.
  std::shared_ptr<const RayScene> ray_scene() const;

  // sensors: the seed of the stream that sensor noise (depth camera) draws from; setting it
  // restarts the stream
  void set_sensor_noise_seed(std::uint64_t seed) {
    sensor_noise_seed_ = seed;
    sensor_noise_.reseed(seed);
  }
  std::uint64_t sensor_noise_seed() const { return sensor_noise_seed_; }
  RandomStream& sensor_noise() { return sensor_noise_; }
  // --- collision detection (cpp/collision/) ---
  // integrate1() without collision detection: the contacts are cleared and none are found
  void integrate_no_contact_detection();
  // contacts of the last integrate1(), cleared at the start of every step and on removal
  const std::vector<Contact>& contacts() const { return collision_.contacts; }
  std::vector<Contact>& contacts() { return collision_.contacts; }
  // group/mask of every collision body of `obj` (local_index -1) or of one; std::out_of_range
  // for a local index the object does not have, std::logic_error mid-step. Returns true.
  bool set_object_collision_filter(Object& obj, CollisionGroup group, CollisionGroup mask,
                                   std::int64_t local_index = -1);
  bool set_object_material(Object& obj, const std::string& material,
                           std::int64_t local_index = -1);
  void set_contact_settings(const ContactSettings& s);  // validated; not mid-step
  const ContactSettings& contact_settings() const { return collision_.contact_settings; }
  void set_broadphase_settings(const BroadphaseSettings& s);  // validated; not mid-step
  const BroadphaseSettings& broadphase_settings() const { return collision_.broadphase_settings; }
  void set_collision_counters_enabled(bool on) { collision_.counters_enabled = on; }
  bool collision_counters_enabled() const { return collision_.counters_enabled; }
  const CollisionCounters& last_collision_counters() const { return collision_.counters; }
  // the collision-detection state, for the stages in step.cpp
  CollisionData& collision_data() { return collision_; }
  // --- contacts: materials and the contact solver (cpp/contact/, world_contact.cpp) ---
  // every overload of the seed's setMaterialPairProp / setDefaultMaterial ends here; validated
  void set_material_pair_prop(const std::string& mat1, const std::string& mat2,
                              const MaterialPairProperties& p);
  // replace every material pair and the default (RaiSim's updateMaterialProp)
  void update_material_prop(const MaterialManager& materials);
  // the material table, to be changed (the setters above, the bindings' material methods): a
  // changed material may no longer hold a sleeping body, so every island wakes
  MaterialManager& edit_materials();
  void set_default_material(const MaterialPairProperties& p);
  // order of the names does not matter; unknown names are "default"
  const MaterialPairProperties& material_pair_properties(const std::string& mat1,
                                                         const std::string& mat2) const;
  void set_erp(double erp, double erp2);
  void set_contact_solver_param(double alpha_init, double alpha_min, double alpha_decay,
                                int max_iter, double threshold);
  // true: always sweep contacts in the same order; false (default): alternate every step
  void set_contact_solver_iteration_order(bool fixed);
  const BisectionContactSolver& contact_solver() const { return contact_.solver; }
  // the contact problems of the current step (valid after integrate1)
  const ContactProblems& contact_problems() const { return contact_.problems; }
  ContactState& contact_state() { return contact_; }
  const ContactState& contact_state() const { return contact_; }

  // the granular systems the world owns and steps (granular/granular_world.hpp); made on first
  // use. granular_if_any(): nullptr while the world never had one
  GranularWorld& granular();
  GranularWorld* granular_if_any() const { return granular_.get(); }

  // read access for the stages in step.cpp
  const std::vector<std::unique_ptr<Object>>& objects() const { return objects_; }
  // every collision shape of every object, in world-index order (world/collision_shapes.hpp)
  const CollisionShapeList& collision_shapes() const { return shapes_; }

  // deformable cloth and solids (cpp/deformable/, world/world_deformable.hpp): kept in their own
  // list beside the objects (their particles are not rigid bodies)
  DeformableSet& deformable_set() { return *deformables_; }
  const DeformableSet& deformable_set() const { return *deformables_; }
  // a deformable was added or removed: moves the state version and the configuration number on
  void note_deformables_changed() {
    ++state_version_;
    ++configuration_number_;
  }

  // tendons and tendon couplings (world/tendons.hpp, where find_tendon_set and tendon_set read
  // these): made with the first tendon, freed with the World
  TendonSet* tendons_if_any() const { return tendons_.get(); }
  TendonSet& tendons();  // defined in world/tendons.cpp
  // a change of what the topology fingerprint covers (a tendon or a coupling added or removed)
  void note_topology_changed() {
    ++state_version_;
    ++configuration_number_;
  }

  // --- wires (world/wires.hpp; defined in world/wires.cpp) ---
  // A wire from pos1_b on body local1 of obj1 to pos2_b on body local2 of obj2 (body frames, m).
  // std::invalid_argument naming the argument for a dead object, a local index the object does
  // not have, a non-finite point, length <= 0 or not finite, stiffness <= 0, both ends at one
  // point of one body, or both objects immovable; std::logic_error mid-step.
  Wire& add_stiff_wire(ObjectId obj1, std::size_t local1, const Vec3& pos1_b, ObjectId obj2,
                       std::size_t local2, const Vec3& pos2_b, double length);
  Wire& add_compliant_wire(ObjectId obj1, std::size_t local1, const Vec3& pos1_b, ObjectId obj2,
                           std::size_t local2, const Vec3& pos2_b, double length,
                           double stiffness);
  Wire& add_custom_wire(ObjectId obj1, std::size_t local1, const Vec3& pos1_b, ObjectId obj2,
                        std::size_t local2, const Vec3& pos2_b, double length);
  std::size_t wire_count() const { return wires_.wires.size(); }
  Wire* find_wire(std::uint64_t id);          // nullptr: no such wire (removed, never made)
  Wire* find_wire(const std::string& name);  // the first wire of that name, or nullptr
  Wire& wire_at(std::size_t index);           // std::out_of_range outside [0, wire_count())
  // swap-with-last, as objects; std::invalid_argument for a dead id, std::logic_error mid-step
  void remove_wire(std::uint64_t id);
  // the wire's ends, length and direction in the current state
  WireGeometry wire_geometry(const Wire& wire);
  // the step's access (world/wires.cpp stages, checkpoints, world XML)
  WireSet& wire_set() { return wires_; }

  // --- world state (world/checkpoint.cpp, world/sleeping.cpp, world/world_xml_*.cpp) ---
  // sleeping islands: off by default; disabling wakes everything. Thresholds < 0 are clamped to
  // 0, quiet_steps < 1 to 1 (as the seed).
  void set_sleeping_enabled(bool on);
  bool sleeping_enabled() const { return state_.sleeping_enabled; }
  void set_sleeping_parameters(double linear, double angular, int quiet_steps);
  void set_sleeping_velocity_thresholds(double linear, double angular);
  const SleepSettings& sleeping_parameters() const { return state_.sleep; }
  void wake_object(Object& obj);  // the object now, its island at the next step
  void wake_all();
  bool is_object_sleeping(const Object& obj) const {
    return state_.sleeping_enabled && obj.is_sleeping();
  }
  // unique for every World created in this process, never reused (checkpoints are tied to it)
  std::uint64_t lifetime_identity() const { return state_.lifetime_identity; }
  // the world XML this world was read from ("" otherwise)
  const std::string& config_file() const { return state_.config_file; }
  // how an articulated system was made (for export); nullptr if unknown
  const ArticulatedSource* articulated_source(ObjectId id) const;
  void set_articulated_source(ObjectId id, ArticulatedSource source);
  WorldLock& world_lock() { return lock_; }
  // who is using the world in a call without the GIL (world_state.hpp); structural changes
  // (require_not_mid_step) are refused while another thread is
  WorldUse& use() const { return use_; }

  // --- its state as data, for the code that saves, restores and copies a whole world exactly
  //     (world/checkpoint.cpp, batch/lean_state.cpp, batch/world_copy.cpp, the world XML
  //     reader), without the setters' checks and side effects. Its parts keep their own: the
  //     objects (Object::sleep_state, SingleBodyObject::body, ArticulatedSystem::control_state),
  //     contact_state() (materials, warm start, solver), collision_data(), sensor_noise(). ---
  struct Globals {
    double dt;
    double time;
    Vec3 gravity;
    StepWarnings warnings;
    std::uint64_t sensor_noise_seed;
  };
  Globals globals() const { return {dt_, time_, gravity_, warnings_, sensor_noise_seed_}; }
  void restore_globals(const Globals& g) {
    dt_ = g.dt;
    time_ = g.time;
    gravity_ = g.gravity;
    warnings_ = g.warnings;
    sensor_noise_seed_ = g.sensor_noise_seed;
  }
  // sleeping settings and scratch, robots' sources, the config file, identity, caches
  WorldStateData& state_data() { return state_; }
  const WorldStateData& state_data() const { return state_; }
  // after its state was written directly: caches keyed on the state (the ray scene) are rebuilt
  void mark_state_changed() { ++state_version_; }
  // the id the next object added gets (ids are never reused)
  ObjectId next_object_id() const { return id_to_index_.size(); }
  // an object made outside the add_* methods (the world XML reader rebuilds a Mesh from its exact
  // collision geometry), whose id must be next_object_id(); std::logic_error mid-step,
  // std::invalid_argument for another id
  Object& add_object(std::unique_ptr<Object> obj);
  // every object of src copied into this world, which has none (batch/world_copy.cpp), with the
  // same ids, world indices and state; std::invalid_argument if this world has objects
  void copy_objects_from(const World& src);

 private:
  void insert_object(std::unique_ptr<Object> obj);
  SingleBodyObject& add_single_body(ObjectType type, const Shape& shape, double mass,
                                    const std::string& material, CollisionGroup group,
                                    CollisionGroup mask);
  void require_not_mid_step(const char* what) const;
  Wire& insert_wire(Wire wire);  // checked, then added (world/wires.cpp)

  double dt_ = 1e-3;
  double time_ = 0.0;
  Vec3 gravity_ = Vec3(0.0, 0.0, -9.81);

  std::vector<std::unique_ptr<Object>> objects_;  // in world-index order
  std::vector<std::int64_t> id_to_index_;         // by id; -1 once removed (ids are not reused)
  CollisionShapeList shapes_;  // kept on every add and remove (insert_object, remove_object)
  std::uint64_t configuration_number_ = 0;

  bool mid_step_ = false;
  StepWarnings warnings_;
  StepProfile profile_;
  std::uint64_t state_version_ = 0;
  std::uint64_t sensor_noise_seed_ = 0;
  RandomStream sensor_noise_{0};

  // the cached ray-cast scene and the state version it was built at
  mutable std::mutex ray_scene_mutex_;
  mutable std::shared_ptr<const RayScene> ray_scene_;
  mutable std::uint64_t ray_scene_version_ = 0;

  friend void step_integrate1(World&);
  friend void step_integrate2(World&);
  // scratch of the step (no allocation in steady state): each object's position and orientation
  // at the start of the step, as the state holds them (a quaternion), for the recovery stage
  struct StepStart {
    Vec3 position;
    Quat orientation;
  };
  std::vector<StepStart> step_start_pose_;
  // the single bodies and the articulated systems, classified once per step by integrate1
  // (objects cannot be added or removed mid-step), so the stages do not re-test every object
  std::vector<SingleBodyObject*> step_single_bodies_;
  std::vector<std::uint32_t> step_single_index_;  // their world indices
  std::vector<ArticulatedSystem*> step_articulated_;
  std::vector<std::uint32_t> step_articulated_index_;

  // collision detection: settings, counters, the contacts of the last step and scratch
  CollisionData collision_;
  bool detect_contacts_ = true;  // false inside integrate_no_contact_detection()
  ContactState contact_;           // materials, solver, problems, warm start

  WireSet wires_;         // wires (world/wires.cpp)
  std::unique_ptr<DeformableSet> deformables_;  // never null
  std::unique_ptr<TendonSet> tendons_;          // null until the first tendon

  WorldStateData state_;  // sleeping settings, sources for export, identity
  // granular systems (a shared_ptr: its type is complete only in granular_world.cpp)
  std::shared_ptr<GranularWorld> granular_;
  WorldLock lock_;
  mutable WorldUse use_;
};

}  // namespace torsion
