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
  // -1: fixed iff the root link is named "world"; 0: floating base; 1: fixed base
  int fixed_base = -1;
};

std::shared_ptr<const ArticulatedModel> load_urdf_string(const std::string& xml,
                                                         const UrdfOptions& options,
                                                         const std::string& source_dir = "");
std::shared_ptr<const ArticulatedModel> load_urdf_file(const std::string& path,
                                                       const UrdfOptions& options);

}  // namespace torsion
