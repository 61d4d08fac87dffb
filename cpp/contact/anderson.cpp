#include "contact/anderson.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

namespace torsion {

namespace {

// Tikhonov term of the small least-squares problem, relative to its largest diagonal entry: keeps
// it solvable when two differences are (nearly) parallel
constexpr double kRegularization = 1e-12;
// a combination that moves the start further than this many residuals from the plain result is
// an ill-conditioned extrapolation, not a refinement: the plain result is used instead
constexpr double kMaxStepRatio = 1e3;
// Gauss-Seidel's residual is not monotone even where it converges: the history is dropped only
// when a residual exceeds kGrowth times the smallest one since it began
constexpr double kGrowth = 2.0;

}  // namespace

void AndersonMixer::begin(std::size_t n, int depth) {
  depth_ = std::max(depth, 1);
  count_ = next_ = restarts_ = 0;
  has_prev_ = last_mixed_ = false;
  best_norm2_ = 0.0;
  const auto rows = static_cast<Eigen::Index>(n);
  if (df_.rows() != rows || df_.cols() != depth_) {
    df_.resize(rows, depth_);
    dg_.resize(rows, depth_);
  }
  f_.resize(rows);
  f_prev_.resize(rows);
  g_prev_.resize(rows);
}

bool AndersonMixer::mix(const VecX& x, VecX& g) {
  f_ = g - x;
  const double norm2 = f_.squaredNorm();
  // the residual grew past kGrowth times the smallest one since the history began (or is NaN)
  if (has_prev_ && !(norm2 <= kGrowth * kGrowth * best_norm2_)) {
    if (count_ > 0) ++restarts_;
    count_ = next_ = 0;
    if (last_mixed_) {
      // the extrapolated start was worse: discard this sweep and go on from the previous plain
      // result (the history is gone, so the next sweep is a plain one from there)
      last_mixed_ = false;
      g = g_prev_;
      return true;
    }
  } else if (has_prev_) {
    df_.col(next_) = f_ - f_prev_;
    dg_.col(next_) = g - g_prev_;
    next_ = (next_ + 1) % depth_;
    count_ = std::min(count_ + 1, depth_);
  }
  f_prev_ = f_;
  g_prev_ = g;
  // (a new history starts from its first residual)
  if (count_ == 0 || norm2 < best_norm2_) best_norm2_ = norm2;
  has_prev_ = true;
  last_mixed_ = false;
  if (count_ == 0) return false;

  // gamma = argmin |f - dF gamma|: the normal equations (count_ <= depth, a few columns)
  const auto m = static_cast<Eigen::Index>(count_);
  const auto dfm = df_.leftCols(m);
  // (lazyProduct: plain loops in a fixed order, not a GEMM whose blocking follows the cache)
  MatX a = dfm.transpose().lazyProduct(dfm);
  const VecX b = dfm.transpose().lazyProduct(f_);
  const double scale = a.diagonal().maxCoeff();
  if (!(scale > 0.0) || !std::isfinite(scale)) return false;
  a.diagonal().array() += kRegularization * scale;
  gamma_ = a.ldlt().solve(b);
  if (!gamma_.allFinite()) return false;
  step_.noalias() = dg_.leftCols(m).lazyProduct(gamma_);
  if (!(step_.squaredNorm() <= kMaxStepRatio * kMaxStepRatio * norm2)) return false;
  g -= step_;
  last_mixed_ = true;
  return true;
}

}  // namespace torsion
