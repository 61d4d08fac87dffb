// Argument helpers shared by the ArticulatedSystem bindings (bind_articulated.cpp) and its
// fast-call methods (bind_articulated_control.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include "dynamics/articulated/model.hpp"

namespace torsion::bindings {

// the index of a frame given by name (str) or index (int): ValueError for an unknown name or
// another type, IndexError for an index out of range
int frame_index(const ArticulatedModel& m, pybind11::handle frame);

}  // namespace torsion::bindings
