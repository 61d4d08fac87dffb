// Mesh bodies and compounds (RaiSim's Mesh and Compound objects).
//
// A Mesh is a single rigid body whose collision geometry comes from a triangle mesh, in one of
// three modes (MeshCollisionMode):
//   kOriginalMesh  the triangle surface itself (ShapeType::kTriangleMesh), meant for static or
//                  kinematic bodies;
//   kConvexHull    one convex hull (ShapeType::kConvexMesh);
//   kConvexify     several convex hulls, one per part of a convex decomposition (children).
// Its body frame has the mesh's axes and its origin at the centre of mass: `com` is where that
// origin lies in the mesh's own frame, and the geometry is stored shifted by -com.
//
// A Compound is a single rigid body made of several primitive children, each with its own pose
// (body frame) and material; the contacts of child k carry local index k.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "geometry/mesh.hpp"
#include "world/object.hpp"

namespace torsion {

enum class MeshCollisionMode : std::uint8_t { kOriginalMesh = 0, kConvexHull = 1, kConvexify = 2 };

// what add_mesh needs; vertices already scaled, in the mesh frame (m)
struct MeshSpec {
  TriangleMeshData mesh;
  MeshCollisionMode mode = MeshCollisionMode::kConvexHull;
  // kConvexify: the point sets of the convex parts (mesh frame); empty falls back to one hull
  std::vector<std::vector<Vec3>> parts;
  double mass = 1.0;
  // both or neither: the centre of mass in the mesh frame (m) and the inertia about it (kg m^2).
  // Neither: exact polyhedral properties of the closed mesh at uniform density, or (open
  // meshes) those of a uniform box filling the mesh's bounding box, as the seed says.
  std::optional<Vec3> com;
  std::optional<Mat3> inertia;
  std::string source;   // file it came from (informational)
  double scale = 1.0;   // scale applied to the file (informational)
};

class MeshObject : public SingleBodyObject {
 public:
  MeshObject(ObjectId id, const Shape& shape, double mass, const Mat3& inertia,
             std::vector<ChildShape> children, MeshCollisionMode mode, const Vec3& com,
             std::string source, double scale);

  MeshCollisionMode mode() const { return mode_; }
  const Vec3& com_in_mesh_frame() const { return com_; }
  const std::string& source() const { return source_; }
  double scale() const { return scale_; }
  // the collision meshes in the mesh frame (one per convex part; one for a hull or the surface)
  std::vector<TriangleMeshData> collision_meshes() const;

 private:
  MeshCollisionMode mode_;
  Vec3 com_;
  std::string source_;
  double scale_;
};

// one child of a compound: a primitive (sphere: radius; box: x, y, z lengths; cylinder and
// capsule: radius, height) at a pose in the compound's body frame, with a material
struct CompoundChildSpec {
  ShapeType type = ShapeType::kSphere;
  Vec3 size = Vec3::Zero();  // sphere (r, -, -); box (x, y, z); cylinder/capsule (r, h, -)
  Pose pose;
  std::string material = "default";
};

// combined mass properties of shapes at uniform density (overlaps count twice): the centre of
// mass in the frame the poses are given in, and the inertia about it (parallel-axis theorem)
void combined_mass_properties(const std::vector<ChildShape>& children, double mass, Vec3& com,
                              Mat3& inertia);

}  // namespace torsion
