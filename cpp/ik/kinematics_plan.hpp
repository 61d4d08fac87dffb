// Internal: the compiled kinematics of one IK group (the fast path of evaluate_group).
//
// A group only needs the world frames of its tips, targets and constraint bases and of the
// joints between them. compile_plan lists those objects once per structure change, parent
// first, with their local transforms as rotation matrices; plan_forward then composes only
// matrices (no quaternions) for exactly those objects, and plan_jacobian fills J column by
// column with the cross-product rule in one pass. Nothing is allocated in steady state.
#pragma once

#include "ik/environment.hpp"

namespace torsion::ik {

// lists the nodes and the per-(element, column) joint terms; needs sys.elements and sys.movers
// (build_structure calls it last)
void compile_plan(const Environment& env, GroupSystem& sys);

// world frames (sys.world_R, sys.world_p) of the first `node_count` plan nodes, from the
// current joint values; refreshes the local matrices first when an object pose changed
void plan_forward(const Environment& env, GroupSystem& sys, int node_count);

// J (sys.cached_rows x columns) of the group from the world frames of plan_forward
void plan_jacobian(const Environment& env, GroupSystem& sys);

}  // namespace torsion::ik
