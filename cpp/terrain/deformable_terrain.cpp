// Deformable terrain: the soil law, the per-step update and the World's stage (see
// deformable_terrain.hpp for the model).
#include "terrain/deformable_terrain.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/check.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "dynamics/rigid_body.hpp"
#include "geometry/aabb.hpp"
#include "math/constants.hpp"
#include "query/ray_shapes.hpp"
#include "world/articulated_system.hpp"
#include "world/collision_shapes.hpp"
#include "world/world.hpp"

namespace torsion {

namespace {

// the shear displacement's length is capped here, in units of K: tau is then within
// exp(-8) = 0.03 % of tau_max (deformable_terrain.hpp, "shear")
constexpr double kShearCap = 8.0;
// a column meeting the shape's surface where it is steeper than acos(0.2) = 78 degrees (a
// vertical face's edge, a ray grazing a flat end) carries no load: dividing its area by |n_z|
// would blow the pressure up into a horizontal force
constexpr double kMinNormalZ = 0.2;

// The total sinkage s of a node carrying the pressure p (Pa) of the particles resting on it,
// from its plastic sinkage zp and its total sinkage s0 of the last step: the soil's pressure
// (elastic from zp, k_e (s - zp), up to the Bekker-Wong yield curve k s^n) plus the damping
// pressure c (s - s0), c = r / dt, while the node sinks, equals p. Implicit in s: the damping is
// stiff (c k_e-like) for an explicit rate. The function is increasing in s, so a Newton
// iteration kept inside a shrinking bracket [lo, hi] finds its root.
double loaded_sinkage(double k_e, double modulus, double n, double c, double p, double zp,
                      double s0) {
  double lo = zp, hi;
  if (modulus > 0.0) {
    hi = std::max(zp + p / k_e, std::pow(p / modulus, 1.0 / n));
  } else if (c > 0.0) {
    hi = std::max(zp, s0) + p / c;  // the damping alone carries the load
  } else {
    // no modulus (k_c / b + k_phi <= 0) and no damping: the soil carries nothing; it gives
    // the elastic sinkage of the load beyond where it was in each step
    return std::max(zp, s0) + p / k_e;
  }
  if (c > 0.0) hi = std::max(hi, lo);
  double s = std::min(std::max(s0, lo), hi);
  for (int it = 0; it < 200; ++it) {
    const double elastic = k_e * (s - zp);
    const double yield = modulus * std::pow(std::max(s, 0.0), n);
    double g, dg;
    if (elastic <= yield) {
      g = elastic, dg = k_e;
    } else {
      g = yield, dg = s > 0.0 ? modulus * n * std::pow(s, n - 1.0) : k_e;
    }
    if (s > s0) g += c * (s - s0), dg += c;
    g -= p;
    if (g == 0.0) return s;
    if (g < 0.0) lo = s; else hi = s;
    if (!(hi - lo > 1e-15 * (1.0 + std::abs(hi)))) return 0.5 * (lo + hi);
    double next = s - g / dg;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - s) < 1e-16 * (1.0 + std::abs(s))) return next;
    s = next;
  }
  return s;
}

void check_range(double v, double lo, double hi, const char* name, const char* what) {
  if (!std::isfinite(v) || v < lo || v > hi)
    throw_invalid(std::string(name) + " must be " + what + ", got " + fmt(v));
}

}  // namespace

void validate_soil_material(const SoilMaterial& m) {
  check_finite(m.k_c, "k_c");
  check_non_negative(m.k_phi, "k_phi");
  check_positive(m.n, "n");
  if (m.n > 10.0) throw_invalid("n must be <= 10, got " + fmt(m.n));
  check_non_negative(m.cohesion, "cohesion");
  check_range(m.friction_angle, 0.0, 0.5 * kPi - 1e-6, "friction_angle",
              "in [0, pi/2) rad");
  check_positive(m.janosi_shear, "janosi_shear");
  check_positive(m.elastic_stiffness, "elastic_stiffness");
  check_non_negative(m.damping, "damping");
  check_range(m.bulldozing_flow, 0.0, 1.0, "bulldozing_flow", "in [0, 1]");
  check_range(m.erosion_angle, 1e-6, 0.5 * kPi - 1e-6, "erosion_angle", "in (0, pi/2) rad");
  if (m.erosion_iterations < 0 || m.erosion_iterations > 100)
    throw_invalid("erosion_iterations must be in [0, 100], got " +
                  std::to_string(m.erosion_iterations));
}

