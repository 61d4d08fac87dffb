// An IK environment: objects (dummies and joints) in a parent hierarchy, and IK groups of IK
// elements that move the joints so that tip dummies reach their linked target dummies.
//
// Every environment owns all of its state (no globals): several can live and be solved at once.
// Handles are ints, never reused within an environment; objects and groups have separate handle
// counters. Invalid arguments throw std::invalid_argument (ValueError in Python) with a message
// that names the argument; the Python compat layer turns them into the seed's bool + last error.
//
// Frames: every object has a local pose relative to its parent's full frame. A joint's full frame
// is its local frame followed by its intrinsic motion (rotation/translation about/along its local
// z axis, or the spherical rotation). Object poses returned to users exclude the object's own
// intrinsic motion, as in the seed; poses "relative to X" are relative to X's full frame (the
// frame X's children see).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ik/constants.hpp"
#include "ik/pose.hpp"

namespace torsion::ik {

struct JointData {
  int type = kJointTypeRevolute;
  int mode = kJointModeIk;
  double position = 0.0;        // rad or m
  double screw_pitch = 0.0;     // m/rad, revolute only (translation along z per radian)
  Quat spherical = Quat::Identity();  // spherical joints: intrinsic rotation
  bool cyclic = true;           // revolute with zero pitch only: wraps to [-pi, pi)
  double min = -kPi;            // lower limit (rad or m)
  double range = 2.0 * kPi;     // upper limit = min + range
  double max_step = 10.0 * kPi / 180.0;  // per-iteration step limit (rad or m)
  double limit_margin = 5.0 * kPi / 180.0;  // for the avoid-limits rows
  double ik_weight = 1.0;
  int master = -1;              // dependency: position = mult * master.position + offset
  double mult = 1.0;
  double offset = 0.0;
  double overshoot = 0.0;       // last requested - clamped position (limit-hit record)
};

// a joint's own motion: rotation about (and screw translation along) its z axis, translation
// along z, or the spherical rotation
inline Pose intrinsic(const JointData& j) {
  if (j.type == kJointTypePrismatic) return Pose(Quat::Identity(), Vec3(0.0, 0.0, j.position));
  if (j.type == kJointTypeSpherical) return Pose(j.spherical, Vec3::Zero());
  const double h = 0.5 * j.position;
  return Pose(Quat(std::cos(h), 0.0, 0.0, std::sin(h)), Vec3(0.0, 0.0, j.screw_pitch * j.position));
}

// A spherical joint's limit (Coppelia's): its interval range is a cone half-angle about its own
// z axis; with range < 0.99 pi a rotation that tilts z further than the range is pulled back
// onto the cone by the smallest extra rotation (about z' x z in the parent frame). The excess
// angle (rad, 0 when within the cone) goes to *overshoot when given.
Quat limit_spherical(const JointData& j, const Quat& q, double* overshoot = nullptr);

struct Object {
  int handle = -1;
  int type = kObjectTypeDummy;
  std::string name;
  int parent = -1;      // handle or -1
  Pose local;           // relative to the parent's full frame (or the world)
  JointData joint;      // used when type == kObjectTypeJoint
  int linked_dummy = -1;  // dummies: the linked (target) dummy or -1
};

struct Element {
  int handle = 0;
  int tip = -1;
  int base = -1;             // -1: world
  int constraints_base = -1; // -1: constraints relative to the base
  int constraints = kConstraintPosition;
  double linear_precision = 0.0005;              // m
  double angular_precision = 0.1 * kPi / 180.0;  // rad
  double linear_weight = 1.0;
  double angular_weight = 1.0;
  double weight = 1.0;  // element weight (not saved, as in the seed)
  bool enabled = true;
};

struct Group {
  int handle = -1;
  std::string name;
  int max_iterations = 3;
  int method = kMethodPseudoInverse;
  double damping = 0.1;
  int flags = kGroupEnabled | kGroupIgnoreMaxSteps;
  std::vector<Element> elements;
  int next_element_handle = 0;
  // filled by compute_jacobian
  MatX jacobian;  // (rows x columns)
  VecX error;     // (rows)
  bool jacobian_valid = false;
};

// One IK row block / column layout of a group, and the evaluation results (semantics.md §B3).
struct GroupSystem {
  std::vector<int> column_joint;   // joint handle per column (the master of dependent joints)
  std::vector<int> column_axis;    // 0 for 1-DoF joints, 0/1/2 for spherical x/y/z
  std::vector<int> column_slot;    // object slot of each column joint
  bool spherical_columns = false;  // some column belongs to a spherical joint
  std::vector<int> row_type;       // 0..5 = x,y,z,alpha,beta,gamma; 6 = limit-avoidance row
  MatX J;                          // (rows x columns), unweighted
  VecX e;                          // (rows), unweighted linearised error
  VecX row_weight;                 // (rows): linW*elemW or angW*elemW
  double worst_linear = 0.0;       // m
  double worst_angular = 0.0;      // rad
  bool within_tolerance = true;
  bool position_missed = false;
  bool orientation_missed = false;
  // structure cache: valid while (group, environment structure version) are unchanged
  struct ElementCache {
    int index = 0;                // element index in the group
    int constraints = 0;          // the element's constraints when the cache was built
    int tip_slot = -1, target_slot = -1, base_slot = -1;  // base: constraint base or -1
    int tip_node = -1, target_node = -1, base_node = -1;  // the same as plan nodes
    int row_offset = 0;            // first row of the element in J
    int row_count = 0;             // its rows (1..6)
    int row_source[6] = {0, 0, 0, 0, 0, 0};  // per row: 0..2 linear x,y,z, 3..5 angular x,y,z
    std::vector<signed char> sign;  // per slot: +1 moves the tip only, -1 the base only, else 0
  };
  int cached_group = -1;
  uint64_t cached_version = ~uint64_t(0);
  bool cached_valid = false;
  bool has_dependents = false;  // some joint of the environment has a master
  int cached_rows = 0;
  std::vector<ElementCache> elements;
  std::vector<std::vector<std::pair<int, double>>> movers;  // per column: (slot, dq_j/dq_col)
  // scratch reused between evaluations (no allocation in steady state)
  std::vector<Pose> full;          // per object slot: world pose of the full frame
  std::vector<Mat3> rot;           // per object slot: its rotation matrix
  std::vector<char> full_done;     // per object slot
  std::vector<double> coeff;       // per object slot: d q_joint / d q_column
  std::vector<char> moves_tip;     // per object slot: joint moves the element's tip
  std::vector<char> moves_base;    // per object slot: joint moves the constraint base
  std::vector<int> chain;          // joints between tip and base
  // the compiled kinematics of the group (kinematics_plan.cpp): only the objects the group
  // needs, parent first; local transforms as rotation matrices, refreshed when a pose changes
  struct PlanNode {
    int slot = -1;           // object slot
    int parent = -1;         // node index of the parent, -1 for the world
    int kind = 0;            // 0 fixed (dummy), else the joint type
    bool rotated = false;    // the local rotation is not the identity
    bool permutation = false;  // ... but a signed permutation (90-degree turns): no products
    int perm[3] = {0, 1, 2};   // then column c of R_local is sign[c] * unit axis perm[c]
    double sign[3] = {1.0, 1.0, 1.0};
    Mat3 R_local = Mat3::Identity();
    Vec3 p_local = Vec3::Zero();
  };
  struct PlanTerm {          // one joint's share of one column of one element
    int node = 0;
    int kind = 0;            // the joint type of the node
    int axis = 0;            // spherical: local x, y or z
    double k = 0.0;          // (+1 tip side, -1 base side) * d q_joint / d q_column
  };
  std::vector<PlanNode> plan_nodes;
  int plan_jacobian_nodes = 0;     // prefix of plan_nodes that tips and constraint bases need
  std::vector<int> plan_node_of_slot;
  std::vector<PlanTerm> plan_terms;
  std::vector<int> plan_term_begin;  // per (element, column), plus one end offset
  uint64_t plan_pose_version = ~uint64_t(0);
  std::vector<Mat3> world_R;       // per node: world rotation of its full frame
  std::vector<Vec3> world_p;       // per node: world position of its full frame
};

// Saved joint state of the whole environment (memorise / restore).
struct JointSnapshot {
  std::vector<int> handle;
  std::vector<double> position;
  std::vector<Quat> spherical;
};

// Counter-based random stream (SplitMix64): same seed, same numbers, on every platform.
struct Rng {
  uint64_t state = 0x853c49e6748fea9bULL;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
};

struct ConfigSearchOptions {
  double threshold = 0.1;
  int max_iterations = 1000;              // < 0: a time limit in ms of -max_iterations
  double metric[4] = {1.0, 1.0, 1.0, 0.1};
  std::vector<int> joint_options;         // per joint: bit0 = dependent (not sampled)
  std::vector<double> low_limits;         // empty or one per joint
  std::vector<double> ranges;             // empty or one per joint; < 0: window around current
  std::function<bool(const std::vector<double>&)> validate;  // may be empty
};

struct SolveOptions {
  int max_iterations = 64;       // per local attempt
  int max_restarts = 100;        // random restarts of the fallback search
  double damping = 1e-3;         // DLS lambda (m or rad scale)
  double max_step = 0.5;         // rad or m per iteration, per joint
  uint64_t seed = 0;
};

struct SolveResult {
  std::vector<double> q;         // one per column joint, in column order
  bool success = false;
  double position_error = 0.0;   // m
  double orientation_error = 0.0;  // rad
  int iterations = 0;            // total iterations over all attempts
  int attempts = 0;              // 1 + restarts used
};

class Environment {
 public:
  // ---- objects ----
  int create_dummy(const std::string& name);
  int create_joint(const std::string& name, int joint_type);
  void erase_object(int handle);
  bool does_object_exist(const std::string& name) const;
  int object_handle(const std::string& name) const;  // throws if absent
  size_t object_count() const { return objects_.size(); }
  const Object& object_at(size_t index) const { return objects_.at(index); }
  // the objects by slot, unchecked: valid until the next structure change (structure_version)
  const Object* objects_data() const { return objects_.data(); }
  const Object& object(int handle) const;
  int object_parent(int handle) const { return object(handle).parent; }
  void set_object_parent(int handle, int parent, bool keep_in_place);
  // pose of `handle` (without its own intrinsic motion) relative to `relative_to`
  // (kHandleWorld, kHandleParent or an object handle)
  Pose object_pose(int handle, int relative_to) const;
  void set_object_pose(int handle, int relative_to, const Pose& pose);
  int linked_dummy(int dummy) const;
  void set_linked_dummy(int dummy, int linked);  // -1 to unlink; links both ways

