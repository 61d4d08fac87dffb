#include "contact/joint_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dynamics/articulated/dynamics.hpp"

namespace torsion {

namespace {

// a row on dof k: J = e_k, M^-1 J^T = A^-1 e_k, g = (A^-1)_kk (the last two skipped for a
// contact-space system)
ScalarRow& add_dof_row(ContactProblems& problems, const ArticulatedModel& model,
                       const ArticulatedData& data, std::int32_t object, std::int32_t dof_begin,
                       int k, RowKind kind, bool contact_space) {
  const int nv = model.nv;
  ScalarRow& row = problems.scalar_rows.emplace_back();
  row.kind = kind;
  row.object = object;
  row.dof = k;
  ContactSide& side = row.side[0];
  side.dof_begin = dof_begin;
  side.dof_count = nv;
  side.jac_begin = problems.add_row_side_storage(nv);
  side.articulated = object;
  problems.row_jac[static_cast<std::size_t>(side.jac_begin + k)] = 1.0;
  if (contact_space) {
    row.g = 0.0;
    return row;
  }
  Eigen::Map<MatX> col(problems.row_minv_jt.data() + side.jac_begin, nv, 1);
  col(k, 0) = 1.0;
  factor_solve_columns(model, data, col);
  row.g = col(k, 0) > 0.0 && std::isfinite(col(k, 0)) ? col(k, 0) : 0.0;
  return row;
}

bool is_soft(const ArticulatedModel& model, int k) {
  return !model.limit_softness.empty() && model.limit_softness[static_cast<std::size_t>(k)].soft;
}

// the target of a soft limit row (see the header); r < 0 the violation, v the velocity at the
// step's start and uf the free velocity, both along the row's direction (into the range > 0)
double soft_limit_target(const ArticulatedModel::LimitSoftness& s, double r, double v, double uf,
                         double dt) {
  const double dmax = std::clamp(s.solimp[1], 1e-4, 0.9999);
  double k, b;
  if (s.solref[0] > 0.0) {
    const double timeconst = std::max(s.solref[0], 2.0 * dt);
    k = 1.0 / (dmax * dmax * timeconst * timeconst * s.solref[1] * s.solref[1]);
    b = 2.0 / (dmax * timeconst);
  } else {
    k = -s.solref[0] / (dmax * dmax);
    b = -s.solref[1] / dmax;
  }
  const double d = limit_impedance(s.solimp, -r);
  const double aref = -b * v - k * d * r;
  return (1.0 - d) * uf + d * (v + dt * aref);
}

}  // namespace

double limit_impedance(const double solimp[5], double x) {
  const double dmin = std::clamp(solimp[0], 1e-4, 0.9999);
  const double dmax = std::clamp(solimp[1], 1e-4, 0.9999);
  const double width = solimp[2], mid = solimp[3], power = solimp[4];
  if (!(width > 1e-15)) return dmax;
  const double t = std::abs(x) / width;
  if (t >= 1.0) return dmax;
  double y;
  if (power == 1.0) {
    y = t;
  } else if (t <= mid) {
    y = std::pow(t, power) / std::pow(mid, power - 1.0);
  } else {
    y = 1.0 - std::pow(1.0 - t, power) / std::pow(1.0 - mid, power - 1.0);
  }
  return dmin + y * (dmax - dmin);
}

int add_joint_rows(ContactProblems& problems, const ArticulatedModel& model,
                   const ArticulatedData& data, std::int32_t object, std::int32_t dof_begin,
                   const double* u, double dt, const std::vector<int>& row_dofs,
                   bool contact_space, const double* u_start) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const std::size_t before = problems.scalar_rows.size();
  for (const int k : row_dofs) {
    const double uk = u[dof_begin + k];
    const bool has_lower = std::isfinite(model.lower[k]);
    const bool has_upper = std::isfinite(model.upper[k]);
    if (has_lower || has_upper) {
      // limits exist only on 1-dof joints: the dof's coordinate is its body's gc entry
      const double qk = data.q[model.bodies[static_cast<std::size_t>(model.dof_body[k])].gc_index];
      if (u_start && is_soft(model, k)) {
        // MuJoCo's soft limit: a row only while past the limit (see the header)
        const auto& soft = model.limit_softness[static_cast<std::size_t>(k)];
        const double vk = u_start[k];
        if (has_lower && qk < model.lower[k]) {
          ScalarRow& row = add_dof_row(problems, model, data, object, dof_begin, k,
                                       RowKind::kJointLower, contact_space);
          row.lower = 0.0;
          row.upper = kInf;
          row.target = soft_limit_target(soft, qk - model.lower[k], vk, uk, dt);
        } else if (has_upper && qk > model.upper[k]) {
          ScalarRow& row = add_dof_row(problems, model, data, object, dof_begin, k,
                                       RowKind::kJointUpper, contact_space);
          row.lower = -kInf;
          row.upper = 0.0;
          row.target = -soft_limit_target(soft, model.upper[k] - qk, -vk, -uk, dt);
        }
      } else if (has_lower) {
        const double gap = qk - model.lower[k];
        if (std::min(gap, gap + dt * uk) < kJointLimitMargin) {
          ScalarRow& row = add_dof_row(problems, model, data, object, dof_begin, k,
                                       RowKind::kJointLower, contact_space);
          row.lower = 0.0;
          row.upper = kInf;
          row.target = gap >= 0.0 ? -gap / dt : 0.0;
        }
      }
      if (has_upper && !(u_start && is_soft(model, k))) {
        const double gap = model.upper[k] - qk;
        if (std::min(gap, gap - dt * uk) < kJointLimitMargin) {
          ScalarRow& row = add_dof_row(problems, model, data, object, dof_begin, k,
                                       RowKind::kJointUpper, contact_space);
          row.lower = -kInf;
          row.upper = 0.0;
          row.target = gap >= 0.0 ? gap / dt : 0.0;
        }
      }
    }
    if (model.friction[k] > 0.0) {
      ScalarRow& row = add_dof_row(problems, model, data, object, dof_begin, k,
                                   RowKind::kJointFriction, contact_space);
      row.upper = dt * model.friction[k];
      row.lower = -row.upper;
      row.target = 0.0;
    }
  }
  return static_cast<int>(problems.scalar_rows.size() - before);
}

std::vector<int> joint_row_dofs(const ArticulatedModel& model) {
  std::vector<int> dofs;
  for (int k = 0; k < model.nv; ++k)
    if (std::isfinite(model.lower[k]) || std::isfinite(model.upper[k]) || model.friction[k] > 0.0)
      dofs.push_back(k);
  return dofs;
}

int correct_joint_limit_violations(const ArticulatedModel& model, VecX& q) {
  int corrected = 0;
  for (int k = 0; k < model.nv; ++k) {
    if (!std::isfinite(model.lower[k]) && !std::isfinite(model.upper[k])) continue;
    if (is_soft(model, k)) continue;
    double& qk = q[model.bodies[static_cast<std::size_t>(model.dof_body[k])].gc_index];
    if (qk < model.lower[k]) {
      qk += kJointLimitErp * (model.lower[k] - qk);
      ++corrected;
    } else if (qk > model.upper[k]) {
      qk += kJointLimitErp * (model.upper[k] - qk);
      ++corrected;
    }
  }
  return corrected;
}

}  // namespace torsion
