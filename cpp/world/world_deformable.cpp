// The world's deformables: adding, removing, attaching, and the step stage (world_deformable.hpp).
#include "world/world_deformable.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/check.hpp"
#include "deformable/mesh_build.hpp"
#include "geometry/aabb.hpp"
#include "io/mesh_io.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "dynamics/rigid_body.hpp"
#include "world/articulated_system.hpp"
#include "world/collision_shapes.hpp"
#include "world/world.hpp"

namespace torsion {

namespace {

void require_between_steps(const World& w, const char* what) {
  if (w.is_mid_step())
    throw std::logic_error(std::string(what) +
                           " is not allowed between integrate1() and integrate2()");
}

void check_material_name(const std::string& name) {
  if (name.empty()) throw_invalid("contact_material must be a non-empty material name");
}

DeformableObject& insert(World& w, DeformableObject&& d, const std::string& contact_material,
                         CollisionGroup group, CollisionGroup mask) {
  DeformableSet& set = w.deformable_set();
  d.contact_material = contact_material;
  d.group = group;
  d.mask = mask;
  set.objects.push_back(std::make_unique<DeformableObject>(std::move(d)));
  ++set.next_id;
  w.note_deformables_changed();
  return *set.objects.back();
}

// world pose (position, rotation) of object `id` (link `local` of a robot): false if it is gone
bool frame_of(World& w, ObjectId id, std::int64_t local, Vec3& p, Mat3& r) {
  Object* o = w.find_object(id);
  if (o == nullptr) return false;
  if (o->type() == ObjectType::kArticulatedSystem) {
    auto& a = static_cast<ArticulatedSystem&>(*o);
    if (local < 0 || static_cast<std::size_t>(local) >= a.data().body_position.size()) return false;
    a.ensure_kinematics();
    p = a.data().body_position[static_cast<std::size_t>(local)];
    r = a.data().body_rotation[static_cast<std::size_t>(local)];
    return true;
  }
  const RigidBody& b = static_cast<SingleBodyObject&>(*o).body();
  p = b.position;
  r = b.orientation.normalized().toRotationMatrix();
  return true;
}

// one reaction (impulse p over the step, moment m about the world origin) into the list, merged
// with an earlier one on the same body
void add_reaction(std::vector<DeformableReaction>& out, ObjectId object, std::int64_t local,
                  const Vec3& force, const Vec3& moment) {
  for (DeformableReaction& r : out)
    if (r.object == object && r.local == local) {
      r.force += force;
      r.moment += moment;
      return;
    }
  DeformableReaction r;
  r.object = object;
  r.local = local;
  r.force = force;
  r.moment = moment;
  out.push_back(r);
}

// The reactions of a deformable's step (its colliders' impulses, its attachments' pulls) as
// forces on the dynamic bodies and robot links: added to their external force and torque, which
// act in the world's next step (this stage runs after the step's external forces were cleared).
// Over a step, what the particles gain the bodies are given, to round-off.
void apply_reactions(World& w, DeformableObject& d, const std::vector<DeformableCollider>& colliders) {
  d.reactions.clear();
  const double inv_dt = 1.0 / w.time_step();
  const std::vector<CollisionShapeEntry>& entries = w.collision_shapes().entries();
  for (const DeformableCollider& c : colliders) {
    if (c.impulse.isZero(0.0) && c.moment.isZero(0.0)) continue;
    const CollisionShapeEntry& e = entries[c.entry];
    if (e.body != nullptr) {
      if (!e.body->is_dynamic()) continue;
      add_reaction(d.reactions, e.object->id(), -1, inv_dt * c.impulse, inv_dt * c.moment);
    } else if (e.system != nullptr) {
      add_reaction(d.reactions, e.object->id(), e.link, inv_dt * c.impulse, inv_dt * c.moment);
    }
  }
  const auto& attachments = d.attachments();
  if (d.attachment_impulses().size() == attachments.size()) {
    for (std::size_t a = 0; a < attachments.size(); ++a) {
      const DeformableAttachment& at = attachments[a];
      const Vec3 f = inv_dt * d.attachment_impulses()[a];
      const Vec3 point = d.positions()[at.vertex];
      add_reaction(d.reactions, at.object, at.local, f, point.cross(f));
    }
  }
  for (const DeformableReaction& r : d.reactions) {
    Object* o = w.find_object(r.object);
    if (o == nullptr) continue;
    if (o->type() == ObjectType::kArticulatedSystem) {
      auto& a = static_cast<ArticulatedSystem&>(*o);
      ArticulatedSystem::ControlState& ctl = a.control_state();
      ctl.ext_force[static_cast<std::size_t>(r.local)] += r.force;
      ctl.ext_moment[static_cast<std::size_t>(r.local)] += r.moment;
      ctl.has_external = true;
    } else {
      RigidBody& b = static_cast<SingleBodyObject&>(*o).body();
      if (!b.is_dynamic()) continue;
      b.external_force += r.force;
      b.external_torque += r.moment - b.position.cross(r.force);
    }
  }
}

}  // namespace

DeformableObject& add_deformable_cloth(World& w, const std::vector<Vec3>& vertices,
                                       const std::vector<std::array<std::int64_t, 3>>& triangles,
                                       const std::vector<std::int64_t>& pinned,
                                       const DeformableMaterial& material,
                                       const std::string& contact_material, CollisionGroup group,
                                       CollisionGroup mask) {
  require_between_steps(w, "add_deformable_cloth");
  check_material_name(contact_material);
  return insert(w,
                DeformableObject::cloth(w.deformable_set().next_id, vertices, triangles, pinned,
                                        material),
                contact_material, group, mask);
}

DeformableObject& add_deformable_cloth_obj(World& w, const std::string& path, double scale,
                                           const std::vector<std::int64_t>& pinned,
                                           const DeformableMaterial& material,
                                           const std::string& contact_material,
                                           CollisionGroup group, CollisionGroup mask) {
  check_positive(scale, "scale");
  const TriangleMeshData mesh = load_obj(path);
  std::vector<Vec3> v(mesh.vertices.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = scale * mesh.vertices[i];
  std::vector<std::array<std::int64_t, 3>> t(mesh.triangles.size());
  for (std::size_t k = 0; k < t.size(); ++k)
    for (int j = 0; j < 3; ++j) t[k][j] = mesh.triangles[k][j];
  return add_deformable_cloth(w, v, t, pinned, material, contact_material, group, mask);
}

DeformableObject& add_deformable_volume(World& w, const std::vector<Vec3>& vertices,
                                        const std::vector<std::array<std::int64_t, 4>>& tetrahedra,
                                        const std::vector<std::int64_t>& pinned,
                                        const DeformableMaterial& material,
                                        const std::string& contact_material, CollisionGroup group,
                                        CollisionGroup mask) {
  require_between_steps(w, "add_deformable_volume");
  check_material_name(contact_material);
  return insert(w,
                DeformableObject::volume(w.deformable_set().next_id, vertices, tetrahedra, pinned,
                                         material),
                contact_material, group, mask);
}

DeformableObject& add_deformable_object(World& w, const std::string& path,
                                        const DeformableMaterial& material,
                                        const DeformableMeshOptions& options,
                                        const std::vector<std::int64_t>& pinned,
                                        const std::string& contact_material, CollisionGroup group,
                                        CollisionGroup mask) {
  require_between_steps(w, "add_deformable_object");
  check_material_name(contact_material);
  check_positive(options.scale, "options.scale");
  if (!std::isfinite(options.spacing) || options.spacing < 0.0)
    throw_invalid("options.spacing must be finite and >= 0 (0: automatic), got " +
                  fmt(options.spacing));
  if (options.filled && options.struts)
    throw_invalid("options.struts is for a surface mesh; a filled one is held by its tetrahedra");
  TriangleMeshData mesh = load_obj(path);
  for (Vec3& v : mesh.vertices) v *= options.scale;
  if (!options.filled) {
    std::vector<std::array<std::int64_t, 3>> t(mesh.triangles.size());
    for (std::size_t k = 0; k < t.size(); ++k)
      for (int j = 0; j < 3; ++j) t[k][j] = mesh.triangles[k][j];
    DeformableObject d =
        DeformableObject::cloth(w.deformable_set().next_id, mesh.vertices, t, pinned, material);
    if (options.struts) d.set_struts(surface_struts(mesh));
    return insert(w, std::move(d), contact_material, group, mask);
  }
  double spacing = options.spacing;
  if (spacing == 0.0) {
    Vec3 lo = mesh.vertices.at(0), hi = lo;
    for (const Vec3& p : mesh.vertices) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    spacing = (hi - lo).maxCoeff() / 8.0;
  }
  const FilledMesh filled = filled_tetrahedra(mesh, spacing);
  return insert(w,
                DeformableObject::volume(w.deformable_set().next_id, filled.vertices,
                                         filled.tetrahedra, pinned, material),
                contact_material, group, mask);
}

DeformableObject* find_deformable(World& w, ObjectId id) {
  for (auto& d : w.deformable_set().objects)
    if (d->id() == id) return d.get();
  return nullptr;
}

void remove_deformable(World& w, ObjectId id) {
  require_between_steps(w, "remove_deformable");
  auto& list = w.deformable_set().objects;
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (list[k]->id() != id) continue;
    if (k + 1 != list.size()) list[k] = std::move(list.back());
    list.pop_back();
    w.note_deformables_changed();
    return;
  }
  throw_invalid("deformable id " + std::to_string(id) + " is not alive in this world");
}

void attach_deformable_vertex(World& w, DeformableObject& d, std::int64_t vertex, ObjectId object,
                              std::int64_t local, const Vec3& world_point) {
  require_between_steps(w, "attach_vertex");
  if (!world_point.allFinite()) throw_invalid("world_point must be finite");
  Object* o = w.find_object(object);
  if (o == nullptr)
    throw_invalid("object id " + std::to_string(object) + " is not alive in this world");
  if (o->type() == ObjectType::kArticulatedSystem) {
    const auto& a = static_cast<ArticulatedSystem&>(*o);
    if (local < 0 || static_cast<std::size_t>(local) >= a.data().body_position.size())
      throw std::out_of_range("link index " + std::to_string(local) + " out of range: the robot has " +
                              std::to_string(a.data().body_position.size()) + " bodies");
  } else if (local != -1) {
    throw_invalid("local must be -1 for a single body, got " + std::to_string(local));
  }
  Vec3 p;
  Mat3 r;
  frame_of(w, object, local, p, r);
  DeformableAttachment a;
  if (vertex < 0 || static_cast<std::size_t>(vertex) >= d.vertex_count())
    throw std::out_of_range("vertex " + std::to_string(vertex) + " out of range (" +
                            std::to_string(d.vertex_count()) + " vertices)");
  a.vertex = static_cast<std::uint32_t>(vertex);
  a.object = object;
  a.local = local;
  a.offset = r.transpose() * (world_point - p);
  d.add_attachment(a);
  std::vector<Vec3> x = d.positions();
  x[a.vertex] = world_point;
  d.set_positions(x);
  w.note_deformables_changed();
}

void stage_deformables(World& w, bool detect) {
  DeformableSet& set = w.deformable_set();
  if (set.objects.empty()) return;
  const CollisionData& cd = w.collision_data();
  const double inf = std::numeric_limits<double>::infinity();
  for (auto& dp : set.objects) {
    DeformableObject& d = *dp;
    // the collision shapes its proxies may touch: the world's one list (collision_shapes.hpp),
    // through the group/mask rule and a box around the object
    set.colliders.clear();
    if (detect && d.group != 0 && d.mask != 0) {
      const double margin = cd.broadphase_settings.aabb_margin + cd.contact_settings.margin;
      const Aabb box = d.bounds(margin);
      for (const CollisionShapeEntry& e : w.collision_shapes().entries()) {
        if ((d.group & e.filter->mask) == 0 || (e.filter->group & d.mask) == 0) continue;
        DeformableCollider c;
        e.world_pose(c.pose);
        if (shape_is_bounded(*e.shape)) {
          c.aabb = shape_aabb(*e.shape, c.pose, margin);
        } else {
          c.aabb.min = Vec3::Constant(-inf);
          c.aabb.max = Vec3::Constant(inf);
        }
        if (!c.aabb.overlaps(box)) continue;
        c.shape = e.shape;
        const MaterialPairProperties& m =
            w.material_pair_properties(d.contact_material, *e.material);
        c.friction = m.friction;
        c.static_friction = m.static_friction;
        c.entry = static_cast<std::uint32_t>(&e - w.collision_shapes().entries().data());
        // the surface's motion (friction acts on the slip relative to it)
        if (e.body != nullptr) {
          c.origin = e.body->position;
          if (e.body->type != BodyType::kStatic && !e.object->is_sleeping()) {
            c.velocity = e.body->linear_velocity;
            c.angular_velocity = e.body->angular_velocity;
          }
        } else if (e.system != nullptr) {
          auto* sys = static_cast<ArticulatedSystem*>(e.object);
          sys->ensure_velocities();
          c.origin = c.pose.position;
          c.velocity = body_point_velocity(sys->data(), e.link, c.origin);
          c.angular_velocity = body_angular_velocity(sys->data(), e.link);
        }
        set.colliders.push_back(c);
      }
    }
    // the attached vertices' targets, at the bodies' end-of-step poses; attachments to removed
    // objects are dropped (the vertex is free again)
    for (std::size_t a = d.attachments().size(); a-- > 0;) {
      Vec3 p;
      Mat3 r;
      const DeformableAttachment& at = d.attachments()[a];
      if (!frame_of(w, at.object, at.local, p, r)) d.remove_attachment(a);
    }
    set.targets.resize(d.attachments().size());
    for (std::size_t a = 0; a < d.attachments().size(); ++a) {
      Vec3 p;
      Mat3 r;
      const DeformableAttachment& at = d.attachments()[a];
      frame_of(w, at.object, at.local, p, r);
      set.targets[a] = p + r * at.offset;
    }
    if (!d.step(w.gravity(), w.time_step(), set.colliders, set.targets, cd.contact_settings))
      ++set.non_finite_resets;
    apply_reactions(w, d, set.colliders);
  }
}

}  // namespace torsion
