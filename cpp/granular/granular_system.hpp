// A granular medium stepped as one object: RaiSim's GranularSystem, a discrete element method
// (DEM) over spheres that may overlap slightly.
//
// Contact law between two particles (and between a particle and a wall), per contact:
// - normal: Hertz, F = k d^(3/2) - c d^(1/4) v_n with k = 4/3 E* sqrt(R*) and the damping
//   c = gamma sqrt(m* k); gamma is found from the coefficient of restitution e by solving the
//   contact's dimensionless equation (for this law e does not depend on the impact speed). The
//   force is never attractive (clamped at 0).
// - tangential: Mindlin's spring with history, k_t = 8 G* sqrt(R* d), plus damping of the same
//   form as the normal's, capped by Coulomb's law |F_t| <= mu F_n (the spring then slips).
// - rolling resistance: a spring on the relative rolling angle, k_r = 2.25 mu_r^2 k_n' R*^2
//   (k_n' the normal contact stiffness dF/dd), capped at mu_r R* F_n (Ai, Chen, Rotter & Ooi
//   2011, model C without its damper).
// Effective values: 1/R* = 1/r_i + 1/r_j, 1/m* = 1/m_i + 1/m_j, 1/E* = (1-nu_i^2)/E_i +
// (1-nu_j^2)/E_j, 1/G* = 2(2-nu_i)(1+nu_i)/E_i + 2(2-nu_j)(1+nu_j)/E_j; sliding and rolling
// friction and restitution of a pair of materials are the means of the two. A wall is rigid
// (infinite radius and mass, its modulus infinite: E* = E_i / (1 - nu_i^2)).
//
// Time stepping: symplectic Euler in substeps no longer than a fifth of the smallest particle's
// Rayleigh time (the time a surface wave crosses it), so that the stiffest contact is resolved,
// and no longer than the springs and translational dashpots of the contacts touching at the start
// of the step allow (a Gershgorin bound per particle, see step_substeps). The tangential and
// rolling dashpots' pull on a particle's own spin is integrated implicitly (see substep).
//
// Neighbours: a Verlet list of the pairs closer than r_i + r_j + skin, rebuilt when a particle has
// moved skin / 2 since it was built (see rebuild_list).
//
// Determinism: each contact's force is computed once, by the lower-indexed particle of the pair,
// and summed into both particles in a fixed order (the touching pairs a particle owns, then those
// it takes part in, each in index order), so the result is bitwise the same whatever the number
// of threads, and whatever pairs within the skin the list holds besides the touching ones.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/ids.hpp"
#include "geometry/aabb.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"
#include "math/types.hpp"

namespace torsion {

struct GranularMaterial {
  double density = 2600.0;         // kg/m^3 (quartz sand)
  double youngs_modulus = 5e7;     // Pa; DEM practice lowers it from the mineral's ~70 GPa to keep
                                   // the Rayleigh time (and so the substep) reasonable
  double poisson_ratio = 0.3;      // in [0, 0.5)
  double restitution = 0.5;        // normal coefficient of restitution, in (0, 1]
  double friction = 0.5;           // sliding (Coulomb) coefficient, >= 0
  double rolling_friction = 0.0;   // rolling resistance coefficient mu_r (dimensionless), >= 0

