// Mass properties of uniform-density shapes.
#pragma once

#include "geometry/shape.hpp"

namespace torsion {

// volume of the shape (m^3); 0 for the ground
double shape_volume(const Shape& shape);

// inertia about the centre of mass, in the body frame, of a uniform-density body of `mass` kg
// (kg m^2). The shapes are symmetric, so the result is diagonal. The ground has none (zero).
Mat3 shape_inertia(const Shape& shape, double mass);

}  // namespace torsion
