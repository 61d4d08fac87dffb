// Tendons and tendon couplings (world/tendons.hpp): the World's tendon methods and the tendon
// stages of a step.
#include "world/tendons.hpp"

#include <algorithm>
#include <memory>
#include <utility>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contact/contact_problem.hpp"
#include "contact/contact_state.hpp"
#include "core/check.hpp"
#include "contact/scalar_row.hpp"
#include "world/articulated_system.hpp"
#include "world/tendon_path.hpp"
#include "world/world.hpp"

namespace torsion {

// the tendon methods' checks and bookkeeping on the World
struct TendonAccess {
  static void require_not_mid_step(const World& w, const char* what) {
    if (w.is_mid_step())
      throw std::logic_error(std::string(what) +
                             " is not allowed between integrate1() and integrate2()");
    if (!w.use().free_for_this_thread()) throw_world_in_use(what);
  }
  // a change of the tendons' state; topology (adding, removing): the fingerprint is rebuilt
  static void changed(World& w) { w.mark_state_changed(); }
  static void topology_changed(World& w) { w.note_topology_changed(); }
};

TendonSet& World::tendons() {
  if (!tendons_) tendons_ = std::make_unique<TendonSet>();
  return *tendons_;
}

TendonSet* find_tendon_set(const World& world) { return world.tendons_if_any(); }

TendonSet& tendon_set(World& world) { return world.tendons(); }

namespace {

ArticulatedSystem* system_of(World& world, ObjectId id) {
  Object* o = world.find_object(id);
  if (o == nullptr || o->type() != ObjectType::kArticulatedSystem) return nullptr;
  return static_cast<ArticulatedSystem*>(o);
}

// A Jacobian over at most two articulated systems (a ScalarRow has two sides): per system its
// world index and a dense row over its nv generalized velocities.
struct TendonJac {
  std::int32_t index[2] = {-1, -1};
  VecX j[2];
  int n = 0;
  // adds c to entry dof of the system at world index `idx` (nv dofs); false: a third system
  bool add(std::int32_t idx, int nv, int dof, double c) {
    int s = 0;
    while (s < n && index[s] != idx) ++s;
    if (s == n) {
      if (n == 2) return false;
      index[s] = idx;
      j[s] = VecX::Zero(nv);
      ++n;
    }
    j[s][dof] += c;
    return true;
  }
  // adds row r (nv entries) to the system at world index idx
  bool add_row(std::int32_t idx, const VecX& r) {
    if (!add(idx, static_cast<int>(r.size()), 0, 0.0)) return false;
    int s = 0;
    while (index[s] != idx) ++s;
    j[s] += r;
    return true;
  }
};

bool is_articulated(const Object& o) { return o.type() == ObjectType::kArticulatedSystem; }

// the world point of (object, local, p_b) (the object's kinematics must be current)
Vec3 body_point(const Object& o, std::uint32_t local, const Vec3& p_b) {
  if (is_articulated(o)) {
    const ArticulatedData& d = static_cast<const ArticulatedSystem&>(o).data();
    return d.body_position[local] + d.body_rotation[local] * p_b;
  }
  const RigidBody& b = static_cast<const SingleBodyObject&>(o).body();
  return b.position + b.orientation * p_b;
}

Mat3 body_rotation(const Object& o, std::uint32_t local) {
  if (is_articulated(o))
    return static_cast<const ArticulatedSystem&>(o).data().body_rotation[local];
  return static_cast<const SingleBodyObject&>(o).body().orientation.toRotationMatrix();
}

// a single body a spatial tendon moves with: a dynamic one (static ones are fixed anchors; a body
// made kinematic since is treated as one too)
bool is_movable_single(const Object& o) {
  return !is_articulated(o) && static_cast<const SingleBodyObject&>(o).body().is_dynamic();
}

// adds s * dir^T J_p (the velocity of the material point p of (object, local) along dir) to jac;
// a dynamic single body's J_p over its u = (linear velocity, angular velocity, world) is
// [I, -[p - x]x]; static single bodies add nothing
void add_point(World& world, ObjectId object, std::uint32_t local, const Vec3& p,
               const Vec3& dir, double s, TendonJac& jac) {
  const Object* o = world.find_object(object);
  if (!is_articulated(*o)) {
    if (!is_movable_single(*o)) return;
    const RigidBody& b = static_cast<const SingleBodyObject&>(*o).body();
    VecX row(6);
    row.head<3>() = s * dir;
    row.tail<3>() = s * (p - b.position).cross(dir);
    if (!jac.add_row(static_cast<std::int32_t>(o->index_in_world()), row))
      throw std::logic_error("a tendon Jacobian spans more than two movable objects");
    return;
  }
  const auto& a = static_cast<const ArticulatedSystem&>(*o);
  Eigen::Matrix<double, 3, Eigen::Dynamic> jp(3, a.dof());
  jp.setZero();
  a.point_jacobian(static_cast<int>(local), p, jp);
  const VecX row = s * (jp.transpose() * dir);
  if (!jac.add_row(static_cast<std::int32_t>(a.index_in_world()), row))
    throw std::logic_error("a tendon Jacobian spans more than two articulated systems");
}

// an obstacle's side point in the world (on the obstacle's body, or on side_object's)
Vec3 side_point(World& world, const TendonPathElement& e) {
  if (e.side_elsewhere) return body_point(*world.find_object(e.side_object), e.side_local, e.side_b);
  return body_point(*world.find_object(e.object), e.local, e.side_b);
}

// a spatial tendon's length, and its Jacobian into jac (if given)
double spatial_length(World& world, const Tendon& t, TendonJac* jac) {
  const std::vector<TendonPathElement>& path = t.path;
  auto point = [&](const TendonPathElement& e) {
    return body_point(*world.find_object(e.object), e.local, e.position_b);
  };
  auto segment = [&](const Vec3& a, const TendonPathElement& ea, const Vec3& b,
                     const TendonPathElement& eb, double div) {
    const Vec3 d = b - a;
    const double l = d.norm();
    if (jac != nullptr && l > 0.0) {
      const Vec3 u = d / l;
      add_point(world, eb.object, eb.local, b, u, 1.0 / div, *jac);
      add_point(world, ea.object, ea.local, a, u, -1.0 / div, *jac);
    }
    return l / div;
  };
  double length = 0.0, div = 1.0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const TendonPathElement& e = path[i];
    if (e.kind == PathElementKind::kPulley) {
      div = e.divisor;
      continue;
    }
    if (e.kind != PathElementKind::kSite || i == 0) continue;
    const TendonPathElement& prev = path[i - 1];
    if (prev.kind == PathElementKind::kSite) {
      length += segment(point(prev), prev, point(e), e, div);
    } else if (prev.kind == PathElementKind::kSphere || prev.kind == PathElementKind::kCylinder) {
      const TendonPathElement& start = path[i - 2];
      const Object& go = *world.find_object(prev.object);
      const Vec3 c = body_point(go, prev.local, prev.position_b);
      const Vec3 p0 = point(start), p1 = point(e);
      Vec3 axis, side;
      if (prev.kind == PathElementKind::kCylinder) axis = body_rotation(go, prev.local) * prev.axis_b;
      if (prev.has_side) side = side_point(world, prev);
      const WrapResult w = wrap_obstacle(p0, p1, c, prev.radius,
                                         prev.kind == PathElementKind::kCylinder ? &axis : nullptr,
                                         prev.has_side ? &side : nullptr);
      if (!w.wrapped) {
        length += segment(p0, start, p1, e, div);
      } else {  // the tangent points move with the obstacle's body (envelope theorem)
        length += segment(p0, start, w.t0, prev, div);
        length += w.arc / div;
        length += segment(w.t1, prev, p1, e, div);
      }
    }
  }
  return length;
}

// The velocity-product part of a spatial tendon's acceleration, (dJ/dt) u: the second time
// derivative of its length at zero generalized accelerations (MuJoCo's mj_tendonDot, whose
// J^T armature (dJ/dt u) its tendon armature adds to the bias forces). Per straight segment
// between points p0, p1 of two bodies, with u_s = (p1 - p0) / |p1 - p0| and dv = v1 - v0:
//   d2|p1 - p0|/dt2 = u_s . (a1 - a0) + |dv - u_s (u_s . dv)|^2 / |p1 - p0|,
// a0, a1 the points' accelerations at zero generalized accelerations (the velocity products of
// the bodies' motion). A wrapped segment's is not included (MuJoCo refuses armature on a tendon
// with wrap geoms): docs/tendons.md.
struct PointMotion {
  Vec3 p, v, a;  // world position, velocity, acceleration at zero generalized accelerations
};

// per articulated system the bodies' spatial velocities (omega, v at ref) and accelerations at
// zero joint accelerations and no gravity (about the point fixed in space at ref): RNEA's
// forward pass (rnea.cpp) with udot = 0 and the world at rest
void body_velocity_products(const ArticulatedSystem& sys, std::vector<Vec6>& vel,
                            std::vector<Vec6>& acc) {
  const ArticulatedModel& model = sys.model();
  const ArticulatedData& data = sys.data();
  const std::size_t nb = model.bodies.size();
  vel.assign(nb, Vec6::Zero());
  acc.assign(nb, Vec6::Zero());
  for (std::size_t i = 0; i < nb; ++i) {
    const ArticulatedBody& b = model.bodies[i];
    const bool root = b.parent < 0;
    const Vec6 vp = root ? Vec6::Zero() : vel[static_cast<std::size_t>(b.parent)];
    Vec6 vj = Vec6::Zero();
    for (int c = b.col_index; c < b.col_index + b.col_size; ++c)
      vj += data.S.col(c) * (model.col_weight[static_cast<std::size_t>(c)] *
                             data.u[model.col_dof[static_cast<std::size_t>(c)]]);
    Vec6 a = root ? Vec6::Zero() : acc[static_cast<std::size_t>(b.parent)];
    if (b.joint_type == JointType::kFloating) {
      // the floating columns are fixed in the world; the reference point moves with the root
      a.tail<3>() -= data.u.segment<3>(b.gv_index + 3).cross(data.u.segment<3>(b.gv_index));
    } else {
      // joint columns move with the parent: dS/dt u = v_parent x v_joint
      a.head<3>() += vp.head<3>().cross(vj.head<3>());
      a.tail<3>() += vp.head<3>().cross(vj.tail<3>()) + vp.tail<3>().cross(vj.head<3>());
    }
    vel[i] = vp + vj;
    acc[i] = a;
  }
}

struct VelocityProducts {
  std::vector<ObjectId> systems;
  std::vector<std::vector<Vec6>> vel, acc;
  const std::vector<Vec6>* find(World& world, ObjectId id, bool want_acc) {
    std::size_t k = 0;
    while (k < systems.size() && systems[k] != id) ++k;
    if (k == systems.size()) {
      systems.push_back(id);
      vel.emplace_back();
      acc.emplace_back();
      body_velocity_products(*system_of(world, id), vel.back(), acc.back());
    }
    return want_acc ? &acc[k] : &vel[k];
  }
};

PointMotion point_motion(World& world, const TendonPathElement& e, VelocityProducts& vp) {
  const Object& o = *world.find_object(e.object);
  PointMotion m;
  m.p = body_point(o, e.local, e.position_b);
  m.v.setZero();
  m.a.setZero();
  if (is_articulated(o)) {
    const Vec3 r = m.p - static_cast<const ArticulatedSystem&>(o).data().ref;
    const Vec6& v = (*vp.find(world, e.object, false))[e.local];
    const Vec6& a = (*vp.find(world, e.object, true))[e.local];
    m.v = v.tail<3>() + v.head<3>().cross(r);
    m.a = a.tail<3>() + a.head<3>().cross(r) + v.head<3>().cross(m.v);
  } else if (is_movable_single(o)) {  // u = (COM velocity, angular velocity): constant at qacc 0
    const RigidBody& b = static_cast<const SingleBodyObject&>(o).body();
    const Vec3 r = m.p - b.position;
    m.v = b.linear_velocity + b.angular_velocity.cross(r);
    m.a = b.angular_velocity.cross(b.angular_velocity.cross(r));
  }
  return m;
}

double spatial_jdot_u(World& world, const Tendon& t) {
  const std::vector<TendonPathElement>& path = t.path;
  VelocityProducts vp;
  double sum = 0.0, div = 1.0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const TendonPathElement& e = path[i];
    if (e.kind == PathElementKind::kPulley) {
      div = e.divisor;
      continue;
    }
    if (e.kind != PathElementKind::kSite || i == 0) continue;
    const TendonPathElement* start = &path[i - 1];
    if (start->kind == PathElementKind::kSphere || start->kind == PathElementKind::kCylinder) {
      const TendonPathElement& ob = *start;
      start = &path[i - 2];
      const Object& go = *world.find_object(ob.object);
      const Vec3 c = body_point(go, ob.local, ob.position_b);
      Vec3 axis, side;
      if (ob.kind == PathElementKind::kCylinder) axis = body_rotation(go, ob.local) * ob.axis_b;
      if (ob.has_side) side = side_point(world, ob);
      const Vec3 p0 = body_point(*world.find_object(start->object), start->local,
                                 start->position_b);
      const Vec3 p1 = body_point(*world.find_object(e.object), e.local, e.position_b);
      const WrapResult w = wrap_obstacle(p0, p1, c, ob.radius,
                                         ob.kind == PathElementKind::kCylinder ? &axis : nullptr,
                                         ob.has_side ? &side : nullptr);
      if (w.wrapped) continue;  // (not included, see above)
    }
    if (start->object == e.object && start->local == e.local) continue;  // one body: rigid
    const PointMotion m0 = point_motion(world, *start, vp), m1 = point_motion(world, e, vp);
    const Vec3 d = m1.p - m0.p;
    const double n = d.norm();
    if (!(n > 0.0)) continue;
    const Vec3 us = d / n, dv = m1.v - m0.v;
    const Vec3 perp = dv - us * us.dot(dv);
    sum += (us.dot(m1.a - m0.a) + perp.squaredNorm() / n) / div;
  }
  return sum;
}