double bekker_pressure(const SoilMaterial& m, double s, double b) {
  if (!(s > 0.0)) return 0.0;
  // k_c may be negative in fitted soil tables (Wong's clayey soils); the modulus stays >= 0
  const double modulus = std::max(0.0, m.k_c / b + m.k_phi);
  return modulus * std::pow(s, m.n);
}

DeformableTerrain::DeformableTerrain(ObjectId id, std::shared_ptr<const HeightMapData> initial,
                                     double center_x, double center_y, const SoilMaterial& soil)
    : SingleBodyObject(id, ObjectType::kHeightMap,
                       Shape::height_map_shape(initial ? initial
                                                       : throw std::invalid_argument(
                                                             "heights must not be null")),
                       0.0),
      initial_(std::move(initial)),
      soil_(soil) {
  check_finite(center_x, "center_x");
  check_finite(center_y, "center_y");
  validate_soil_material(soil);
  const std::vector<double>& h = initial_->heights();
  for (std::size_t i = 0; i < h.size(); ++i)
    if (!std::isfinite(h[i]))
      throw_invalid("heights must be finite (a deformable terrain has no holes), got " +
                    fmt(h[i]) + " at index " + std::to_string(i));
  body().position = Vec3(center_x, center_y, 0.0);
  update_body_kinematics(body());
  const std::size_t n = h.size();
  level_ = h;
  reference_ = h;
  plastic_.assign(n, 0.0);
  sigma_.assign(n, 0.0);
  shear_.assign(n, Vec3::Zero());
  touched_.assign(n, 0);
  hits_.assign(n, Hit());
  load_.assign(n, 0.0);
  pressed_.assign(n, 0);
  patch_.assign(n, -1);
  rebuild_derived();
}

void DeformableTerrain::rebuild_derived() {
  touched_list_.clear();
  top_ = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < level_.size(); ++i) {
    if (touched_[i]) touched_list_.push_back(static_cast<std::uint32_t>(i));
    top_ = std::max(top_, reference_[i] - plastic_[i]);
  }
}

void DeformableTerrain::append_collision_shapes(std::vector<CollisionShapeEntry>& out) const {
  // a heightmap's entry; the collision detection leaves it out (as_deformable_terrain), the
  // soil stage, rays, cameras and particles read it
  SingleBodyObject::append_collision_shapes(out);
}

void DeformableTerrain::set_soil(const SoilMaterial& m) {
  require_between_steps("set_material");
  validate_soil_material(m);
  mark_modified();
  soil_ = m;
}

void DeformableTerrain::reset() {
  require_between_steps("reset");
  mark_modified();
  const std::vector<double>& h = initial_->heights();
  level_ = h;
  reference_ = h;
  std::fill(plastic_.begin(), plastic_.end(), 0.0);
  std::fill(sigma_.begin(), sigma_.end(), 0.0);
  std::fill(shear_.begin(), shear_.end(), Vec3::Zero());
  std::fill(touched_.begin(), touched_.end(), std::uint8_t(0));
  contacts_.clear();
  particle_contact_ = SoilContact();
  dirty_.clear();
  own_.reset();
  mutable_shape().height_map = initial_;
  rebuild_derived();
}

DeformableTerrain::State DeformableTerrain::state() const {
  return {level_, reference_, plastic_, sigma_, shear_, touched_};
}

void DeformableTerrain::check_state(const State& s, std::size_t n) {
  auto sized = [n](std::size_t got, const char* name) {
    if (got != n)
      throw_invalid(std::string(name) + " must hold " + std::to_string(n) + " nodes, got " +
                    std::to_string(got));
  };
  sized(s.level.size(), "level");
  sized(s.reference.size(), "reference");
  sized(s.plastic.size(), "plastic_sinkage");
  sized(s.sigma.size(), "pressure");
  sized(s.shear.size(), "shear_displacement");
  sized(s.touched.size(), "in_contact");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(s.level[i]) || !std::isfinite(s.reference[i]))
      throw_invalid("soil levels must be finite (node " + std::to_string(i) + ")");
    if (!std::isfinite(s.plastic[i]))
      throw_invalid("plastic sinkage must be finite (node " + std::to_string(i) + ")");
    if (!std::isfinite(s.sigma[i]) || s.sigma[i] < 0.0)
      throw_invalid("soil pressure must be finite and >= 0 (node " + std::to_string(i) + ")");
    if (!s.shear[i].allFinite())
      throw_invalid("shear displacement must be finite (node " + std::to_string(i) + ")");
    if (s.touched[i] > 1)
      throw_invalid("in_contact flags must be 0 or 1 (node " + std::to_string(i) + ")");
  }
}

