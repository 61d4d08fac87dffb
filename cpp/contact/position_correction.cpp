#include "contact/position_correction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/bisection_solver.hpp"
#include "contact/rigid_kernel.hpp"

namespace torsion {

namespace {

// The pass moves bodies by translation only (see the header): per unit normal pseudo-impulse,
// side s moves by sign_s n / m_s.
double inverse_mass(const ContactProblems& problems, const ContactProblem& row, int s) {
  return problems.rigid_bodies[static_cast<std::size_t>(row.rigid[s])].inv_mass;
}

// the normal pseudo-velocity (m/s, separating > 0) of a rigid contact for the pseudo-velocities
// p: only the linear parts, and the immovable sides do not move in the pass (no v_fixed)
double pseudo_normal_velocity(const ContactProblem& row, const Vec3& n, const double* p) {
  const double* a = p + row.side[0].dof_begin;
  double w = row.side_sign[0] * (n.x() * a[0] + n.y() * a[1] + n.z() * a[2]);
  if (row.side[1].dof_begin >= 0) {
    const double* b = p + row.side[1].dof_begin;
    w -= n.x() * b[0] + n.y() * b[1] + n.z() * b[2];
  }
  return w;
}

// p += the translation of a normal pseudo-impulse d on both sides
void apply_pseudo_impulse(const ContactProblems& problems, const ContactProblem& row,
                          const Vec3& n, double d, double* p) {
  double* a = p + row.side[0].dof_begin;
  const Vec3 da = (row.side_sign[0] * d * inverse_mass(problems, row, 0)) * n;
  a[0] += da.x();
  a[1] += da.y();
  a[2] += da.z();
  if (row.side[1].dof_begin >= 0) {
    double* b = p + row.side[1].dof_begin;
    const Vec3 db = (d * inverse_mass(problems, row, 1)) * n;
    b[0] -= db.x();
    b[1] -= db.y();
    b[2] -= db.z();
  }
}

// a contact the pass corrects: its sides are single rigid bodies (or immovable) and one moves
bool corrected(const ContactProblems& problems, const ContactProblem& row) {
  if (!is_rigid_contact(row)) return false;
  const double g = inverse_mass(problems, row, 0) +
                   (row.side[1].dof_begin >= 0 ? inverse_mass(problems, row, 1) : 0.0);
  return g > 0.0 && std::isfinite(g);
}

// Moving the two bodies of a contact apart by dt p_s (p_A = n mu / m_A, p_B = -n mu / m_B)
// changes their angular momentum about any point by sum_s m_s dt p_s x v_s = dt mu n x (v_A -
// v_B): zero when they move as one (a resting or sticking pair); their real impulses never
// change it. Returns |n x (v_A - v_B)| (m/s).
double momentum_turn_rate(const ContactProblem& row, const Vec3& n, const double* u) {
  const double* a = u + row.side[0].dof_begin;
  const double* b = u + row.side[1].dof_begin;
  const Vec3 rel = row.side_sign[0] * Vec3(a[0], a[1], a[2]) - Vec3(b[0], b[1], b[2]);
  return n.cross(rel).norm();
}

// a contact the pass skips this step; its pseudo-impulse stays 0
constexpr double kSkipped = -std::numeric_limits<double>::infinity();

}  // namespace

PositionCorrectionResult solve_position_correction(const ContactProblems& problems,
                                                   const std::vector<double>& u, double dt,
                                                   double fraction, double max_velocity,
                                                   std::vector<double>& mu,
                                                   std::vector<double>& target,
                                                   std::vector<double>& p) {
  PositionCorrectionResult result;
  p.assign(u.size(), 0.0);
  const std::size_t n = problems.rows.size();
  if (n == 0 || !(fraction > 0.0)) return result;
  mu.assign(n, 0.0);
  target.resize(n);
  // the pseudo-velocity each contact needs: what is left of its depth at the end of the step
  // beyond the slop, a fraction of it per step, at most max_velocity
  bool any = false;
  for (std::size_t k = 0; k < n; ++k) {
    const ContactProblem& row = problems.rows[k];
    if (!corrected(problems, row)) {
      target[k] = kSkipped;
      continue;
    }
    ++result.contacts;
    const double v_n = rigid_contact_velocity(row, u.data()).z();
    // two moving bodies: moving them apart turns their angular momentum (see the header)
    if (row.side[1].dof_begin >= 0 &&
        momentum_turn_rate(row, row.frame.row(2).transpose(), u.data()) >
            kPositionCorrectionMaxSlip) {
      target[k] = kSkipped;
      continue;
    }
    const double d_end = row.depth - dt * v_n;
    const double b = std::min(fraction * (d_end - kErpSlop) / dt, max_velocity);
    // (a contact between the slop and the trigger asks for nothing but does not close further)
    target[k] = !std::isfinite(b) ? 0.0 : d_end > kPositionCorrectionTrigger ? b : std::min(b, 0.0);
    any = any || target[k] > 0.0;
  }
  if (!any) return result;
  // projected Gauss-Seidel over the normal rows, in row order (deterministic)
  for (int sweep = 1; sweep <= kPositionCorrectionMaxSweeps; ++sweep) {
    result.sweeps = sweep;
    double largest = 0.0;  // m: the largest move of a contact's separation in this sweep
    for (std::size_t k = 0; k < n; ++k) {
      const ContactProblem& row = problems.rows[k];
      if (target[k] == kSkipped) continue;
      const Vec3 normal = row.frame.row(2).transpose();
      const double w = pseudo_normal_velocity(row, normal, p.data());
      const double g = inverse_mass(problems, row, 0) +
                       (row.side[1].dof_begin >= 0 ? inverse_mass(problems, row, 1) : 0.0);
      const double next = std::max(0.0, mu[k] + (target[k] - w) / g);
      const double d = next - mu[k];
      if (d == 0.0) continue;
      mu[k] = next;
      apply_pseudo_impulse(problems, row, normal, d, p.data());
      largest = std::max(largest, dt * std::abs(g * d));
    }
    if (largest < kPositionCorrectionTolerance) break;
  }
  return result;
}

}  // namespace torsion