void ensure_kinematics_of(World& world, const Tendon& t) {
  if (world.is_mid_step()) return;
  for (const TendonPathElement& e : t.path) {
    if (e.kind == PathElementKind::kPulley) continue;
    for (const ObjectId id : {e.object, e.side_elsewhere ? e.side_object : e.object}) {
      Object* o = world.find_object(id);
      if (o != nullptr && is_articulated(*o)) static_cast<ArticulatedSystem*>(o)->ensure_kinematics();
    }
  }
}

double fixed_length(World& world, const Tendon& t) {
  if (t.kind == TendonKind::kSpatial) return spatial_length(world, t, nullptr);
  double l = 0.0;
  for (const TendonJointTerm& term : t.joints) {
    ArticulatedSystem* a = system_of(world, term.object);
    l += term.coefficient * a->data().q[term.gc];
  }
  return l;
}

void add_tendon_jac(World& world, const Tendon& t, double scale, TendonJac& jac);

// the generalized velocity of the object at world index idx: an articulated system's u, a
// single body's (linear velocity, angular velocity)
VecX velocity_of(const World& world, std::int32_t idx) {
  const Object& o = *world.objects()[static_cast<std::size_t>(idx)];
  if (is_articulated(o)) return static_cast<const ArticulatedSystem&>(o).data().u;
  const RigidBody& b = static_cast<const SingleBodyObject&>(o).body();
  VecX u(6);
  u << b.linear_velocity, b.angular_velocity;
  return u;
}