void DeformableTerrain::restore(const SoilMaterial& m, State s) {
  soil_ = m;
  level_ = std::move(s.level);
  reference_ = std::move(s.reference);
  plastic_ = std::move(s.plastic);
  sigma_ = std::move(s.sigma);
  shear_ = std::move(s.shear);
  touched_ = std::move(s.touched);
  contacts_.clear();
  particle_contact_ = SoilContact();
  rebuild_derived();
  // the samples made anew (their bounds tight again)
  dirty_.clear();
  const HeightMapData& c = current();
  if (c.heights() != level_) {
    own_ = std::make_shared<HeightMapData>(c.x_samples(), c.y_samples(), c.x_size(), c.y_size(),
                                           level_);
    mutable_shape().height_map = own_;
  }
}

void DeformableTerrain::state_written() {
  contacts_.clear();
  particle_contact_ = SoilContact();
  rebuild_derived();
  // every node's level into the surface (in place when the samples are this terrain's alone)
  dirty_.resize(level_.size());
  for (std::size_t i = 0; i < dirty_.size(); ++i) dirty_[i] = static_cast<std::uint32_t>(i);
  publish_levels();
}

void DeformableTerrain::publish_levels() {
  if (dirty_.empty()) return;
  // in place: the shape holds this terrain's own samples and no one else does (own_ and the
  // shape are its two owners); a ray scene snapshot or a cloned heightmap keeps what it saw
  if (own_ && mutable_shape().height_map == own_ && own_.use_count() == 2) {
    for (std::uint32_t idx : dirty_) own_->set_sample_in_place(idx, level_[idx]);
  } else {
    const HeightMapData& c = current();
    own_ = std::make_shared<HeightMapData>(c.x_samples(), c.y_samples(), c.x_size(), c.y_size(),
                                           level_);
    mutable_shape().height_map = own_;
  }
  dirty_.clear();
}

namespace {

// one collision shape over the terrain in this step
struct Candidate {
  const CollisionShapeEntry* entry = nullptr;
  Pose pose;
  // torques are about it: the body's centre of mass, the link's shape origin
  Vec3 origin = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  ArticulatedSystem* system = nullptr;
  bool pushes = false;  // receives the forces (a dynamic body, an awake robot's link)
  // the patch: nodes, sums of the node coordinates relative to the first node (for b)
  std::uint32_t nodes = 0;
  double ox = 0.0, oy = 0.0;
  double sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0;
  double b = 0.0;
  double displaced = 0.0;  // plastic volume pushed down in this step (m^3)
  int i_lo = 0, i_hi = -1, j_lo = 0, j_hi = -1;  // the patch's node bounds
  SoilContact out;
  double weight = 0.0;  // sum of the vertical force (for the centre of the loaded nodes)
  Vec3 weighted_point = Vec3::Zero();
};

}  // namespace

