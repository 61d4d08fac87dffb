// Mass, centre-of-mass and energy queries of an articulated system: what the Python API reports
// (get_body_coms_w, get_composite_com, get_kinetic_energy, get_potential_energy), computed here
// and not in the bindings, so C++ callers and tests get the same numbers.
#pragma once

#include "dynamics/articulated/model.hpp"

namespace torsion {

// centre of mass of `body` in the world (m); needs update_kinematics()
Vec3 body_com_world(const ArticulatedModel& model, const ArticulatedData& data, int body);

// centre of mass of the whole system in the world (m): the mass-weighted mean of the bodies'
// COMs, or the zero vector for a system without mass; needs update_kinematics()
Vec3 composite_com(const ArticulatedModel& model, const ArticulatedData& data);

// kinetic energy 1/2 sum v_i . I_i v_i (J); needs update_velocities() and update_inertias()
double kinetic_energy(const ArticulatedModel& model, const ArticulatedData& data);

// gravitational potential energy -sum m_i g . c_i (J) for gravity g (m/s^2); needs
// update_kinematics()
double potential_energy(const ArticulatedModel& model, const ArticulatedData& data,
                        const Vec3& gravity);

}  // namespace torsion