double fixed_velocity(World& world, const Tendon& t) {
  if (t.kind == TendonKind::kSpatial) {
    TendonJac jac;
    add_tendon_jac(world, t, 1.0, jac);
    double v = 0.0;
    for (int s = 0; s < jac.n; ++s) v += jac.j[s].dot(velocity_of(world, jac.index[s]));
    return v;
  }
  double v = 0.0;
  for (const TendonJointTerm& term : t.joints) {
    ArticulatedSystem* a = system_of(world, term.object);
    v += term.coefficient * a->data().u[term.dof];
  }
  return v;
}

void add_tendon_jac(World& world, const Tendon& t, double scale, TendonJac& jac) {
  if (t.kind == TendonKind::kSpatial) {
    TendonJac own;
    spatial_length(world, t, &own);
    for (int s = 0; s < own.n; ++s) jac.add_row(own.index[s], VecX(scale * own.j[s]));
    return;
  }
  for (const TendonJointTerm& term : t.joints) {
    ArticulatedSystem* a = system_of(world, term.object);
    if (!jac.add(static_cast<std::int32_t>(a->index_in_world()), a->dof(), term.dof,
                 scale * term.coefficient))
      throw std::logic_error("a tendon Jacobian spans more than two articulated systems");
  }
}

// p(x) and p'(x) of a coupling's polynomial (Horner)
void polynomial_at(const std::vector<double>& c, double x, double& p, double& dp) {
  p = 0.0;
  dp = 0.0;
  for (std::size_t i = c.size(); i-- > 0;) {
    dp = dp * x + p;
    p = p * x + c[i];
  }
}

// the coupling's error e = L1 - p(L2) and its Jacobian J1 - p'(L2) J2
double coupling_error(World& world, const TendonCoupling& c, TendonJac* jac) {
  Tendon* t1 = find_tendon(world, c.first);
  const double l1 = fixed_length(world, *t1);
  double p = c.polynomial[0], dp = 0.0;
  Tendon* t2 = c.has_second ? find_tendon(world, c.second) : nullptr;
  if (t2 != nullptr) polynomial_at(c.polynomial, fixed_length(world, *t2), p, dp);
  if (jac != nullptr) {
    add_tendon_jac(world, *t1, 1.0, *jac);
    if (t2 != nullptr && dp != 0.0) add_tendon_jac(world, *t2, -dp, *jac);
  }
  return l1 - p;
}

// a tendon's spring deflection at length l: l - spring_length below the band, l - spring_upper
// above it, 0 inside (and then no stiffness: k = 0)
double spring_deflection(const TendonProperties& p, double l, double& k) {
  k = p.stiffness;
  if (l < p.spring_length) return l - p.spring_length;
  if (l > p.spring_upper) return l - p.spring_upper;
  k = 0.0;
  return 0.0;
}

// NaN spring ends: the length now (both), the upper one equal to the lower
void fill_spring_length(TendonProperties& p, double length_now) {
  if (std::isnan(p.spring_length)) p.spring_length = length_now;
  if (std::isnan(p.spring_upper)) p.spring_upper = p.spring_length;
}

void check_properties(const TendonProperties& p) {
  check_non_negative(p.stiffness, "stiffness");
  check_non_negative(p.damping, "damping");
  check_non_negative(p.friction, "friction");
  check_non_negative(p.armature, "armature");
  if (!std::isnan(p.spring_length)) check_finite(p.spring_length, "spring_length");
  if (!std::isnan(p.spring_upper)) {
    check_finite(p.spring_upper, "spring_length[1]");
    if (std::isnan(p.spring_length) || !(p.spring_length <= p.spring_upper))
      throw_invalid("spring_length: a dead band (lower, upper) needs lower <= upper, got (" +
                    fmt(p.spring_length) + ", " + fmt(p.spring_upper) + ")");
  }
  if (std::isnan(p.lower) || std::isnan(p.upper) || p.lower == INFINITY || p.upper == -INFINITY)
    throw_invalid("limits must be numbers with lower < inf and upper > -inf, got [" +
                  fmt(p.lower) + ", " + fmt(p.upper) + "]");
  if (!(p.lower <= p.upper))
    throw_invalid("limits: lower must be <= upper, got [" + fmt(p.lower) + ", " + fmt(p.upper) +
                  "]");
}

}  // namespace

// --- the World's tendon methods ---

Tendon& add_fixed_tendon(World& world, const std::string& name,
                         std::vector<TendonJointTerm> joints, const TendonProperties& props) {
  TendonAccess::require_not_mid_step(world, "adding a tendon");
  check_name(name, "name");
  if (name.empty()) throw_invalid("name must not be empty (tendons are found by name)");
  if (find_tendon(world, name) != nullptr)
    throw_invalid("name: a tendon named '" + name + "' already exists in this world");
  if (joints.empty()) throw_invalid("joints must name at least one joint term");
  bool any = false;
  for (std::size_t k = 0; k < joints.size(); ++k) {
    TendonJointTerm& term = joints[k];
    const std::string where = "joints[" + std::to_string(k) + "]";
    ArticulatedSystem* a = system_of(world, term.object);
    if (a == nullptr)
      throw_invalid(where + ": object id " + std::to_string(term.object) +
                    " is not an articulated system alive in this world");
    // at most two systems: the tendon's rows have two sides
    std::vector<ObjectId> systems;
    for (std::size_t i = 0; i <= k; ++i)
      if (std::find(systems.begin(), systems.end(), joints[i].object) == systems.end())
        systems.push_back(joints[i].object);
    if (systems.size() > 2)
      throw_invalid(where + ": the joints of a fixed tendon must belong to at most two "
                    "articulated systems (a solver row has two sides); this is a third");
    const ArticulatedModel& m = a->model();
    int body = -1;
    for (std::size_t b = 0; b < m.bodies.size(); ++b)
      if (m.bodies[b].joint_name == term.joint) body = static_cast<int>(b);
    if (body < 0) throw_invalid(where + ": the system has no joint named '" + term.joint + "'");
    const ArticulatedBody& jb = m.bodies[static_cast<std::size_t>(body)];
    if ((jb.joint_type != JointType::kRevolute && jb.joint_type != JointType::kPrismatic) ||
        jb.is_mimic() || jb.gv_size != 1)
      throw_invalid(where + ": joint '" + term.joint + "' is " +
                    (jb.is_mimic() ? std::string("a mimic joint")
                                   : std::string("a ") + joint_type_name(jb.joint_type) + " joint") +
                    "; a fixed tendon needs scalar (revolute or prismatic) joints");
    for (std::size_t i = 0; i < k; ++i)
      if (joints[i].joint == term.joint && joints[i].object == term.object)
        throw_invalid(where + ": joint '" + term.joint + "' is named twice");
    check_finite(term.coefficient, (where + ".coefficient").c_str());
    any = any || term.coefficient != 0.0;
    term.dof = jb.gv_index;
    term.gc = jb.gc_index;
  }
  if (!any) throw_invalid("joints: every coefficient is zero (the tendon would have no length)");
  check_properties(props);
  TendonSet& set = tendon_set(world);
  Tendon t;
  t.kind = TendonKind::kFixed;
  t.name = name;
  t.joints = std::move(joints);
  t.props = props;
  fill_spring_length(t.props, fixed_length(world, t));
  t.id = set.id_index.size();
  set.id_index.push_back(static_cast<std::int64_t>(set.tendons.size()));
  set.tendons.push_back(std::move(t));
  TendonAccess::topology_changed(world);
  return set.tendons.back();
}

