// A robot's HAL devices compiled into plans that run one HAL cycle's work in one call each
// (torsion.hal.Simulation, docs/hal.md): the actuator plan turns the cycle's command values and
// stiffnesses into PD gains and targets, velocity targets and feedforward torques; the sensor
// plan measures every non-camera sensor of the cycle into one buffer of doubles (the HAL's sensor
// block). They replace per-device Python work that cost ~20 times the bare computation.
//
// The plans hold indices into the robot's model (gc / gv entries, frames, bodies) and into the
// HAL's blocks (actuator i, sensor slot offset). check() validates them against a system; the
// run functions assume a checked plan and a system of the same model.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "math/types.hpp"
#include "query/ray_scene.hpp"

namespace torsion {

class ArticulatedSystem;
class World;

// What the bridge applies per actuator (a row per joint an actuator drives):
//   position (angle, coupled): q_ref[gc] = ratio * clamp(value, lo, hi), gains (s kp, s kd)
//   velocity (angle_speed, wheel_velocity): u_ref[dof] = clamp(value, -max, max), damping s kd
//   torque (torque, wheel_torque): tau[dof] += clamp(value, -s max, s max)
//   led: clamp(value, 0, 1) stored
// where value / s are the fetched command and stiffness (NaN: the actuator's start value /
// start stiffness) and s is clamped to [0, 1].
struct HalActuatorPlan {
  struct Position {
    int actuator, gc, dof;
    double ratio, kp, kd, lo, hi;
  };
  struct Velocity {
    int actuator, dof;
    double kd, max;
  };
  struct Torque {
    int actuator, dof;
    double max;
  };
  std::vector<double> start_value, start_stiffness;  // per actuator
  std::vector<Position> position;
  std::vector<Velocity> velocity;
  std::vector<Torque> torque;
  std::vector<int> leds;  // actuator indices
  VecX q_ref;             // the PD target template (gc; the entries no actuator sets stay)

  // std::invalid_argument naming the bad entry (indices out of range, sizes, non-finite numbers)
  void check(const ArticulatedSystem& s) const;
  // applies one cycle's commands (values, stiffness: start_value.size() each) to the system;
  // writes the LEDs' intensities to led_out (leds.size()). Gains are passed to the system only
  // when they change (a change of gains is a new control; an unchanged one is not).
  void apply(ArticulatedSystem& s, const double* values, const double* stiffness, double* led_out);

 private:
  VecX kp_, kd_, u_ref_, tau_;
  bool gains_sent_ = false;
};

// Sensors, each writing at `out` (its offset in the sensor block):
//   encoder: out = q[gc] mul + add (angle), u[dof] mul (speeds), applied torque[dof] (torque)
//   coupled: mean over its joints of (q[gc] mul + add) / ratio
//   IMU (7 values): roll, pitch of its frame; proper acceleration (mean over the cycle) and
//     angular velocity in its frame (docs/hal.md)
//   FSR group: the FSRs of one link, loads in kg from the normal forces of the contacts on its
//     body (four on a rectangle: bilinear weights; otherwise the nearest FSR)
//   region (bumper, tactile): 1 if a contact on its body lies in its box, else 0
//   ray bundle (sonar, depth infrared): rays from a placed frame, the echoes / distance
struct HalSensorPlan {
  enum class EncoderKind : std::uint8_t { kAngle, kSpeed, kTorque };
  struct Encoder {
    EncoderKind kind;
    int index;  // gc index (angle) or dof
    int out;
    double mul, add;
  };
  struct Coupled {
    int out;
    std::vector<int> gc;
    std::vector<double> mul, add, ratio;
  };
  struct Imu {
    int out, frame;
    Vec3 xyz;      // in the frame
    Mat3 rotation;  // sensor to frame
  };
  struct FsrGroup {
    int body, frame;
    std::vector<int> out;
    std::vector<double> x, y;  // FSR positions in the frame
  };
  struct Region {
    int body, frame, out;
    Vec3 centre, half;  // the box in the frame (half: half lengths plus the tolerance)
  };
  struct Rays {
    bool sonar;  // else depth infrared (one ray, one value)
    int out, frame, echoes;
    Vec3 xyz;
    Mat3 rotation;
    std::vector<Vec3> directions;  // in the sensor frame
    double min_range, max_range;
  };
  int size = 0;       // the sensor block's length
  double period = 0;  // the HAL period (s), for the IMU's mean acceleration
  std::vector<Encoder> encoders;
  std::vector<Coupled> coupled;
  std::vector<Imu> imus;
  std::vector<FsrGroup> fsr_groups;
  std::vector<Region> regions;
  std::vector<Rays> rays;

  // std::invalid_argument naming the bad entry
  void check(const ArticulatedSystem& s) const;
  // the IMUs' sensor point velocities at the start of the cycle (call before stepping)
  void begin_cycle(ArticulatedSystem& s);
  // every sensor of the cycle into out[0, size); rays are cast against the world's collision
  // bodies (those its ray scene holds), contacts are the world's of the last step
  void measure(const World& world, ArticulatedSystem& s, double* out);

 private:
  // contact sensors resolved by (body, frame): a contact on the body is expressed in the frame
  struct Slot {
    int body, frame;
    bool posed;
    Vec3 position;
    Mat3 rotation;
  };
  // an FSR group of four on a rectangle: bilinear corners (x0, 1/(x1-x0), y0, 1/(y1-y0));
  // corner k takes u or 1-u (at x1 or x0) times v or 1-v
  struct Rect {
    double x0, inv_dx, y0, inv_dy;
    std::array<bool, 4> at_x1, at_y1;
  };
  std::vector<Slot> slots_;
  std::vector<std::vector<int>> slots_of_body_;
  std::vector<int> fsr_slot_, region_slot_;
  std::vector<std::vector<double>> fsr_load_;
  std::vector<Rect> rect_;
  std::vector<bool> is_rect_;
  std::vector<Vec3> imu_v0_;
  std::vector<double> ray_distance_, echo_distance_;
  std::vector<int> ray_group_, group_of_candidate_;
  std::vector<std::uint64_t> echo_keys_;
  // per ray bundle: its unit directions and the cone that holds them (axis, in the sensor frame,
  // and the cosine of its half angle; -1: no cone, every body is a candidate)
  std::vector<std::vector<Vec3>> unit_directions_;
  std::vector<Vec3> cone_axis_;
  std::vector<double> cone_cos_;
  // per cycle: the ray scene's bodies as a bundle sees them (bounding boxes; unbounded ones)
  struct SceneBody {
    bool bounded, skipped, slab;
    Vec3 lo, hi, centre;
    double radius;
  };
  std::vector<SceneBody> scene_bodies_;
  std::vector<RayCastBody> ray_bodies_;
  std::vector<std::uint32_t> candidates_;
  // derived from the device lists when they change (the lists are appended to at set-up)
  bool compiled(const ArticulatedSystem& s) const;
  void compile(const ArticulatedSystem& s);
  void contact_sensors(const World& world, ArticulatedSystem& s, double* out);
  void ray_sensors(const World& world, ArticulatedSystem& s, double* out);
};

}  // namespace torsion
