// Wires (world/wires.hpp): the World's methods that add, find and remove them, their geometry,
// and the wire stages of a step (world/wire_stages.hpp).
#include "world/wires.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contact/contact_problem.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "world/articulated_system.hpp"
#include "world/wire_stages.hpp"
#include "world/world.hpp"

namespace torsion {

const char* wire_kind_name(WireKind kind) {
  switch (kind) {
    case WireKind::kStiff: return "stiff";
    case WireKind::kCompliant: return "compliant";
    case WireKind::kCustom: return "custom";
  }
  return "unknown";
}

namespace {

// ends closer than this (m) have no direction: the wire neither pulls nor has a row
constexpr double kMinWireLength = 1e-12;

bool is_articulated(const Object& o) { return o.type() == ObjectType::kArticulatedSystem; }

// the world point of a wire end (needs the object's kinematics: rotation of a single body from
// its orientation, a robot's link poses from ensure_kinematics or the step)
Vec3 end_point(const Object& o, const WireEnd& e) {
  if (is_articulated(o)) {
    const ArticulatedData& d = static_cast<const ArticulatedSystem&>(o).data();
    return d.body_position[e.local] + d.body_rotation[e.local] * e.position_b;
  }
  const RigidBody& b = static_cast<const SingleBodyObject&>(o).body();
  return b.position + b.orientation * e.position_b;
}

// world velocity of the material point at `p` of a wire end's body
Vec3 end_velocity(const Object& o, const WireEnd& e, const Vec3& p) {
  if (is_articulated(o))
    return body_point_velocity(static_cast<const ArticulatedSystem&>(o).data(),
                               static_cast<int>(e.local), p);
  return body_point_velocity(static_cast<const SingleBodyObject&>(o).body(), p);
}

WireGeometry geometry_of(const Object& o1, const Object& o2, const Wire& w) {
  WireGeometry g;
  g.p[0] = end_point(o1, w.end[0]);
  g.p[1] = end_point(o2, w.end[1]);
  const Vec3 d = g.p[1] - g.p[0];
  g.length = d.norm();
  if (g.length > kMinWireLength) g.direction = d / g.length;
  return g;
}

bool movable(const Object& o) {
  if (is_articulated(o)) return static_cast<const ArticulatedSystem&>(o).dof() > 0;
  return static_cast<const SingleBodyObject&>(o).body().is_dynamic();
}

}  // namespace

// --- the World's wire methods ---

Wire& World::insert_wire(Wire w) {
  require_not_mid_step("adding a wire");
  const char* obj_arg[2] = {"obj1", "obj2"};
  const char* local_arg[2] = {"local_idx1", "local_idx2"};
  const char* pos_arg[2] = {"pos1_b", "pos2_b"};
  const Object* obj[2] = {nullptr, nullptr};
  for (int s = 0; s < 2; ++s) {
    const WireEnd& e = w.end[s];
    obj[s] = find_object(e.object);
    if (obj[s] == nullptr)
      throw_invalid(std::string(obj_arg[s]) + ": object id " + std::to_string(e.object) +
                    " is not alive in this world");
    const std::size_t bodies =
        is_articulated(*obj[s]) ? static_cast<const ArticulatedSystem&>(*obj[s]).model().bodies.size()
                                : 1;
    if (e.local >= bodies)
      throw_invalid(std::string(local_arg[s]) + " must be in [0, " + std::to_string(bodies) +
                    ") for " + (is_articulated(*obj[s]) ? "this articulated system's bodies"
                                                        : "a single body (always 0)") +
                    ", got " + std::to_string(e.local));
    check_finite_vec(e.position_b, pos_arg[s]);
  }
  if (!std::isfinite(w.length) || !(w.length > 0.0))
    throw_invalid("length must be finite and > 0 (m), got " + fmt(w.length));
  if (w.kind == WireKind::kCompliant) check_positive(w.stiffness, "stiffness");
  if (w.end[0].object == w.end[1].object && w.end[0].local == w.end[1].local &&
      w.end[0].position_b == w.end[1].position_b)
    throw_invalid("a wire's two ends are the same point of the same body (obj1 == obj2, "
                  "local_idx1 == local_idx2, pos1_b == pos2_b)");
  if (!movable(*obj[0]) && !movable(*obj[1]))
    throw_invalid("a wire needs at least one movable end: obj1 and obj2 are both static or "
                  "kinematic (or robots without degrees of freedom)");
  w.id = wires_.id_index.size();
  w.tension = 0.0;
  w.impulse = 0.0;
  wires_.id_index.push_back(static_cast<std::int64_t>(wires_.wires.size()));
  wires_.wires.push_back(std::move(w));
  ++configuration_number_;
  ++state_version_;
  return wires_.wires.back();
}

namespace {
Wire make_wire(WireKind kind, ObjectId obj1, std::size_t local1, const Vec3& pos1_b,
               ObjectId obj2, std::size_t local2, const Vec3& pos2_b, double length) {
  Wire w;
  w.kind = kind;
  const std::size_t kMaxLocal = 0xffffffffu;
  w.end[0] = {obj1, static_cast<std::uint32_t>(local1 > kMaxLocal ? kMaxLocal : local1), pos1_b};
  w.end[1] = {obj2, static_cast<std::uint32_t>(local2 > kMaxLocal ? kMaxLocal : local2), pos2_b};
  w.length = length;
  return w;
}
}  // namespace

Wire& World::add_stiff_wire(ObjectId obj1, std::size_t local1, const Vec3& pos1_b, ObjectId obj2,
                            std::size_t local2, const Vec3& pos2_b, double length) {
  return insert_wire(
      make_wire(WireKind::kStiff, obj1, local1, pos1_b, obj2, local2, pos2_b, length));
}

Wire& World::add_compliant_wire(ObjectId obj1, std::size_t local1, const Vec3& pos1_b,
                                ObjectId obj2, std::size_t local2, const Vec3& pos2_b,
                                double length, double stiffness) {
  Wire w = make_wire(WireKind::kCompliant, obj1, local1, pos1_b, obj2, local2, pos2_b, length);
  w.stiffness = stiffness;
  return insert_wire(std::move(w));
}

Wire& World::add_custom_wire(ObjectId obj1, std::size_t local1, const Vec3& pos1_b,
                             ObjectId obj2, std::size_t local2, const Vec3& pos2_b,
                             double length) {
  return insert_wire(
      make_wire(WireKind::kCustom, obj1, local1, pos1_b, obj2, local2, pos2_b, length));
}

Wire* World::find_wire(std::uint64_t id) {
  const std::int64_t k = wires_.index_of(id);
  return k < 0 ? nullptr : &wires_.wires[static_cast<std::size_t>(k)];
}

Wire* World::find_wire(const std::string& name) {
  for (Wire& w : wires_.wires)
    if (w.name == name) return &w;
  return nullptr;
}

Wire& World::wire_at(std::size_t index) {
  if (index >= wires_.wires.size())
    throw std::out_of_range("wire index " + std::to_string(index) + " is out of range [0, " +
                            std::to_string(wires_.wires.size()) + ")");
  return wires_.wires[index];
}

void World::remove_wire(std::uint64_t id) {
  require_not_mid_step("remove_wire");
  const std::int64_t k = wires_.index_of(id);
  if (k < 0) throw_invalid("wire id " + std::to_string(id) + " is not alive in this world");
  const std::size_t index = static_cast<std::size_t>(k), last = wires_.wires.size() - 1;
  if (index != last) {
    wires_.wires[index] = std::move(wires_.wires[last]);
    wires_.id_index[static_cast<std::size_t>(wires_.wires[index].id)] =
        static_cast<std::int64_t>(index);
  }
  wires_.wires.pop_back();
  wires_.id_index[static_cast<std::size_t>(id)] = -1;
  ++configuration_number_;
  ++state_version_;
}

WireGeometry World::wire_geometry(const Wire& w) {
  Object* o[2] = {find_object(w.end[0].object), find_object(w.end[1].object)};
  if (o[0] == nullptr || o[1] == nullptr)
    throw std::logic_error("wire " + std::to_string(w.id) + " names a removed object");
  for (Object* obj : o)
    if (is_articulated(*obj) && !mid_step_) static_cast<ArticulatedSystem*>(obj)->ensure_kinematics();
  return geometry_of(*o[0], *o[1], w);
}

// --- the stages ---

void stage_build_wire_rows(World& world, ContactState& cs) {
  WireSet& set = world.wire_set();
  set.row.assign(set.wires.size(), -1);
  ContactProblems& problems = cs.problems;
  const double dt = world.time_step();
  for (std::size_t k = 0; k < set.wires.size(); ++k) {
    Wire& w = set.wires[k];
    if (w.kind != WireKind::kStiff) continue;
    const Object* obj[2] = {world.find_object(w.end[0].object), world.find_object(w.end[1].object)};
    const WireGeometry g = geometry_of(*obj[0], *obj[1], w);
    if (g.length <= kMinWireLength) continue;  // no direction to pull along
    ScalarRow& row = problems.scalar_rows.emplace_back();
    row.kind = RowKind::kWire;
    row.lower = 0.0;
    row.dof = static_cast<std::int32_t>(k);
    // J_s = d_s^T J_p(end s), d_0 = n, d_1 = -n: the row's velocity is -dl/dt
    double v_fixed = 0.0;
    int s = 0;
    for (int e = 0; e < 2; ++e) {
      const Vec3 d = e == 0 ? g.direction : Vec3(-g.direction);
      const std::size_t index = obj[e]->index_in_world();
      const std::int32_t dof_begin = cs.dof_begin[index];
      if (dof_begin < 0 || !movable(*obj[e])) {
        v_fixed += d.dot(end_velocity(*obj[e], w.end[e], g.p[e]));
        continue;
      }
      ContactSide& side = row.side[s++];
      side.dof_begin = dof_begin;
      if (is_articulated(*obj[e])) {
        const auto& a = static_cast<const ArticulatedSystem&>(*obj[e]);
        const int nv = a.dof();
        side.dof_count = nv;
        side.jac_begin = problems.add_row_side_storage(nv);
        side.articulated = static_cast<std::int32_t>(index);
        cs.point_jac_a.setZero(3, nv);
        a.point_jacobian(static_cast<int>(w.end[e].local), g.p[e], cs.point_jac_a);
        Eigen::Map<Eigen::Matrix<double, 1, Eigen::Dynamic>>(
            problems.row_jac.data() + side.jac_begin, 1, nv)
            .noalias() = d.transpose() * cs.point_jac_a;
        // M^-1 J^T: the Delassus stage, from the step's factorisation
      } else {
        const RigidBody& b = static_cast<const SingleBodyObject&>(*obj[e]).body();
        side.dof_count = 6;
        side.jac_begin = problems.add_row_side_storage(6);
        const Vec3 rd = (g.p[e] - b.position).cross(d);
        const Vec3 mv = b.inv_mass * d, mw = b.inv_inertia_w * rd;
        double* j = problems.row_jac.data() + side.jac_begin;
        double* mj = problems.row_minv_jt.data() + side.jac_begin;
        for (int i = 0; i < 3; ++i) {
          j[i] = d[i];
          j[3 + i] = rd[i];
          mj[i] = mv[i];
          mj[3 + i] = mw[i];
        }
      }
    }
    if (s == 0) {  // nothing movable (a dynamic end made static since): no row
      problems.scalar_rows.pop_back();
      continue;
    }
    // -dl/dt >= (l - L) / dt while slack or taut (taut at most at the step's end), and
    // >= kWireErp (l - L) / dt when stretched
    const double excess = g.length - w.length;
    const double wanted = excess <= 0.0 ? excess / dt : kWireErp * excess / dt;
    row.target = wanted - v_fixed;
    row.lambda = w.impulse > 0.0 ? w.impulse : 0.0;
    row.warm_started = row.lambda > 0.0;
    row.g = row_delassus(problems, row);  // single bodies; robots: the Delassus stage
    set.row[k] = static_cast<std::int32_t>(problems.scalar_rows.size() - 1);
  }
}

void stage_wire_forces(World& world) {
  WireSet& set = world.wire_set();
  for (Wire& w : set.wires) {
    if (w.kind == WireKind::kStiff) continue;
    Object* obj[2] = {world.find_object(w.end[0].object), world.find_object(w.end[1].object)};
    const WireGeometry g = geometry_of(*obj[0], *obj[1], w);
    if (w.kind == WireKind::kCompliant)
      w.tension = g.length > w.length ? w.stiffness * (g.length - w.length) : 0.0;
    if (!(w.tension > 0.0) || g.length <= kMinWireLength) continue;
    for (int e = 0; e < 2; ++e) {
      const Vec3 f = (e == 0 ? w.tension : -w.tension) * g.direction;
      if (is_articulated(*obj[e])) {
        auto& a = static_cast<ArticulatedSystem&>(*obj[e]);
        if (a.dof() > 0) a.add_external_force(static_cast<int>(w.end[e].local), f, g.p[e]);
        continue;
      }
      RigidBody& b = static_cast<SingleBodyObject&>(*obj[e]).body();
      if (!b.is_dynamic()) continue;
      b.external_force += f;
      b.external_torque += (g.p[e] - b.position).cross(f);
    }
  }
}

void stage_wire_starting_impulses(World& world, ContactState& cs) {
  const WireSet& set = world.wire_set();
  for (std::int32_t r : set.row) {
    if (r < 0) continue;
    const ScalarRow& row = cs.problems.scalar_rows[static_cast<std::size_t>(r)];
    if (row.lambda == 0.0 || cs.contact_space.owns(row.side[0].dof_begin)) continue;
    apply_row_impulse(cs.problems, row, row.lambda, cs.u.data());
  }
}

namespace {

// the widest band of W the pre-solve factors (rows i and j coupled with |i - j| <= this)
constexpr std::size_t kWireBandLimit = 32;
// active-set passes of the pre-solve
constexpr int kWirePresolvePasses = 16;

// W_ij = sum over the sides of rows a and b on the same slice of u of J_a M^-1 J_b^T
double row_coupling(const ContactProblems& problems, const ScalarRow& a, const ScalarRow& b) {
  double w = 0.0;
  for (const ContactSide& sa : a.side) {
    if (sa.dof_begin < 0) continue;
    for (const ContactSide& sb : b.side) {
      if (sb.dof_begin != sa.dof_begin) continue;
      const double* j = problems.row_jac.data() + sa.jac_begin;
      const double* mj = problems.row_minv_jt.data() + sb.jac_begin;
      for (int k = 0; k < sa.dof_count; ++k) w += j[k] * mj[k];
    }
  }
  return w;
}

}  // namespace

void stage_wire_presolve(World& world, ContactState& cs) {
  WireSet& set = world.wire_set();
  ContactProblems& problems = cs.problems;
  std::vector<std::int32_t>& rows = set.solve_rows;
  rows.clear();
  for (std::int32_t r : set.row) {
    if (r < 0) continue;
    const ScalarRow& row = problems.scalar_rows[static_cast<std::size_t>(r)];
    if (row.g > 0.0 && !cs.contact_space.owns(row.side[0].dof_begin)) rows.push_back(r);
  }
  const std::size_t m = rows.size();
  if (m < 2) return;  // one row: the sweeps' 1-D update is already exact
  auto row_at = [&](std::size_t i) -> ScalarRow& {
    return problems.scalar_rows[static_cast<std::size_t>(rows[i])];
  };
  // the band: rows coupled through a shared body, at most kWireBandLimit apart (in the rows'
  // order, i.e. the wires' creation order); a wider coupling leaves the rows to the sweeps
  // (the widest coupling of a slice of u is between the first and the last row touching it;
  // dlambda holds, per entry of u, the first row on the slice starting there, -1: none yet)
  std::size_t b = 0;
  {
    std::vector<double>& first = set.dlambda;
    first.assign(cs.u.size(), -1.0);
    for (std::size_t i = 0; i < m; ++i)
      for (const ContactSide& s : row_at(i).side) {
        if (s.dof_begin < 0) continue;
        double& f = first[static_cast<std::size_t>(s.dof_begin)];
        if (f < 0.0) f = static_cast<double>(i);
        b = std::max(b, i - static_cast<std::size_t>(f));
      }
    if (b > kWireBandLimit) return;
  }
  const std::size_t w = b + 1;  // band row i: entries j = i - b .. i at [i * w + (i - j)]
  std::vector<double>& band = set.band;
  std::vector<double>& rhs = set.rhs;
  std::vector<double>& dl = set.dlambda;
  std::vector<std::uint8_t>& active = set.active;
  band.assign(m * w, 0.0);
  rhs.resize(m);
  dl.resize(m);
  active.assign(m, 0);  // bit 0: active in this pass; bit 1: in the next
  const double* u = cs.u.data();
  // residual of each row at the current impulses: target - v (> 0: the row wants to pull more)
  for (std::size_t i = 0; i < m; ++i) {
    const ScalarRow& row = row_at(i);
    active[i] = row.lambda > 0.0 || row.target - row_velocity(problems, row, u) > 0.0;
  }
  auto band_at = [&](std::size_t i, std::size_t j) -> double& { return band[i * w + (i - j)]; };
  for (int pass = 0; pass < kWirePresolvePasses; ++pass) {
    // W restricted to the active rows (inactive rows: identity, their lambda driven to 0),
    // factored in place as L L^T; right side: active rows reach their target, others release
    for (std::size_t i = 0; i < m; ++i) {
      const ScalarRow& ri = row_at(i);
      const std::size_t j0 = i >= b ? i - b : 0;
      for (std::size_t j = j0; j <= i; ++j) {
        double v = 0.0;
        if (active[i] && active[j]) {
          v = row_coupling(problems, ri, row_at(j));
          if (j == i) v += 1e-12 * v + 1e-300;  // a redundant wire leaves W singular
        } else if (i == j) {
          v = 1.0;
        }
        band_at(i, j) = v;
      }
      rhs[i] = active[i] ? ri.target - row_velocity(problems, ri, u) : -ri.lambda;
    }
    // inactive rows' release (dlambda = -lambda) moves the active rows' velocities
    for (std::size_t i = 0; i < m; ++i) {
      if (!active[i]) continue;
      const std::size_t j0 = i >= b ? i - b : 0, j1 = std::min(m - 1, i + b);
      for (std::size_t j = j0; j <= j1; ++j)
        if (!active[j] && row_at(j).lambda != 0.0)
          rhs[i] -= row_coupling(problems, row_at(i), row_at(j)) * -row_at(j).lambda;
    }
    // banded Cholesky
    bool ok = true;
    for (std::size_t i = 0; i < m && ok; ++i) {
      const std::size_t j0 = i >= b ? i - b : 0;
      for (std::size_t j = j0; j <= i; ++j) {
        double s = band_at(i, j);
        const std::size_t k0 = std::max(j0, j >= b ? j - b : 0);
        for (std::size_t k = k0; k < j; ++k) s -= band_at(i, k) * band_at(j, k);
        if (j == i) {
          if (!(s > 0.0) || !std::isfinite(s)) {
            ok = false;
            break;
          }
          band_at(i, i) = std::sqrt(s);
        } else {
          band_at(i, j) = s / band_at(j, j);
        }
      }
    }
    if (!ok) return;  // leave everything to the sweeps
    // L y = rhs, L^T x = y
    for (std::size_t i = 0; i < m; ++i) {
      double s = rhs[i];
      const std::size_t j0 = i >= b ? i - b : 0;
      for (std::size_t j = j0; j < i; ++j) s -= band_at(i, j) * dl[j];
      dl[i] = s / band_at(i, i);
    }
    for (std::size_t i = m; i-- > 0;) {
      double s = dl[i];
      const std::size_t j1 = std::min(m - 1, i + b);
      for (std::size_t j = i + 1; j <= j1; ++j) s -= band_at(j, i) * dl[j];
      dl[i] = s / band_at(i, i);
    }
    // block pivoting: active rows that would push are released, released rows whose end
    // velocity would break their target are taken back; done when neither happens
    if (pass + 1 == kWirePresolvePasses) break;
    bool changed = false;
    for (std::size_t i = 0; i < m; ++i) {
      const ScalarRow& ri = row_at(i);
      if (active[i]) {
        if (ri.lambda + dl[i] < 0.0) {
          active[i] &= 1;
          changed = true;
        } else {
          active[i] |= 2;
        }
        continue;
      }
      // v + W dlambda at a released row (its band neighbours)
      double v = row_velocity(problems, ri, u);
      const std::size_t j0 = i >= b ? i - b : 0, j1 = std::min(m - 1, i + b);
      for (std::size_t j = j0; j <= j1; ++j)
        if (dl[j] != 0.0) v += row_coupling(problems, ri, row_at(j)) * dl[j];
      const bool violated = ri.target - v > 1e-12 * (1.0 + std::abs(ri.target));
      if (violated) active[i] |= 2;
      changed = changed || violated;
    }
    if (!changed) break;
    for (std::uint8_t& a : active) a = static_cast<std::uint8_t>(a >> 1);
  }
  // apply: lambda >= 0 (a last pass that still pushes is clamped; the sweeps finish it)
  for (std::size_t i = 0; i < m; ++i) {
    ScalarRow& row = row_at(i);
    const double next = std::max(0.0, row.lambda + dl[i]);
    if (!std::isfinite(next)) continue;
    const double d = next - row.lambda;
    if (d == 0.0) continue;
    row.lambda = next;
    apply_row_impulse(problems, row, d, cs.u.data());
  }
}

void stage_wire_tensions(World& world, const ContactState& cs) {
  WireSet& set = world.wire_set();
  const double dt = world.time_step();
  for (std::size_t k = 0; k < set.wires.size(); ++k) {
    Wire& w = set.wires[k];
    if (w.kind != WireKind::kStiff) continue;
    const std::int32_t r = k < set.row.size() ? set.row[k] : -1;
    w.impulse = r < 0 ? 0.0 : cs.problems.scalar_rows[static_cast<std::size_t>(r)].lambda;
    w.tension = w.impulse / dt;
  }
}

}  // namespace torsion
