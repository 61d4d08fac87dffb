#include "contact/contact_problem.hpp"

#include <Eigen/LU>
#include <cmath>

#include "core/cpu_dispatch.hpp"

namespace torsion {

namespace {

using Mat36 = Eigen::Matrix<double, 3, 6>;
using Mat63 = Eigen::Matrix<double, 6, 3>;
using Jac = Eigen::Map<const Eigen::Matrix<double, 3, Eigen::Dynamic>>;
using MinvJt = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3>>;


}  // namespace

void set_single_body_side(ContactProblems& problems, ContactProblem& row, int s,
                          const RigidBody& body, std::int32_t dof_begin, const Vec3& point,
                          double sign, bool with_jacobian) {
  ContactSide& side = row.side[s];
  side.dof_begin = dof_begin;
  side.dof_count = 6;
  const Vec3 r = point - body.position;
  if (with_jacobian) {
    side.jac_begin = problems.add_side_storage(6);
    // velocity of the point: v + w x r = v - [r]x w
    const Mat3 f = sign * row.frame;
    Mat3 rx;
    rx << 0.0, -r.z(), r.y(), r.z(), 0.0, -r.x(), -r.y(), r.x(), 0.0;
    Eigen::Map<Mat36> j(problems.jac.data() + side.jac_begin);
    j.leftCols<3>() = f;
    j.rightCols<3>() = -f * rx;
    Eigen::Map<Mat63> mj(problems.minv_jt.data() + side.jac_begin);
    mj.topRows<3>() = body.inv_mass * f.transpose();
    mj.bottomRows<3>() = body.inv_inertia_w * j.rightCols<3>().transpose();
  } else {
    side.jac_begin = -1;
  }
  // the same side in the compact form of the solver's rigid kernel
  const auto slot = static_cast<std::size_t>(dof_begin);
  if (problems.rigid_body_of_dof.size() <= slot) problems.rigid_body_of_dof.resize(slot + 1, -1);
  std::int32_t& index = problems.rigid_body_of_dof[slot];
  if (index < 0) {
    index = static_cast<std::int32_t>(problems.rigid_bodies.size());
    problems.rigid_bodies.push_back({body.inv_inertia_w, body.inv_mass});
  }
  row.rigid[s] = index;
  row.lever[s] = r;
  row.side_sign[s] = sign;
}

void set_single_body_angular_side(ContactProblems& problems, ScalarRow& row, int s,
                                  const RigidBody& body, std::int32_t dof_begin, const Vec3& axis,
                                  double sign) {
  ContactSide& side = row.side[s];
  side.dof_begin = dof_begin;
  side.dof_count = 6;
  side.jac_begin = problems.add_row_side_storage(6);
  const Vec3 a = sign * axis;
  const Vec3 mj = body.inv_inertia_w * a;
  for (int k = 0; k < 3; ++k) {
    problems.row_jac[static_cast<std::size_t>(side.jac_begin + 3 + k)] = a[k];
    problems.row_minv_jt[static_cast<std::size_t>(side.jac_begin + 3 + k)] = mj[k];
  }
}

namespace {

// (the bodies of compute_delassus_block and finish_delassus_block, built twice:
// core/cpu_dispatch.hpp)
TORSION_ALWAYS_INLINE void finish_delassus_block_body(ContactProblem& row) {
  // A rank-deficient block: the contact cannot move along some direction of its frame (a robot
  // whose joints only move along the normal, a point on a joint axis). Impulses along such a
  // direction change no velocity, but the exact inverse would make them arbitrary and huge in
  // round-off; a tiny relative regularisation keeps them bounded and the solve well-posed.
  const double scale = row.g.diagonal().maxCoeff();
  if (scale > 0.0 && std::isfinite(scale) &&
      row.g.determinant() < kDelassusRankTolerance * scale * scale * scale)
    row.g.diagonal().array() += kDelassusRegularization * scale;
  bool invertible = false;
  double det = 0.0;
  row.g.computeInverseAndDetWithCheck(row.g_inv, det, invertible, 1e-300);
  if (!invertible || !(row.g(2, 2) > 0.0) || !row.g_inv.allFinite()) row.g_inv.setZero();
}

TORSION_ALWAYS_INLINE void compute_delassus_block_body(const ContactProblems& problems,
                                                       ContactProblem& row) {
  row.g.setZero();
  for (int s = 0; s < 2; ++s) {
    const ContactSide& side = row.side[s];
    if (side.dof_begin < 0) continue;
    if (side.jac_begin < 0) {
      // a single rigid body without J: with f_i the frame's rows and a_i = r x f_i (the angular
      // rows of J up to the side's sign, which cancels), G_ij = f_i . f_j / m + a_i' I_w^-1 a_j,
      // and f_i . f_j = delta_ij (an orthonormal frame)
      const RigidInverseMass& m = problems.rigid_bodies[static_cast<std::size_t>(row.rigid[s])];
      const Vec3& r = row.lever[s];
      Vec3 a[3], b[3];
      for (int i = 0; i < 3; ++i) {
        a[i] = r.cross(row.frame.row(i).transpose());
        b[i] = m.inv_inertia_w * a[i];
      }
      for (int i = 0; i < 3; ++i) {
        row.g(i, i) += m.inv_mass + a[i].dot(b[i]);
        for (int j = i + 1; j < 3; ++j) {
          const double gij = a[i].dot(b[j]);  // = a_j' I^-1 a_i: I^-1 is symmetric
          row.g(i, j) += gij;
          row.g(j, i) += gij;
        }
      }
      continue;
    }
    if (side.dof_count == 6) {
      Eigen::Map<const Mat36> j(problems.jac.data() + side.jac_begin);
      Eigen::Map<const Mat63> mj(problems.minv_jt.data() + side.jac_begin);
      row.g.noalias() += j * mj;
    } else {
      Jac j(problems.jac.data() + side.jac_begin, 3, side.dof_count);
      MinvJt mj(problems.minv_jt.data() + side.jac_begin, side.dof_count, 3);
      // a 3x3 result: the coefficient-wise product (Eigen would pick its blocked GEMM kernel,
      // whose set-up costs more than this whole product, once dof_count passes ~14)
      row.g.noalias() += j.lazyProduct(mj);
    }
  }
  // symmetrise (round-off) and invert
  row.g = 0.5 * (row.g + row.g.transpose()).eval();
  finish_delassus_block_body(row);
}

void compute_delassus_block_baseline(const ContactProblems& problems, ContactProblem& row) {
  compute_delassus_block_body(problems, row);
}
void finish_delassus_block_baseline(ContactProblem& row) { finish_delassus_block_body(row); }
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET __attribute__((flatten)) void compute_delassus_block_avx2(
    const ContactProblems& problems, ContactProblem& row) {
  compute_delassus_block_body(problems, row);
}
TORSION_AVX2_TARGET __attribute__((flatten)) void finish_delassus_block_avx2(ContactProblem& row) {
  finish_delassus_block_body(row);
}
#endif

}  // namespace

void compute_delassus_block(const ContactProblems& problems, ContactProblem& row) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return compute_delassus_block_avx2(problems, row);
#endif
  compute_delassus_block_baseline(problems, row);
}

void finish_delassus_block(ContactProblem& row) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return finish_delassus_block_avx2(row);
#endif
  finish_delassus_block_baseline(row);
}

}  // namespace torsion
