// Mass properties of uniform-density shapes.
#pragma once

#include "geometry/shape.hpp"

namespace torsion {

// volume of the shape (m^3); 0 for the ground
double shape_volume(const Shape& shape);

// inertia about the centre of mass, in the body frame, of a uniform-density body of `mass` kg
// (kg m^2). The primitives are symmetric, so their result is diagonal; a convex mesh's is the full
// polyhedral inertia about its own centre of mass. The ground and triangle meshes have none.
Mat3 shape_inertia(const Shape& shape, double mass);

}  // namespace torsion
