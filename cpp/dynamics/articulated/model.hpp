// The model of an articulated system (a kinematic tree of rigid bodies), compiled once from a
// description (URDF, io/urdf_build.cpp) and immutable afterwards, and the per-system data that
// the algorithms (kinematics.cpp, crba.cpp, rnea.cpp) fill. Algorithms are free functions
// f(const ArticulatedModel&, ArticulatedData&, ...), as in Pinocchio and MuJoCo.
//
// Conventions (DESIGN.md):
//   gc = [x y z qw qx qy qz, joints...] with a floating base, [joints...] with a fixed base;
//   gv = [v (world), omega (world), joint rates...]. v is the velocity of the root body's origin.
//   Per joint, gc/gv sizes: fixed 0/0, revolute and prismatic 1/1, spherical 4/3, floating 7/6.
//   A spherical joint's gc is the quaternion (w, x, y, z) of the child frame in the joint frame;
//   its gv is the relative angular velocity expressed in the CHILD body frame (as Pinocchio and
//   RaiSim's maintainers do), and its position update is q <- q * exp(dt omega).
//
// Bodies: links rigidly attached by fixed joints are merged into one body (their inertias
// combined); each body is the child of one joint that owns dofs (or the root). Bodies are in
// topological order: parent index < own index. Every URDF joint (fixed ones too) gives a frame
// named after it at its child link's origin; a floating or fixed root also gives the frame "ROOT".
// Each frame also remembers that link's name: frames are found by joint or by link name (a link
// merged into its parent's body by a fixed joint keeps its own frame).
//
// Mimic joints (URDF <mimic>): a revolute or prismatic joint whose coordinate is
// multiplier * q_master + offset, with the master a revolute or prismatic joint that owns its dof.
// The model is in reduced coordinates: a mimic joint owns no gc and no gv entry (gc and gv hold
// the independent coordinates only, as in Pinocchio's mimic models). Its body still has a motion
// column: the algorithms work on "columns" (one per dof of every ordinary joint, one per mimic
// joint; data.S is 6 x ncol) and map column c to the reduced dof col_dof[c] with the weight
// col_weight[c] (1, or the multiplier), i.e. with G, the ncol x nv matrix of the map from reduced
// to full velocities: M = G^T M_full G, h = G^T h_full, J = J_full G. Without mimic joints
// columns and dofs coincide (col_dof[c] = c, weight 1).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "dynamics/articulated/spatial.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"
#include "math/types.hpp"

