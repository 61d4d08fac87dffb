// The step profile: the time of every stage of the last step and their running sums (as Box2D's
// b2Profile and MuJoCo's mjData.timer). Off by default (World::set_step_profile_enabled): a step
// of one free body takes about 0.2 us, and the ~25 clock reads of a profiled step (~20 ns each)
// would double it; off, step.cpp runs the stages with NoStageClock, which does nothing.
//
// A stage's time is the steady-clock time from the end of the previous stage (or the start of
// integrate1() / integrate2()) to the end of its own, in integer nanoseconds, so the stages of
// a step add up exactly to the step's time (integrate1() plus integrate2(); the caller's time
// between the two is not counted). A stage run several times in one step (collision detection
// after an island woke, the contact solve's stages when effort saturations solve again) adds up.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace torsion {

// The stages of a step, in the order step.cpp runs them (docs/architecture.md, "One step").
enum class StepStage : std::uint8_t {
  // integrate1
  kClassifyObjects,
  kRememberStartPoses,
  kWakeRequests,
  kKinematics,
  kArticulatedDynamicsTerms,
  kCollisionDetection,
  kWakeOnContact,
  kBuildContactProblems,
  kWireRows,
  // integrate2
  kWireForces,
  kGranular,
  kDeformableTerrain,
  kFreeVelocities,
  kGatherFreeVelocities,
  kSelectContactSpace,
  kJointRows,
  kDelassusBlocks,
  kStartingImpulses,
  kWireStartingImpulses,
  kWirePresolve,
  kSolve,
  kEffortSaturations,
  kWriteBackVelocities,
  kStoreWarmStart,
  kWireTensions,
  kIntegratePositions,
  kCorrectPositions,
  kCorrectJointLimits,
  kClearExternalForces,
  kDeformables,
  kUpdateSleeping,
  kRecoverNonFinite,
  kAdvanceTime,
  kCount
};

constexpr std::size_t kStepStageCount = static_cast<std::size_t>(StepStage::kCount);

// the stage's name as the Python profile spells it ("collision_detection", ...)
inline const char* step_stage_name(StepStage stage) {
  static constexpr const char* kNames[kStepStageCount] = {
      "classify_objects",    "remember_start_poses", "wake_requests",
      "kinematics",          "articulated_dynamics_terms", "collision_detection",
      "wake_on_contact",     "build_contact_problems", "wire_rows",
      "wire_forces",         "granular",             "deformable_terrain",   "free_velocities",
      "gather_free_velocities", "select_contact_space", "joint_rows",
      "delassus_blocks",     "starting_impulses",    "wire_starting_impulses", "wire_presolve", "solve",
      "effort_saturations",  "write_back_velocities", "store_warm_start", "wire_tensions",
      "integrate_positions", "correct_positions",
      "correct_joint_limits", "clear_external_forces", "deformables",
      "update_sleeping",     "recover_non_finite",   "advance_time"};
  return kNames[static_cast<std::size_t>(stage)];
}

struct StepProfile {
  bool enabled = false;
  std::uint64_t steps = 0;  // profiled steps summed in `total` (since enabled or reset)
  std::array<std::int64_t, kStepStageCount> last_ns{};   // each stage, last profiled step
  std::array<std::int64_t, kStepStageCount> total_ns{};  // each stage, summed over `steps`
  std::int64_t last_step_ns = 0;                         // = the sum of last_ns
  std::int64_t total_step_ns = 0;                        // = the sum of total_ns

  void reset_totals() {
    steps = 0;
    total_ns.fill(0);
    total_step_ns = 0;
  }
};

// Times the stages of one half-step (integrate1 or integrate2) into a StepProfile: made at the
// half-step's start, lap(stage) at the end of every stage, finish() at its end. Does nothing
// (no clock read) when the profile is disabled. No allocation.
class StageClock {
 public:
  using Clock = std::chrono::steady_clock;

  // begin_step: this is integrate1, a new step (the last step's times are cleared)
  StageClock(StepProfile& profile, bool begin_step) : profile_(profile), on_(profile.enabled) {
    if (!on_) return;
    if (begin_step) {
      profile_.last_ns.fill(0);
      profile_.last_step_ns = 0;
    }
    mark_ = Clock::now();
  }

  void lap(StepStage stage) {
    if (!on_) return;
    const Clock::time_point now = Clock::now();
    const std::int64_t ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - mark_).count();
    profile_.last_ns[static_cast<std::size_t>(stage)] += ns;
    profile_.total_ns[static_cast<std::size_t>(stage)] += ns;
    profile_.last_step_ns += ns;
    profile_.total_step_ns += ns;
    mark_ = now;
  }

  // end_step: this is integrate2, the step is complete
  void finish(bool end_step) {
    if (on_ && end_step) ++profile_.steps;
  }

 private:
  StepProfile& profile_;
  const bool on_;
  Clock::time_point mark_{};
};

}  // namespace torsion