void set_tendon_properties(World& world, Tendon& tendon, const TendonProperties& props) {
  TendonAccess::require_not_mid_step(world, "setting tendon properties");
  check_properties(props);
  tendon.props = props;
  fill_spring_length(tendon.props, fixed_length(world, tendon));
  TendonAccess::changed(world);
}

TendonCoupling& add_tendon_coupling(World& world, const std::string& name, std::uint64_t first,
                                    const std::uint64_t* second, std::vector<double> polynomial,
                                    double compliance, double erp) {
  TendonAccess::require_not_mid_step(world, "adding a tendon coupling");
  check_name(name, "name");
  if (name.empty()) throw_invalid("name must not be empty");
  TendonSet& set = tendon_set(world);
  for (const TendonCoupling& c : set.couplings)
    if (c.name == name) throw_invalid("name: a tendon coupling named '" + name + "' already exists");
  Tendon* t1 = find_tendon(world, first);
  if (t1 == nullptr) throw_invalid("first: tendon id " + std::to_string(first) + " is not alive");
  Tendon* t2 = nullptr;
  if (second != nullptr) {
    t2 = find_tendon(world, *second);
    if (t2 == nullptr)
      throw_invalid("second: tendon id " + std::to_string(*second) + " is not alive");
    if (*second == first) throw_invalid("second must be another tendon than first");
  }
  if (polynomial.empty()) throw_invalid("polynomial must have at least one coefficient");
  for (std::size_t i = 0; i < polynomial.size(); ++i)
    check_finite(polynomial[i], ("polynomial[" + std::to_string(i) + "]").c_str());
  check_non_negative(compliance, "compliance");
  if (!std::isfinite(erp) || !(erp > 0.0) || erp > 1.0)
    throw_invalid("erp must be in (0, 1], got " + fmt(erp));
  if (t2 != nullptr) {  // the row has two sides: at most two movable objects
    TendonJac jac;
    bool ok = true;
    for (const Tendon* t : {t1, t2}) {
      for (const TendonJointTerm& term : t->joints)
        ok = ok && jac.add(static_cast<std::int32_t>(world.find_object(term.object)->index_in_world()),
                           1, 0, 0.0);
      for (const TendonPathElement& e : t->path) {  // (a spatial tendon's, wrapped or not)
        if (e.kind == PathElementKind::kPulley) continue;
        const Object* o = world.find_object(e.object);
        if (is_articulated(*o) || is_movable_single(*o))
          ok = ok && jac.add(static_cast<std::int32_t>(o->index_in_world()), 1, 0, 0.0);
      }
    }
    if (!ok)
      throw_invalid("first and second span more than two movable objects (articulated systems, "
                    "dynamic bodies); a coupling's row has two sides");
  }
  TendonCoupling c;
  c.name = name;
  c.first = first;
  c.has_second = t2 != nullptr;
  c.second = t2 != nullptr ? *second : 0;
  c.polynomial = std::move(polynomial);
  c.compliance = compliance;
  c.erp = erp;
  c.id = set.coupling_id_index.size();
  set.coupling_id_index.push_back(static_cast<std::int64_t>(set.couplings.size()));
  set.couplings.push_back(std::move(c));
  TendonAccess::topology_changed(world);
  return set.couplings.back();
}

Tendon* find_tendon(World& world, std::uint64_t id) {
  TendonSet* found = find_tendon_set(world);
  if (found == nullptr) return nullptr;
  TendonSet& set = *found;
  const std::int64_t k = set.index_of(id);
  return k < 0 ? nullptr : &set.tendons[static_cast<std::size_t>(k)];
}

Tendon* find_tendon(World& world, const std::string& name) {
  TendonSet* found = find_tendon_set(world);
  if (found == nullptr) return nullptr;
  for (Tendon& t : found->tendons)
    if (t.name == name) return &t;
  return nullptr;
}

TendonCoupling* find_tendon_coupling(World& world, std::uint64_t id) {
  TendonSet* found = find_tendon_set(world);
  if (found == nullptr) return nullptr;
  TendonSet& set = *found;
  const std::int64_t k = set.coupling_index_of(id);
  return k < 0 ? nullptr : &set.couplings[static_cast<std::size_t>(k)];
}

void remove_tendon_coupling(World& world, std::uint64_t id) {
  TendonAccess::require_not_mid_step(world, "remove_tendon_coupling");
  TendonSet& set = tendon_set(world);
  const std::int64_t k = set.coupling_index_of(id);
  if (k < 0) throw_invalid("tendon coupling id " + std::to_string(id) + " is not alive");
  const std::size_t index = static_cast<std::size_t>(k), last = set.couplings.size() - 1;
  if (index != last) {
    set.couplings[index] = std::move(set.couplings[last]);
    set.coupling_id_index[static_cast<std::size_t>(set.couplings[index].id)] =
        static_cast<std::int64_t>(index);
  }
  set.couplings.pop_back();
  set.coupling_id_index[static_cast<std::size_t>(id)] = -1;
  TendonAccess::topology_changed(world);
}

void remove_tendon(World& world, std::uint64_t id) {
  TendonAccess::require_not_mid_step(world, "remove_tendon");
  TendonSet& set = tendon_set(world);
  const std::int64_t k = set.index_of(id);
  if (k < 0) throw_invalid("tendon id " + std::to_string(id) + " is not alive");
  for (std::size_t c = set.couplings.size(); c-- > 0;)
    if (set.couplings[c].first == id || (set.couplings[c].has_second && set.couplings[c].second == id))
      remove_tendon_coupling(world, set.couplings[c].id);
  const std::size_t index = static_cast<std::size_t>(k), last = set.tendons.size() - 1;
  if (index != last) {
    set.tendons[index] = std::move(set.tendons[last]);
    set.id_index[static_cast<std::size_t>(set.tendons[index].id)] = static_cast<std::int64_t>(index);
  }
  set.tendons.pop_back();
  set.id_index[static_cast<std::size_t>(id)] = -1;
  TendonAccess::topology_changed(world);
}