void DeformableTerrain::step(World& world, double dt) {
  const HeightMapData& grid = current();
  const int nx = grid.x_samples(), ny = grid.y_samples();
  const double dx = grid.dx(), dy = grid.dy();
  const double cell = dx * dy;
  const Vec3 centre = body().position;
  const double x0 = centre.x() - 0.5 * grid.x_size(), y0 = centre.y() - 0.5 * grid.y_size();
  // above the highest elastic surface (reference - plastic sinkage: the level a node's
  // pressure is 0 at; a pressed node's level is at or below it)
  const double top = centre.z() + top_;
  const CollisionGroup my_group = collision().group, my_mask = collision().mask;
  contacts_.clear();
  particle_contact_ = SoilContact();

  // the shapes that may touch it, in collision-shape order
  std::vector<Candidate> cands;
  const std::vector<CollisionShapeEntry>& entries = world.collision_shapes().entries();
  for (const CollisionShapeEntry& e : entries) {
    if (e.object == this) continue;
    if (e.shape->type == ShapeType::kGround || e.shape->type == ShapeType::kHeightMap) continue;
    if (!((e.filter->group & my_mask) && (my_group & e.filter->mask))) continue;
    Candidate c;
    c.entry = &e;
    e.world_pose(c.pose);
    const Aabb box = shape_aabb(*e.shape, c.pose, 0.0);
    if (!(box.min.z() < top)) continue;
    c.i_lo = std::max(0, static_cast<int>(std::ceil((box.min.x() - x0) / dx)));
    c.i_hi = std::min(nx - 1, static_cast<int>(std::floor((box.max.x() - x0) / dx)));
    c.j_lo = std::max(0, static_cast<int>(std::ceil((box.min.y() - y0) / dy)));
    c.j_hi = std::min(ny - 1, static_cast<int>(std::floor((box.max.y() - y0) / dy)));
    if (c.i_lo > c.i_hi || c.j_lo > c.j_hi) continue;
    if (e.body) {
      c.origin = e.body->position;
      if (e.body->type != BodyType::kStatic) {
        c.velocity = e.body->linear_velocity;
        c.angular_velocity = e.body->angular_velocity;
      }
      c.pushes = e.body->is_dynamic() && !e.object->is_sleeping();
    } else if (e.system) {
      c.system = static_cast<ArticulatedSystem*>(e.object);
      c.origin = c.pose.position;
      c.pushes = !e.object->is_sleeping();
    }
    // rays up the columns under its bounds, from below them
    const double start_z = box.min.z() - 0.01 * (1.0 + (box.max.z() - box.min.z()));
    const auto k = static_cast<std::int32_t>(cands.size());
    bool any = false;
    for (int j = c.j_lo; j <= c.j_hi; ++j) {
      for (int i = c.i_lo; i <= c.i_hi; ++i) {
        const std::size_t idx = static_cast<std::size_t>(j) * nx + i;
        // in contact below the elastic surface, where the pressure starts
        const double level = centre.z() + reference_[idx] - plastic_[idx];
        if (!(box.min.z() < level)) continue;
        const Vec3 start(x0 + i * dx, y0 + j * dy, start_z);
        ShapeRayHit hit;
        if (!ray_shape(*e.shape, c.pose, start, Vec3::UnitZ(), level - start_z, hit)) continue;
        const double z = start_z + hit.t;
        if (!(z < level) || !(-hit.normal.z() >= kMinNormalZ)) continue;
        Hit& h = hits_[idx];
        if (h.shape < 0) {
          hit_nodes_.push_back(static_cast<std::uint32_t>(idx));
        } else if (!(z < h.z)) {
          continue;  // another shape is lower in this column
        }
        h.shape = k;
        h.z = z;
        h.normal = hit.normal;
        any = true;
      }
    }
    if (any) cands.push_back(c);
  }
  std::sort(hit_nodes_.begin(), hit_nodes_.end());
  // the patches' smaller dimension b, from their nodes' second moments
  for (std::uint32_t idx : hit_nodes_) {
    Candidate& c = cands[static_cast<std::size_t>(hits_[idx].shape)];
    const double x = (idx % nx) * dx, y = static_cast<double>(idx / nx) * dy;
    if (c.nodes == 0) {
      c.ox = x;
      c.oy = y;
    }
    const double rx = x - c.ox, ry = y - c.oy;
    ++c.nodes;
    c.sx += rx;
    c.sy += ry;
    c.sxx += rx * rx;
    c.syy += ry * ry;
    c.sxy += rx * ry;
  }
  for (Candidate& c : cands) {
    if (c.nodes == 0) continue;
    const double n = c.nodes;
    const double mx = c.sx / n, my = c.sy / n;
    // per unit area, each node a dx by dy cell
    const double cxx = c.sxx / n - mx * mx + dx * dx / 12.0;
    const double cyy = c.syy / n - my * my + dy * dy / 12.0;
    const double cxy = c.sxy / n - mx * my;
    const double half = 0.5 * (cxx + cyy);
    const double diff = 0.5 * (cxx - cyy);
    const double lambda_min = half - std::sqrt(diff * diff + cxy * cxy);
    c.b = std::max(std::min(dx, dy), std::sqrt(12.0 * std::max(0.0, lambda_min)));
    if (c.system) c.system->ensure_velocities();
  }

  // the soil law, node by node in index order (sums in a fixed order: deterministic)
  const SoilMaterial& m = soil_;
  const double tan_phi = std::tan(m.friction_angle);
  for (std::uint32_t idx : hit_nodes_) {
    Hit& h = hits_[idx];
    Candidate& c = cands[static_cast<std::size_t>(h.shape)];
    const double local_z = h.z - centre.z();
    const double s = reference_[idx] - local_z;  // total sinkage
    double zp = plastic_[idx];
    const double elastic = m.elastic_stiffness * (s - zp);
    const double yield = bekker_pressure(m, s, c.b);
    double sigma;
    if (elastic > yield) {  // plastic flow: the pressure stays on the Bekker-Wong curve
      sigma = yield;
      const double zp_new = s - yield / m.elastic_stiffness;
      if (zp_new > zp) {
        c.displaced += (zp_new - zp) * cell;
        zp = zp_new;
      }
    } else {
      sigma = std::max(0.0, elastic);
    }
    plastic_[idx] = zp;
    const Vec3 p(x0 + (idx % nx) * dx, y0 + static_cast<double>(idx / nx) * dy, h.z);
    Vec3 v;
    if (c.system) {
      v = body_point_velocity(c.system->data(), c.entry->link, p);
    } else {
      v = c.velocity + c.angular_velocity.cross(p - c.origin);
    }
    // pressure into the shape (against its outward normal), damped while loading
    const Vec3 nrm = h.normal;
    const double nz = -nrm.z();  // >= kMinNormalZ
    double pressure = sigma;
    if (sigma > 0.0) pressure = std::max(0.0, sigma - m.damping * v.z());
    // Janosi-Hanamoto shear from the accumulated slip in the tangent plane
    const Vec3 vt = v - v.dot(nrm) * nrm;
    Vec3 j = shear_[idx] + dt * vt;
    j -= j.dot(nrm) * nrm;
    const double jl = j.norm();
    const double cap = kShearCap * m.janosi_shear;
    if (jl > cap) j *= cap / jl;
    shear_[idx] = j;
    Vec3 f = (pressure * cell / nz) * (-nrm);
    const double jn = std::min(jl, cap);
    if (jn > 0.0 && sigma > 0.0) {
      const double tau_max = m.cohesion + sigma * tan_phi;
      const double tau = tau_max * (1.0 - std::exp(-jn / m.janosi_shear));
      f -= (tau * cell / nz / jn) * j;
    }
    // the shear law is elastic below its plateau (j below a few K, where a reversed slip
    // unloads along it): damped there by the material's damping scaled by the curve's remaining
    // slope, exp(-j / K), so that a body at rest does not ring on it; a saturated, slipping
    // contact (a driven wheel) is not damped
    if (sigma > 0.0 && m.damping > 0.0)
      f -= (m.damping * std::exp(-jn / m.janosi_shear) * cell / nz) * vt;
    sigma_[idx] = pressure;
    // the surface: the shape's (elastic rebound), or the deepest it was pressed to (none)
    level_[idx] = m.elastic_rebound ? local_z : std::min(level_[idx], local_z);
    mark_level(idx);
    touched_[idx] = 1;
    SoilContact& out = c.out;
    out.force += f;
    out.torque += (p - c.origin).cross(f);
    out.max_sinkage = std::max(out.max_sinkage, s);
    ++out.nodes;
    c.weight += std::abs(f.z());
    c.weighted_point += std::abs(f.z()) * p;
    const int i = static_cast<int>(idx % nx), jj = static_cast<int>(idx / nx);
    c.i_lo = out.nodes == 1 ? i : std::min(c.i_lo, i);
    c.i_hi = out.nodes == 1 ? i : std::max(c.i_hi, i);
    c.j_lo = out.nodes == 1 ? jj : std::min(c.j_lo, jj);
    c.j_hi = out.nodes == 1 ? jj : std::max(c.j_hi, jj);
  }

  // the granular particles' loads on the nodes no shape claims
  press_by_particles(x0, y0, dt);

  // nodes that left contact: elastic rebound, or the whole sinkage kept
  for (std::uint32_t idx : touched_list_) {
    if (hits_[idx].shape >= 0 || pressed_[idx]) continue;
    mark_level(idx);
    if (m.elastic_rebound) {
      level_[idx] = reference_[idx] - plastic_[idx];
    } else {
      plastic_[idx] = std::max(plastic_[idx], reference_[idx] - level_[idx]);
      level_[idx] = reference_[idx] - plastic_[idx];
    }
    sigma_[idx] = 0.0;
    shear_[idx].setZero();
    touched_[idx] = 0;
  }

  // bulldozing: each patch's displaced volume onto its rim, then the rim erodes
  if (m.bulldozing && m.bulldozing_flow > 0.0) {
    std::vector<std::uint32_t> rim;
    for (std::size_t k = 0; k < cands.size(); ++k) {
      Candidate& c = cands[k];
      if (!(c.displaced > 0.0)) continue;
      rim.clear();
      for (int j = std::max(0, c.j_lo - 1); j <= std::min(ny - 1, c.j_hi + 1); ++j) {
        for (int i = std::max(0, c.i_lo - 1); i <= std::min(nx - 1, c.i_hi + 1); ++i) {
          const std::size_t idx = static_cast<std::size_t>(j) * nx + i;
          if (hits_[idx].shape >= 0) continue;
          // next to a node of this patch (4-neighbourhood)
          auto mine = [&](int a, int b2) {
            if (a < 0 || b2 < 0 || a >= nx || b2 >= ny) return false;
            const std::size_t at = static_cast<std::size_t>(b2) * nx + a;
            return hits_[at].shape == static_cast<std::int32_t>(k);
          };
          if (mine(i - 1, j) || mine(i + 1, j) || mine(i, j - 1) || mine(i, j + 1))
            rim.push_back(static_cast<std::uint32_t>(idx));
        }
      }
      if (rim.empty()) continue;  // the patch covers the whole grid's edge: the soil is lost
      const double rise =
          m.bulldozing_flow * c.displaced / (cell * static_cast<double>(rim.size()));
      for (std::uint32_t idx : rim) {
        level_[idx] += rise;
        reference_[idx] += rise;
        top_ = std::max(top_, reference_[idx] - plastic_[idx]);
        mark_level(idx);
      }
      // erosion over the patch's neighbourhood: a slope steeper than the erosion angle between
      // two free nodes moves half its excess height to the lower one (volume kept)
      const int margin = 4;
      const int i0 = std::max(0, c.i_lo - margin), i1 = std::min(nx - 1, c.i_hi + margin);
      const int j0 = std::max(0, c.j_lo - margin), j1 = std::min(ny - 1, c.j_hi + margin);
      const double slope = std::tan(m.erosion_angle);
      for (int it = 0; it < m.erosion_iterations; ++it) {
        for (int j = j0; j <= j1; ++j) {
          for (int i = i0; i <= i1; ++i) {
            const std::size_t a = static_cast<std::size_t>(j) * nx + i;
            if (hits_[a].shape >= 0) continue;
            for (int dir = 0; dir < 2; ++dir) {
              const int bi = dir == 0 ? i + 1 : i, bj = dir == 0 ? j : j + 1;
              if (bi > i1 || bj > j1) continue;
              const std::size_t b2 = static_cast<std::size_t>(bj) * nx + bi;
              if (hits_[b2].shape >= 0) continue;
              const double limit = slope * (dir == 0 ? dx : dy);
              const double d = level_[a] - level_[b2];
              if (std::abs(d) <= limit) continue;
              const double move = 0.5 * (std::abs(d) - limit) * (d > 0.0 ? 1.0 : -1.0);
              level_[a] -= move;
              reference_[a] -= move;
              level_[b2] += move;
              reference_[b2] += move;
              mark_level(a);
              mark_level(b2);
            }
          }
        }
      }
    }
  }

  // forces into the dynamics of this step, reports in shape order
  for (Candidate& c : cands) {
    if (c.out.nodes == 0) continue;
    SoilContact& out = c.out;
    out.object = c.entry->object->id();
    out.local_index = c.entry->local_index;
    out.area = out.nodes * cell;
    out.b = c.b;
    out.point = c.weight > 0.0 ? Vec3(c.weighted_point / c.weight) : c.origin;
    contacts_.push_back(out);
    if (!c.pushes) continue;
    if (c.entry->body) {
      RigidBody& b = static_cast<SingleBodyObject*>(c.entry->object)->body();
      b.external_force += out.force;
      b.external_torque += out.torque;
    } else if (c.system) {
      c.system->add_external_force(c.entry->link, out.force, c.origin);
      c.system->add_external_torque(c.entry->link, out.torque);
    }
  }
  // the nodes in contact now: pressed by a shape (hit_nodes_) or by particles (load_nodes_),
  // both sorted and disjoint
  touched_list_.clear();
  std::merge(hit_nodes_.begin(), hit_nodes_.end(), load_nodes_.begin(), load_nodes_.end(),
             std::back_inserter(touched_list_));
  for (std::uint32_t idx : hit_nodes_) hits_[idx] = Hit();
  hit_nodes_.clear();
  for (std::uint32_t idx : load_nodes_) pressed_[idx] = 0;
  load_nodes_.clear();
  publish_levels();
}