  // ---- joints ----
  const JointData& joint(int handle) const;
  void set_joint_position(int handle, double position);  // ignored for dependent joints
  void set_joint_mode(int handle, int mode);
  void set_joint_interval(int handle, bool cyclic, double min, double range);
  void set_joint_screw_pitch(int handle, double pitch);
  void set_joint_max_step_size(int handle, double step);
  void set_joint_ik_weight(int handle, double weight);
  void set_joint_limit_margin(int handle, double margin);
  void set_joint_dependency(int handle, int master, double offset, double mult);
  void set_spherical_quaternion(int handle, const Quat& q);
  Pose joint_intrinsic(int handle) const;  // the joint's own motion as a pose

  // ---- groups and elements ----
  int create_group(const std::string& name);
  void erase_group(int handle);
  bool does_group_exist(const std::string& name) const;
  int group_handle(const std::string& name) const;
  size_t group_count() const { return groups_.size(); }
  const Group& group(int handle) const;
  Group& group_mut(int handle);
  const Group& group_at(size_t index) const { return groups_.at(index); }
  int add_element(int group, int tip);  // returns the element index
  // index, or tip handle | kHandleFlagTipDummy
  const Element& element(int group, int index) const;
  Element& element_mut(int group, int index);
  void set_element_base(int group, int index, int base, int constraints_base);
  void set_element_constraints(int group, int index, int constraints);
  void set_element_precision(int group, int index, double linear, double angular);
  void set_element_weights(int group, int index, double linear, double angular, double element);
  void set_element_enabled(int group, int index, bool enabled);
  void set_group_calculation(int group, int method, double damping, int max_iterations);
  void set_group_flags(int group, int flags);

