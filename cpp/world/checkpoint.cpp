// Checkpoints: capture, validate, restore, bytes, fingerprint, state hash (see checkpoint.hpp).
#include "world/checkpoint.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "core/check.hpp"
#include "dynamics/articulated/configuration.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/height_map.hpp"
#include "geometry/triangle_mesh.hpp"
#include "granular/granular_world.hpp"
#include "terrain/deformable_terrain.hpp"
#include "world/articulated_system.hpp"
#include "world/world.hpp"
#include "world/time_step.hpp"
#include "world/state_io.hpp"
#include "world/world_deformable.hpp"
#include "world/tendons.hpp"

namespace torsion {

namespace {

using state_io::Reader;
using state_io::Writer;

constexpr char kMagic[8] = {'T', 'R', 'S', 'N', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t kByteOrderMark = 0x01020304u;
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8 + 8;

// --- what the check pass refuses ---
// A payload can pass its checksum and still hold values that no setter accepts (a NaN mass, a
// NaN gc, a quaternion of norm 1e297, written so by another program or a bug). The check pass
// refuses them, naming the field, so that the world is left untouched; restoring them would put
// the world in a state every setter refuses, which a step would then spread.

// a value the check pass refuses; `field` names it (the object is added by visit_object)
struct BadValue : std::invalid_argument {
  explicit BadValue(const std::string& what)
      : std::invalid_argument("checkpoint data holds an invalid value: " + what), field(what) {}
  std::string field;
};

[[noreturn]] void bad(const std::string& what) { throw BadValue(what); }

// runs one of the setters' own validators (std::invalid_argument) as a check of the payload
template <class F>
void validated(F&& f) {
  try {
    f();
  } catch (const BadValue&) {
    throw;
  } catch (const std::invalid_argument& e) {
    bad(e.what());
  }
}

void need_finite(double v, const char* name) {
  if (!std::isfinite(v)) bad(std::string(name) + " must be finite, got " + fmt(v));
}
template <class Derived>
void need_finite(const Eigen::MatrixBase<Derived>& v, const char* name) {
  if (!v.allFinite()) bad(std::string(name) + " must be finite (it holds NaN or inf)");
}

// checks for the checked forms of the readers (state_io.hpp)
auto finite(const char* name) {
  return [name](const auto& v) { need_finite(v, name); };
}
auto non_negative(const char* name) {
  return [name](const auto& v) {
    need_finite(v, name);
    if (!(v.array() >= 0.0).all()) bad(std::string(name) + " must be >= 0");
  };
}
auto non_negative_scalar(const char* name) {
  return [name](double v) {
    if (!std::isfinite(v) || v < 0.0)
      bad(std::string(name) + " must be finite and >= 0, got " + fmt(v));
  };
}
auto material_name(const char* name) {
  return [name](const std::string& m) {
    if (m.empty()) bad(std::string(name) + " must be a non-empty name");
    validated([&] { check_name(m, name); });
  };
}
auto flag_byte(const char* name) {
  return [name](char v) {
    if (v != 0 && v != 1) bad(std::string(name) + " must be 0 or 1, got " + std::to_string(v));
  };
}

// --- the state, field by field; the same walk writes, checks and restores ---

// the pass that only checks (Reader<false>): the one that runs the value checks
template <class IO>
inline constexpr bool kChecking = !IO::kWriting && !IO::kApply;

template <class IO>
void visit_material_props(IO& io, MaterialPairProperties& p) {
  io.get(p.friction);
  io.get(p.restitution);
  io.get(p.restitution_threshold);
  io.get(p.static_friction);
  io.get(p.static_friction_threshold_velocity);
  io.get(p.rolling_friction);
  io.get(p.spinning_friction);
}

// materials are written as the set pairs sorted by name (not by the manager's internal indices),
// so two worlds whose pairs were set in a different order have the same payload
template <class IO>
void visit_materials(IO& io, MaterialManager& m) {
  if constexpr (IO::kWriting) {
    MaterialPairProperties def = m.default_properties();
    visit_material_props(io, def);
    std::vector<std::pair<const std::string*, const std::string*>> pairs;
    std::vector<const MaterialPairProperties*> props;
    m.for_each_pair([&](const std::string& a, const std::string& b,
                        const MaterialPairProperties& pair_props) {
      pairs.emplace_back(&a, &b);
      props.push_back(&pair_props);
    });
    io.count(pairs.size(), 0);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      io.str(*pairs[k].first);
      io.str(*pairs[k].second);
      MaterialPairProperties p = *props[k];
      visit_material_props(io, p);
    }
  } else {
    MaterialManager fresh;
    MaterialPairProperties def;
    visit_material_props(io, def);
    validated([&] { validate_material_pair_properties(def); });
    fresh.set_default(def);
    const std::uint64_t n = io.count(0, 2 * 8 + 7 * 8);
    for (std::uint64_t k = 0; k < n; ++k) {
      std::string a, b;
      io.str(a, material_name("material name"));
      io.str(b, material_name("material name"));
      MaterialPairProperties p;
      visit_material_props(io, p);
      validated([&] { validate_material_pair_properties(p); });
      if constexpr (IO::kApply) fresh.set_pair(a, b, p);
    }
    // a new revision, past both, so nothing keyed on the old one survives
    if constexpr (IO::kApply) m.replace_with(fresh);
  }
}

template <class IO>
void visit_warm_start(IO& io, WarmStartCache& cache) {
  using Entry = WarmStartCache::Entry;
  using RowEntry = WarmStartCache::RowEntry;
  auto entry_fields = [&io](auto& e) {
    io.get(e.key.object_a);
    io.get(e.key.object_b);
    io.get(e.key.local_a);
    io.get(e.key.local_b);
    io.get(e.key.feature);
    io.get(e.order);
    for (int j = 0; j < 3; ++j) io.get(e.position[j]);
    for (int j = 0; j < 3; ++j) io.get(e.impulse[j]);
  };
  auto row_fields = [&io](auto& e) {
    io.get(e.object);
    io.get(e.dof);
    io.get(e.kind);
    io.get(e.impulse);
  };
  constexpr std::size_t kEntryBytes = 2 * 8 + 3 * 4 + 4 + 6 * 8;
  // the joint rows' record (joint limits, joint friction): without it the first step after a
  // restore starts those rows cold while the original run started them warm
  constexpr std::size_t kRowBytes = 8 + 2 * 4 + 8;
  if constexpr (IO::kWriting) {
    io.count(cache.entries().size(), kEntryBytes);
    for (const Entry& e : cache.entries()) entry_fields(e);
    io.count(cache.row_entries().size(), kRowBytes);
    for (const RowEntry& e : cache.row_entries()) row_fields(e);
  } else {
    std::vector<Entry> entries(static_cast<std::size_t>(io.count(0, kEntryBytes)));
    for (Entry& e : entries) entry_fields(e);
    if constexpr (kChecking<IO>) {
      // the searches need the record sorted by key (warm_start.hpp); a NaN impulse would start
      // the next solve from NaN
      for (std::size_t k = 0; k < entries.size(); ++k) {
        need_finite(entries[k].position, "a warm-start contact position");
        need_finite(entries[k].impulse, "a warm-start impulse");
        if (k > 0 && WarmStartCache::less(entries[k].key, entries[k - 1].key))
          bad("the warm-start record must be sorted by key");
      }
    }
    std::vector<RowEntry> rows(static_cast<std::size_t>(io.count(0, kRowBytes)));
    for (RowEntry& e : rows) row_fields(e);
    if constexpr (kChecking<IO>) {
      for (std::size_t k = 0; k < rows.size(); ++k) {
        need_finite(rows[k].impulse, "a joint row's warm-start impulse");
        if (k > 0 && !WarmStartCache::row_less(rows[k - 1], rows[k]))
          bad("the joint rows' warm-start record must be sorted by key, without repeats");
      }
    }
    if constexpr (IO::kApply) cache.restore_state(std::move(entries), std::move(rows));
  }
}

template <class IO>
void visit_rigid_body(IO& io, RigidBody& b, bool terrain) {
  io.vec3(b.position, finite("position"));
  io.quat(b.orientation, [](const Quat& q) {
    need_finite(q.coeffs(), "orientation");
    // the state holds unit quaternions (set_orientation and every step normalise)
    if (!(std::abs(q.norm() - 1.0) <= 1e-6))
      bad("orientation must be a unit quaternion, got norm " + fmt(q.norm()));
  });
  io.vec3(b.linear_velocity, finite("linear_velocity"));
  io.vec3(b.angular_velocity, finite("angular_velocity"));
  // terrain has no mass (0); any other body a positive one, as set_mass demands
  io.val(b.mass, [terrain](double m) {
    if (terrain ? !(m == 0.0) : !(std::isfinite(m) && m > 0.0))
      bad(std::string("mass must be ") + (terrain ? "0 for terrain" : "finite and > 0") +
          ", got " + fmt(m));
  });
  io.val(b.inv_mass, non_negative_scalar("inverse mass"));
  io.mat3(b.inertia_b, [terrain](const Mat3& in) {
    need_finite(in, "inertia");
    if (terrain) return;
    Eigen::LLT<Mat3> llt(0.5 * (in + in.transpose()));
    if (llt.info() != Eigen::Success || !(in.diagonal().minCoeff() > 0.0))
      bad("inertia must be positive definite");
  });
  io.mat3(b.inv_inertia_b, finite("inverse inertia"));
  io.val(b.type, [terrain](BodyType t) {
    const int v = static_cast<int>(t);
    if (v > static_cast<int>(BodyType::kDynamic))
      bad("body type must be 0 (static), 1 (kinematic) or 2 (dynamic), got " +
          std::to_string(v));
    if (terrain && t != BodyType::kStatic) bad("the ground and heightmaps are always static");
  });
  io.val(b.linear_damping, non_negative_scalar("linear_damping"));
  io.vec3(b.angular_damping, non_negative("angular_damping"));
  io.vec3(b.external_force, finite("external force"));
  io.vec3(b.external_torque, finite("external torque"));
  io.mat3(b.rotation, finite("rotation"));
  io.mat3(b.inv_inertia_w, finite("world inverse inertia"));
  // not checked: the step sets it before it uses it (integrate_body_velocity; and one that went
  // non-finite in a step the world recovered from stays in the state harmlessly)
  io.vec3(b.start_angular_velocity_b);
}

template <class IO>
void visit_collision_props(IO& io, CollisionProps& c) {
  io.val(c.group);
  io.val(c.mask);
  io.str(c.material, material_name("material"));
}

template <class IO>
void visit_articulated(IO& io, ArticulatedSystem& a) {
  const ArticulatedModel& model = a.model();
  const Eigen::Index nq = model.nq, nv = model.nv;
  const std::size_t nb = model.bodies.size();
  // quaternions as the setters accept them: finite with a non-zero norm (a target's floating
  // base may be all zeros: its gains are zero, set_pd_target)
  auto gc_check = [&model](const char* name, bool skip_floating_base) {
    return [&model, name, skip_floating_base](const VecX& q) {
      need_finite(q, name);
      validated([&] { check_quaternions(model, q, name, skip_floating_base); });
    };
  };
  io.vecx(a.data().q, nq, gc_check("gc", false));
  io.vecx(a.data().u, nv, finite("gv"));
  io.val(a.control_state().mode, [](ControlMode m) {
    if (static_cast<int>(m) > static_cast<int>(ControlMode::kPdPlusFeedforwardTorque))
      bad("control mode must be 0 or 1, got " + std::to_string(static_cast<int>(m)));
  });
  io.vecx(a.control_state().kp, nv, non_negative("kp"));
  io.vecx(a.control_state().kd, nv, non_negative("kd"));
  io.vecx(a.control_state().q_ref, nq, gc_check("q_ref", true));
  io.vecx(a.control_state().u_ref, nv, finite("v_ref"));
  io.vecx(a.control_state().tau_ff, nv, finite("feedforward torque"));
  // not checked: the last step's torques, read only for their sign (held efforts); one that went
  // non-finite in a step the world recovered from stays in the state harmlessly
  io.vecx(a.control_state().tau_applied, nv);
  io.vecx(a.control_state().effort_limit, nv, [](const VecX& l) {
    if (!(l.array() > 0.0).all()) bad("effort limits must be > 0 (inf for none)");
  });
  io.flag(a.control_state().clamp_effort);
  for (char& held : a.control_state().saturated) io.val(held, flag_byte("a held-effort flag"));
  for (std::size_t b = 0; b < nb; ++b) {
    io.vec3(a.control_state().ext_force[b], finite("external force"));
    io.vec3(a.control_state().ext_moment[b], finite("external moment"));
  }
  io.flag(a.control_state().has_external);
  io.val(a.collision_group);
  io.val(a.collision_mask);
  io.flag(a.do_not_collide_with_parent);
  io.flag(a.self_collision);
  for (std::size_t b = 0; b < nb; ++b) visit_collision_props(io, a.body_collision[b]);
  for (char& on : a.control_state().gravity_comp)
    io.val(on, flag_byte("a gravity compensation flag"));
  if constexpr (IO::kApply) a.state_restored();
  // a fixed base's mounting (set_base_position / set_base_orientation): last, since setting it
  // gives the system a new model (`model` above refers to the old one)
  if (!model.floating_base) {
    Pose p = model.bodies[0].joint_placement;
    io.mat3(p.rotation, [](const Mat3& r) {
      need_finite(r, "base rotation");
      if ((r.transpose() * r - Mat3::Identity()).cwiseAbs().maxCoeff() > 1e-9 || r.determinant() < 0.0)
        bad("base rotation must be a rotation matrix");
    });
    io.vec3(p.position, finite("base position"));
    if constexpr (IO::kApply) {
      const Pose& now = a.fixed_base_placement();
      if (now.rotation != p.rotation || now.position != p.position) a.set_fixed_base_placement(p);
    }
  }
}

// a deformable terrain's soil (terrain/deformable_terrain.hpp): its material and every node's
// level, reference level, plastic sinkage, pressure, shear displacement and contact flag. Its
// grid and initial heights are topology (the fingerprint).
template <class IO>
void visit_soil(IO& io, DeformableTerrain& t) {
  SoilMaterial m = t.soil();
  io.get(m.k_c);
  io.get(m.k_phi);
  io.get(m.n);
  io.get(m.cohesion);
  io.get(m.friction_angle);
  io.get(m.janosi_shear);
  io.get(m.elastic_stiffness);
  io.get(m.damping);
  io.flag(m.elastic_rebound);
  io.flag(m.bulldozing);
  io.get(m.bulldozing_flow);
  io.get(m.erosion_angle);
  io.get(m.erosion_iterations);
  const std::size_t n = t.node_count();
  DeformableTerrain::State s;
  if constexpr (IO::kWriting) {
    s = t.state();
  } else {
    s.level.resize(n);
    s.reference.resize(n);
    s.plastic.resize(n);
    s.sigma.resize(n);
    s.shear.resize(n);
    s.touched.resize(n);
  }
  for (std::size_t i = 0; i < n; ++i) {
    io.get(s.level[i]);
    io.get(s.reference[i]);
    io.get(s.plastic[i]);
    io.get(s.sigma[i]);
    for (int c = 0; c < 3; ++c) io.get(s.shear[i][c]);  // (get: read in the check pass too)
    io.get(s.touched[i]);
  }
  if constexpr (kChecking<IO>) {
    validated([&] {
      validate_soil_material(m);
      DeformableTerrain::check_state(s, n);
    });
  }
  if constexpr (IO::kApply) t.restore(m, std::move(s));
}

template <class IO>
void visit_object_state(IO& io, Object& o) {
  std::string name = o.name();
  io.str(name, [](const std::string& n) { validated([&] { check_name(n, "object name"); }); });
  if constexpr (IO::kApply) o.set_name(name);
  Object::SleepState& sleep = o.sleep_state();
  io.flag(sleep.sleeping);
  io.flag(sleep.wake_requested);
  io.val(sleep.quiet_steps);
  io.val(sleep.island);
  if (o.type() == ObjectType::kArticulatedSystem) {
    visit_articulated(io, static_cast<ArticulatedSystem&>(o));
  } else {
    auto& sb = static_cast<SingleBodyObject&>(o);
    visit_rigid_body(io, sb.body(), sb.is_terrain());
    visit_collision_props(io, sb.collision());
    // each child's material (set_object_material(obj, name, local_index)); the number of
    // children is part of the topology (fingerprint)
    for (ChildShape& c : sb.children()) io.str(c.material, material_name("child material"));
    if (DeformableTerrain* t = as_deformable_terrain(o)) visit_soil(io, *t);
  }
}

template <class IO>
void visit_object(IO& io, Object& o) {
  // identity first: a checkpoint of another topology fails here at the latest
  ObjectId id = o.id();
  ObjectType type = o.type();
  io.get(id);
  io.get(type);
  if (id != o.id() || type != o.type())
    throw std::invalid_argument("checkpoint data does not match this world: object id " +
                                std::to_string(id) + " where the world has " +
                                std::to_string(o.id()));
  if constexpr (!kChecking<IO>) {
    visit_object_state(io, o);
  } else {
    try {
      visit_object_state(io, o);
    } catch (const BadValue& e) {
      bad("object id " + std::to_string(o.id()) + ": " + e.field);
    }
  }
}

// the wires (world/wires.hpp), in index order: their ids, kinds and ends are topology (the
// fingerprint); their length, stiffness, tension and warm-start impulse are state
template <class IO>
void visit_wires(IO& io, World& w) {
  WireSet& set = w.wire_set();
  const std::uint64_t n = io.count(set.wires.size(), 8);
  if (n != set.wires.size())
    throw std::invalid_argument("checkpoint data does not match this world: " +
                                std::to_string(n) + " wires where the world has " +
                                std::to_string(set.wires.size()));
  for (Wire& wire : set.wires) {
    std::uint64_t id = wire.id;
    io.get(id);
    if (id != wire.id)
      throw std::invalid_argument("checkpoint data does not match this world: wire id " +
                                  std::to_string(id) + " where the world has " +
                                  std::to_string(wire.id));
    io.val(wire.length, [](double v) {
      if (!std::isfinite(v) || !(v > 0.0)) bad("a wire length must be finite and > 0, got " + fmt(v));
    });
    io.val(wire.stiffness, non_negative_scalar("wire stiffness"));
    io.val(wire.tension, non_negative_scalar("wire tension"));
    io.val(wire.impulse, non_negative_scalar("wire impulse"));
  }
}

// a deformable (world_deformable.hpp): material, filter, pins, attachments, particles, and the
// constraint forces of the last substep. Its mesh is topology (the fingerprint).
template <class IO>
void visit_deformable(IO& io, DeformableObject& d) {
  DeformableMaterial m = d.material();
  io.get(m.density);
  io.get(m.areal_density);
  io.get(m.stretch_compliance);
  io.get(m.bending_compliance);
  io.get(m.youngs_modulus);
  io.get(m.poisson_ratio);
  io.get(m.volume_compliance);
  io.get(m.damping);
  io.get(m.substeps);
  io.get(m.iterations);
  io.get(m.proxy_radius);
  io.flag(m.self_collision);
  std::int32_t solver = static_cast<std::int32_t>(m.solver);
  io.get(solver);
  m.solver = static_cast<DeformableSolver>(solver);
  io.get(m.element_order);
  if constexpr (kChecking<IO>) {
    if (solver != 0 && solver != 1) bad("a deformable's solver is not 0 (xpbd) or 1 (newton)");
    validated([&] { validate_deformable_material(m); });
    if ((m.youngs_modulus > 0.0) != (d.material().youngs_modulus > 0.0))
      bad("a deformable's youngs_modulus changes its constraints (> 0 or 0 differs)");
    if (m.solver != d.material().solver || m.element_order != d.material().element_order)
      bad("a deformable's solver and element order change its constraints and nodes");
  }
  if constexpr (IO::kApply) d.set_material(m);
  io.str(d.contact_material, material_name("deformable contact material"));
  io.val(d.group);
  io.val(d.mask);
  const std::size_t n = d.vertex_count();
  for (std::size_t i = 0; i < n; ++i) {
    bool p = d.state_pinned()[i] != 0;
    io.flag(p);
    if constexpr (IO::kApply) d.state_pinned()[i] = p ? 1 : 0;
  }
  auto& att = d.state_attachments();
  const std::uint64_t na = io.count(att.size(), 8 + 8 + 8 + 24);
  std::vector<DeformableAttachment> read(static_cast<std::size_t>(na));
  for (std::size_t k = 0; k < read.size(); ++k) {
    if constexpr (IO::kWriting) read[k] = att[k];
    io.get(read[k].vertex);
    io.get(read[k].object);
    io.get(read[k].local);
    io.get(read[k].offset.x());
    io.get(read[k].offset.y());
    io.get(read[k].offset.z());
    if constexpr (kChecking<IO>) {
      if (read[k].vertex >= n) bad("a deformable attachment's vertex is out of range");
      need_finite(read[k].offset, "a deformable attachment's offset");
    }
  }
  if constexpr (IO::kApply) att = read;
  for (std::size_t i = 0; i < n; ++i) io.vec3(d.state_positions()[i], finite("deformable positions"));
  for (std::size_t i = 0; i < n; ++i)
    io.vec3(d.state_velocities()[i], finite("deformable velocities"));
  // the internal edge nodes of quadratic elements (their count follows from the mesh)
  const std::size_t ne = d.state_edge_positions().size();
  for (std::size_t k = 0; k < ne; ++k)
    io.vec3(d.state_edge_positions()[k], finite("deformable edge node positions"));
  for (std::size_t k = 0; k < ne; ++k)
    io.vec3(d.state_edge_velocities()[k], finite("deformable edge node velocities"));
  auto& f = d.state_forces();
  const std::uint64_t nf = io.count(f.size(), 8);
  if (nf != f.size())
    throw std::invalid_argument("checkpoint data does not match this world: a deformable has " +
                                std::to_string(f.size()) + " constraints, the data " +
                                std::to_string(nf));
  for (double& v : f) io.val(v, finite("deformable constraint forces"));
  if constexpr (IO::kApply) d.refresh_inverse_masses();
}

// the tendons and couplings (world/tendons.hpp), in index order: ids, kinds, joints, paths, the
// couplings' tendons and polynomial degree are topology (the fingerprint); properties, actuator
// forces, polynomial coefficients and the last step's forces are state
template <class IO>
void visit_tendons(IO& io, World& w) {
  TendonSet* found = find_tendon_set(w);
  TendonSet empty;
  TendonSet& set = found != nullptr ? *found : empty;
  const std::uint64_t n = io.count(set.tendons.size(), 8);
  if (n != set.tendons.size())
    throw std::invalid_argument("checkpoint data does not match this world: " +
                                std::to_string(n) + " tendons where the world has " +
                                std::to_string(set.tendons.size()));
  for (Tendon& t : set.tendons) {
    std::uint64_t id = t.id;
    io.get(id);
    if (id != t.id)
      throw std::invalid_argument("checkpoint data does not match this world: tendon id " +
                                  std::to_string(id) + " where the world has " +
                                  std::to_string(t.id));
    TendonProperties& p = t.props;
    io.val(p.stiffness, non_negative_scalar("tendon stiffness"));
    io.val(p.damping, non_negative_scalar("tendon damping"));
    io.val(p.friction, non_negative_scalar("tendon friction"));
    io.val(p.armature, non_negative_scalar("tendon armature"));
    io.val(p.spring_length, finite("tendon spring length"));
    io.val(p.spring_upper, finite("tendon spring length's upper end"));
    io.val(p.lower, [](double v) {
      if (std::isnan(v) || v == INFINITY) bad("a tendon's lower limit must be < inf");
    });
    io.val(p.upper, [&p](double v) {
      if (std::isnan(v) || v == -INFINITY || !(p.lower <= v))
        bad("a tendon's upper limit must be > -inf and >= its lower limit");
    });
    io.val(t.actuator_force, finite("tendon actuator force"));
    io.val(t.limit_force, finite("tendon limit force"));
    io.val(t.friction_force, finite("tendon friction force"));
    io.val(t.spring_force, finite("tendon spring force"));
  }
  const std::uint64_t nc = io.count(set.couplings.size(), 8);
  if (nc != set.couplings.size())
    throw std::invalid_argument("checkpoint data does not match this world: " +
                                std::to_string(nc) + " tendon couplings where the world has " +
                                std::to_string(set.couplings.size()));
  for (TendonCoupling& c : set.couplings) {
    std::uint64_t id = c.id;
    io.get(id);
    if (id != c.id)
      throw std::invalid_argument("checkpoint data does not match this world: tendon coupling "
                                  "id " + std::to_string(id) + " where the world has " +
                                  std::to_string(c.id));
    for (double& k : c.polynomial) io.val(k, finite("tendon coupling polynomial"));
    io.val(c.compliance, non_negative_scalar("tendon coupling compliance"));
    io.val(c.erp, [](double v) {
      if (!std::isfinite(v) || !(v > 0.0) || v > 1.0) bad("a tendon coupling's erp must be in (0, 1]");
    });
    io.val(c.force, finite("tendon coupling force"));
  }
}

// the granular systems (their set is part of the topology fingerprint): each one's full state
// (particles, materials, contact histories) as GranularSystem::save_state's bytes
template <class IO>
void visit_granular(IO& io, World& w) {
  GranularWorld* gw = w.granular_if_any();
  const std::uint64_t have = gw ? gw->systems.size() : 0;
  const std::uint64_t n = io.count(have, 16);
  if (n != have)
    throw std::invalid_argument("checkpoint data does not match this world: " +
                                std::to_string(n) + " granular systems where the world has " +
                                std::to_string(have));
  for (std::uint64_t k = 0; k < n; ++k) {
    GranularSystem& g = *gw->systems[k].system;
    if constexpr (IO::kWriting) {
      std::vector<std::uint8_t> bytes;
      g.save_state(bytes);
      io.val(static_cast<std::uint64_t>(bytes.size()));
      io.raw(bytes.data(), bytes.size());
    } else {
      const std::uint64_t size = io.count(0, 1);
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
      io.raw(bytes.data(), bytes.size());
      if constexpr (IO::kApply) {
        g.load_state(bytes.data(), bytes.size());
      } else {
        validated([&] {
          GranularSystem probe({}, {}, GranularMaterial());
          probe.load_state(bytes.data(), bytes.size());
        });
      }
    }
  }
}

template <class IO>
void visit_world(IO& io, World& w) {
  World::Globals g = w.globals();
  io.val(g.dt, [](double dt) { validated([&] { check_time_step(dt, "time step"); }); });
  io.val(g.time, finite("world time"));
  io.vec3(g.gravity, finite("gravity"));
  io.val(g.warnings.non_finite_state);
  io.val(g.warnings.last_object);
  io.val(g.warnings.last_time);
  // sensors: the noise stream's seed and exact position
  io.val(g.sensor_noise_seed);
  if constexpr (IO::kApply) w.restore_globals(g);
  RandomStream& rng = w.sensor_noise();
  RandomStream::State rs = rng.save_state();
  for (std::uint64_t& word : rs.words) io.get(word);
  // xoshiro256's one state it never leaves: all zeros, a stream of zeros
  if constexpr (kChecking<IO>)
    if ((rs.words[0] | rs.words[1] | rs.words[2] | rs.words[3]) == 0)
      bad("the sensor noise stream's state must not be all zeros");
  io.val(rs.spare, finite("the sensor noise stream's spare normal"));
  io.flag(rs.has_spare);
  if constexpr (IO::kApply) rng.restore_state(rs);
  // collision settings, read into copies and checked whole by the setters' validators
  CollisionData& cd = w.collision_data();
  ContactSettings cs = cd.contact_settings;
  io.get(cs.margin);
  io.get(cs.max_points_per_pair);
  io.get(cs.moving_points_per_pair);
  io.get(cs.flat_tolerance);
  io.get(cs.gjk_max_iterations);
  io.get(cs.epa_max_iterations);
  io.get(cs.epa_tolerance);
  BroadphaseSettings bs = cd.broadphase_settings;
  io.get(bs.aabb_margin);
  io.get(bs.sweep_axis);
  if constexpr (kChecking<IO>)
    validated([&] {
      check_contact_settings(cs);
      check_broadphase_settings(bs);
    });
  if constexpr (IO::kApply) {
    cd.contact_settings = cs;
    cd.broadphase_settings = bs;
  }
  // contact solver: parameters, next sweep direction, warm start, materials
  ContactState& ct = w.contact_state();
  ContactSolverParams sp = ct.solver.params();
  io.get(sp.alpha_init);
  io.get(sp.alpha_min);
  io.get(sp.alpha_decay);
  io.get(sp.max_iter);
  io.get(sp.threshold);
  io.get(sp.erp);
  io.get(sp.erp2);
  io.get(sp.max_depenetration_velocity);
  io.get(sp.position_correction);
  io.flag(sp.fixed_order);
  io.get(sp.acceleration_depth);
  io.flag(sp.compact_kernel);
  io.get(sp.relative_threshold);
  if constexpr (kChecking<IO>) validated([&] { validate_contact_solver_params(sp); });
  if constexpr (IO::kApply) ct.solver.params() = sp;
  bool forward = ct.solver.next_forward();
  io.flag(forward);
  if constexpr (IO::kApply) ct.solver.set_next_forward(forward);
  io.flag(ct.warm_start_enabled);
  visit_warm_start(io, ct.warm_start);
  visit_materials(io, ct.materials);
  // sleeping
  WorldStateData& st = w.state_data();
  io.flag(st.sleeping_enabled);
  // as set_sleeping_parameters leaves them: thresholds >= 0 (inf allowed), at least one step
  auto threshold = [](double v) {
    if (!(v >= 0.0)) bad("a sleeping velocity threshold must be >= 0, got " + fmt(v));
  };
  io.val(st.sleep.linear_velocity_threshold, threshold);
  io.val(st.sleep.angular_velocity_threshold, threshold);
  io.val(st.sleep.quiet_steps, [](int q) {
    if (q < 1) bad("sleeping quiet_steps must be >= 1, got " + std::to_string(q));
  });
  // objects, in world-index order
  const std::uint64_t n = io.count(w.object_count(), 8);
  if (n != w.object_count())
    throw std::invalid_argument("checkpoint data does not match this world: " +
                                std::to_string(n) + " objects where the world has " +
                                std::to_string(w.object_count()));
  for (std::size_t i = 0; i < w.object_count(); ++i) visit_object(io, w.object_at(i));
  visit_wires(io, w);
  // deformables, in the world's order
  DeformableSet& defs = w.deformable_set();
  io.val(defs.non_finite_resets);
  const std::uint64_t nd = io.count(defs.objects.size(), 8);
  if (nd != defs.objects.size())
    throw std::invalid_argument("checkpoint data does not match this world: " +
                                std::to_string(nd) + " deformables where the world has " +
                                std::to_string(defs.objects.size()));
  for (auto& d : defs.objects) visit_deformable(io, *d);
  visit_tendons(io, w);
  visit_granular(io, w);
}

Writer write_state(World& w) {
  Writer out;
  // the last payload's size is a good guess: one allocation in steady state
  std::size_t& guess = w.state_data().payload_size_hint;
  out.out.reserve(guess > 0 ? guess + guess / 8 : 4096);
  visit_world(out, w);
  guess = out.out.size();
  return out;
}

// --- topology ---

void put_shape(Writer& f, const Shape& s) {
  f.val(s.type);
  f.val(s.radius);
  f.val(s.height);
  f.vec3(s.half_extents);
  // the geometry behind the pointers: terrain with other samples, or a mesh of other vertices,
  // is another world, as a sphere of another radius is
  if (s.height_map) {
    const HeightMapData& h = *s.height_map;
    f.val(h.x_samples());
    f.val(h.y_samples());
    f.val(h.x_size());
    f.val(h.y_size());
    f.raw(h.heights().data(), h.heights().size() * sizeof(double));
  }
  if (s.hull) {
    f.val(static_cast<std::uint64_t>(s.hull->vertices.size()));
    for (const Vec3& v : s.hull->vertices) f.vec3(v);
  }
  if (s.mesh) {
    f.val(static_cast<std::uint64_t>(s.mesh->vertices().size()));
    for (const Vec3& v : s.mesh->vertices()) f.vec3(v);
    f.val(static_cast<std::uint64_t>(s.mesh->triangles().size()));
    f.raw(s.mesh->triangles().data(), s.mesh->triangles().size() * sizeof(std::array<int, 3>));
  }
}

void put_single_body_shapes(Writer& f, const SingleBodyObject& o) {
  if (const DeformableTerrain* t = as_deformable_terrain(o)) {
    // a deformable terrain's samples change every step: its topology is its initial heights
    Shape initial = o.shape();
    initial.height_map = t->initial_ptr();
    put_shape(f, initial);
    f.val(std::uint8_t{1});  // (not a static heightmap of the same samples)
  } else {
    put_shape(f, o.shape());
  }
  // every child of a compound or convex decomposition, with its place in the body
  f.val(static_cast<std::uint64_t>(o.children().size()));
  for (const ChildShape& c : o.children()) {
    put_shape(f, c.shape);
    f.vec3(c.pose.position);
    f.mat3(c.pose.rotation);
  }
}

std::uint32_t read_u32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint64_t read_u64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

std::uint64_t topology_fingerprint(World& w) {
  // shapes and robot models never change after creation: the fingerprint changes only when
  // objects are added or removed, so it is cached per configuration number
  WorldStateData& st = w.state_data();
  if (st.fingerprint_valid && st.fingerprint_configuration == w.configuration_number())
    return st.fingerprint;
  Writer f;
  f.val(static_cast<std::uint64_t>(w.next_object_id()));
  f.val(static_cast<std::uint64_t>(w.object_count()));
  if (const GranularWorld* gw = w.granular_if_any(); gw && !gw->systems.empty()) {
    f.val(static_cast<std::uint64_t>(gw->systems.size()));
    for (const auto& s : gw->systems) f.val(s.id);
  }
  for (const auto& o : w.objects()) {
    f.val(o->id());
    f.val(o->type());
    if (o->type() == ObjectType::kArticulatedSystem) {
      const ArticulatedModel& m = static_cast<const ArticulatedSystem&>(*o).model();
      f.val(m.nq);
      f.val(m.nv);
      f.val(static_cast<std::uint64_t>(m.bodies.size()));
      for (const auto& b : m.bodies) {
        f.val(b.parent);
        f.val(b.joint_type);
        f.val(b.mimic_body);
        f.val(b.mimic_multiplier);
        f.val(b.mimic_offset);
      }
      f.val(static_cast<std::uint64_t>(m.collisions.size()));
      for (const auto& c : m.collisions) {
        f.val(c.body);
        put_shape(f, c.shape);
      }
    } else {
      put_single_body_shapes(f, static_cast<const SingleBodyObject&>(*o));
    }
  }
  f.val(static_cast<std::uint64_t>(w.wire_set().id_index.size()));
  f.val(static_cast<std::uint64_t>(w.wire_count()));
  for (const Wire& wire : w.wire_set().wires) {
    f.val(wire.id);
    f.val(wire.kind);
    for (const WireEnd& e : wire.end) {
      f.val(e.object);
      f.val(e.local);
      f.val(e.position_b.x());
      f.val(e.position_b.y());
      f.val(e.position_b.z());
    }
  }
  // deformables: ids, kinds, rest vertices and cells
  const DeformableSet& defs = w.deformable_set();
  f.val(static_cast<std::uint64_t>(defs.next_id));
  f.val(static_cast<std::uint64_t>(defs.objects.size()));
  for (const auto& d : defs.objects) {
    f.val(d->id());
    f.val(d->kind());
    f.val(static_cast<std::uint64_t>(d->vertex_count()));
    for (const Vec3& x : d->rest_positions()) f.vec3(x);
    f.val(static_cast<std::uint64_t>(d->triangles().size()));
    for (const auto& t : d->triangles()) f.raw(t.data(), sizeof(t));
    f.val(static_cast<std::uint64_t>(d->tetrahedra().size()));
    for (const auto& t : d->tetrahedra()) f.raw(t.data(), sizeof(t));
    if (!d->struts().empty()) {  // (nothing for a mesh without: fingerprints stay as they were)
      f.val(static_cast<std::uint64_t>(d->struts().size()));
      for (const auto& t : d->struts()) f.raw(t.data(), sizeof(t));
    }
  }
  if (const TendonSet* tendons = find_tendon_set(w)) {
    f.val(static_cast<std::uint64_t>(tendons->id_index.size()));
    f.val(static_cast<std::uint64_t>(tendons->tendons.size()));
    for (const Tendon& t : tendons->tendons) {
      f.val(t.id);
      f.val(t.kind);
      for (const TendonJointTerm& j : t.joints) {
        f.val(j.object);
        f.val(static_cast<std::int64_t>(j.dof));
        f.val(j.coefficient);
      }
      for (const TendonPathElement& e : t.path) {
        f.val(e.kind);
        f.val(e.object);
        f.val(e.local);
        for (const Vec3* v : {&e.position_b, &e.axis_b, &e.side_b})
          for (int i = 0; i < 3; ++i) f.val((*v)[i]);
        f.val(e.radius);
        f.val(static_cast<std::uint8_t>(e.has_side));
        f.val(static_cast<std::uint8_t>(e.side_elsewhere));
        f.val(e.side_object);
        f.val(e.side_local);
        f.val(e.divisor);
      }
    }
    f.val(static_cast<std::uint64_t>(tendons->coupling_id_index.size()));
    f.val(static_cast<std::uint64_t>(tendons->couplings.size()));
    for (const TendonCoupling& c : tendons->couplings) {
      f.val(c.id);
      f.val(c.first);
      f.val(static_cast<std::uint8_t>(c.has_second));
      f.val(c.second);
      f.val(static_cast<std::uint64_t>(c.polynomial.size()));
    }
  }
  st.fingerprint = state_io::fnv1a(f.out.data(), f.out.size());
  st.fingerprint_configuration = w.configuration_number();
  st.fingerprint_valid = true;
  return st.fingerprint;
}

std::uint64_t state_hash(World& w) {
  if (w.is_mid_step())
    throw std::logic_error("state_hash() is not allowed between integrate1() and integrate2()");
  const Writer s = write_state(w);
  return state_io::fnv1a(s.out.data(), s.out.size());
}

Checkpoint capture_checkpoint(World& w) {
  if (w.is_mid_step())
    throw std::logic_error(
        "capture_checkpoint() is not allowed between integrate1() and integrate2() (a split "
        "step); checkpoints are taken between complete steps");
  Checkpoint cp;
  cp.payload_ = std::make_shared<const std::vector<std::uint8_t>>(std::move(write_state(w).out));
  cp.world_identity_ = w.lifetime_identity();
  cp.configuration_number_ = w.configuration_number();
  cp.fingerprint_ = topology_fingerprint(w);
  cp.time_ = w.world_time();
  return cp;
}

std::string restore_checkpoint(World& w, const Checkpoint& cp) {
  if (w.is_mid_step())
    return "the world is between integrate1() and integrate2() (a split step); restore between "
           "complete steps";
  if (cp.empty()) return "the checkpoint is empty";
  if (cp.world_identity_ != 0 && cp.world_identity_ != w.lifetime_identity())
    return "the checkpoint belongs to another World (lifetime identity " +
           std::to_string(cp.world_identity_) + ", this world is " +
           std::to_string(w.lifetime_identity()) + ")";
  if ((cp.world_identity_ != 0 && cp.configuration_number_ != w.configuration_number()) ||
      cp.fingerprint_ != topology_fingerprint(w))
    return "the world's topology changed since the checkpoint was captured (objects added or "
           "removed, or a world built differently)";
  const auto& bytes = *cp.payload_;
  // check everything first, so a bad payload leaves the world untouched. A checkpoint this world
  // captured under its current configuration was written by visit_world for exactly these
  // objects and cannot fail; one read from bytes is checked: its layout, and that every value is
  // one the setters accept. A payload that fails is bad input (std::invalid_argument), as the
  // bytes Checkpoint::from_bytes refuses are.
  if (cp.world_identity_ == 0) try {
    Reader<false> check(bytes.data(), bytes.size());
    visit_world(check, w);
    if (!check.at_end()) check.fail("bytes left over after the last object");
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("restore_checkpoint rejected: ") + e.what());
  }
  Reader<true> apply(bytes.data(), bytes.size());
  visit_world(apply, w);
  for (const auto& o : w.objects())
    if (o->type() == ObjectType::kArticulatedSystem)
      static_cast<ArticulatedSystem&>(*o).state_restored();
  // reporting of the last step does not describe the restored state
  w.collision_data().contacts.clear();
  w.contact_state().material_index_valid = false;  // materials and assignments were rewritten
  w.mark_state_changed();
  return "";
}

std::vector<std::uint8_t> Checkpoint::to_bytes() const {
  if (empty()) throw std::logic_error("to_bytes(): the checkpoint is empty");
  Writer out;
  out.raw(kMagic, 8);
  out.val(kCheckpointFormatVersion);
  out.val(kByteOrderMark);
  out.val(fingerprint_);
  out.val(static_cast<std::uint64_t>(payload_->size()));
  out.val(state_io::fnv1a(payload_->data(), payload_->size()));
  out.raw(payload_->data(), payload_->size());
  return std::move(out.out);
}

Checkpoint Checkpoint::from_bytes(const std::uint8_t* data, std::size_t size) {
  auto bad = [](const std::string& what) {
    throw std::invalid_argument("data is not a torsion checkpoint: " + what);
  };
  if (size < kHeaderBytes)
    bad("it has " + std::to_string(size) + " bytes, fewer than the " +
        std::to_string(kHeaderBytes) + "-byte header");
  if (std::memcmp(data, kMagic, 8) != 0) bad("it does not start with \"TRSNCKPT\"");
  const std::uint32_t version = read_u32(data + 8);
  if (version != kCheckpointFormatVersion)
    bad("format version " + std::to_string(version) + ", this torsion reads version " +
        std::to_string(kCheckpointFormatVersion));
  if (read_u32(data + 12) != kByteOrderMark) bad("it was written with another byte order");
  const std::uint64_t fingerprint = read_u64(data + 16);
  const std::uint64_t length = read_u64(data + 24);
  const std::uint64_t checksum = read_u64(data + 32);
  if (length != size - kHeaderBytes)
    bad("the header announces " + std::to_string(length) + " payload bytes, " +
        std::to_string(size - kHeaderBytes) + " are present (truncated or padded)");
  if (state_io::fnv1a(data + kHeaderBytes, length) != checksum)
    bad("the payload checksum does not match (corrupted)");
  Checkpoint cp;
  cp.payload_ = std::make_shared<const std::vector<std::uint8_t>>(data + kHeaderBytes,
                                                                 data + size);
  cp.fingerprint_ = fingerprint;
  // the world time sits at a fixed place: after the time step
  if (length >= 16) std::memcpy(&cp.time_, data + kHeaderBytes + 8, 8);
  return cp;
}

}  // namespace torsion