void DeformableTerrain::press_by_particles(double x0, double y0, double dt) {
  load_nodes_.clear();
  if (particle_loads_.empty()) return;
  const HeightMapData& grid = current();
  const int nx = grid.x_samples(), ny = grid.y_samples();
  const double dx = grid.dx(), dy = grid.dy();
  const double cell = dx * dy;
  // each push's vertical part spread over the nodes around its particle with a tent of half
  // width one particle diameter (at least one grid spacing: then it is the bilinear split over
  // the four nodes of its cell). A layer of particles one diameter apart then loads the soil
  // evenly, as a plate would, and a grid finer than the grains is not punched node by node.
  // The weights are normalised over the nodes on the grid, so the soil takes exactly the load
  // the particles put on the surface (action = reaction).
  std::vector<std::uint32_t>& touched = load_nodes_;
  for (const GranularPointLoad& pl : particle_loads_) {
    const double fz = -pl.force.z();  // the push down on the soil
    if (fz == 0.0 || !std::isfinite(fz)) continue;
    const double u = (pl.centre.x() - x0) / dx, v = (pl.centre.y() - y0) / dy;
    const double ax = std::max(1.0, 2.0 * pl.radius / dx), ay = std::max(1.0, 2.0 * pl.radius / dy);
    const int i0 = std::max(0, static_cast<int>(std::floor(u - ax)) + 1);
    const int i1 = std::min(nx - 1, static_cast<int>(std::ceil(u + ax)) - 1);
    const int j0 = std::max(0, static_cast<int>(std::floor(v - ay)) + 1);
    const int j1 = std::min(ny - 1, static_cast<int>(std::ceil(v + ay)) - 1);
    if (i0 > i1 || j0 > j1) continue;  // off the grid (cannot touch its surface)
    double wx_sum = 0.0, wy_sum = 0.0;
    for (int i = i0; i <= i1; ++i) wx_sum += std::max(0.0, 1.0 - std::abs(i - u) / ax);
    for (int j = j0; j <= j1; ++j) wy_sum += std::max(0.0, 1.0 - std::abs(j - v) / ay);
    if (!(wx_sum > 0.0 && wy_sum > 0.0)) continue;
    const double scale = fz / (wx_sum * wy_sum);
    for (int j = j0; j <= j1; ++j) {
      const double wy = std::max(0.0, 1.0 - std::abs(j - v) / ay);
      if (wy == 0.0) continue;
      for (int i = i0; i <= i1; ++i) {
        const double wx = std::max(0.0, 1.0 - std::abs(i - u) / ax);
        if (wx == 0.0) continue;
        const std::size_t idx = static_cast<std::size_t>(j) * nx + i;
        if (!pressed_[idx]) {
          pressed_[idx] = 1;
          touched.push_back(static_cast<std::uint32_t>(idx));
        }
        load_[idx] += scale * wx * wy;
      }
    }
  }
  particle_loads_.clear();
  std::sort(touched.begin(), touched.end());
  // a node a shape presses is the shape's (its surface sets the level); nodes left with no
  // push down carry nothing
  std::size_t kept = 0;
  for (std::uint32_t idx : touched) {
    if (hits_[idx].shape >= 0 || !(load_[idx] > 0.0)) {
      pressed_[idx] = 0;
      load_[idx] = 0.0;
      continue;
    }
    touched[kept++] = idx;
  }
  touched.resize(kept);
  if (touched.empty()) return;

  // the patches: 4-connected groups of loaded nodes, each with its own b (as a shape's patch,
  // from the second moments of its nodes), found in index order
  struct Patch {
    double n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0, ox = 0.0, oy = 0.0;
    double b = 0.0;
  };
  std::vector<Patch> patches;
  std::vector<std::uint32_t> stack;
  for (std::uint32_t start : touched) {
    if (patch_[start] >= 0) continue;
    const auto id = static_cast<std::int32_t>(patches.size());
    Patch pa;
    pa.ox = (start % nx) * dx;
    pa.oy = static_cast<double>(start / nx) * dy;
    patch_[start] = id;
    stack.assign(1, start);
    while (!stack.empty()) {
      const std::uint32_t idx = stack.back();
      stack.pop_back();
      const int i = static_cast<int>(idx % nx), j = static_cast<int>(idx / nx);
      const double rx = i * dx - pa.ox, ry = j * dy - pa.oy;
      pa.n += 1.0;
      pa.sx += rx, pa.sy += ry, pa.sxx += rx * rx, pa.syy += ry * ry, pa.sxy += rx * ry;
      const int ni[4] = {i - 1, i + 1, i, i}, nj[4] = {j, j, j - 1, j + 1};
      for (int q = 0; q < 4; ++q) {
        if (ni[q] < 0 || nj[q] < 0 || ni[q] >= nx || nj[q] >= ny) continue;
        const std::size_t at = static_cast<std::size_t>(nj[q]) * nx + ni[q];
        if (!pressed_[at] || patch_[at] >= 0) continue;
        patch_[at] = id;
        stack.push_back(static_cast<std::uint32_t>(at));
      }
    }
    const double mx = pa.sx / pa.n, my = pa.sy / pa.n;
    const double cxx = pa.sxx / pa.n - mx * mx + dx * dx / 12.0;
    const double cyy = pa.syy / pa.n - my * my + dy * dy / 12.0;
    const double cxy = pa.sxy / pa.n - mx * my;
    const double half = 0.5 * (cxx + cyy), diff = 0.5 * (cxx - cyy);
    const double lambda_min = half - std::sqrt(diff * diff + cxy * cxy);
    pa.b = std::max(std::min(dx, dy), std::sqrt(12.0 * std::max(0.0, lambda_min)));
    patches.push_back(pa);
  }

  // each node sinks until the soil (plus its damping while sinking) carries its pressure
  const SoilMaterial& m = soil_;
  const double c = m.damping / dt;
  const Vec3 centre = body().position;
  SoilContact& out = particle_contact_;
  double widest = 0.0, weight = 0.0;
  Vec3 weighted_point = Vec3::Zero();
  for (std::uint32_t idx : touched) {
    const Patch& pa = patches[static_cast<std::size_t>(patch_[idx])];
    const double p = load_[idx] / cell;
    const double modulus = std::max(0.0, m.k_c / pa.b + m.k_phi);
    const double s0 = reference_[idx] - level_[idx];
    double zp = plastic_[idx];
    const double s = loaded_sinkage(m.elastic_stiffness, modulus, m.n, c, p, zp, s0);
    // beyond the yield curve the soil flowed: the plastic sinkage is what stays unloaded
    const double yield = modulus * std::pow(std::max(s, 0.0), m.n);
    if (yield < m.elastic_stiffness * (s - zp)) zp = std::max(zp, s - yield / m.elastic_stiffness);
    plastic_[idx] = zp;
    const double local_z = reference_[idx] - s;
    level_[idx] = m.elastic_rebound ? local_z : std::min(level_[idx], local_z);
    sigma_[idx] = p;
    shear_[idx].setZero();
    touched_[idx] = 1;
    mark_level(idx);
    out.force.z() += load_[idx];
    out.max_sinkage = std::max(out.max_sinkage, s);
    ++out.nodes;
    widest = std::max(widest, pa.b);
    const Vec3 at(x0 + (idx % nx) * dx, y0 + static_cast<double>(idx / nx) * dy,
                  centre.z() + level_[idx]);
    weight += load_[idx];
    weighted_point += load_[idx] * at;
  }
  out.area = out.nodes * cell;
  out.b = widest;
  out.point = weight > 0.0 ? Vec3(weighted_point / weight) : Vec3::Zero();
  for (std::uint32_t idx : touched) load_[idx] = 0.0, patch_[idx] = -1;
}