  // ---- kinematics and solving (jacobian.cpp, solver.cpp, config_search.cpp, chain_solve.cpp) --
  // world pose of the object's full frame (including its own intrinsic motion)
  Pose full_pose(int handle) const;
  // builds the group's columns, rows, J (analytic) and linearised error e toward the targets
  // interpolated by `interpolation` (1 = the targets themselves). False if the group has no
  // valid element (no active element with a target and at least one IK joint).
  // jacobian_only: skip the error and tolerance (sys.e, row types and distances are not set)
  bool evaluate_group(int group, double interpolation, GroupSystem& sys,
                      bool jacobian_only = false) const;
  // sets the group's column joints (1-DoF only) from q (one value per column, finite), with
  // limits and dependents, as set_joint_position does
  void set_column_positions(int group, const double* q);
  // the group's column layout (joint handle and axis per column), from the structure cache
  const GroupSystem& group_structure(int group);
  // handle_ik_group: returns the calculation flags (kCalc*), `result` the seed's result code.
  // kHandleAll handles every enabled group in turn, each on its own.
  int handle_group(int group, int* result);
  // several groups resolved together (Coppelia's ikHandleGroups): each group's step acts in the
  // null space of the groups listed before it, dq = dq0 + N0 (dq1 + N1 (...)), N = I - J# J;
  // the first group's iterations and flags drive the loop; disabled groups are skipped
  int handle_groups(const std::vector<int>& groups, int* result);
  // compute_jacobian: stores J (columns scaled by joint weights when options & 1) and e
  bool compute_jacobian(int group, int options);
  // configuration search (the seed's ikGetConfigForTipPose): 1 found, 0 not found
  int config_for_tip_pose(int group, const std::vector<int>& joints,
                          const ConfigSearchOptions& options, std::vector<double>& out);
  // the recommended one-call solve of a single-element chain group toward a world target pose
  SolveResult solve(int group, const Pose& target, const std::vector<double>* q_start,
                    const SolveOptions& options);

