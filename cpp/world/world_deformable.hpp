// The world's deformable objects (the seed's addDeformableCloth / addDeformableVolume /
// addDeformableObject): their list, adding and removing them, attaching vertices to rigid bodies,
// and the step stage that advances them (step.cpp's "deformables", after integrate_positions).
//
// The particles' collision proxies meet the world's one list of collision shapes
// (world/collision_shapes.hpp: every single body's shapes, compound children and robot links,
// with their pose function, group, mask and material), through the same filter rule and the
// material pair table.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "deformable/deformable.hpp"

namespace torsion {

class World;

struct DeformableSet {
  std::vector<std::unique_ptr<DeformableObject>> objects;  // in add order (swap-with-last removal)
  ObjectId next_id = 0;                                    // ids are never reused
  std::uint64_t non_finite_resets = 0;  // steps in which a deformable went non-finite and was reset
  // scratch of the stage (no allocation in steady state)
  std::vector<DeformableCollider> colliders;
  std::vector<Vec3> targets;
};

DeformableObject& add_deformable_cloth(World& w, const std::vector<Vec3>& vertices,
                                       const std::vector<std::array<std::int64_t, 3>>& triangles,
                                       const std::vector<std::int64_t>& pinned,
                                       const DeformableMaterial& material,
                                       const std::string& contact_material, CollisionGroup group,
                                       CollisionGroup mask);
// an OBJ file's triangles (polygons as fans), vertices scaled by `scale` (> 0)
DeformableObject& add_deformable_cloth_obj(World& w, const std::string& path, double scale,
                                           const std::vector<std::int64_t>& pinned,
                                           const DeformableMaterial& material,
                                           const std::string& contact_material,
                                           CollisionGroup group, CollisionGroup mask);
DeformableObject& add_deformable_volume(World& w, const std::vector<Vec3>& vertices,
                                        const std::vector<std::array<std::int64_t, 4>>& tetrahedra,
                                        const std::vector<std::int64_t>& pinned,
                                        const DeformableMaterial& material,
                                        const std::string& contact_material, CollisionGroup group,
                                        CollisionGroup mask);
// the seed's DeformableObject::MeshBuildOptions: how addDeformableObject makes particles of an
// OBJ surface (deformable/mesh_build.hpp)
struct DeformableMeshOptions {
  // false ("surface"): the mesh's vertices are the particles and its triangles a shell (a
  // cloth); true ("filled"): a closed mesh filled with tetrahedra (a solid, elastic with a
  // Young's modulus), its particles on a lattice inside and on the surface
  bool filled = false;
  double scale = 1.0;    // vertex scale of the file (> 0)
  double spacing = 0.0;  // filled: lattice spacing (m); 0: the longest side of the box / 8
  bool struts = false;   // surface: distance constraints across the inside (keeps the shape)
};

DeformableObject& add_deformable_object(World& w, const std::string& path,
                                        const DeformableMaterial& material,
                                        const DeformableMeshOptions& options,
                                        const std::vector<std::int64_t>& pinned,
                                        const std::string& contact_material, CollisionGroup group,
                                        CollisionGroup mask);

// nullptr if no live deformable has this id
DeformableObject* find_deformable(World& w, ObjectId id);
// std::invalid_argument if no live deformable has this id; std::logic_error mid-step
void remove_deformable(World& w, ObjectId id);
// hold `vertex` at `world_point` expressed in the frame of object `object` (a single body, or
// link `local` of a robot; -1 for a single body) as it is now: the vertex then follows it
void attach_deformable_vertex(World& w, DeformableObject& d, std::int64_t vertex, ObjectId object,
                              std::int64_t local, const Vec3& world_point);

// the step stage: every deformable advanced by dt against the world's collision shapes (none
// when detect is false)
void stage_deformables(World& w, bool detect);

}  // namespace torsion
