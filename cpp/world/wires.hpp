// Wires (the World seed's LengthConstraint family): a massless cable between a point on one body
// and a point on another (a single body, local index 0, or a body of an articulated system by its
// local index), pulling only, never pushing.
//
//   stiff     (StiffLengthConstraint): inextensible, a unilateral hard 1-D row of the contact
//             solver (scalar_row.hpp), swept together with the contacts in the same islands;
//   compliant (CompliantLengthConstraint): a spring, tension = stiffness * max(0, stretch);
//   custom    (CustomLengthConstraint): the tension the user sets (>= 0), applied every step.
//
// Geometry of a wire of nominal length L, ends p1 (on object 1) and p2 (on object 2), world:
//   length l = |p2 - p1|, stretch = l - L, direction n = (p2 - p1) / l (from end 1 to end 2).
// The tension pulls end 1 along +n and end 2 along -n.
//
// The stiff row (RowKind::kWire): J = n^T (J_p1 - J_p2), so its velocity is -dl/dt, and its
// impulse lambda >= 0 is the tension's impulse (N s). Its target, built from the state at the
// start of the step, is
//   slack or exactly taut (l <= L):  -dl/dt <= ... i.e. dl/dt <= (L - l) / dt: the wire becomes
//                                    taut at most at the end of the step (speculative: a body
//                                    falls freely until the wire is exactly taut, then stops);
//   stretched (l > L, drift):        dl/dt <= -kWireErp (l - L) / dt, a fraction of the excess
//                                    removed per step.
// Every stiff wire always has its row (a slack one solves to lambda = 0); its impulse of the last
// step warm-starts the next. Tension reported = lambda / dt (N).
//
// Ids and indices behave as objects' do (World seed): a wire has a stable id never reused in its
// world and an index in [0, wire_count()) which the last wire takes over when one is removed.
// Removing an object removes every wire attached to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "math/types.hpp"

namespace torsion {

enum class WireKind : std::uint8_t { kStiff = 0, kCompliant = 1, kCustom = 2 };

const char* wire_kind_name(WireKind kind);

// fraction of a stiff wire's excess length removed per step (velocity target)
constexpr double kWireErp = 0.2;

struct WireEnd {
  ObjectId object = 0;
  std::uint32_t local = 0;   // body index (0 for a single body)
  Vec3 position_b = Vec3::Zero();  // attachment point in that body's frame (m)
};

struct Wire {
  std::uint64_t id = 0;
  WireKind kind = WireKind::kStiff;
  std::string name;
  WireEnd end[2];
  double length = 1.0;     // nominal length L (m), > 0
  double stiffness = 0.0;  // compliant: N/m, > 0
  double tension = 0.0;    // custom: set by the user (N); stiff and compliant: of the last step
  double impulse = 0.0;    // stiff: last step's impulse (N s), the next step's warm start
};

// where a wire's ends are now (world)
struct WireGeometry {
  Vec3 p[2] = {Vec3::Zero(), Vec3::Zero()};
  double length = 0.0;
  Vec3 direction = Vec3::UnitX();  // (p2 - p1) / length; +x when the ends coincide
};

// every wire of a world, and the step's scratch
struct WireSet {
  std::vector<Wire> wires;             // in index order
  std::vector<std::int64_t> id_index;  // per id ever given: index, -1 once removed
  // scratch of the step: per wire, its row in ContactProblems::scalar_rows (-1: none)
  std::vector<std::int32_t> row;
  // scratch of the direct pre-solve (wires.cpp): its rows, their band of W and factor, right
  // side, impulse change and active flags
  std::vector<std::int32_t> solve_rows;
  std::vector<double> band, rhs, dlambda;
  std::vector<std::uint8_t> active;

  std::int64_t index_of(std::uint64_t id) const {
    return id < id_index.size() ? id_index[static_cast<std::size_t>(id)] : -1;
  }
};

}  // namespace torsion
