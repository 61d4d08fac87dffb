// Errors the core throws that the Python boundary maps to a type of their own.
#pragma once

#include <stdexcept>

namespace torsion {

// A handle whose object is gone: a World object removed (its ObjectHandle), an IK object or
// group erased (or a handle number never given out). One type for every kind of dead handle.
// Python sees torsion.RemovedObjectError, a subclass of both RuntimeError (what World handles
// raised before) and ValueError (what IK handles raised), so code catching either still works.
// In C++ it is an invalid_argument, so the core's own `catch (const std::invalid_argument&)`
// (file readers turning a bad reference into "malformed ...") still sees it.
struct RemovedObjectError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

}  // namespace torsion