  void validate(const char* name) const;  // std::invalid_argument naming the bad field
};

// A rigid plane or box the particles stay inside of.
struct GranularContainer {
  bool ground = false;        // the plane z = ground_height, particles above it
  double ground_height = 0.0;
  bool box = false;           // an axis-aligned box, particles inside it
  Vec3 box_min = Vec3::Zero();
  Vec3 box_max = Vec3::Zero();
  GranularMaterial wall;      // the walls' material (friction, restitution, stiffness)
};

// One particle's push on an obstacle in one substep: the particle's centre and the force on the
// obstacle (N). A deformable terrain's soil takes these as its load (terrain/).
struct GranularPointLoad {
  Vec3 centre = Vec3::Zero();
  double radius = 0.0;
  Vec3 force = Vec3::Zero();
};

// A rigid shape the particles meet during one step (a World's collision shape, see
// granular_world.hpp), held at its pose and velocity for the whole step (explicit coupling).
// Contact law: the walls' (the particle's compliance, the wall material). The reaction on the
// shape, averaged over the step's substeps, is written into force and torque (about `origin`).
struct GranularObstacle {
  const Shape* shape = nullptr;
  Pose pose;
  Aabb bounds;                         // world bounds of the shape
  std::uint64_t key = 0;               // the same shape has the same key from step to step
  // a particle meets it iff (group & particles' mask) and (particles' group & mask)
  CollisionGroup group = 1, mask = kAllGroups;
  Vec3 origin = Vec3::Zero();          // reference point (m): a body's COM, a link's shape pose
  Vec3 velocity = Vec3::Zero();        // of the reference point (m/s)
  Vec3 angular_velocity = Vec3::Zero();  // rad/s
  Vec3 force = Vec3::Zero();           // out: the mean reaction on the shape over the step (N)
  Vec3 torque = Vec3::Zero();          // out: its moment about origin (N m)
  // out: the largest squared speed of a particle touching it during the step (m^2/s^2): what
  // decides whether the particles wake a sleeping body
  double touch_speed2 = 0.0;
  // out, optional (a deformable terrain's surface): every particle contact of every substep is
  // appended here, in substep, then particle order
  std::vector<GranularPointLoad>* point_loads = nullptr;
};

// What a granular step computed, for inspection and tests.
struct GranularStats {
  std::size_t contacts = 0;       // particle-particle contacts in the last substep
  std::size_t wall_contacts = 0;  // particle-wall contacts in the last substep
  std::size_t shape_contacts = 0;  // particle-obstacle contacts in the last substep
  Vec3 shape_force = Vec3::Zero();  // the step's mean push on all obstacles together (N)
  int substeps = 0;               // substeps of the last step
  int list_builds = 0;            // neighbour-list builds during the last step
  double max_overlap = 0.0;       // largest d / R* of the last substep
};

class GranularSystem {
 public:
  // positions (m), radii (m, > 0), one material for all: std::invalid_argument on bad input
  GranularSystem(const std::vector<Vec3>& positions, const std::vector<double>& radii,
                 const GranularMaterial& material);

  std::size_t size() const { return pos_.size(); }

  // particles
  const std::vector<Vec3>& positions() const { return pos_; }
  const std::vector<Vec3>& velocities() const { return vel_; }
  const std::vector<Vec3>& angular_velocities() const { return omega_; }
  const std::vector<double>& radii() const { return radius_; }
  const std::vector<double>& masses() const { return mass_; }
  const std::vector<std::uint32_t>& material_ids() const { return material_id_; }
  const std::vector<std::uint64_t>& stable_ids() const { return stable_id_; }
  bool is_fixed(std::size_t i) const { return fixed_[i] != 0; }

  void set_position(std::size_t i, const Vec3& p);
  void set_velocity(std::size_t i, const Vec3& v);
  void set_angular_velocity(std::size_t i, const Vec3& w);
  void set_fixed(std::size_t i, bool fixed);  // a fixed particle never moves (infinite mass)
  void set_material_id(std::size_t i, std::uint32_t id);

  // add particles with one material id; returns the index of the first
  std::size_t add_particles(const std::vector<Vec3>& positions, const std::vector<double>& radii,
                            std::uint32_t material_id = 0);
  // removes particle i: the last particle moves into i (its stable id stays with it)
  void remove_particle(std::size_t i);

  // materials: id 0 is the one given at construction
  std::uint32_t add_material(const GranularMaterial& material);
  const std::vector<GranularMaterial>& materials() const { return materials_; }
  void set_material(std::uint32_t id, const GranularMaterial& material);

  const GranularContainer& container() const { return container_; }
  void set_wall_material(const GranularMaterial& material);
  void set_ground_plane(bool enabled, double height);
  void set_box_container(bool enabled, const Vec3& lo, const Vec3& hi);

  // one step of dt under gravity g, on up to `threads` threads (1: this thread only)
  void step(double dt, const Vec3& gravity, int threads);
  // the same, with rigid obstacles held still over the step; their force and torque are written
  void step(double dt, const Vec3& gravity, int threads, std::vector<GranularObstacle>& obstacles);

