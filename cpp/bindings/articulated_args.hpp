// Argument helpers shared by the ArticulatedSystem bindings (bind_articulated.cpp) and its
// fast-call methods (bind_articulated_control.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include <initializer_list>
#include <vector>

#include "dynamics/articulated/model.hpp"

namespace torsion::bindings {

// the index of a frame given by name (str) or index (int): ValueError for an unknown name or
// another type, IndexError for an index out of range
int frame_index(const ArticulatedModel& m, pybind11::handle frame);

}  // namespace torsion::bindings

namespace torsion {
class World;
}

namespace torsion::bindings {

// Several vector arguments at once, (object, name, expected size) each: ValueError naming every
// argument whose shape or type is wrong (not only the first).
struct VectorArg {
  pybind11::handle obj;
  const char* name;
  int size;
};
std::vector<Eigen::VectorXd> to_vectors(std::initializer_list<VectorArg> args);

// After a step: a Python warning (torsion.JointLimitWarning) for every articulated system whose
// first step from a configuration set from outside found a joint outside its limits (once per
// system, see ArticulatedSystem::take_start_limit_violation). Needs the GIL.
void warn_start_limit_violations(World& world);

}  // namespace torsion::bindings
