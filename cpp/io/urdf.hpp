// URDF loading: parse (XML -> UrdfSpec, urdf_parse.cpp) -> build (UrdfSpec -> ArticulatedModel,
// urdf_build.cpp). Malformed input throws std::invalid_argument naming the element and its line.
//
// Supported: links (inertial; visual kept for viewers; collision box, sphere, cylinder and the
// capsule extension <capsule radius length>, length = distance between the hemisphere centres);
// joints fixed, revolute, continuous, prismatic, floating (root only) and the extension
// "spherical"; origin xyz/rpy, axis, limit (lower, upper, effort, velocity), dynamics (damping,
// friction); collision meshes (.obj, .stl) as the convex hull of their scaled vertices
// (RaiSim's convexifyCollisionMeshes); mimic joints (<mimic joint multiplier offset>, revolute
// or prismatic mimicking a revolute or prismatic joint that is not a mimic itself; reduced
// coordinates, see model.hpp). Not supported (clear error): planar joints.
//
// Tolerances (each reported once per file in UrdfReport::warnings, see docs/robot_files.md):
// numbers separated by commas; more numbers than expected (the first ones are used); a mesh
// scale of one number (uniform); lower > upper (no position limit); an <axis> on a fixed joint
// (ignored); a leftover xacro $(...) (the attribute is unset, as PyBullet reads it); a <visual>
// that cannot be read (dropped: visuals are never physics); a singular inertia on a moving link
// (completed as PyBullet does); a collision OBJ with unreadable parts (hull of its finite
// vertices); PyBullet's <plane> (a static ground).
//
// Limits and validation: the tree is walked without recursion (a chain of any depth loads), but a
// robot may have at most kMaxUrdfDof degrees of freedom (the mass matrix is dense, nv x nv); a
// link's inertia must be symmetric positive semi-definite (zero inertia and zero mass are fine).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dynamics/articulated/model.hpp"

namespace torsion {

// the most degrees of freedom a robot may have: its dense nv x nv matrices (mass matrix,
// factorisation) take 8 nv^2 bytes each, 134 MB at this size
constexpr int kMaxUrdfDof = 4096;

struct UrdfOptions {
  // directory that mesh paths are resolved against: `package://<pkg>/<rest>` becomes
  // <res_path>/<pkg>/<rest> if that exists, else <res_path>/<rest>; relative paths become
  // <res_path>/<path>. Empty: the URDF file's directory (the current directory for a string).
  std::string res_path;
  // order of the movable joints in gc/gv (every movable joint once, as a depth-first order of
  // the tree allows); empty: depth-first in the order the joints appear in the file
  std::vector<std::string> joint_order;
  // -1: automatic (a root link named "world" is the world; otherwise a root link of zero or no
  // mass is fixed to the world, as PyBullet does, and any other root floats); 0: floating
  // base; 1: fixed base
  int fixed_base = -1;
};

// What a load reports besides the model: the tolerances applied (docs/robot_files.md), one
// message per kind naming the file and line, and PyBullet's <plane> collisions of links fixed to
// the world, which become static grounds (the half-space below `height`, normal +z).
struct UrdfReport {
  std::vector<std::string> warnings;
  std::vector<double> ground_heights;
};

std::shared_ptr<const ArticulatedModel> load_urdf_string(const std::string& xml,
                                                         const UrdfOptions& options,
                                                         const std::string& source_dir = "",
                                                         UrdfReport* report = nullptr,
                                                         const std::string& file_label = "");
std::shared_ptr<const ArticulatedModel> load_urdf_file(const std::string& path,
                                                       const UrdfOptions& options,
                                                       UrdfReport* report = nullptr);

}  // namespace torsion
