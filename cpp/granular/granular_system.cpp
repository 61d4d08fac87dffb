#include "granular/granular_system.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "batch/thread_pool.hpp"
#include "collision/narrow_phase.hpp"
#include "core/check.hpp"
#include "deformable/lanes.hpp"

#if TORSION_LANES_AVX2
#include <immintrin.h>
#endif

namespace torsion {

namespace {

constexpr double kPiG = EIGEN_PI;

// The contact law runs once per touching pair per substep, from three callers (pairs, walls,
// obstacles); with them GCC kept contact_force and into_plane out of line, so every pair paid two
// calls and returned its forces through memory. Inlining is forced where the compiler allows it.
#if defined(__GNUC__) || defined(__clang__)
#define TORSION_GRANULAR_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define TORSION_GRANULAR_INLINE __forceinline
#else
#define TORSION_GRANULAR_INLINE inline
#endif

// a hint to fetch the cache line holding p (results never depend on it)
#if defined(__GNUC__) || defined(__clang__)
#define TORSION_GRANULAR_PREFETCH(p) __builtin_prefetch(p)
#else
#define TORSION_GRANULAR_PREFETCH(p) ((void)(p))
#endif

// The restitution of the dimensionless Hertz contact u'' = -(u^(3/2) + gamma u^(1/4) u'),
// u(0) = 0, u'(0) = 1, the force never attractive: every Hertz contact with damping
// c = gamma sqrt(m* k) d^(1/4) reduces to it (time scaled by sqrt(m*/(k sqrt(L))), overlap by L
// chosen so the impact speed is 1), so its restitution depends on gamma alone.
double hertz_restitution(double gamma) {
  double u = 0.0, v = 1.0;
  const double h = 1e-3;
  auto accel = [gamma](double x, double xd) {
    if (x <= 0.0) return 0.0;
    const double f = std::pow(x, 1.5) + gamma * std::pow(x, 0.25) * xd;
    return f > 0.0 ? -f : 0.0;
  };
  for (int it = 0; it < 200000; ++it) {  // RK4 until the overlap closes
    const double k1u = v, k1v = accel(u, v);
    const double k2u = v + 0.5 * h * k1v, k2v = accel(u + 0.5 * h * k1u, v + 0.5 * h * k1v);
    const double k3u = v + 0.5 * h * k2v, k3v = accel(u + 0.5 * h * k2u, v + 0.5 * h * k2v);
    const double k4u = v + h * k3v, k4v = accel(u + h * k3u, v + h * k3v);
    u += h / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
    v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    if (u <= 0.0 && v < 0.0) break;
  }
  return std::max(0.0, -v);
}

// gamma for a restitution e in (0, 1] (bisection: the restitution falls as gamma grows)
double damping_for_restitution(double e) {
  if (e >= 1.0) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (hertz_restitution(hi) > e) hi *= 2.0;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    (hertz_restitution(mid) > e ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// the tangent plane's part of v, keeping its length (a history vector carried into a new plane)
TORSION_GRANULAR_INLINE Vec3 into_plane(const Vec3& v, const Vec3& n) {
  const double lv2 = v.squaredNorm();
  if (lv2 == 0.0) return Vec3::Zero();  // (a new contact: nothing to carry)
  const Vec3 t = v - v.dot(n) * n;
  const double lt2 = t.squaredNorm();
  return lt2 > 1e-300 ? Vec3(t * std::sqrt(lv2 / lt2)) : Vec3(Vec3::Zero());
}

// The forces of one contact of particle i (radius r_i, centre x_i) with a body whose surface
// point velocity at the contact is v_other, along n from i towards the other body, with overlap
// d > 0. Updates the slip and roll histories; returns the force on i and the torque on i about
// its centre; `rolling_torque` is the rolling resistance torque on i (the other body gets minus).
// the constants of one contact (a particle pair's computed once per list build, see
// GranularSystem::update_slot_laws)
using ContactConstants = GranularSystem::ContactLaw;

// the constants of a contact of the pair of materials p with effective radius r_star and mass
// m_star, for a particle of radius r_i, rolling inertia i_roll
ContactConstants contact_constants(const GranularSystem::Pair& p, double r_star, double m_star,
                                   double r_i, double i_roll) {
  ContactConstants c;
  c.friction = p.friction, c.rolling = p.rolling, c.shear_damping = p.shear_damping;
  c.r_star = r_star;
  const double sqrt_r = std::sqrt(r_star);
  c.k = 4.0 / 3.0 * p.e_star * sqrt_r;
  c.damping0 = p.gamma * std::sqrt(m_star * c.k);
  c.kt0 = 8.0 * p.g_star * sqrt_r;
  c.r_i = r_i;
  c.i_roll = i_roll;
  return c;
}

// a particle (radius r, mass m) against a rigid, immovable surface: a wall or a world shape
ContactConstants rigid_contact_constants(const GranularSystem::Pair& p, double r, double m) {
  // about the contact point: I + m r^2
  return contact_constants(p, r, m, r, 1.4 * m * r * r);
}

struct ContactForce {
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
  Vec3 rolling_torque = Vec3::Zero();
  double energy = 0.0;
  // the tangential and rolling dashpots' coefficients as this force used them (the tangential
  // times the share of it the Coulomb cap let through, the rolling likewise under its limit):
  // what pulls on the particle's own spin, integrated implicitly (GranularSystem::substep)
  double ct = 0.0, cr = 0.0;
};

TORSION_GRANULAR_INLINE ContactForce contact_force(const ContactConstants& c, double d,
                                                   const Vec3& n, const Vec3& v_rel,
                                                   const Vec3& omega_rel, double h, Vec3& slip,
                                                   Vec3& roll) {
  ContactForce out;
  const double sqrt_d = std::sqrt(d);
  const double k = c.k;
  const double d14 = std::sqrt(sqrt_d);
  const double approach = -v_rel.dot(n);  // > 0 closing
  // the normal damping gamma sqrt(m* k) d^(1/4); the tangential one has the tangential
  // stiffness's 8 G* sqrt(R*) for k: the same times sqrt(6 G* / E*) (the pair's shear_damping)
  const double damping = c.damping0 * d14;
  double fn = k * d * sqrt_d + damping * approach;
  if (fn < 0.0) fn = 0.0;
  out.force = -fn * n;
  out.energy = 0.4 * k * d * d * sqrt_d;
  // tangential: the spring follows the relative slip of the other surface against i's
  const Vec3 vt = v_rel - v_rel.dot(n) * n;
  slip = into_plane(slip, n) + h * vt;
  const double kt = c.kt0 * sqrt_d;
  const double ct = damping * c.shear_damping;
  // the Coulomb cap, kept passive: the spring alone slips back to the cap (a return mapping: its
  // energy only falls), then the dashpot adds at most what keeps the total within the cap. The
  // dashpot force is never stored in the spring (storing the capped total, dashpot included, as
  // the spring's extension turns dissipation into elastic energy that later pushes back).
  const double cap = c.friction * fn;
  const double spring2 = kt * kt * slip.squaredNorm();
  if (spring2 > cap * cap) slip *= cap / std::sqrt(spring2);
  const Vec3 fs = kt * slip, fd = ct * vt;
  Vec3 ft = fs + fd;
  out.ct = ct;
  if (ft.squaredNorm() > cap * cap) {
    // the largest beta in [0, 1] with |fs + beta fd| = cap (|fs| <= cap, so it exists)
    const double a = fd.squaredNorm(), bh = fs.dot(fd), cc = fs.squaredNorm() - cap * cap;
    const double beta = a > 0.0 ? (-bh + std::sqrt(std::max(0.0, bh * bh - a * cc))) / a : 0.0;
    const double used = std::min(1.0, std::max(0.0, beta));
    ft = fs + used * fd;
    out.ct = used * ct;
  }
  out.force += ft;
  out.energy += 0.5 * kt * slip.squaredNorm();
  out.torque = c.r_i * n.cross(ft);
  // rolling resistance: a spring on the relative rolling angle (no twist), capped
  if (c.rolling > 0.0) {
    const Vec3 w = omega_rel - omega_rel.dot(n) * n;
    roll = into_plane(roll, n) + h * w;
    const double kn_tangent = 1.5 * k * sqrt_d;
    const double kr = 2.25 * c.rolling * c.rolling * kn_tangent * c.r_star * c.r_star;
    // below the limit the spring is damped at 0.3 of critical (its rocking would last for ever
    // otherwise); at the limit the torque is the limit, without damping
    const double mcap = c.rolling * c.r_star * fn;
    const double roll2 = roll.squaredNorm();
    Vec3 mr;
    if (kr * kr * roll2 > mcap * mcap) {  // the spring slips back to the limit
      roll *= mcap / (kr * std::sqrt(roll2));
      mr = -kr * roll;
    } else {
      const double cr = 0.3 * 2.0 * std::sqrt(c.i_roll * kr);
      mr = -kr * roll - cr * w;
      out.cr = cr;
      const double mr2 = mr.squaredNorm();
      if (mr2 > mcap * mcap) {
        const double scale = mcap / std::sqrt(mr2);
        mr *= scale;
        out.cr = scale * cr;
      }
    }
    out.rolling_torque = mr;
    out.energy += 0.5 * kr * roll.squaredNorm();
  } else {
    roll.setZero();
  }
  return out;
}

// ---- The particle-pair law four contacts at a time ----
//
// The same operations as contact_force above (the walls' and obstacles' law), in the same order,
// on four touching particle pairs at once (one per lane of lanes::D4, structure of arrays), so that the results
// are bitwise those of the scalar law: every product and sum is the same IEEE operation (no FMA:
// the build turns contraction off; a vector square root and quotient are correctly rounded as
// the scalar ones), Eigen's 3-vector reductions sum (x + y) + z, and each branch of the scalar
// law is computed on every lane and picked by a mask (apart slots are filtered out before).
// Built three times, for the baseline target, for AVX2 and for AVX-512VL (the same 256-bit
// vectors, with 32 registers instead of 16: the AVX2 build kept about a sixth of its instructions
// spilling and reloading the law's live vectors), picked at run time (use_pair_avx512,
// lanes::use_avx2; the environment variable TORSION_NO_AVX512 leaves the AVX2 build,
// TORSION_NO_AVX2 forces the baseline one).

using lanes::D4;

#if TORSION_LANES_AVX2
// One AVX square root of four lanes (correctly rounded, as std::sqrt): lanes::sqrt's two SSE2
// halves round-trip through the stack in an AVX2 build (two 16-byte stores read back as one
// 32-byte value, which store forwarding does not serve), which stalled the kernel
TORSION_LANES_AVX2_TARGET TORSION_GRANULAR_INLINE D4 sqrt_avx(D4 a) {
  __m256d v;
  std::memcpy(&v, &a, sizeof(v));
  v = _mm256_sqrt_pd(v);
  std::memcpy(&a, &v, sizeof(a));
  return a;
}
#endif

// Where the pair kernel reads and writes (the GranularSystem's arrays; Vec3 as 3 doubles)
struct PairArrays {
  const double* pos;
  const double* vel;
  const double* omega;
  const double* radius;
  const std::uint32_t* nb_j;
  const GranularSystem::ContactLaw* law;
  const double* reach;
  double* slip;         // 3 per slot
  double* roll;         // 3 per slot
  double* torque_on_i;  // 3 per slot
  double* on_j;         // 6 per slot: the force on i, then the torque on j
  double* energy;       // 1 per slot
  double* spin;         // 2 per slot
};

namespace pair_base {
#define TORSION_PAIR_FN TORSION_GRANULAR_INLINE
#define TORSION_PAIR_SQRT lanes::sqrt
#include "granular/pair_lanes.inc"
#undef TORSION_PAIR_FN
#undef TORSION_PAIR_SQRT
}  // namespace pair_base

#if TORSION_LANES_AVX2
namespace pair_avx2 {
#define TORSION_PAIR_FN TORSION_LANES_AVX2_TARGET TORSION_GRANULAR_INLINE
#define TORSION_PAIR_SQRT sqrt_avx
#include "granular/pair_lanes.inc"
#undef TORSION_PAIR_FN
#undef TORSION_PAIR_SQRT
}  // namespace pair_avx2
#endif

void pair_lanes_base(const PairArrays& a, const std::uint32_t* slots, const std::uint32_t* owners,
                     std::size_t count, double h, double* overlap) {
  pair_base::pair_lanes(a, slots, owners, count, h, overlap);
}

#if TORSION_LANES_AVX2
TORSION_LANES_AVX2_TARGET void pair_lanes_avx2(const PairArrays& a, const std::uint32_t* slots,
                                               const std::uint32_t* owners, std::size_t count,
                                               double h, double* overlap) {
  pair_avx2::pair_lanes(a, slots, owners, count, h, overlap);
}

// AVX-512F and VL: EVEX encodings of the AVX2 build's 256-bit operations (no 512-bit vectors, no
// FMA: the build turns contraction off), so the same IEEE operations in the same order
#define TORSION_GRANULAR_AVX512_TARGET __attribute__((target("avx2,avx512f,avx512vl")))
namespace pair_avx512 {
#define TORSION_PAIR_FN TORSION_GRANULAR_AVX512_TARGET TORSION_GRANULAR_INLINE
#define TORSION_PAIR_SQRT sqrt_avx
#include "granular/pair_lanes.inc"
#undef TORSION_PAIR_FN
#undef TORSION_PAIR_SQRT
}  // namespace pair_avx512

TORSION_GRANULAR_AVX512_TARGET void pair_lanes_avx512(const PairArrays& a,
                                                      const std::uint32_t* slots,
                                                      const std::uint32_t* owners,
                                                      std::size_t count, double h,
                                                      double* overlap) {
  pair_avx512::pair_lanes(a, slots, owners, count, h, overlap);
}

// whether the AVX-512VL build runs: the AVX2 builds do (lanes::use_avx2), the CPU has AVX-512F
// and VL, and the environment variable TORSION_NO_AVX512 is not set (every build gives the same
// bits; the variable is for checking that)
bool use_pair_avx512() {
  static const bool yes = lanes::use_avx2() && __builtin_cpu_supports("avx512f") &&
                          __builtin_cpu_supports("avx512vl") &&
                          std::getenv("TORSION_NO_AVX512") == nullptr;
  return yes;
}
#endif

void collide_touching(const PairArrays& a, const std::uint32_t* slots,
                      const std::uint32_t* owners, std::size_t count, double h, double* overlap) {
#if TORSION_LANES_AVX2
  if (use_pair_avx512()) return pair_lanes_avx512(a, slots, owners, count, h, overlap);
  if (lanes::use_avx2()) return pair_lanes_avx2(a, slots, owners, count, h, overlap);
#endif
  pair_lanes_base(a, slots, owners, count, h, overlap);
}

void check_vec(const Vec3& v, const char* name) {
  if (!v.allFinite()) throw std::invalid_argument(std::string(name) + " must be finite");
}

}  // namespace

void GranularMaterial::validate(const char* name) const {
  const std::string n(name);
  check_positive(density, (n + ".density").c_str());
  check_positive(youngs_modulus, (n + ".youngs_modulus").c_str());
  if (!std::isfinite(poisson_ratio) || poisson_ratio < 0.0 || poisson_ratio >= 0.5)
    throw_invalid(n + ".poisson_ratio must be in [0, 0.5), got " + fmt(poisson_ratio));
  if (!std::isfinite(restitution) || restitution <= 0.0 || restitution > 1.0)
    throw_invalid(n + ".restitution must be in (0, 1], got " + fmt(restitution));
  check_non_negative(friction, (n + ".friction").c_str());
  check_non_negative(rolling_friction, (n + ".rolling_friction").c_str());
}

GranularSystem::GranularSystem(const std::vector<Vec3>& positions,
                               const std::vector<double>& radii,
                               const GranularMaterial& material) {
  material.validate("material");
  materials_.push_back(material);
  container_.wall = material;
  rebuild_pairs();
  add_particles(positions, radii, 0);
}

void GranularSystem::check_index(std::size_t i, const char* what) const {
  if (i >= pos_.size())
    throw std::out_of_range(std::string(what) + ": particle index " + std::to_string(i) +
                            " out of range (the system has " + std::to_string(pos_.size()) +
                            " particles)");
}

std::size_t GranularSystem::add_particles(const std::vector<Vec3>& positions,
                                          const std::vector<double>& radii,
                                          std::uint32_t material_id) {
  if (positions.size() != radii.size())
    throw_invalid("radii must have one entry per position: got " + std::to_string(radii.size()) +
                  " radii for " + std::to_string(positions.size()) + " positions");
  if (material_id >= materials_.size())
    throw_invalid("material_id " + std::to_string(material_id) + " is not a material of this "
                  "system (it has " + std::to_string(materials_.size()) + ")");
  for (std::size_t k = 0; k < positions.size(); ++k) {
    if (!positions[k].allFinite())
      throw_invalid("positions[" + std::to_string(k) + "] must be finite");
    if (!std::isfinite(radii[k]) || !(radii[k] > 0.0))
      throw_invalid("radii[" + std::to_string(k) + "] must be finite and > 0, got " +
                    fmt(radii[k]));
  }
  const std::size_t first = pos_.size();
  list_built_ = false;  // the new particles join the neighbour list at the next substep
  rayleigh_min_ = -1.0;
  const GranularMaterial& m = materials_[material_id];
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const double r = radii[k];
    const double mass = m.density * 4.0 / 3.0 * kPiG * r * r * r;
    pos_.push_back(positions[k]);
    vel_.push_back(Vec3::Zero());
    omega_.push_back(Vec3::Zero());
    spin_step_.push_back(Vec3::Zero());
    radius_.push_back(r);
    mass_.push_back(mass);
    inv_mass_.push_back(1.0 / mass);
    inv_inertia_.push_back(1.0 / (0.4 * mass * r * r));
    material_id_.push_back(material_id);
    stable_id_.push_back(next_stable_id_++);
    fixed_.push_back(0);
    walls_.emplace_back();
    wall_active_.push_back(0);
    shape_contacts_.emplace_back();
  }
  return first;
}

void GranularSystem::remove_particle(std::size_t i) {
  check_index(i, "remove_particle");
  const std::size_t last = pos_.size() - 1;
  auto move_last = [&](auto& v) {
    v[i] = std::move(v[last]);
    v.pop_back();
  };
  move_last(pos_), move_last(vel_), move_last(omega_), move_last(spin_step_);
  move_last(radius_), move_last(mass_), move_last(inv_mass_), move_last(inv_inertia_);
  move_last(material_id_), move_last(stable_id_), move_last(fixed_);
  move_last(walls_), move_last(wall_active_), move_last(shape_contacts_);
  rayleigh_min_ = -1.0;
  // the list becomes a history to carry over (by the partners' stable ids) at the next build:
  // the removed particle's own slots go; slots naming it or the moved particle find no partner
  // with that id at its old index and are dropped then. A contact whose partner moved to a lower
  // index than its owner is found again (with no history), as at first touch.
  if (i + 1 < nb_start_.size())
    for (std::uint32_t k = nb_start_[i]; k < nb_start_[i + 1]; ++k) nb_partner_[k] = ~0ull;
  // slots naming the removed particle go; those naming the moved one name its new index (a
  // state saved before the next step then holds the histories that step carries over)
  for (std::size_t k = 0; k < nb_j_.size(); ++k) {
    if (nb_j_[k] == i) nb_partner_[k] = ~0ull;
    else if (nb_j_[k] == last) nb_j_[k] = static_cast<std::uint32_t>(i);
  }
  list_built_ = false;
}

void GranularSystem::set_position(std::size_t i, const Vec3& p) {
  check_index(i, "set_position");
  check_vec(p, "position");
  pos_[i] = p;
  moved_known_ = false;  // the next substep measures every displacement again
}
void GranularSystem::set_velocity(std::size_t i, const Vec3& v) {
  check_index(i, "set_velocity");
  check_vec(v, "velocity");
  vel_[i] = v;
}
void GranularSystem::set_angular_velocity(std::size_t i, const Vec3& w) {
  check_index(i, "set_angular_velocity");
  check_vec(w, "angular_velocity");
  omega_[i] = w;
}
void GranularSystem::set_fixed(std::size_t i, bool fixed) {
  check_index(i, "set_fixed");
  fixed_[i] = fixed ? 1 : 0;
  if (fixed) vel_[i].setZero(), omega_[i].setZero(), spin_step_[i].setZero();
  list_built_ = false;  // pairs of two fixed particles are not listed
}
void GranularSystem::set_material_id(std::size_t i, std::uint32_t id) {
  check_index(i, "set_material_id");
  if (id >= materials_.size())
    throw_invalid("material id " + std::to_string(id) + " is not a material of this system");
  material_id_[i] = id;
  const double r = radius_[i];
  mass_[i] = materials_[id].density * 4.0 / 3.0 * kPiG * r * r * r;
  inv_mass_[i] = 1.0 / mass_[i];
  inv_inertia_[i] = 1.0 / (0.4 * mass_[i] * r * r);
  laws_stale_ = true;  // the slots' effective masses
  rayleigh_min_ = -1.0;
}

std::uint32_t GranularSystem::add_material(const GranularMaterial& material) {
  material.validate("material");
  materials_.push_back(material);
  rebuild_pairs();
  return static_cast<std::uint32_t>(materials_.size() - 1);
}

void GranularSystem::set_material(std::uint32_t id, const GranularMaterial& material) {
  if (id >= materials_.size())
    throw_invalid("material id " + std::to_string(id) + " is not a material of this system");
  material.validate("material");
  materials_[id] = material;
  rebuild_pairs();
  for (std::size_t i = 0; i < pos_.size(); ++i)
    if (material_id_[i] == id) set_material_id(i, id);
}

void GranularSystem::set_ground_plane(bool enabled, double height) {
  check_finite(height, "height");
  container_.ground = enabled;
  container_.ground_height = height;
}

void GranularSystem::set_box_container(bool enabled, const Vec3& lo, const Vec3& hi) {
  check_vec(lo, "lower");
  check_vec(hi, "upper");
  if (enabled && !(lo.array() < hi.array()).all())
    throw_invalid("the box container's lower corner must be below its upper corner on every axis");
  container_.box = enabled;
  container_.box_min = lo;
  container_.box_max = hi;
}

void GranularSystem::set_wall_material(const GranularMaterial& material) {
  material.validate("material");
  container_.wall = material;
  rebuild_pairs();
}

void GranularSystem::rebuild_pairs() {
  const std::size_t m = materials_.size();
  laws_stale_ = true;  // the slots' constants come from these
  pairs_.assign(m * m + m, Pair{});
  auto inv_e = [](const GranularMaterial& a) {
    return (1.0 - a.poisson_ratio * a.poisson_ratio) / a.youngs_modulus;
  };
  auto inv_g = [](const GranularMaterial& a) {
    return 2.0 * (2.0 - a.poisson_ratio) * (1.0 + a.poisson_ratio) / a.youngs_modulus;
  };
  auto make = [&](const GranularMaterial& a, const GranularMaterial& b, bool b_is_wall) {
    Pair p;
    // a rigid wall: only the particle's compliance (the wall material sets friction and
    // restitution)
    p.e_star = 1.0 / (inv_e(a) + (b_is_wall ? 0.0 : inv_e(b)));
    p.g_star = 1.0 / (inv_g(a) + (b_is_wall ? 0.0 : inv_g(b)));
    p.gamma = damping_for_restitution(0.5 * (a.restitution + b.restitution));
    p.friction = 0.5 * (a.friction + b.friction);
    p.rolling = 0.5 * (a.rolling_friction + b.rolling_friction);
    p.shear_damping = std::sqrt(6.0 * p.g_star / p.e_star);
    return p;
  };
  for (std::size_t a = 0; a < m; ++a)
    for (std::size_t b = 0; b < m; ++b) pairs_[a * m + b] = make(materials_[a], materials_[b], false);
  for (std::size_t a = 0; a < m; ++a) pairs_[m * m + a] = make(materials_[a], container_.wall, true);
}

const GranularSystem::Pair& GranularSystem::pair(std::uint32_t a, std::uint32_t b) const {
  return pairs_[static_cast<std::size_t>(a) * materials_.size() + b];
}

int GranularSystem::substeps_for(double dt) const {
  // a fifth of the smallest Rayleigh time: pi r sqrt(rho / G) / (0.1631 nu + 0.8766). It
  // depends on the radii and materials alone: kept until one changes (a pass over every
  // particle, on the stepping thread, at every step otherwise)
  if (!(rayleigh_min_ >= 0.0)) {
    double t_min = INFINITY;
    for (std::size_t i = 0; i < pos_.size(); ++i) {
      const GranularMaterial& m = materials_[material_id_[i]];
      const double shear = m.youngs_modulus / (2.0 * (1.0 + m.poisson_ratio));
      const double t = kPiG * radius_[i] * std::sqrt(m.density / shear) /
                       (0.1631 * m.poisson_ratio + 0.8766);
      t_min = std::min(t_min, t);
    }
    rayleigh_min_ = t_min;
  }
  const double t_min = rayleigh_min_;
  if (!std::isfinite(t_min)) return 1;
  return std::max(1, static_cast<int>(std::ceil(dt / (0.2 * t_min))));
}

void GranularSystem::set_substep_factor(double factor) {
  if (!std::isfinite(factor) || !(factor > 0.0))
    throw std::invalid_argument("substep_factor must be finite and > 0, got " +
                                std::to_string(factor));
  substep_factor_ = factor;
}

void GranularSystem::step(double dt, const Vec3& gravity, int threads) {
  check_positive(dt, "dt");
  check_vec(gravity, "gravity");
  stats_ = GranularStats{};
  const int n = step_substeps(dt, threads);
  stats_.substeps = n;
  for (int s = 0; s < n; ++s) substep(dt / n, gravity, threads, nullptr, s == n - 1);
}

void GranularSystem::step(double dt, const Vec3& gravity, int threads,
                          std::vector<GranularObstacle>& obstacles) {
  check_positive(dt, "dt");
  check_vec(gravity, "gravity");
  stats_ = GranularStats{};
  const int n = step_substeps(dt, threads);
  stats_.substeps = n;
  for (GranularObstacle& o : obstacles) o.force.setZero(), o.torque.setZero(), o.touch_speed2 = 0.0;
  for (int s = 0; s < n; ++s) substep(dt / n, gravity, threads, &obstacles, s == n - 1);
  // the mean reaction over the substeps: its impulse over dt is what the particles received
  const double inv = 1.0 / n;
  for (GranularObstacle& o : obstacles) {
    o.force *= inv, o.torque *= inv;
    stats_.shape_force += o.force;
  }
}

void GranularSystem::find_obstacle_candidates(const std::vector<GranularObstacle>& obstacles) {
  // every (particle, obstacle) whose bounds overlap, from the cells the obstacle's bounds cover
  // (grown by the largest radius); then sorted by particle, each particle's in obstacle order
  const std::size_t n = pos_.size();
  double r_max = 0.0;
  for (double r : radius_) r_max = std::max(r_max, r);
  cand_pairs_.clear();
  for (std::size_t o = 0; o < obstacles.size(); ++o) {
    const GranularObstacle& ob = obstacles[o];
    if (!((ob.group & collision_mask) && (collision_group & ob.mask))) continue;
    // (the grid is the last list build's: particles have moved less than skin / 2 since)
    const double grow = r_max + 0.5 * skin_;
    const Vec3 lo = (ob.bounds.min - Vec3::Constant(grow) - grid_min_) / cell_;
    const Vec3 hi = (ob.bounds.max + Vec3::Constant(grow) - grid_min_) / cell_;
    if (!lo.allFinite() || !hi.allFinite()) continue;
    if (hi.x() < 0.0 || hi.y() < 0.0 || hi.z() < 0.0) continue;
    if (lo.x() >= nx_ || lo.y() >= ny_ || lo.z() >= nz_) continue;
    auto clamp_cell = [](double c, int count) {
      return static_cast<std::int64_t>(std::min(std::max(std::floor(c), 0.0), count - 1.0));
    };
    const std::int64_t x0 = clamp_cell(lo.x(), nx_), x1 = clamp_cell(hi.x(), nx_);
    const std::int64_t y0 = clamp_cell(lo.y(), ny_), y1 = clamp_cell(hi.y(), ny_);
    const std::int64_t z0 = clamp_cell(lo.z(), nz_), z1 = clamp_cell(hi.z(), nz_);
    for (std::int64_t z = z0; z <= z1; ++z)
      for (std::int64_t y = y0; y <= y1; ++y)
        for (std::int64_t x = x0; x <= x1; ++x) {
          const std::int64_t cell = (z * ny_ + y) * nx_ + x;
          for (std::uint32_t k = cell_start_[cell]; k < cell_start_[cell + 1]; ++k) {
            const std::uint32_t i = cell_particles_[k];
            if (fixed_[i]) continue;
            const Vec3 r = Vec3::Constant(radius_[i]);
            const Aabb own{pos_[i] - r, pos_[i] + r};
            if (!own.overlaps(ob.bounds)) continue;
            cand_pairs_.push_back({i, static_cast<std::uint32_t>(o)});
          }
        }
  }
  cand_start_.assign(n + 1, 0);
  for (const auto& pr : cand_pairs_) ++cand_start_[pr.first + 1];
  for (std::size_t i = 0; i < n; ++i) cand_start_[i + 1] += cand_start_[i];
  cand_.resize(cand_pairs_.size());
  rev_fill_.assign(cand_start_.begin(), cand_start_.end() - 1);
  // obstacles in increasing order, so each particle's list is sorted
  for (const auto& pr : cand_pairs_) cand_[rev_fill_[pr.first]++] = pr.second;
}

void GranularSystem::collide_obstacles(std::size_t i, double h,
                                       const std::vector<GranularObstacle>& obstacles,
                                       Vec3& force, Vec3& torque, double& spin_damping) {
  std::vector<ShapeContact>& now = shape_fresh_[i];
  now.clear();
  if (cand_start_[i] == cand_start_[i + 1]) return;
  const Pair& p = pairs_[materials_.size() * materials_.size() + material_id_[i]];
  const Shape sphere = Shape::sphere(radius_[i]);
  Pose pose;
  pose.position = pos_[i];
  ContactSettings settings;
  Manifold man;
  const std::vector<ShapeContact>& before = shape_contacts_[i];
  for (std::uint32_t k = cand_start_[i]; k < cand_start_[i + 1]; ++k) {
    const GranularObstacle& ob = obstacles[cand_[k]];
    man.clear();
    if (!shapes_can_collide(ShapeType::kSphere, ob.shape->type)) continue;
    collide_shapes(sphere, pose, *ob.shape, ob.pose, settings, man);
    // the deepest point is the one contact with this shape (a sphere touching a mesh's two
    // triangles at one spot must not be pushed twice)
    int best = -1;
    for (int q = 0; q < man.count; ++q)
      if (man.points[q].depth > 0.0 && (best < 0 || man.points[q].depth > man.points[best].depth))
        best = q;
    if (best < 0) continue;
    const ManifoldPoint& mp = man.points[best];
    ShapeContact sc;
    sc.key = ob.key;
    sc.obstacle = cand_[k];
    for (const ShapeContact& old : before)
      if (old.key == sc.key) {
        sc.slip = old.slip, sc.roll = old.roll;
        break;
      }
    const Vec3 n = -mp.normal;  // from the particle towards the shape
    const double d = std::min(mp.depth, radius_[i]);
    sc.depth = d;
    const ContactConstants c = rigid_contact_constants(p, radius_[i], mass_[i]);
    // the contact point on the shape's surface, and its velocity relative to the particle's
    const Vec3 at = pos_[i] + (radius_[i] - d) * n;
    const Vec3 v_shape = ob.velocity + ob.angular_velocity.cross(at - ob.origin);
    const Vec3 v_rel = v_shape - (vel_[i] + omega_[i].cross(radius_[i] * n));
    const ContactForce f =
        contact_force(c, d, n, v_rel, omega_[i] - ob.angular_velocity, h, sc.slip, sc.roll);
    force += f.force;
    torque += f.torque + f.rolling_torque;
    spin_damping += f.ct * radius_[i] * radius_[i] + f.cr;
    sc.force = -f.force;
    sc.torque = (at - ob.origin).cross(sc.force) - f.rolling_torque;
    now.push_back(sc);
  }
}

void GranularSystem::build_grid() {
  const std::size_t n = pos_.size();
  double r_max = 0.0;
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  for (std::size_t i = 0; i < n; ++i) {
    r_max = std::max(r_max, radius_[i]);
    lo = lo.cwiseMin(pos_[i]);
    hi = hi.cwiseMax(pos_[i]);
  }
  // cells as wide as the longest listed pair: two of the largest radii and the skin
  cell_ = 2.0 * r_max + skin_;
  grid_min_ = lo;
  const Vec3 extent = hi - lo;
  // at most about four cells per particle: a sparse cloud gets larger cells (still exact, as
  // any cell at least one pair reach wide finds every listed pair among its 27 neighbours)
  const double max_cells = 4.0 * static_cast<double>(n) + 64.0;
  for (;;) {
    const double cx = std::floor(extent.x() / cell_) + 1.0, cy = std::floor(extent.y() / cell_) + 1.0,
                 cz = std::floor(extent.z() / cell_) + 1.0;
    if (cx * cy * cz <= max_cells) {
      nx_ = static_cast<int>(cx), ny_ = static_cast<int>(cy), nz_ = static_cast<int>(cz);
      break;
    }
    cell_ *= 1.26;
  }
  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_ * nz_;
  particle_cell_.resize(n);
  cell_start_.assign(cells + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 c = (pos_[i] - grid_min_) / cell_;
    const std::int64_t ix = std::min<std::int64_t>(nx_ - 1, static_cast<std::int64_t>(c.x()));
    const std::int64_t iy = std::min<std::int64_t>(ny_ - 1, static_cast<std::int64_t>(c.y()));
    const std::int64_t iz = std::min<std::int64_t>(nz_ - 1, static_cast<std::int64_t>(c.z()));
    particle_cell_[i] = (iz * ny_ + iy) * nx_ + ix;
    ++cell_start_[particle_cell_[i] + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
  cell_particles_.resize(n);
  rev_fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i)  // in index order: each cell lists its particles sorted
    cell_particles_[rev_fill_[particle_cell_[i]]++] = static_cast<std::uint32_t>(i);
}

namespace {

// runs body(i) for every i < n in fixed blocks of kBlock, on up to `use` threads: which block
// a particle is in never depends on the thread count
constexpr std::size_t kBlock = 256;

template <class Body>
void for_blocks(std::size_t n, int use, Body&& body) {
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  auto task = [&](std::size_t b) {
    const std::size_t end = std::min(n, (b + 1) * kBlock);
    for (std::size_t i = b * kBlock; i < end; ++i) body(i);
  };
  if (use <= 1 || blocks <= 1) {
    for (std::size_t b = 0; b < blocks; ++b) task(b);
  } else {
    ThreadPool::shared().parallel_for(blocks, use, task);
  }
}

// runs body(b, begin, end) for every fixed block b of kBlock particles, on up to `use` threads
template <class Body>
void for_block_ranges(std::size_t n, int use, Body&& body) {
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  auto task = [&](std::size_t b) { body(b, b * kBlock, std::min(n, (b + 1) * kBlock)); };
  if (use <= 1 || blocks <= 1) {
    for (std::size_t b = 0; b < blocks; ++b) task(b);
  } else {
    ThreadPool::shared().parallel_for(blocks, use, task);
  }
}

}  // namespace

void GranularSystem::rebuild_list(int use) {
  const std::size_t n = pos_.size();
  double r_max = 0.0;
  for (double r : radius_) r_max = std::max(r_max, r);
  // the skin: a pair is listed while it is closer than r_i + r_j + skin; the list stays
  // complete until some particle has moved skin / 2 (two closing by skin / 2 each)
  skin_ = 0.3 * r_max;
  build_grid();
  // the candidates of each owner i: partners j > i, in increasing order
  scratch_.resize(n);
  for_blocks(n, use, [&](std::size_t i) {
    std::vector<std::uint32_t>& out = scratch_[i];
    out.clear();
    const std::int64_t c = particle_cell_[i];
    const std::int64_t ix = c % nx_, iy = (c / nx_) % ny_,
                       iz = c / (static_cast<std::int64_t>(nx_) * ny_);
    const Vec3 p = pos_[i];
    const double ri = radius_[i] + skin_;
    for (std::int64_t z = std::max<std::int64_t>(0, iz - 1); z <= std::min<std::int64_t>(nz_ - 1, iz + 1); ++z)
      for (std::int64_t y = std::max<std::int64_t>(0, iy - 1); y <= std::min<std::int64_t>(ny_ - 1, iy + 1); ++y) {
        const std::int64_t row = (z * ny_ + y) * nx_;
        const std::int64_t x0 = std::max<std::int64_t>(0, ix - 1),
                           x1 = std::min<std::int64_t>(nx_ - 1, ix + 1);
        // the cells x0..x1 of one row are contiguous in cell_particles_
        for (std::uint32_t k = cell_start_[row + x0]; k < cell_start_[row + x1 + 1]; ++k) {
          const std::uint32_t j = cell_particles_[k];
          if (j <= i) continue;
          const double reach = ri + radius_[j];
          if ((pos_[j] - p).squaredNorm() >= reach * reach) continue;
          if (fixed_[i] && fixed_[j]) continue;
          out.push_back(j);
        }
      }
    std::sort(out.begin(), out.end());
  });
  // the new CSR; each owner's history carried over from its previous slots by partner id
  old_start_.swap(nb_start_);
  old_j_.swap(nb_j_);
  old_partner_.swap(nb_partner_);
  old_nb_.swap(nb_);
  old_touch_.swap(nb_touch_);
  nb_start_.resize(n + 1);
  nb_start_[0] = 0;
  for (std::size_t i = 0; i < n; ++i)
    nb_start_[i + 1] = nb_start_[i] + static_cast<std::uint32_t>(scratch_[i].size());
  const std::size_t total = nb_start_[n];
  nb_j_.resize(total);
  nb_partner_.resize(total);
  nb_.resize(total);
  nb_touch_.resize(total);
  const std::size_t old_owners = old_start_.empty() ? 0 : old_start_.size() - 1;
  for_blocks(n, use, [&](std::size_t i) {
    const std::vector<std::uint32_t>& cand = scratch_[i];
    const std::uint32_t o0 = i < old_owners ? old_start_[i] : 0;
    const std::uint32_t o1 = i < old_owners ? old_start_[i + 1] : 0;
    std::uint32_t s = nb_start_[i];
    for (const std::uint32_t j : cand) {
      nb_j_[s] = j;
      nb_partner_[s] = stable_id_[j];
      nb_.set(s, Slot{});
      nb_touch_[s] = 0;
      for (std::uint32_t k = o0; k < o1; ++k)
        if (old_partner_[k] == stable_id_[j]) {
          nb_.copy(s, old_nb_, k);
          nb_touch_[s] = old_touch_[k];
          break;
        }
      ++s;
    }
  });
  // for each j, the slots naming it, in increasing owner order
  rev_start_.assign(n + 1, 0);
  for (std::size_t s = 0; s < total; ++s) ++rev_start_[nb_j_[s] + 1];
  for (std::size_t j = 0; j < n; ++j) rev_start_[j + 1] += rev_start_[j];
  rev_.resize(total);
  rev_fill_.assign(rev_start_.begin(), rev_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t s = nb_start_[i]; s < nb_start_[i + 1]; ++s) rev_[rev_fill_[nb_j_[s]]++] = s;
  update_slot_laws(use);
  list_pos_ = pos_;
  list_built_ = true;
  ++stats_.list_builds;
}

void GranularSystem::update_slot_laws(int use) {
  const std::size_t n = pos_.size();
  nb_law_.resize(nb_j_.size());
  nb_reach_.resize(nb_j_.size());
  wall_law_.resize(n);
  const std::size_t walls_pair = materials_.size() * materials_.size();
  for_blocks(n, use, [&](std::size_t i) {
    wall_law_[i] =
        rigid_contact_constants(pairs_[walls_pair + material_id_[i]], radius_[i], mass_[i]);
    for (std::uint32_t s = nb_start_[i]; s < nb_start_[i + 1]; ++s) {
      const std::size_t j = nb_j_[s];
      const double reach = radius_[i] + radius_[j];
      const double im = (fixed_[i] ? 0.0 : inv_mass_[i]) + (fixed_[j] ? 0.0 : inv_mass_[j]);
      // about the contact point: I + m r^2 = 7/5 m r^2 (a fixed particle: infinite)
      const double inv_ii = fixed_[i] ? 0.0 : 1.0 / (1.4 * mass_[i] * radius_[i] * radius_[i]);
      const double inv_ij = fixed_[j] ? 0.0 : 1.0 / (1.4 * mass_[j] * radius_[j] * radius_[j]);
      nb_reach_[s] = reach;
      nb_law_[s] = contact_constants(pair(material_id_[i], material_id_[j]),
                                     radius_[i] * radius_[j] / reach, 1.0 / im, radius_[i],
                                     1.0 / (inv_ii + inv_ij));
    }
  });
  laws_stale_ = false;
}

int GranularSystem::collide_walls(std::size_t i, double h, const WallPlane* planes, Vec3& force,
                                  Vec3& torque, double& spin_damping) {
  int count = 0;
  wall_energy_[i] = 0.0;
  std::uint8_t& active = wall_active_[i];
  // (the caller skips particles that hold no wall history and are at least r inside every wall)
  for (int k = 0; k < kWalls; ++k) {
    const WallPlane& pl = planes[k];
    const double d = pl.on ? radius_[i] - (pl.m.dot(pos_[i]) - pl.offset) : -1.0;
    const std::uint8_t bit = static_cast<std::uint8_t>(1u << k);
    if (!(d > 0.0) || fixed_[i]) {
      // apart: a contact that ended leaves no history (the histories are read only for a
      // contact: most particles touch no wall, and their 7 histories stay unread)
      if (active & bit) walls_[i][k] = WallContact{}, active = static_cast<std::uint8_t>(active & ~bit);
      continue;
    }
    WallContact& w = walls_[i][k];
    active = static_cast<std::uint8_t>(active | bit);
    w.active = true;
    const Vec3 n = -pl.m;  // from the particle towards the wall
    const ContactConstants& c = wall_law_[i];
    const Vec3 v_rel = -(vel_[i] + omega_[i].cross(radius_[i] * n));
    const ContactForce f = contact_force(c, d, n, v_rel, omega_[i], h, w.slip, w.roll);
    force += f.force;
    torque += f.torque + f.rolling_torque;
    spin_damping += f.ct * radius_[i] * radius_[i] + f.cr;
    wall_energy_[i] += f.energy;
    ++count;
  }
  return count;
}

void GranularSystem::refresh_list(int use) {
  const std::size_t n = pos_.size();
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  // the Verlet list holds every touching pair until a particle has moved skin / 2 since it was
  // built (the largest displacement per block, then over blocks: any thread count). The last
  // substep's integration left each block's largest displacement in block_moved_; after
  // anything else moved particles (set_position, a restored state) it is measured here.
  bool rebuild = !list_built_ || list_pos_.size() != n;
  if (!rebuild) {
    if (!moved_known_ || block_moved_.size() != blocks) {
      block_moved_.assign(blocks, 0.0);
      for_block_ranges(n, use, [&](std::size_t b, std::size_t begin, std::size_t end) {
        double m = 0.0;
        for (std::size_t i = begin; i < end; ++i)
          m = std::max(m, (pos_[i] - list_pos_[i]).squaredNorm());
        block_moved_[b] = m;
      });
    }
    double moved = 0.0;
    for (double m : block_moved_) moved = std::max(moved, m);
    rebuild = !(moved < 0.25 * skin_ * skin_);  // (NaN: rebuild)
  }
  if (rebuild) rebuild_list(use);
  else if (laws_stale_) update_slot_laws(use);
}

// The substeps the contacts touching at the start of a step need. Symplectic Euler with explicit
// dashpots keeps a mode of damping rate c and frequency w bounded only while
// c h + w^2 h^2 / 2 < 2 (the Jury conditions of its 2x2 update). The Rayleigh bound of
// substeps_for does not see the load: a Hertz contact's stiffness grows as d^(1/2) and its
// dashpots as d^(1/4), and all the tangential and rolling dashpots of a particle damp its one
// spin together (I = 0.4 m r^2: the fastest mode by far). In a soft heap (E of a few MPa,
// overlaps of a few % of R*) that spin rang from substep to substep at the Coulomb cap, feeding
// energy into the contacts, and the heap crept for ever (issue 39, docs/granular.md).
//
// The spin's damping is integrated implicitly (substep), so it never bounds the substep. The
// rest comes from the particles' actual contacts, by Gershgorin's theorem on the mass-normalized
// stiffness and translational damping matrices M^-1/2 K M^-1/2 and M^-1/2 C M^-1/2 of the whole
// bed (their largest eigenvalues, w_max^2 and c_max, are at most the largest row sum of block
// norms). A contact between i and j with normal stiffness kn, tangential kt (at the contact
// point: through the centre and the spin, g_i = |G_i|^2 = 1/m_i + r_i^2/I_i) and rolling kr has
// a normal part (on the centres' motion along n) and a tangential-and-rolling part (on the
// contact point's tangential motion and the spins), whose ranges are orthogonal: each of its
// blocks has the norm of the larger part. It adds
//   max(kn / m_i, kt g_i + kr / I_i) + max(kn / sqrt(m_i m_j), kt sqrt(g_i g_j) + kr / sqrt(I_i I_j))
// to row i of the stiffness, and max(cn, ct) (1/m_i + 1/sqrt(m_i m_j)) to row i of the damping
// (a wall, a world shape touching the particle at the last substep, or a fixed particle: the
// first terms only). Each particle's row must satisfy half the bound, c h + w^2 h^2 / 2 <= 1; the
// worst particle sets the stable substep, and the count is substep_factor times the stable
// count (never below substeps_for's). Everything depends on the positions and the saved contact
// state alone (every touching pair is in any complete list; the shapes' overlaps are saved), so
// a restored system takes the same substeps.
int GranularSystem::step_substeps(double dt, int threads) {
  const int base = substeps_for(dt);
  const std::size_t n = pos_.size();
  if (n == 0) return base;
  damp_rate_.assign(n, 0.0);
  const int use = ThreadPool::resolve_thread_count(threads);
  refresh_list(use);
  struct Terms {
    double kn, kt, kr, cn, ct, cr;
  };
  // one contact's spring and dashpot coefficients at overlap d (kr, cr: 0 without rolling)
  auto terms = [](const ContactConstants& c, double d) {
    const double sd = std::sqrt(d);
    Terms t;
    t.kn = 1.5 * c.k * sd;
    t.kt = c.kt0 * sd;
    t.cn = c.damping0 * std::sqrt(sd);
    t.ct = t.cn * c.shear_damping;
    t.kr = 2.25 * c.rolling * c.rolling * t.kn * c.r_star * c.r_star;
    t.cr = c.rolling > 0.0 ? 0.6 * std::sqrt(c.i_roll * t.kr) : 0.0;
    return t;
  };
  auto inv_m = [&](std::size_t i) { return fixed_[i] ? 0.0 : inv_mass_[i]; };
  auto inv_i = [&](std::size_t i) { return fixed_[i] ? 0.0 : inv_inertia_[i]; };
  const std::size_t slots = nb_.size();
  slot_rows_.resize(slots);
  std::vector<double>& stiff = block_rate_;  // per particle, its stiffness row (w^2)
  stiff.assign(n, 0.0);
  const GranularContainer& box = container_;
  const std::size_t walls_pair = materials_.size() * materials_.size();
  // rows of the owners (and, per slot, what it adds to the partner's), then the partners' rows
  // summed in slot order: any thread count gives the same sums
  for_blocks(n, use, [&](std::size_t i) {
    double w2 = 0.0, c = 0.0;
    const double ai = inv_m(i), bi = inv_i(i), gi = ai + radius_[i] * radius_[i] * bi;
    for (std::uint32_t s = nb_start_[i]; s < nb_start_[i + 1]; ++s) {
      const std::size_t j = nb_j_[s];
      const double reach = nb_reach_[s];
      const double dist2 = (pos_[j] - pos_[i]).squaredNorm();
      if (dist2 >= reach * reach) {
        slot_rows_[s] = {0.0, 0.0};
        continue;
      }
      const double d = reach - std::sqrt(dist2);
      const double aj = inv_m(j), bj = inv_i(j), gj = aj + radius_[j] * radius_[j] * bj;
      const Terms t = terms(nb_law_[s], d);
      const double xa = std::sqrt(ai * aj), xg = std::sqrt(gi * gj), xb = std::sqrt(bi * bj);
      // each block's norm: the larger of its normal part and its tangential-and-rolling part
      // (their ranges are orthogonal)
      const double off = std::max(t.kn * xa, t.kt * xg + t.kr * xb);
      const double cb = std::max(t.cn, t.ct);
      w2 += std::max(t.kn * ai, t.kt * gi + t.kr * bi) + off;
      c += cb * (ai + xa);
      slot_rows_[s] = {std::max(t.kn * aj, t.kt * gj + t.kr * bj) + off, cb * (aj + xa)};
    }
    if (!fixed_[i] && (box.ground || box.box || !shape_contacts_[i].empty())) {
      const Vec3& x = pos_[i];
      const double r = radius_[i];
      const ContactConstants law =
          rigid_contact_constants(pairs_[walls_pair + material_id_[i]], r, mass_[i]);
      auto wall = [&](double d) {
        if (!(d > 0.0)) return;
        const Terms t = terms(law, std::min(d, r));
        w2 += std::max(t.kn * ai, t.kt * gi + t.kr * bi);
        c += std::max(t.cn, t.ct) * ai;
      };
      if (box.ground) wall(r - (x.z() - box.ground_height));
      if (box.box)
        for (int a = 0; a < 3; ++a) wall(r - (x[a] - box.box_min[a])), wall(r - (box.box_max[a] - x[a]));
      // the world's shapes touching it at the last substep, as walls (immovable)
      for (const ShapeContact& sc : shape_contacts_[i]) wall(sc.depth);
    }
    stiff[i] = w2;
    damp_rate_[i] = c;
  });
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<double> block_worst(blocks, 0.0);
  for_block_ranges(n, use, [&](std::size_t b, std::size_t begin, std::size_t end) {
    double worst = 0.0;
    for (std::size_t j = begin; j < end; ++j) {
      for (std::uint32_t k = rev_start_[j]; k < rev_start_[j + 1]; ++k) {
        const std::uint32_t s = rev_[k];
        stiff[j] += slot_rows_[s][0];
        damp_rate_[j] += slot_rows_[s][1];
      }
      // 1/h with c h + w^2 h^2 / 2 = 1: h = 2 / (c + sqrt(c^2 + 2 w^2))
      const double c = damp_rate_[j];
      if (!fixed_[j]) worst = std::max(worst, 0.5 * (c + std::sqrt(c * c + 2.0 * stiff[j])));
    }
    block_worst[b] = worst;
  });
  double worst = 0.0;
  for (double w : block_worst) worst = std::max(worst, w);
  // the stable count times the factor (docs/granular.md: the heaps' convergence with the count)
  const double need = std::ceil(substep_factor_ * dt * worst);
  if (!(need > base)) return base;
  return need < 1e6 ? static_cast<int>(need) : 1000000;
}

void GranularSystem::substep(double h, const Vec3& gravity, int threads,
                             std::vector<GranularObstacle>* obstacles, bool last) {
  const std::size_t n = pos_.size();
  if (n == 0) return;
  const int use = ThreadPool::resolve_thread_count(threads);
  refresh_list(use);
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  wall_energy_.resize(n);
  block_contacts_.resize(blocks);
  block_wall_contacts_.resize(blocks);
  block_overlap_.resize(blocks);
  block_moved_.resize(blocks);
  // each pair's force, computed once by its owner: each task writes only its own slots. Per
  // block: the slots apart (their histories end) are sorted out, and the touching ones (listed
  // in slot order in the block's own part of pair_list_, which has a place per slot) go through
  // the pair law four at a time (collide_touching)
  pair_list_.resize(nb_.size());
  pair_owner_.resize(nb_.size());
  pair_overlap_.resize(nb_.size());
  static_assert(sizeof(Vec3) == 3 * sizeof(double) && sizeof(Slots::ForceOnJ) == 6 * sizeof(double),
                "the pair kernel reads Vec3 as three doubles");
  const PairArrays arrays{pos_[0].data(),
                          vel_[0].data(),
                          omega_[0].data(),
                          radius_.data(),
                          nb_j_.data(),
                          nb_law_.data(),
                          nb_reach_.data(),
                          nb_.slip.empty() ? nullptr : nb_.slip[0].data(),
                          nb_.roll.empty() ? nullptr : nb_.roll[0].data(),
                          nb_.torque_on_i.empty() ? nullptr : nb_.torque_on_i[0].data(),
                          nb_.on_j.empty() ? nullptr : nb_.on_j[0].force_on_i.data(),
                          nb_.energy.data(),
                          nb_.spin.empty() ? nullptr : nb_.spin[0].data()};
  for_block_ranges(n, use, [&](std::size_t b, std::size_t begin, std::size_t end) {
    const std::size_t first = nb_start_[begin];
    std::uint32_t* list = pair_list_.data() + first;
    std::uint32_t* owner = pair_owner_.data() + first;
    double* overlap = last ? pair_overlap_.data() + first : nullptr;
    // the arrays as local pointers: a store through nb_touch_'s bytes may alias anything, so
    // the compiler reloaded every vector's data pointer from `this` at each slot
    const Vec3* pos = pos_.data();
    const double* reach = nb_reach_.data();
    const std::uint32_t* start = nb_start_.data();
    const std::uint32_t* partner = nb_j_.data();
    std::uint8_t* touch = nb_touch_.data();
    std::size_t m = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const Vec3 pi = pos[i];
      const std::uint32_t s_end = start[i + 1];
      for (std::uint32_t s = start[i]; s < s_end; ++s) {
        // (without a branch on touching, which the pile's slots follow in no predictable order)
        const double r = reach[s];
        const bool apart = (pos[partner[s]] - pi).squaredNorm() >= r * r;
        const bool ended = apart && touch[s];
        touch[s] = static_cast<std::uint8_t>(!apart);
        list[m] = s, owner[m] = static_cast<std::uint32_t>(i);
        m += static_cast<std::size_t>(!apart);
        if (ended) nb_.set(s, Slot{});  // the contact ended, its history with it
      }
    }
    collide_touching(arrays, list, owner, m, h, overlap);
    // the block's part of the step's statistics (summed over blocks below)
    double largest = 0.0;
    if (overlap)
      for (std::size_t e = 0; e < m; ++e) largest = std::max(largest, overlap[e]);
    block_contacts_[b] = m;
    block_overlap_[b] = largest;
  });
  // rigid obstacles: each particle's own contacts in parallel (their sum per particle in
  // obstacle order), the reactions summed in particle order, whatever the thread count
  const bool with_obstacles = obstacles && !obstacles->empty();
  if (with_obstacles) {
    find_obstacle_candidates(*obstacles);
    shape_fresh_.resize(n);
    obstacle_force_.resize(n);
    obstacle_torque_.resize(n);
    obstacle_spin_.resize(n);
    for_blocks(n, use, [&](std::size_t i) {
      obstacle_force_[i].setZero(), obstacle_torque_[i].setZero(), obstacle_spin_[i] = 0.0;
      collide_obstacles(i, h, *obstacles, obstacle_force_[i], obstacle_torque_[i],
                        obstacle_spin_[i]);
    });
    shape_contacts_.swap(shape_fresh_);
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (const ShapeContact& sc : shape_contacts_[i]) {
        GranularObstacle& ob = (*obstacles)[sc.obstacle];
        ob.force += sc.force;
        ob.torque += sc.torque;
        ob.touch_speed2 = std::max(ob.touch_speed2, vel_[i].squaredNorm());
        if (ob.point_loads) ob.point_loads->push_back({pos_[i], radius_[i], sc.force});
        ++count;
      }
    stats_.shape_contacts = count;
  } else {
    for (auto& list : shape_contacts_) list.clear();
  }
  // per particle, in one pass: the sum of its forces in a fixed order (its own slots, then the
  // slots naming it by owner, its walls, its obstacles), then its motion (symplectic Euler);
  // each block keeps its largest displacement since the list was built for the next substep
  const bool walls = container_.ground || container_.box;
  const GranularContainer& box = container_;
  const WallPlane planes[kWalls] = {
      {box.ground, Vec3::UnitZ(), box.ground_height},
      {box.box, Vec3::UnitX(), box.box_min.x()},  {box.box, -Vec3::UnitX(), -box.box_max.x()},
      {box.box, Vec3::UnitY(), box.box_min.y()},  {box.box, -Vec3::UnitY(), -box.box_max.y()},
      {box.box, Vec3::UnitZ(), box.box_min.z()},  {box.box, -Vec3::UnitZ(), -box.box_max.z()},
  };
  // (the arrays as local pointers, and the sums in locals that collide_walls does not see: with
  // the members, every access reloaded the array's data pointer from `this`, and the sums,
  // passed by reference to collide_walls, went through memory at every slot)
  const std::uint32_t* start = nb_start_.data();
  const std::uint32_t* rev_start = rev_start_.data();
  const std::uint32_t* rev = rev_.data();
  const std::uint8_t* touch = nb_touch_.data();
  const Slots::ForceOnJ* on_j = nb_.on_j.data();
  const Vec3* torque_on_i = nb_.torque_on_i.data();
  const std::array<double, 2>* spin_of = nb_.spin.data();
  const double* radius = radius_.data();
  const double* inv_mass = inv_mass_.data();
  const double* inv_inertia = inv_inertia_.data();
  const std::uint8_t* fixed = fixed_.data();
  const std::uint8_t* wall_active = wall_active_.data();
  double* wall_energy = wall_energy_.data();
  Vec3* pos = pos_.data();
  Vec3* vel = vel_.data();
  Vec3* spin_step = spin_step_.data();
  Vec3* omega = omega_.data();
  const Vec3* list_pos = list_pos_.data();
  for_block_ranges(n, use, [&](std::size_t b, std::size_t begin, std::size_t end) {
    double moved = 0.0;
    std::size_t wall_hits = 0;
    for (std::size_t i = begin; i < end; ++i) {
      Vec3 f = Vec3::Zero(), t = Vec3::Zero();
      // the dashpots' pull on this particle's spin: sum of ct r_i^2 + cr over its contacts
      double spin = 0.0, spin_ct = 0.0;
      for (std::uint32_t s = start[i]; s < start[i + 1]; ++s)
        if (touch[s]) {
          f += on_j[s].force_on_i, t += torque_on_i[s];
          spin_ct += spin_of[s][0], spin += spin_of[s][1];
        }
      for (std::uint32_t k = rev_start[i]; k < rev_start[i + 1]; ++k) {
        const std::uint32_t s = rev[k];
        if (touch[s]) {
          f -= on_j[s].force_on_i, t += on_j[s].torque_on_j;
          spin_ct += spin_of[s][0], spin += spin_of[s][1];
        }
      }
      const double r = radius[i];
      spin += spin_ct * r * r;
      // most particles touch no wall and hold no wall history: the centre at least r inside
      // every wall (the container's planes are axis-aligned, m.x exactly a coordinate) needs
      // nothing else. A non-finite position fails the test and takes collide_walls.
      const Vec3& x = pos[i];
      if (walls && (wall_active[i] != 0 ||
                    !((!box.ground || x.z() - box.ground_height >= r) &&
                      (!box.box || (((x - box.box_min).array() >= r).all() &&
                                    ((box.box_max - x).array() >= r).all()))))) {
        Vec3 wf = f, wt = t;
        double ws = spin;
        wall_hits += static_cast<std::size_t>(collide_walls(i, h, planes, wf, wt, ws));
        f = wf, t = wt, spin = ws;
      } else {
        wall_energy[i] = 0.0;
      }
      if (with_obstacles) f += obstacle_force_[i], t += obstacle_torque_[i], spin += obstacle_spin_[i];
      if (fixed[i]) continue;
      vel[i] += h * (inv_mass[i] * f + gravity);
      // the spin's dashpots (c: their summed coefficient, x = h c / I) are implicit on the
      // change of the spin's step: (I + h c) dw = h t + h c dw', dw' the particle's last step
      // of spin, i.e. I dw = h t - h c (dw - dw'). The spin is a particle's fastest mode
      // (I = 0.4 m r^2, every tangential and rolling dashpot pulling on it) and the substep does
      // not resolve it: x reaches 1 and beyond at the stable count. Plain backward Euler,
      // I dw = h t / (1 + x), would damp it too, but acts as an added inertia x I on any steady
      // spin-up (the dashpots also pull with the contact point's translation, explicit here): a
      // sphere rolling against a resisting torque decelerated 10 % too slowly at 6 substeps per
      // ms. Relative to dw', a steady spin-up (dw = dw') takes t exactly. Per substep the own mode
      // (t = -c w) follows (1 + x) l^2 - (1 + x) l + x = 0 and a gear's mode with its neighbours
      // (up to twice the pull, Gershgorin) (1 + x) l^2 - l + x = 0: in both the roots' product
      // is x / (1 + x) < 1 and, when real, their sum is positive and at most 1, so |l| < 1 for
      // any x > 0. The forces are those of the explicit law, equal and opposite: momentum is
      // conserved. dw' is state (saved with it; zero for a new or loaded version-4 particle).
      {
        const double xs = h * spin * inv_inertia[i];
        const Vec3 dw = (h * inv_inertia[i] * t + xs * spin_step[i]) / (1.0 + xs);
        spin_step[i] = dw;
        omega[i] += dw;
      }
      pos[i] += h * vel[i];
      moved = std::max(moved, (pos[i] - list_pos[i]).squaredNorm());
    }
    block_moved_[b] = moved;
    block_wall_contacts_[b] = wall_hits;
  });
  moved_known_ = true;
  // the statistics from the blocks' parts (was a pass over every particle on this thread)
  std::size_t contacts = 0, wall_contacts = 0;
  double max_overlap = 0.0;
  for (std::size_t b = 0; b < blocks; ++b) {
    contacts += block_contacts_[b];
    wall_contacts += block_wall_contacts_[b];
    max_overlap = std::max(max_overlap, block_overlap_[b]);
  }
  stats_.contacts = contacts;
  stats_.wall_contacts = wall_contacts;
  stats_.max_overlap = max_overlap;
}

double GranularSystem::kinetic_energy() const {
  double e = 0.0;
  for (std::size_t i = 0; i < pos_.size(); ++i) {
    if (fixed_[i]) continue;
    e += 0.5 * mass_[i] * vel_[i].squaredNorm() + 0.5 / inv_inertia_[i] * omega_[i].squaredNorm();
  }
  return e;
}

double GranularSystem::contact_energy() const {
  double e = 0.0;
  for (std::size_t s = 0; s < nb_.size(); ++s)
    if (nb_touch_[s]) e += nb_.energy[s];
  for (double w : wall_energy_) e += w;
  return e;
}

}  // namespace torsion

namespace torsion {

namespace {

// the state's byte form: little-endian fields in the order save_state writes them
constexpr char kGranularMagic[8] = {'T', 'R', 'S', 'N', 'G', 'R', 'A', 'N'};
// 2: contacts without their overlap; 3: the substep factor; 4: the shape contacts' depth; 5:
// each particle's last substep's change of spin (an earlier state loads with the default
// factor, depth 0, no change of spin)
constexpr std::uint32_t kGranularStateVersion = 5;

struct Out {
  std::vector<std::uint8_t>& b;
  template <class T>
  void raw(const T& v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof(T));
  }
  void vec(const Vec3& v) { raw(v.x()), raw(v.y()), raw(v.z()); }
  void material(const GranularMaterial& m) {
    raw(m.density), raw(m.youngs_modulus), raw(m.poisson_ratio), raw(m.restitution),
        raw(m.friction), raw(m.rolling_friction);
  }
};

struct In {
  const std::uint8_t* p;
  std::size_t left;
  template <class T>
  T raw() {
    if (left < sizeof(T)) throw std::invalid_argument("granular state bytes end too early");
    T v;
    std::memcpy(&v, p, sizeof(T));
    p += sizeof(T), left -= sizeof(T);
    return v;
  }
  Vec3 vec(const char* what) {
    const double x = raw<double>(), y = raw<double>(), z = raw<double>();
    const Vec3 v(x, y, z);
    if (!v.allFinite())
      throw std::invalid_argument(std::string("granular state holds a non-finite ") + what);
    return v;
  }
  std::uint64_t count(std::size_t unit, const char* what) {
    const auto n = raw<std::uint64_t>();
    if (unit > 0 && n > left / unit)
      throw std::invalid_argument(std::string("granular state's ") + what + " count is too large");
    return n;
  }
  GranularMaterial material() {
    GranularMaterial m;
    m.density = raw<double>(), m.youngs_modulus = raw<double>(), m.poisson_ratio = raw<double>();
    m.restitution = raw<double>(), m.friction = raw<double>(), m.rolling_friction = raw<double>();
    m.validate("material");
    return m;
  }
};

}  // namespace

void GranularSystem::save_state(std::vector<std::uint8_t>& bytes) const {
  Out o{bytes};
  bytes.insert(bytes.end(), kGranularMagic, kGranularMagic + 8);
  o.raw(kGranularStateVersion);
  o.raw(static_cast<std::uint64_t>(materials_.size()));
  for (const GranularMaterial& m : materials_) o.material(m);
  o.raw(static_cast<std::uint8_t>(container_.ground)), o.raw(container_.ground_height);
  o.raw(static_cast<std::uint8_t>(container_.box));
  o.vec(container_.box_min), o.vec(container_.box_max);
  o.material(container_.wall);
  o.raw(collision_group), o.raw(collision_mask), o.raw(next_stable_id_);
  o.raw(substep_factor_);
  const std::size_t n = pos_.size();
  o.raw(static_cast<std::uint64_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    o.vec(pos_[i]), o.vec(vel_[i]), o.vec(omega_[i]), o.vec(spin_step_[i]), o.raw(radius_[i]);
    o.raw(material_id_[i]), o.raw(stable_id_[i]), o.raw(fixed_[i]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    // the touching pairs of i (the list may also hold pairs within the skin, and after a
    // removal slots whose partner is gone: neither is state)
    auto saved = [&](std::uint32_t k) {
      const std::uint32_t j = nb_j_[k];
      return nb_touch_[k] && j > i && j < n && nb_partner_[k] == stable_id_[j];
    };
    const std::uint32_t k0 = i + 1 < nb_start_.size() ? nb_start_[i] : 0;
    const std::uint32_t k1 = i + 1 < nb_start_.size() ? nb_start_[i + 1] : 0;
    std::uint64_t count = 0;
    for (std::uint32_t k = k0; k < k1; ++k) count += saved(k) ? 1 : 0;
    o.raw(count);
    for (std::uint32_t k = k0; k < k1; ++k) {
      if (!saved(k)) continue;
      const Slot c = nb_.get(k);
      o.raw(nb_j_[k]), o.raw(nb_partner_[k]), o.vec(c.slip), o.vec(c.roll), o.vec(c.force_on_i);
      o.vec(c.torque_on_i), o.vec(c.torque_on_j), o.raw(c.energy);
    }
    for (const WallContact& w : walls_[i])
      o.vec(w.slip), o.vec(w.roll), o.raw(static_cast<std::uint8_t>(w.active));
    o.raw(static_cast<std::uint64_t>(shape_contacts_[i].size()));
    for (const ShapeContact& c : shape_contacts_[i])
      o.raw(c.key), o.raw(c.obstacle), o.vec(c.slip), o.vec(c.roll), o.vec(c.force),
          o.vec(c.torque), o.raw(c.depth);
    o.raw(i < wall_energy_.size() ? wall_energy_[i] : 0.0);
  }
}

void GranularSystem::load_state(const std::uint8_t* data, std::size_t size) {
  In in{data, size};
  if (size < 12 || std::memcmp(data, kGranularMagic, 8) != 0)
    throw std::invalid_argument("these bytes are not a granular system's state");
  in.p += 8, in.left -= 8;
  const auto version = in.raw<std::uint32_t>();
  if (version < 2 || version > kGranularStateVersion)
    throw std::invalid_argument("granular state version " + std::to_string(version) +
                                " is not this build's (" +
                                std::to_string(kGranularStateVersion) + ")");
  // read everything into a new system, then take it: a bad state leaves this one unchanged
  GranularSystem g({}, {}, GranularMaterial());
  const std::uint64_t nm = in.count(48, "material");
  if (nm == 0) throw std::invalid_argument("granular state has no material");
  g.materials_.clear();
  for (std::uint64_t k = 0; k < nm; ++k) g.materials_.push_back(in.material());
  g.container_.ground = in.raw<std::uint8_t>() != 0;
  g.container_.ground_height = in.raw<double>();
  check_finite(g.container_.ground_height, "ground height");
  g.container_.box = in.raw<std::uint8_t>() != 0;
  g.container_.box_min = in.vec("box corner");
  g.container_.box_max = in.vec("box corner");
  g.container_.wall = in.material();
  g.collision_group = in.raw<CollisionGroup>();
  g.collision_mask = in.raw<CollisionGroup>();
  const auto next_stable_id = in.raw<std::uint64_t>();  // set after the particles are added
  if (version >= 3) g.set_substep_factor(in.raw<double>());
  g.rebuild_pairs();
  const std::uint64_t n = in.count(93, "particle");
  std::vector<Vec3> pos(n), vel(n), omega(n), spin_step(n, Vec3::Zero());
  std::vector<double> radius(n);
  std::vector<std::uint32_t> mat(n);
  std::vector<std::uint64_t> sid(n);
  std::vector<std::uint8_t> fixed(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    pos[i] = in.vec("position"), vel[i] = in.vec("velocity"), omega[i] = in.vec("angular velocity");
    if (version >= 5) spin_step[i] = in.vec("spin step");
    radius[i] = in.raw<double>();
    mat[i] = in.raw<std::uint32_t>();
    sid[i] = in.raw<std::uint64_t>();
    fixed[i] = in.raw<std::uint8_t>();
    if (!(radius[i] > 0.0) || !std::isfinite(radius[i]))
      throw std::invalid_argument("granular state holds a radius that is not finite and > 0");
    if (mat[i] >= nm) throw std::invalid_argument("granular state holds an unknown material id");
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    g.add_particles({pos[i]}, {radius[i]}, mat[i]);
    g.vel_[i] = vel[i], g.omega_[i] = omega[i], g.spin_step_[i] = spin_step[i];
    g.stable_id_[i] = sid[i], g.fixed_[i] = fixed[i];
  }
  g.next_stable_id_ = next_stable_id;
  g.wall_energy_.assign(n, 0.0);
  g.nb_start_.assign(n + 1, 0);
  g.nb_j_.clear(), g.nb_partner_.clear(), g.nb_.clear(), g.nb_touch_.clear();
  for (std::uint64_t i = 0; i < n; ++i) {
    // the touching pairs, as the history the first list build carries over
    const std::uint64_t nc = in.count(8, "contact");
    for (std::uint64_t k = 0; k < nc; ++k) {
      Slot c;
      const auto j = in.raw<std::uint32_t>();
      if (j >= n || j <= i) throw std::invalid_argument("granular state holds a bad contact");
      const auto partner = in.raw<std::uint64_t>();
      c.slip = in.vec("slip"), c.roll = in.vec("roll"), c.force_on_i = in.vec("force");
      c.torque_on_i = in.vec("torque"), c.torque_on_j = in.vec("torque");
      c.energy = in.raw<double>();
      g.nb_touch_.push_back(1);
      g.nb_j_.push_back(j);
      g.nb_partner_.push_back(partner);
      g.nb_.push_back(c);
    }
    g.nb_start_[i + 1] = static_cast<std::uint32_t>(g.nb_.size());
    for (int k = 0; k < kWalls; ++k) {
      WallContact& w = g.walls_[i][k];
      w.slip = in.vec("slip"), w.roll = in.vec("roll");
      w.active = in.raw<std::uint8_t>() != 0;
      if (w.active) g.wall_active_[i] = static_cast<std::uint8_t>(g.wall_active_[i] | (1u << k));
    }
    const std::uint64_t ns = in.count(8, "shape contact");
    for (std::uint64_t k = 0; k < ns; ++k) {
      ShapeContact c;
      c.key = in.raw<std::uint64_t>();
      c.obstacle = in.raw<std::uint32_t>();
      c.slip = in.vec("slip"), c.roll = in.vec("roll"), c.force = in.vec("force");
      c.torque = in.vec("torque");
      if (version >= 4) c.depth = in.raw<double>();
      check_finite(c.depth, "shape contact depth");
      g.shape_contacts_[i].push_back(c);
    }
    g.wall_energy_[i] = in.raw<double>();
  }
  if (in.left != 0) throw std::invalid_argument("granular state bytes have extra data at the end");
  g.num_threads = num_threads;
  *this = std::move(g);
}

}  // namespace torsion