  JointSnapshot snapshot() const;
  void restore(const JointSnapshot& s);

  // ---- serialization (serialization.cpp): the kinematic-content format of semantics.md §B8 --
  std::vector<unsigned char> save() const;
  void load(const unsigned char* data, size_t size);  // the environment must be empty

  // set by the Python bindings while a compute call runs with the GIL released; every other
  // binding refuses to touch a busy environment (no data race from another thread or callback)
  bool busy = false;
  // called every kPollEvery iterations of the long loops (resolution, solve, configuration
  // search) when set: the Python bindings check for Ctrl-C there and throw to abandon the
  // computation, which then puts the joints back where the call found them
  std::function<void()> poll;
  static constexpr unsigned kPollEvery = 1024;
  void tick() {
    if (poll && ++ticks_ % kPollEvery == 0) poll();
  }

  Rng& rng() { return rng_; }
  GroupSystem& scratch() { return scratch_; }
  // structure version: bumped by every change that alters columns, rows or the hierarchy
  uint64_t structure_version() const { return structure_version_; }
  void touch() {
    ++structure_version_;
    ++pose_version_;
  }
  // bumped by every change of an object's local pose (and by touch())
  uint64_t pose_version() const { return pose_version_; }
  bool empty() const { return objects_.empty() && groups_.empty(); }

  // internal helpers shared by the .cpp files
  int slot(int handle) const;  // -1 if absent
  Object& object_mut(int handle);
  JointData& joint_mut(int handle);
  bool is_ancestor(int ancestor, int handle) const;  // strict
  int ultimate_master(int joint) const;
  void apply_joint_delta(int joint, int axis, double delta);  // used by the solvers
  void set_position_raw(int joint, double position);  // clamp/wrap, then drive dependents

 private:
  void rebuild_slots();
  void propagate_dependents(int master);
  int group_slot(int handle) const;

  std::vector<Object> objects_;     // creation order
  std::vector<int> slot_of_handle_;  // handle -> index in objects_ or -1
  std::vector<Group> groups_;       // creation order
  int next_object_handle_ = 0;
  int next_group_handle_ = 0;
  Rng rng_;
  uint64_t structure_version_ = 0;
  uint64_t pose_version_ = 0;
  unsigned ticks_ = 0;  // iterations counted by tick()
  GroupSystem scratch_;  // reused by compute_jacobian/handle_group/solve: no steady-state allocation
  std::vector<GroupSystem> multi_scratch_;  // handle_groups: the systems of the 2nd, 3rd... group
  GroupSystem union_scratch_;               // handle_groups: the union column layout
};

}  // namespace torsion::ik