DeformableTerrain* as_deformable_terrain(Object& o) {
  if (o.type() != ObjectType::kHeightMap) return nullptr;
  return dynamic_cast<DeformableTerrain*>(&o);
}
const DeformableTerrain* as_deformable_terrain(const Object& o) {
  if (o.type() != ObjectType::kHeightMap) return nullptr;
  return dynamic_cast<const DeformableTerrain*>(&o);
}

DeformableTerrain& add_deformable_terrain(World& world, long long x_samples, long long y_samples,
                                          double x_size, double y_size, double center_x,
                                          double center_y, std::vector<double> heights,
                                          const SoilMaterial& soil, const std::string& material,
                                          CollisionGroup group, CollisionGroup mask) {
  if (world.is_mid_step())
    throw std::logic_error("adding an object is not allowed between integrate1() and integrate2()");
  check_material_name(material, "material");
  auto data = std::make_shared<const HeightMapData>(x_samples, y_samples, x_size, y_size,
                                                    std::move(heights));
  auto obj = std::make_unique<DeformableTerrain>(world.next_object_id(), std::move(data),
                                                 center_x, center_y, soil);
  obj->collision().material = material;
  obj->collision().group = group;
  obj->collision().mask = mask;
  return static_cast<DeformableTerrain&>(world.add_object(std::move(obj)));
}

bool has_deformable_terrain(const World& world) {
  for (const auto& o : world.objects())
    if (as_deformable_terrain(*o)) return true;
  return false;
}

void stage_deformable_terrain(World& world, double dt) {
  for (const auto& o : world.objects())
    if (DeformableTerrain* t = as_deformable_terrain(*o)) t->step(world, dt);
}

}  // namespace torsion
