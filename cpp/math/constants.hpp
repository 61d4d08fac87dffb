// Mathematical constants: the one definition of pi in torsion (C++17 has no std::numbers).
#pragma once

namespace torsion {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = 6.28318530717958647692;

}  // namespace torsion
