// A single rigid body: state, mass properties, and the free-body integrator.
//
// Conventions (DESIGN.md): the position is the centre of mass, linear and angular velocities are
// in the world frame, the inertia is given about the centre of mass in the body frame.
#pragma once

#include <cstdint>

#include "math/types.hpp"

namespace torsion {

enum class BodyType : std::uint8_t { kStatic = 0, kKinematic = 1, kDynamic = 2 };

struct RigidBody {
  // state
  Vec3 position = Vec3::Zero();          // centre of mass, world (m)
  Quat orientation = Quat::Identity();   // body to world, unit
  Vec3 linear_velocity = Vec3::Zero();   // world (m/s)
  Vec3 angular_velocity = Vec3::Zero();  // world (rad/s)

  // mass properties
  double mass = 1.0;                          // kg
  double inv_mass = 1.0;                      // 1/kg; 0 unless dynamic
  Mat3 inertia_b = Mat3::Identity();          // about the COM, body frame (kg m^2)
  Mat3 inv_inertia_b = Mat3::Identity();

  BodyType type = BodyType::kDynamic;
  double linear_damping = 0.0;                // 1/s, applied implicitly: v /= 1 + dt c
  Vec3 angular_damping = Vec3::Zero();        // 1/s per body axis, applied implicitly

  // forces of the current step (world frame); cleared at the end of every step
  Vec3 external_force = Vec3::Zero();   // at the COM (N)
  Vec3 external_torque = Vec3::Zero();  // (N m), includes the moment of forces applied off the COM

  // derived each step by update_body_kinematics()
  Mat3 rotation = Mat3::Identity();        // body to world
  Mat3 inv_inertia_w = Mat3::Identity();   // world-frame inverse inertia (0 unless dynamic)
  // the body-frame angular velocity at the start of the step's free update, for the position
  // update's gyroscopic midpoint term (see integrate_body_position)
  Vec3 start_angular_velocity_b = Vec3::Zero();

  bool is_dynamic() const { return type == BodyType::kDynamic; }
};

// rotation matrix and world inverse inertia from the current orientation
void update_body_kinematics(RigidBody& body);

// the free (unconstrained) velocity update over dt: gravity, external force and torque, damping,
// and the gyroscopic term. The angular part solves Euler's equations in the body frame with the
// implicit midpoint rule, I (w1 - w0) + dt wm x I wm = dt tau, wm = (w0 + w1) / 2, by a fixed
// number of Newton iterations: it conserves kinetic energy and |angular momentum| of a torque-free
// body to round-off, so tumbling stays stable at any step size. Static and kinematic bodies keep
// their velocity.
void integrate_body_velocity(RigidBody& body, const Vec3& gravity, double dt);

// semi-implicit position update with the (possibly contact-corrected) velocity: x += dt v, and
// the orientation turned through the exact exponential map by the end-of-step angular velocity
// plus the gyroscopic share of the midpoint rule, dt/2 I^-1 (wa x I wa) (body frame) with wa the
// mean of the start and end angular velocities. For a free torque-free body that is the midpoint
// velocity (w0 + w1) / 2 of integrate_body_velocity's solve; a body held at rest by its
// contacts against a torque (w0 = w1 = 0) does not turn, as statics says.
void integrate_body_position(RigidBody& body, double dt);

// kinetic energy (J), linear momentum (kg m/s), angular momentum about the COM (kg m^2/s, world)
double body_kinetic_energy(const RigidBody& body);
Vec3 body_angular_momentum(const RigidBody& body);

}  // namespace torsion