namespace torsion {

enum class JointType : std::uint8_t {
  kFixed = 0,
  kRevolute = 1,  // also URDF "continuous" (no limits)
  kPrismatic = 2,
  kSpherical = 3,  // torsion extension to URDF
  kFloating = 4,   // only as the root joint
};

const char* joint_type_name(JointType type);
int joint_gc_size(JointType type);
int joint_gv_size(JointType type);


struct ArticulatedBody {
  std::string name;        // the URDF link that is the child of the body's joint
  int parent = -1;         // parent body index; -1 = the world
  std::string joint_name;  // "ROOT" for a floating or fixed root without a URDF world link
  JointType joint_type = JointType::kFixed;
  Pose joint_placement;      // joint frame in the parent body frame (world if parent < 0)
  Vec3 axis = Vec3::UnitZ();      // unit joint axis in the joint (= child) frame
  int gc_index = 0, gc_size = 0;  // its slice of gc
  int gv_index = 0, gv_size = 0;  // its slice of gv
  int col_index = 0, col_size = 0;  // its motion columns in data.S (gv_size, or 1 for a mimic)
  // a mimic joint: the body of the joint it mimics (set by the builder), and q = multiplier *
  // q_master + offset; mimic_dof/mimic_gc (the master's gv/gc index) are derived by finalize()
  int mimic_body = -1;  // -1: an ordinary joint
  double mimic_multiplier = 1.0, mimic_offset = 0.0;
  int mimic_dof = -1, mimic_gc = -1;
  bool is_mimic() const { return mimic_body >= 0; }
  // derived by finalize(), for fast kinematics
  bool placement_rotation_is_identity = false;
  bool inertia_is_diagonal = false;  // off-diagonal entries of `inertia` all zero
  int axis_index = -1;      // 0, 1, 2 when the axis is +-x, +-y, +-z; -1 otherwise
  double axis_sign = 1.0;   // the sign of that axis
  // mass properties of the merged body, in the body frame
  double mass = 0.0;            // kg
  Vec3 com = Vec3::Zero();      // m
  Mat3 inertia = Mat3::Zero();  // about the COM (kg m^2)
};

// a named frame rigidly attached to a body
struct ArticulatedFrame {
  std::string name;
  std::string link;  // the link whose origin it is (the joint's child link), "" if none
  int body = 0;
  Pose placement;  // frame in its body's frame
  JointType joint_type = JointType::kFixed;  // the URDF joint that defines it
};

struct LinkCollision {  // a primitive collision shape attached to a body
  std::string name;     // "<link>/<index>" unless the URDF names it
  int body = 0;
  Shape shape;          // sphere, box, cylinder or capsule (axis along the shape's z)
  Pose placement;  // shape frame in its body's frame
  bool placement_rotation_is_identity = false;  // derived by finalize()
};

struct VisualBody {  // kept for viewers only; never simulated
  enum class Kind : std::uint8_t { kBox, kSphere, kCylinder, kCapsule, kMesh };
  std::string name;
  int body = 0;
  Kind kind = Kind::kBox;
  Vec3 size = Vec3::Zero();   // box lengths (m); sphere/cylinder/capsule: (radius, length, 0)
  std::string mesh_path;      // resolved against res_path
  Vec3 mesh_scale = Vec3::Ones();
  Vec4 rgba = Vec4(0.7, 0.7, 0.7, 1.0);
  std::string material;
  Pose placement;
};

// Per-dof joint properties from the URDF (gv-sized vectors in ArticulatedModel).
constexpr double kNoLimit = std::numeric_limits<double>::infinity();

class ArticulatedModel {
 public:
  std::vector<ArticulatedBody> bodies;    // topological order
  std::vector<ArticulatedFrame> frames;   // one per URDF joint, plus "ROOT"
  std::vector<LinkCollision> collisions;
  std::vector<VisualBody> visuals;
  std::vector<std::string> movable_joints;  // joints owning dofs, in gv order
  int nq = 0;  // gc dimension
  int nv = 0;  // gv dimension (dof)
  bool floating_base = false;

  // per dof (size nv): URDF limits and dynamics. Lower/upper are -inf/+inf without limits (and
  // for spherical and floating dofs); effort and velocity limits are +inf when not given.
  VecX lower, upper, effort_limit, velocity_limit, damping, friction;
  // per dof (size nv): rotor inertia added to the mass matrix's diagonal (MJCF's armature, as
  // MuJoCo adds it); zero from URDF
  VecX armature;
  bool has_armature = false;  // derived by finalize()
  // per dof (size nv, or empty: every limit hard): a soft joint limit as MuJoCo's (MJCF's
  // solreflimit / solimplimit), or a hard one (soft = false). contact/joint_rows.hpp.
  struct LimitSoftness {
    bool soft = false;
    double solref[2] = {0.02, 1.0};                      // timeconst, dampratio (or -k, -b)
    double solimp[5] = {0.9, 0.95, 0.001, 0.5, 2.0};     // dmin, dmax, width, midpoint, power
  };
  std::vector<LimitSoftness> limit_softness;
  // per body (or empty: bodies[b].parent): the body whose shapes do_not_collide_with_parent
  // keeps from touching b's. MJCF: the body of the parent MJCF body, past the massless chain of
  // a body with several joints (MuJoCo's parent filter); -1 for none
  std::vector<int> collision_parent;

