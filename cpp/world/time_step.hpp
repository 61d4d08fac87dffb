// The range of a world's time step, shared by World::set_time_step and checkpoint restore.
#pragma once

namespace torsion {

// Bounds of a time step (s). Below 1 ns, 1/dt and 1/dt^2 (the contact solver's error reduction,
// the PD gains' implicit terms) stop being meaningful and a subnormal dt makes them infinite;
// above 1 s no stage of the step (contacts found once per step, semi-implicit positions) models
// anything, and a dt like 1e308 overflows the world time and g dt to inf after one step.
inline constexpr double kMinTimeStep = 1e-9;
inline constexpr double kMaxTimeStep = 1.0;

// std::invalid_argument naming `name` unless dt is finite and in [kMinTimeStep, kMaxTimeStep]
void check_time_step(double dt, const char* name);

}  // namespace torsion
