// The Coppelia Kinematics Routines' numeric constants (semantics.md §B1), kept for API
// compatibility. Everything else in torsion::ik is a re-implementation of their behaviour.
#pragma once

#include "math/constants.hpp"  // kPi, used throughout torsion::ik

namespace torsion::ik {

// special handles
constexpr int kHandleWorld = -1;
constexpr int kHandleAll = -2;
constexpr int kHandleParent = -11;
constexpr int kHandleFlagTipDummy = 0x00400000;  // element "index" = tip handle | this flag

// object handles index a table: at most this many (a file cannot ask for more, and creating
// an object past it is refused)
constexpr int kMaxObjectHandle = 1 << 24;

// object types
constexpr int kObjectTypeJoint = 1;
constexpr int kObjectTypeDummy = 4;

// joint modes. passive and ik come from the routines; dependent and force keep CoppeliaSim's
// historical values (4, 5) because the seed names them without a number.
constexpr int kJointModePassive = 0;
constexpr int kJointModeIk = 2;
constexpr int kJointModeDependent = 4;
constexpr int kJointModeForce = 5;

// joint types
constexpr int kJointTypeRevolute = 10;
constexpr int kJointTypePrismatic = 11;
constexpr int kJointTypeSpherical = 12;

// element constraints (bit set)
constexpr int kConstraintX = 1;
constexpr int kConstraintY = 2;
constexpr int kConstraintZ = 4;
constexpr int kConstraintAlphaBeta = 8;
constexpr int kConstraintGamma = 16;
constexpr int kConstraintPosition = 7;
constexpr int kConstraintOrientation = 24;
constexpr int kConstraintPose = 31;

// group calculation methods
constexpr int kMethodPseudoInverse = 0;
constexpr int kMethodDampedLeastSquares = 1;
constexpr int kMethodJacobianTranspose = 2;
constexpr int kMethodUndampedPseudoInverse = 3;
constexpr double kPseudoInverseDamping = 1e-6;

// results of handle_ik_group
constexpr int kResultNotPerformed = 0;
constexpr int kResultSuccess = 1;
constexpr int kResultFail = 2;

// calculation flags (why a resolution ended the way it did)
constexpr int kCalcNotPerformed = 1;
constexpr int kCalcCannotInvert = 2;
constexpr int kCalcNotWithinTolerance = 16;
constexpr int kCalcStepsTooBig = 32;
constexpr int kCalcLimitHit = 64;
constexpr int kCalcInvalidCallbackData = 128;

// group flags
constexpr int kGroupEnabled = 1;
constexpr int kGroupIgnoreMaxSteps = 2;
constexpr int kGroupRestoreOnBadLinTol = 4;
constexpr int kGroupRestoreOnBadAngTol = 8;
constexpr int kGroupStopOnLimitHit = 16;
constexpr int kGroupAvoidLimits = 64;
// every group flag (32 is not one: the routines define none there)
constexpr int kGroupFlagsAll = kGroupEnabled | kGroupIgnoreMaxSteps | kGroupRestoreOnBadLinTol |
                               kGroupRestoreOnBadAngTol | kGroupStopOnLimitHit | kGroupAvoidLimits;

}  // namespace torsion::ik