  // motion columns (see the header comment), derived by finalize()
  int ncol = 0;
  bool has_mimic = false;
  std::vector<int> col_parent;     // the previous column on the path to the root, -1 at the root
  std::vector<int> col_body;       // body owning each column
  std::vector<int> col_dof;        // the reduced dof each column moves with
  std::vector<double> col_weight;  // its rate is col_weight * u[col_dof]
  std::vector<int> body_last_col;  // last column on the path from a body to the root (own
                                   // columns included), -1 if none
  // Sparsity pattern of the factorisation, at the dof level, derived by finalize(). Without
  // mimic joints it is the tree (dof_parent = the previous dof on the path to the root, -1 at
  // the root). A mimic couples its master with every dof on the mimic's path, which breaks the
  // tree pattern: models with mimic joints use the dense pattern (dof_parent[k] = k - 1), so
  // the same L^T D L code is a dense factorisation of the (small) reduced matrix.
  std::vector<int> dof_parent;
  std::vector<int> dof_body;    // body owning each dof
  int max_depth = 0;
  // the gc index of every quaternion (floating base: gc_index + 3; spherical: gc_index) and
  // the body whose joint it belongs to, in body order
  std::vector<int> quaternion_gc, quaternion_body;
  // the pattern ancestors of every dof, nearest first, as one flat array: those of dof k are
  // dof_ancestors[dof_ancestor_start[k] .. dof_ancestor_start[k + 1]). The ancestors of an
  // ancestor i of k are the tail of k's list after i, which the factorisation exploits.
  std::vector<int> dof_ancestors, dof_ancestor_start;

  // derives the dof-level structure and validates the model (std::invalid_argument)
  void finalize();

  // -1 if none; a joint (frame) name first, then a link name
  int find_frame(const std::string& name) const;
  int find_body(const std::string& name) const;   // -1 if none
  double total_mass() const;
  VecX neutral_gc() const;  // zero joints, identity quaternions, base at the origin
};

// Per-system data: state and everything the algorithms compute. Sized once by the constructor;
// no algorithm allocates afterwards.
struct ArticulatedData {
  explicit ArticulatedData(const ArticulatedModel& model);

  VecX q;  // gc (nq)
  VecX u;  // gv (nv)

  // kinematics (update_kinematics)
  Vec3 ref = Vec3::Zero();              // the reference point O of the spatial quantities (world)
  std::vector<Mat3> body_rotation;      // body frame -> world
  std::vector<Vec3> body_position;      // body frame origin, world (m)
  Eigen::Matrix<double, 6, Eigen::Dynamic> S;  // joint motion columns (6 x ncol), world, about ref
  std::vector<SpatialInertia> inertia;  // per body, world, about ref (update_inertias)
  bool kinematics_valid = false;
  bool inertias_valid = false;

  // velocities (update_velocities / rnea)
  std::vector<Vec6> body_velocity;      // (omega, v_ref) per body
  std::vector<Vec6> body_acceleration;  // scratch of RNEA
  std::vector<Vec6> body_force;         // scratch of RNEA
  std::vector<SpatialInertia> composite;  // scratch of CRBA

  MatX mass_matrix;  // M (nv x nv), crba()
  // M's entries on the dof ancestor chains, packed like factor_l: mass_packed[t] for t in
  // [dof_ancestor_start[k], dof_ancestor_start[k + 1]) is M(k, dof_ancestors[t]); written by
  // crba() beside mass_matrix, read by factorize() (which thus factorises crba()'s M)
  VecX mass_packed;
  VecX nonlinear;    // h (nv), nonlinear_effects()
  // LTDL factorisation (factorize()) A = L^T D L, L unit lower triangular with non-zeros only
  // on the dof ancestor chains. Packed like model.dof_ancestors: factor_l[t] for t in
  // [dof_ancestor_start[k], dof_ancestor_start[k + 1]) is L(k, dof_ancestors[t]).
  VecX factor_l;
  VecX factor_d;     // D (nv)
  VecX factor_dinv;  // 1 / D (nv): the solves multiply
  bool factor_valid = false;
};

}  // namespace torsion