  // the particles' collision group and mask against obstacles (default: group 1, every mask bit)
  CollisionGroup collision_group = 1, collision_mask = kAllGroups;
  // threads the world's granular stage steps this system on (1: the stepping thread only;
  // 0: every hardware thread); the result does not depend on it
  int num_threads = 1;
  // the substep count's factor over the stable count of the contacts' Gershgorin rows (see
  // step_substeps): substeps = max(substeps_for(dt), ceil(factor dt / h_stable)). Below 1 the
  // bound no longer guarantees stability (the rows overstate the largest eigenvalues). Saved with
  // the state. set_substep_factor throws std::invalid_argument unless finite and > 0.
  double substep_factor() const { return substep_factor_; }
  void set_substep_factor(double factor);
  static constexpr double kDefaultSubstepFactor = 1.0;

  // the full dynamic state (particles, materials, contact histories) as bytes, and back: a
  // restored system steps on bitwise as the saved one would. load_state throws
  // std::invalid_argument for bytes that are not such a state.
  void save_state(std::vector<std::uint8_t>& out) const;
  void load_state(const std::uint8_t* data, std::size_t size);
  // the substep length used for a step of dt (<= dt)
  int substeps_for(double dt) const;
  const GranularStats& stats() const { return stats_; }

  // kinetic energy (translational + rotational) and the elastic energy stored in contacts (J)
  double kinetic_energy() const;
  double contact_energy() const;

  // a contact's material constants, per pair of material ids (granular_system.cpp)
  struct Pair {
    double e_star = 0.0;     // effective Young's modulus (Pa)
    double g_star = 0.0;     // effective shear modulus (Pa)
    double gamma = 0.0;      // dimensionless damping giving the pair's restitution
    double friction = 0.0;
    double rolling = 0.0;
    double shear_damping = 0.0;  // sqrt(6 G* / E*), the tangential damping over the normal
  };
  // One contact's constants: a Pair's, the two bodies' effective values, and the square roots
  // and quotients of the force law that depend on them alone (granular_system.cpp; a particle
  // pair's are computed once per list build)
  struct ContactLaw {
    double friction, rolling;
    double shear_damping;  // sqrt(6 G* / E*): the tangential damping over the normal one
    double r_star;    // effective radius (m)
    double k;         // the Hertz stiffness 4/3 E* sqrt(R*) (F = k d^(3/2))
    double damping0;  // gamma sqrt(m* k): the normal damping over d^(1/4)
    double kt0;       // 8 G* sqrt(R*): the tangential stiffness over sqrt(d)
    double r_i;       // radius of the particle the forces are for (m)
    double i_roll;    // effective moment of inertia for rolling about the contact (kg m^2)
  };