void remove_tendons_of_object(World& world, ObjectId object) {
  TendonSet* found = find_tendon_set(world);
  if (found == nullptr) return;
  TendonSet& set = *found;
  for (std::size_t k = set.tendons.size(); k-- > 0;) {
    bool uses = false;
    for (const TendonJointTerm& term : set.tendons[k].joints) uses = uses || term.object == object;
    for (const TendonPathElement& e : set.tendons[k].path)
      uses = uses || (e.kind != PathElementKind::kPulley &&
                      (e.object == object || (e.side_elsewhere && e.side_object == object)));
    if (uses) remove_tendon(world, set.tendons[k].id);
  }
}

double tendon_length(World& world, const Tendon& t) {
  ensure_kinematics_of(world, t);
  return fixed_length(world, t);
}

double tendon_velocity(World& world, const Tendon& t) {
  ensure_kinematics_of(world, t);
  return fixed_velocity(world, t);
}

VecX tendon_jacobian(World& world, const Tendon& t, ObjectId system) {
  Object* o = world.find_object(system);
  if (o == nullptr || (!is_articulated(*o) && t.kind == TendonKind::kFixed))
    throw_invalid("object id " + std::to_string(system) +
                  " is not an articulated system alive in this world");
  ensure_kinematics_of(world, t);
  TendonJac jac;
  add_tendon_jac(world, t, 1.0, jac);
  for (int s = 0; s < jac.n; ++s)
    if (jac.index[s] == static_cast<std::int32_t>(o->index_in_world())) return jac.j[s];
  return VecX::Zero(is_articulated(*o) ? static_cast<ArticulatedSystem*>(o)->dof() : 6);
}

Tendon& add_spatial_tendon(World& world, const std::string& name,
                           std::vector<TendonPathElement> path, const TendonProperties& props) {
  TendonAccess::require_not_mid_step(world, "adding a tendon");
  check_name(name, "name");
  if (name.empty()) throw_invalid("name must not be empty (tendons are found by name)");
  if (find_tendon(world, name) != nullptr)
    throw_invalid("name: a tendon named '" + name + "' already exists in this world");
  if (path.size() < 2) throw_invalid("path must have at least two sites");
  std::vector<ObjectId> systems;
  int sites_in_branch = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    TendonPathElement& e = path[i];
    const std::string where = "path[" + std::to_string(i) + "]";
    const bool first = i == 0 || path[i - 1].kind == PathElementKind::kPulley;
    const bool last = i + 1 == path.size() || path[i + 1].kind == PathElementKind::kPulley;
    if (e.kind == PathElementKind::kPulley) {
      if (i == 0 || i + 1 == path.size() || path[i - 1].kind != PathElementKind::kSite ||
          path[i + 1].kind != PathElementKind::kSite)
        throw_invalid(where + ": a pulley must lie between a branch ending at a site and one "
                      "starting at a site");
      if (sites_in_branch < 2) throw_invalid(where + ": the branch before it has fewer than two sites");
      sites_in_branch = 0;
      check_positive(e.divisor, (where + ".divisor").c_str());
      continue;
    }
    const Object* o = world.find_object(e.object);
    if (o == nullptr)
      throw_invalid(where + ": object id " + std::to_string(e.object) + " is not alive in this world");
    const std::size_t bodies =
        is_articulated(*o) ? static_cast<const ArticulatedSystem&>(*o).model().bodies.size() : 1;
    if (e.local >= bodies)
      throw_invalid(where + ": local index must be in [0, " + std::to_string(bodies) + "), got " +
                    std::to_string(e.local));
    if (is_articulated(*o) || is_movable_single(*o)) {
      if (std::find(systems.begin(), systems.end(), e.object) == systems.end())
        systems.push_back(e.object);
    } else if (static_cast<const SingleBodyObject&>(*o).body().type != BodyType::kStatic) {
      throw_invalid(where + ": a spatial tendon's single bodies must be dynamic or static (a "
                    "kinematic body's prescribed motion is not followed)");
    }
    check_finite_vec(e.position_b, (where + ".position").c_str());
    if (e.kind == PathElementKind::kSite) {
      ++sites_in_branch;
      continue;
    }
    // an obstacle: between two sites
    if (first || last || path[i - 1].kind != PathElementKind::kSite ||
        path[i + 1].kind != PathElementKind::kSite)
      throw_invalid(where + ": an obstacle must lie between two sites (consecutive obstacles "
                    "need a via site; a branch starts and ends at sites)");
    check_positive(e.radius, (where + ".radius").c_str());
    if (e.has_side) check_finite_vec(e.side_b, (where + ".side").c_str());
    if (e.has_side && e.side_elsewhere) {  // (only selects the wrap: any object's body)
      const Object* so = world.find_object(e.side_object);
      if (so == nullptr)
        throw_invalid(where + ".side: object id " + std::to_string(e.side_object) +
                      " is not alive in this world");
      const std::size_t side_bodies =
          is_articulated(*so) ? static_cast<const ArticulatedSystem&>(*so).model().bodies.size()
                              : 1;
      if (e.side_local >= side_bodies)
        throw_invalid(where + ".side: local index must be in [0, " +
                      std::to_string(side_bodies) + "), got " + std::to_string(e.side_local));
    }
    if (!e.has_side) e.side_elsewhere = false;
    if (e.kind == PathElementKind::kCylinder) {
      check_finite_vec(e.axis_b, (where + ".axis").c_str());
      if (!(e.axis_b.norm() > 1e-12)) throw_invalid(where + ".axis must be non-zero");
      e.axis_b.normalize();
    }
  }
  if (path.front().kind != PathElementKind::kSite || path.back().kind != PathElementKind::kSite)
    throw_invalid("path must start and end at a site");
  if (sites_in_branch < 2) throw_invalid("path: the last branch has fewer than two sites");
  if (systems.empty())
    throw_invalid("path: no point is on an articulated system or a dynamic body (nothing could "
                  "move the tendon)");
  if (systems.size() > 2)
    throw_invalid("path: its points are on " + std::to_string(systems.size()) +
                  " movable objects (articulated systems, dynamic bodies); at most two are "
                  "supported (a solver row has two sides)");
  check_properties(props);
  TendonSet& set = tendon_set(world);
  Tendon t;
  t.kind = TendonKind::kSpatial;
  t.name = name;
  t.path = std::move(path);
  t.props = props;
  fill_spring_length(t.props, tendon_length(world, t));
  t.id = set.id_index.size();
  set.id_index.push_back(static_cast<std::int64_t>(set.tendons.size()));
  set.tendons.push_back(std::move(t));
  TendonAccess::topology_changed(world);
  return set.tendons.back();
}

double tendon_coupling_error(World& world, const TendonCoupling& c) {
  ensure_kinematics_of(world, *find_tendon(world, c.first));
  if (c.has_second) ensure_kinematics_of(world, *find_tendon(world, c.second));
  return coupling_error(world, c, nullptr);
}

// --- the stages ---

namespace {

// x <- A^-1 x over the u slice of the movable object at world index idx: an articulated
// system's damped mass matrix of the step (its factorisation), a single body's inverse mass and
// world inverse inertia (u = linear velocity, angular velocity)
void apply_inverse_mass_of(const World& world, std::int32_t idx, VecX& x) {
  const Object& o = *world.objects()[static_cast<std::size_t>(idx)];
  if (is_articulated(o)) {
    Eigen::Map<MatX> col(x.data(), x.size(), 1);
    static_cast<const ArticulatedSystem&>(o).apply_inverse_mass(col);
    return;
  }
  const RigidBody& b = static_cast<const SingleBodyObject&>(o).body();
  x.head<3>() *= b.inv_mass;
  x.tail<3>() = b.inv_inertia_w * Vec3(x.tail<3>());
}

// a row over a tendon Jacobian (times sign) on the systems that move this step; nullptr if none
ScalarRow* add_jac_row(const World& world, ContactState& cs, const TendonJac& jac, double sign) {
  ContactProblems& problems = cs.problems;
  ScalarRow& row = problems.scalar_rows.emplace_back();
  row.kind = RowKind::kWire;  // a hard 1-D row like the wires' (the solver does not tell them apart)
  int s = 0;
  for (int k = 0; k < jac.n; ++k) {
    const std::int32_t dof_begin = cs.dof_begin[static_cast<std::size_t>(jac.index[k])];
    if (dof_begin < 0) continue;  // asleep: not in this step's u
    const int nv = static_cast<int>(jac.j[k].size());
    ContactSide& side = row.side[s++];
    side.dof_begin = dof_begin;
    side.dof_count = nv;
    side.jac_begin = problems.add_row_side_storage(nv);
    for (int i = 0; i < nv; ++i)
      problems.row_jac[static_cast<std::size_t>(side.jac_begin + i)] = sign * jac.j[k][i];
    if (is_articulated(*world.objects()[static_cast<std::size_t>(jac.index[k])])) {
      side.articulated = jac.index[k];  // A^-1 J^T and g: the Delassus stage (factorisation)
    } else {  // a single body: its M^-1 J^T now (the Delassus stage then forms g)
      VecX mj = sign * jac.j[k];
      apply_inverse_mass_of(world, jac.index[k], mj);
      for (int i = 0; i < nv; ++i)
        problems.row_minv_jt[static_cast<std::size_t>(side.jac_begin + i)] = mj[i];
    }
  }
  if (s == 0) {
    problems.scalar_rows.pop_back();
    return nullptr;
  }
  return &row;
}

std::int32_t last_row(const ContactState& cs) {
  return static_cast<std::int32_t>(cs.problems.scalar_rows.size() - 1);
}

// one implicit force along a Jacobian in stage_tendon_forces: the impulse
// p = a (v0 - v+) + dt (f - k e - c v+) with v+ the row's velocity after all the stage's impulses
struct ImplicitRow {
  TendonJac jac;
  VecX mj[2];            // A^-1 J_s^T per side (empty: the side is not in this step's u)
  std::int32_t at[2] = {-1, -1};  // dof_begin per side
  double d = 0.0;        // a + dt c
  double rhs = 0.0;      // a v0 + dt (f - k e)
  double v_free = 0.0;   // J u before the stage's coupled solve
  double k = 0.0, e = 0.0, c = 0.0;
  double p = 0.0;
  Tendon* tendon = nullptr;
  TendonCoupling* coupling = nullptr;
};

// fills the row's sides (A^-1 J^T) and its velocity in u; false if no side moves this step
bool prepare_row(const World& world, const ContactState& cs, ImplicitRow& r) {
  bool any = false;
  r.v_free = 0.0;
  for (int s = 0; s < r.jac.n; ++s) {
    const std::int32_t dof_begin = cs.dof_begin[static_cast<std::size_t>(r.jac.index[s])];
    if (dof_begin < 0) continue;  // asleep or static: not in this step's u
    r.mj[s] = r.jac.j[s];
    apply_inverse_mass_of(world, r.jac.index[s], r.mj[s]);
    r.at[s] = dof_begin;
    r.v_free += r.jac.j[s].dot(Eigen::Map<const VecX>(cs.u.data() + dof_begin, r.jac.j[s].size()));
    any = true;
  }
  return any;
}

void apply_row_impulse(ContactState& cs, const ImplicitRow& r, double p) {
  for (int s = 0; s < r.jac.n; ++s)
    if (r.at[s] >= 0) Eigen::Map<VecX>(cs.u.data() + r.at[s], r.mj[s].size()).noalias() += p * r.mj[s];
}

// G_ij = J_i A^-1 J_j^T (sides on the same slice of u)
double row_coupling(const ImplicitRow& a, const ImplicitRow& b) {
  double g = 0.0;
  for (int s = 0; s < a.jac.n; ++s) {
    if (a.at[s] < 0) continue;
    for (int t = 0; t < b.jac.n; ++t)
      if (b.at[t] == a.at[s]) g += a.jac.j[s].dot(b.mj[t]);
  }
  return g;
}

}  // namespace

void stage_build_tendon_rows(World& world, ContactState& cs) {
  TendonSet* found = find_tendon_set(world);
  if (found == nullptr) return;
  TendonSet& set = *found;
  set.row.assign(3 * set.tendons.size(), -1);
  set.coupling_row.assign(set.couplings.size(), -1);
  set.start_velocity.assign(set.tendons.size(), 0.0);
  const double dt = world.time_step();
  for (std::size_t k = 0; k < set.tendons.size(); ++k) {
    const Tendon& t = set.tendons[k];
    const TendonProperties& p = t.props;
    // the armature's momentum along the tendon at the step's start (stage_tendon_forces), less
    // dt (dJ/dt) u: its velocity-product force -J^T armature (dJ/dt u) over the step (MuJoCo's
    // mj_tendonBias; zero for a fixed tendon)
    if (p.armature > 0.0) {
      set.start_velocity[k] = fixed_velocity(world, t);
      if (t.kind == TendonKind::kSpatial) set.start_velocity[k] -= dt * spatial_jdot_u(world, t);
    }
    const bool lower = std::isfinite(p.lower), upper = std::isfinite(p.upper);
    if (!lower && !upper && !(p.friction > 0.0)) continue;
    const double l = fixed_length(world, t), v = fixed_velocity(world, t);
    TendonJac jac;
    add_tendon_jac(world, t, 1.0, jac);
    // a limit: lambda >= 0, the row's velocity (dL/dt at the lower limit, -dL/dt at the upper)
    // >= -gap / dt while inside (reach the limit at most at the step's end), >= -erp gap / dt
    // past it (remove kTendonErp of the violation per step)
    for (int side = 0; side < 2; ++side) {
      if (!(side == 0 ? lower : upper)) continue;
      const double gap = side == 0 ? l - p.lower : p.upper - l;
      const double rate = side == 0 ? v : -v;
      if (std::min(gap, gap + dt * rate) >= kTendonLimitMargin) continue;
      ScalarRow* row = add_jac_row(world, cs, jac, side == 0 ? 1.0 : -1.0);
      if (row == nullptr) continue;
      row->lower = 0.0;
      row->target = gap >= 0.0 ? -gap / dt : -kTendonErp * gap / dt;
      set.row[3 * k + static_cast<std::size_t>(side)] = last_row(cs);
    }
    if (p.friction > 0.0) {
      ScalarRow* row = add_jac_row(world, cs, jac, 1.0);
      if (row != nullptr) {
        row->upper = dt * p.friction;
        row->lower = -row->upper;
        row->target = 0.0;
        set.row[3 * k + 2] = last_row(cs);
      }
    }
  }
  for (std::size_t k = 0; k < set.couplings.size(); ++k) {
    const TendonCoupling& c = set.couplings[k];
    if (c.compliance > 0.0) continue;  // a spring (stage_tendon_forces)
    TendonJac jac;
    const double e = coupling_error(world, c, &jac);
    ScalarRow* row = add_jac_row(world, cs, jac, 1.0);
    if (row == nullptr) continue;
    row->target = -c.erp * e / dt;  // bilateral: lower and upper stay infinite
    set.coupling_row[k] = last_row(cs);
  }
}