 private:
  // A neighbour-list slot: a pair (i, j > i) closer than r_i + r_j + skin when the list was
  // built, with its contact history and, while the two touch, the contact's forces. One slot as
  // a value (a state's bytes, a restored history); the list stores them as Slots.
  struct Slot {
    Vec3 slip = Vec3::Zero();  // tangential spring extension (m)
    Vec3 roll = Vec3::Zero();  // rolling spring angle (rad)
    Vec3 force_on_i = Vec3::Zero();
    Vec3 torque_on_i = Vec3::Zero();
    Vec3 torque_on_j = Vec3::Zero();
    double energy = 0.0;
  };
  // The slots as arrays by field: the force sum reads only a touching slot's force and one
  // torque (the reverse pass: force and torque on j, together in `on_j`, one cache line), not
  // its histories, and the pair kernel streams the histories in slot order.
  struct Slots {
    struct ForceOnJ {
      Vec3 force_on_i;
      Vec3 torque_on_j;
    };
    std::vector<Vec3> slip, roll, torque_on_i;
    std::vector<ForceOnJ> on_j;
    // the tangential and rolling dashpots' coefficients of the last force (for both particles'
    // implicit spin damping; not state: recomputed with every force)
    std::vector<std::array<double, 2>> spin;
    std::vector<double> energy;
    std::size_t size() const { return slip.size(); }
    void resize(std::size_t n) {
      slip.resize(n), roll.resize(n), torque_on_i.resize(n), on_j.resize(n), energy.resize(n);
      spin.resize(n);
    }
    void clear() { resize(0); }
    void swap(Slots& o) {
      slip.swap(o.slip), roll.swap(o.roll), torque_on_i.swap(o.torque_on_i), on_j.swap(o.on_j);
      energy.swap(o.energy), spin.swap(o.spin);
    }
    Slot get(std::size_t s) const {
      return Slot{slip[s], roll[s], on_j[s].force_on_i, torque_on_i[s], on_j[s].torque_on_j,
                  energy[s]};
    }
    void set(std::size_t s, const Slot& c) {
      slip[s] = c.slip, roll[s] = c.roll, torque_on_i[s] = c.torque_on_i;
      on_j[s] = ForceOnJ{c.force_on_i, c.torque_on_j}, energy[s] = c.energy;
    }
    void copy(std::size_t s, const Slots& o, std::size_t k) {
      slip[s] = o.slip[k], roll[s] = o.roll[k], torque_on_i[s] = o.torque_on_i[k];
      on_j[s] = o.on_j[k], energy[s] = o.energy[k];
    }
    void push_back(const Slot& c) {
      resize(size() + 1);
      set(size() - 1, c);
    }
  };
  struct ShapeContact {  // a particle's contact with an obstacle, with its history
    std::uint64_t key = 0;
    std::uint32_t obstacle = 0;  // index in this step's obstacle list
    Vec3 slip = Vec3::Zero();
    Vec3 roll = Vec3::Zero();
    Vec3 force = Vec3::Zero();   // on the obstacle
    Vec3 torque = Vec3::Zero();  // on the obstacle, about its origin
    double depth = 0.0;          // the overlap (m), for the next step's substep count
  };
  struct WallContact {
    Vec3 slip = Vec3::Zero();
    Vec3 roll = Vec3::Zero();
    bool active = false;
  };
  static constexpr int kWalls = 7;  // ground, then the box's -x, +x, -y, +y, -z, +z

  // one substep of h; last: the step's last one, whose statistics the step keeps (the contacts'
  // overlaps d / R*, a quotient per contact, are computed only then)
  void substep(double h, const Vec3& gravity, int threads,
               std::vector<GranularObstacle>* obstacles, bool last);
  // the substeps a step of dt needs: substeps_for(dt), or more when the springs and translational
  // dashpots of the contacts touching now need a shorter substep (see the definition)
  int step_substeps(double dt, int threads);
  // rebuilds the Verlet list if it is stale (some particle moved skin_ / 2 since its build)
  void refresh_list(int use);
  void find_obstacle_candidates(const std::vector<GranularObstacle>& obstacles);
  void collide_obstacles(std::size_t i, double h, const std::vector<GranularObstacle>& obstacles,
                         Vec3& force, Vec3& torque, double& spin_damping);
  void build_grid();
  // the Verlet list: every pair closer than r_i + r_j + skin_, histories carried over by the
  // partner's stable id; rebuilt when a particle moved more than skin_ / 2 since the last build
  void rebuild_list(int threads);
  // each slot's contact constants (nb_law_, nb_reach_) from the particles and materials
  void update_slot_laws(int use);
  // the walls of the container (ground, then the box's -x, +x, -y, +y, -z, +z) as planes
  // m.x = offset, m pointing into the particles' side
  struct WallPlane {
    bool on;
    Vec3 m;
    double offset;
  };
  int collide_walls(std::size_t i, double h, const WallPlane* planes, Vec3& force, Vec3& torque,
                    double& spin_damping);
  const Pair& pair(std::uint32_t a, std::uint32_t b) const;
  void rebuild_pairs();
  void check_index(std::size_t i, const char* what) const;

  std::vector<Vec3> pos_, vel_, omega_;
  // each particle's last substep's change of spin (the spin's implicit share, substep)
  std::vector<Vec3> spin_step_;
  std::vector<double> radius_, mass_, inv_mass_, inv_inertia_;
  std::vector<std::uint32_t> material_id_;
  std::vector<std::uint64_t> stable_id_;
  std::vector<std::uint8_t> fixed_;
  std::uint64_t next_stable_id_ = 0;

  std::vector<GranularMaterial> materials_;
  std::vector<Pair> pairs_;  // materials_.size()^2, plus one per material against the walls

  GranularContainer container_;

  // The Verlet list (CSR by owner i: slots nb_start_[i] .. nb_start_[i + 1], partners j > i
  // in increasing order): nb_j_ the partner, nb_partner_ its stable id, nb_ history and forces.
  // rev_start_ / rev_: for each j, the slots (owners i < j, in increasing order) naming it.
  // nb_touch_: 1 while the pair overlaps (kept apart from nb_ so that the passes over the slots
  // read a byte per pair that does not touch, not a slot)
  std::vector<std::uint32_t> nb_start_, nb_j_;
  std::vector<std::uint64_t> nb_partner_;
  Slots nb_;
  std::vector<std::uint8_t> nb_touch_;
  // per slot, its pair's contact constants and r_i + r_j (not state: they follow from the
  // particles and materials; recomputed at each list build, and before the next substep after a
  // material or mass changed: laws_stale_)
  std::vector<ContactLaw> nb_law_;
  std::vector<double> nb_reach_;
  // per particle, its contact constants against the container's walls (computed with the slots')
  std::vector<ContactLaw> wall_law_;
  bool laws_stale_ = false;
  std::vector<std::uint32_t> rev_start_, rev_fill_, rev_;
  std::vector<Vec3> list_pos_;  // positions when the list was built
  double skin_ = 0.0;
  bool list_built_ = false;  // false: the list (if any) is only a history to carry over
  // per-particle scratch of a rebuild (kept for capacity); per block of particles, a substep's
  // touching pairs and wall contacts and its largest overlap d / R* (the step's statistics)
  std::vector<std::vector<std::uint32_t>> scratch_;
  std::vector<std::size_t> block_contacts_, block_wall_contacts_;
  std::vector<double> block_overlap_;
  // a substep's touching slots (per block, in slot order, from the block's first slot on), their
  // owners and overlaps d / R*: the pair kernel's work list
  std::vector<std::uint32_t> pair_list_, pair_owner_;
  std::vector<double> pair_overlap_;
  // per block of particles, the largest squared displacement since the list was built, as the
  // last substep's integration left it (moved_known_; false once anything else moved them)
  std::vector<double> block_moved_;
  std::vector<double> block_rate_;  // step_substeps' scratch: each particle's stiffness row
  // step_substeps' scratch: per slot, the rows of its partner j (stiffness, damping)
  std::vector<std::array<double, 2>> slot_rows_;
  // step_substeps' scratch: each particle's Gershgorin row of the translational damping
  std::vector<double> damp_rate_;
  std::vector<double> obstacle_spin_;  // a substep's obstacle dashpots on each particle's spin
  bool moved_known_ = false;
  std::vector<Vec3> obstacle_force_, obstacle_torque_;  // a substep's obstacle push per particle
  // the previous list while a new one is built (kept for capacity)
  std::vector<std::uint32_t> old_start_, old_j_;
  std::vector<std::uint64_t> old_partner_;
  Slots old_nb_;
  std::vector<std::uint8_t> old_touch_;
  std::vector<std::array<WallContact, kWalls>> walls_;
  std::vector<std::uint8_t> wall_active_;  // bit k: walls_[i][k] holds a history
  std::vector<double> wall_energy_;
  // obstacle contacts per particle (kept from substep to substep) and the next ones; the
  // candidate obstacles of each particle from the grid (cand_start_, cand_)
  std::vector<std::vector<ShapeContact>> shape_contacts_, shape_fresh_;
  std::vector<std::uint32_t> cand_start_, cand_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> cand_pairs_;

  // the uniform grid of the neighbour search (cell size: the largest diameter)
  double cell_ = 0.0;
  Vec3 grid_min_ = Vec3::Zero();
  int nx_ = 0, ny_ = 0, nz_ = 0;
  std::vector<std::uint32_t> cell_start_, cell_particles_;
  std::vector<std::int64_t> particle_cell_;

  GranularStats stats_;
  // the smallest Rayleigh time (s) of the particles, for substeps_for; < 0: not known (the radii
  // or materials changed since)
  mutable double rayleigh_min_ = -1.0;
  double substep_factor_ = kDefaultSubstepFactor;
};

}  // namespace torsion