namespace {

// The implicit rows of stage_tendon_forces (a tendon's spring-damper, armature and actuator
// force, a compliant coupling's spring), their sides' A^-1 J^T and velocities in cs.u filled;
// `known` gets the tendons whose only term is an actuator force (a known impulse, d = 0).
void gather_implicit_rows(World& world, const ContactState& cs, TendonSet& set,
                          std::vector<ImplicitRow>& rows, std::vector<ImplicitRow>* known) {
  const double dt = world.time_step();
  for (std::size_t k = 0; k < set.tendons.size(); ++k) {
    Tendon& t = set.tendons[k];
    const TendonProperties& p = t.props;
    if (!(p.stiffness > 0.0) && !(p.damping > 0.0) && !(p.armature > 0.0) &&
        t.actuator_force == 0.0)
      continue;
    ImplicitRow r;
    add_tendon_jac(world, t, 1.0, r.jac);
    if (!prepare_row(world, cs, r)) continue;
    r.e = spring_deflection(p, fixed_length(world, t), r.k);
    r.c = p.damping + dt * r.k;
    const double a = p.armature;
    r.d = a + dt * r.c;
    r.tendon = &t;
    if (!(r.d > 0.0)) {  // an actuator force alone: a known impulse
      if (known != nullptr) known->push_back(std::move(r));
      continue;
    }
    const double v0 = k < set.start_velocity.size() ? set.start_velocity[k] : 0.0;
    r.rhs = a * v0 + dt * (t.actuator_force - r.k * r.e);
    rows.push_back(std::move(r));
  }
  for (TendonCoupling& c : set.couplings) {
    if (!(c.compliance > 0.0)) continue;
    ImplicitRow r;
    r.e = coupling_error(world, c, &r.jac);
    if (!prepare_row(world, cs, r)) continue;
    r.k = 1.0 / c.compliance;
    r.c = dt * r.k;
    r.d = dt * r.c;
    r.rhs = -dt * r.k * r.e;
    r.coupling = &c;
    rows.push_back(std::move(r));
  }
}

// The implicit rows' groups (stage_tendon_constraint_mass): objects (by their dof_begin in u)
// joined by a row moving both, with the rows over them. A group of at most two objects gets a
// correction; a larger one does not (no row has sides on three objects).
struct MassGroup {
  std::vector<std::int32_t> objects;  // dof_begin of each (sorted)
  std::vector<std::size_t> rows;
};

// the world index of the single body whose slice of u starts at dof_begin (a system without
// dofs shares its dof_begin with the next movable object)
std::int32_t index_of_dof_begin(const World& world, const ContactState& cs,
                                std::int32_t dof_begin) {
  for (std::size_t i = 0; i < cs.dof_begin.size(); ++i)
    if (cs.dof_begin[i] == dof_begin && !is_articulated(*world.objects()[i]))
      return static_cast<std::int32_t>(i);
  return -1;
}

std::vector<MassGroup> mass_groups(const std::vector<ImplicitRow>& rows) {
  std::vector<MassGroup> groups;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::int32_t> mine;
    for (int s = 0; s < rows[i].jac.n; ++s)
      if (rows[i].at[s] >= 0) mine.push_back(rows[i].at[s]);
    // merge every group sharing an object with this row's
    MassGroup merged;
    merged.objects = mine;
    merged.rows.push_back(i);
    for (std::size_t g = groups.size(); g-- > 0;) {
      bool shares = false;
      for (const std::int32_t o : groups[g].objects)
        shares = shares || std::find(mine.begin(), mine.end(), o) != mine.end();
      if (!shares) continue;
      merged.objects.insert(merged.objects.end(), groups[g].objects.begin(),
                            groups[g].objects.end());
      merged.rows.insert(merged.rows.end(), groups[g].rows.begin(), groups[g].rows.end());
      groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(g));
    }
    std::sort(merged.objects.begin(), merged.objects.end());
    merged.objects.erase(std::unique(merged.objects.begin(), merged.objects.end()),
                         merged.objects.end());
    std::sort(merged.rows.begin(), merged.rows.end());
    groups.push_back(std::move(merged));
  }
  // (deterministic: by the first object's place in u)
  std::sort(groups.begin(), groups.end(),
            [](const MassGroup& a, const MassGroup& b) { return a.objects < b.objects; });
  return groups;
}

}  // namespace

void stage_tendon_forces(World& world, ContactState& cs) {
  TendonSet* found = find_tendon_set(world);
  if (found == nullptr) return;
  TendonSet& set = *found;
  for (Tendon& t : set.tendons) t.spring_force = 0.0;
  for (TendonCoupling& c : set.couplings)
    if (c.compliance > 0.0) c.force = 0.0;
  std::vector<ImplicitRow> rows, known;
  gather_implicit_rows(world, cs, set, rows, &known);
  for (const ImplicitRow& r : known)
    apply_row_impulse(cs, r, world.time_step() * r.tendon->actuator_force);
  // the constraint rows will act through the corrected mass (stage_tendon_constraint_mass),
  // which the contact-space solve cannot read: the u-based sweep this step
  bool correct = false;
  for (const MassGroup& g : mass_groups(rows)) correct = correct || g.objects.size() <= 2;
  cs.contact_space.set_suspended_for_next_selection(correct);
  const std::size_t n = rows.size();
  if (n == 0) return;
  // the velocities after the known impulses, then (diag(1 / D) + G) p = rhs / D - v_f
  MatX w = MatX::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  VecX b(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i) {
    ImplicitRow& r = rows[i];
    prepare_row(world, cs, r);
    const auto ii = static_cast<Eigen::Index>(i);
    b[ii] = r.rhs / r.d - r.v_free;
    w(ii, ii) = 1.0 / r.d + row_coupling(r, r);
    for (std::size_t j = 0; j < i; ++j) {
      const auto jj = static_cast<Eigen::Index>(j);
      w(ii, jj) = w(jj, ii) = row_coupling(r, rows[j]);
    }
  }
  VecX p(static_cast<Eigen::Index>(n));
  if (n == 1) {
    p[0] = b[0] / w(0, 0);
  } else {
    const Eigen::LDLT<MatX> ldlt(w);
    p = ldlt.solve(b);
  }
  if (!p.allFinite()) return;  // (a degenerate system: no implicit forces this step)
  for (std::size_t i = 0; i < n; ++i) {
    ImplicitRow& r = rows[i];
    apply_row_impulse(cs, r, p[static_cast<Eigen::Index>(i)]);
    // the spring-damper's force at the end-of-step velocity v+ = v_f + (G p)_i
    double v_end = r.v_free;
    for (std::size_t j = 0; j < n; ++j)
      v_end += (j == i ? w(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) - 1.0 / r.d
                       : w(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j))) *
               p[static_cast<Eigen::Index>(j)];
    const double spring = -r.k * r.e - r.c * v_end;
    if (r.tendon != nullptr) r.tendon->spring_force = spring;
    if (r.coupling != nullptr) r.coupling->force = spring;
  }
}

void stage_tendon_constraint_mass(World& world, ContactState& cs) {
  TendonSet* found = find_tendon_set(world);
  if (found == nullptr) return;
  TendonSet& set = *found;
  set.mass_corrections.clear();
  std::vector<ImplicitRow> rows;
  gather_implicit_rows(world, cs, set, rows, nullptr);
  for (const MassGroup& g : mass_groups(rows)) {
    if (g.objects.size() > 2) continue;  // (not corrected: docs/tendons.md)
    TendonSet::MassCorrection& mc = set.mass_corrections.emplace_back();
    const auto m = static_cast<Eigen::Index>(g.rows.size());
    mc.count = static_cast<int>(g.objects.size());
    for (int o = 0; o < mc.count; ++o) {
      mc.dof_begin[o] = g.objects[static_cast<std::size_t>(o)];
      // this object's block of each row's J^T and A^-1 J^T (zero where the row misses it)
      Eigen::Index n = 0;
      for (const std::size_t i : g.rows)
        for (int s = 0; s < rows[i].jac.n; ++s)
          if (rows[i].at[s] == mc.dof_begin[o]) n = rows[i].jac.j[s].size();
      mc.jt[o] = MatX::Zero(n, m);
      mc.y[o] = MatX::Zero(n, m);
      for (Eigen::Index c = 0; c < m; ++c) {
        const ImplicitRow& r = rows[g.rows[static_cast<std::size_t>(c)]];
        for (int s = 0; s < r.jac.n; ++s) {
          if (r.at[s] != mc.dof_begin[o]) continue;
          mc.jt[o].col(c) = r.jac.j[s];
          mc.y[o].col(c) = r.mj[s];
        }
      }
    }
    MatX w = MatX::Zero(m, m);
    for (int o = 0; o < mc.count; ++o) w.noalias() += mc.jt[o].transpose() * mc.y[o];
    for (Eigen::Index c = 0; c < m; ++c) w(c, c) += 1.0 / rows[g.rows[static_cast<std::size_t>(c)]].d;
    mc.s = w.ldlt().solve(MatX::Identity(m, m));
    if (!mc.s.allFinite()) set.mass_corrections.pop_back();  // (degenerate: A alone)
  }
  if (set.mass_corrections.empty()) return;
  // A row whose sides cover every object of a correction: x_o <- x_o - Y_o S (sum_o J_o^T x_o)
  // for its columns x = A^-1 J_r^T (a row on only one object of a two-object group would need
  // a side on the other, which it may not have: not corrected). Sides without A^-1 J^T stored
  // (single bodies' compact contacts) are not either.
  ContactProblems& problems = cs.problems;
  auto side_of = [](const ContactSide* sides, std::int32_t dof_begin) {
    for (int k = 0; k < 2; ++k)
      if (sides[k].dof_begin == dof_begin && sides[k].jac_begin >= 0) return k;
    return -1;
  };
  auto correct = [&](const ContactSide* sides, std::vector<double>& minv_jt, int cols) {
    bool changed = false;
    for (const TendonSet::MassCorrection& mc : set.mass_corrections) {
      int at[2] = {-1, -1};
      bool all = true;
      for (int o = 0; o < mc.count; ++o) {
        at[o] = side_of(sides, mc.dof_begin[o]);
        all = all && at[o] >= 0 && sides[at[o]].dof_count == mc.y[o].rows();
      }
      if (!all) continue;
      MatX jx = MatX::Zero(mc.s.rows(), cols);
      for (int o = 0; o < mc.count; ++o) {
        const ContactSide& side = sides[at[o]];
        Eigen::Map<MatX> x(minv_jt.data() + side.jac_begin, side.dof_count, cols);
        if (side.articulated < 0 && index_of_dof_begin(world, cs, side.dof_begin) >= 0) {
          // a single body's M^-1 J^T is made once per step (the Delassus stage makes the
          // articulated ones again for every solve): from its J, so a second solve of the step
          // corrects it once
          const std::vector<double>& jac = cols == 3 ? problems.jac : problems.row_jac;
          const Eigen::Map<const MatX> j(jac.data() + side.jac_begin, cols, side.dof_count);
          VecX col;
          for (int c = 0; c < cols; ++c) {
            col = j.row(c).transpose();
            apply_inverse_mass_of(world, index_of_dof_begin(world, cs, side.dof_begin), col);
            x.col(c) = col;
          }
        }
        jx.noalias() += mc.jt[o].transpose() * x;
      }
      const MatX sjx = mc.s * jx;
      for (int o = 0; o < mc.count; ++o) {
        const ContactSide& side = sides[at[o]];
        Eigen::Map<MatX> x(minv_jt.data() + side.jac_begin, side.dof_count, cols);
        x.noalias() -= mc.y[o] * sjx;
      }
      changed = true;
    }
    return changed;
  };
  for (ContactProblem& row : problems.rows)
    if (has_jacobian(row) && correct(row.side, problems.minv_jt, 3))
      compute_delassus_block(problems, row);
  for (ScalarRow& row : problems.scalar_rows)
    if (correct(row.side, problems.row_minv_jt, 1)) row.g = row_delassus(problems, row);
}

void stage_tendon_results(World& world, ContactState& cs) {
  TendonSet* found = find_tendon_set(world);
  if (found == nullptr) return;
  TendonSet& set = *found;
  const double dt = world.time_step();
  auto lambda = [&](std::int32_t r) {
    return r < 0 ? 0.0 : cs.problems.scalar_rows[static_cast<std::size_t>(r)].lambda;
  };
  for (std::size_t k = 0; k < set.tendons.size() && 3 * k + 2 < set.row.size(); ++k) {
    Tendon& t = set.tendons[k];
    t.limit_force = (lambda(set.row[3 * k]) - lambda(set.row[3 * k + 1])) / dt;
    t.friction_force = lambda(set.row[3 * k + 2]) / dt;
    // the spring-damper's force at the step's end velocity (after the constraint rows)
    const TendonProperties& p = t.props;
    if (p.stiffness > 0.0 || p.damping > 0.0) {
      double stiff = 0.0;
      const double e = spring_deflection(p, fixed_length(world, t), stiff);
      t.spring_force = -stiff * e - (p.damping + dt * stiff) * fixed_velocity(world, t);
    }
  }
  for (std::size_t k = 0; k < set.couplings.size() && k < set.coupling_row.size(); ++k)
    if (!(set.couplings[k].compliance > 0.0))
      set.couplings[k].force = lambda(set.coupling_row[k]) / dt;
}

}  // namespace torsion
