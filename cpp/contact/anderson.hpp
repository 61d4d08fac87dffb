// Anderson acceleration of the contact solver's sweeps (Anderson 1965; Walker and Ni, SIAM J.
// Numer. Anal. 2011, "type II").
//
// One full Gauss-Seidel sweep of an island is a fixed-point map x -> F(x) on the island's
// impulses x (3 per contact, 1 per 1-D row, in sweep order); the solve is its fixed point. Near
// it, with the contacts' modes settled, F is affine and plain sweeps converge linearly, slowly
// when the island's Delassus matrix has small eigenvalues (a tall stack, a pile, the redundant
// four points of a face). Anderson keeps the last `depth` differences of the sweep results g_k =
// F(x_k) and of the residuals f_k = g_k - x_k and starts the next sweep from
//     x_{k+1} = g_k - dG gamma,   gamma = argmin |f_k - dF gamma|_2,
// the combination of recent sweeps whose extrapolated residual is smallest. Each sweep stays the
// exact per-contact solve; only its starting impulses change.
// Safeguards: the least-squares problem is lightly regularised, and a combination further than
// 1000 |f_k| from g_k is not used; when a residual exceeds twice the smallest one of the current
// history (the map is not affine there: a contact changed mode, or the extrapolation overshot)
// the history is dropped, and if that sweep had started from a combination its result is
// discarded and the next sweep starts from the previous plain result g_{k-1} (one sweep lost at
// most), else from g_k, as without acceleration.
#pragma once

#include <cstddef>

#include "math/types.hpp"

namespace torsion {

class AndersonMixer {
 public:
  // forget the history; iterates have n entries, at most `depth` >= 1 differences are kept
  void begin(std::size_t n, int depth);
  // forget the history only (the next mix starts one anew)
  void forget() {
    count_ = next_ = 0;
    has_prev_ = last_mixed_ = false;
  }

  // x: the impulses a sweep started from; g: its result F(x). Overwrites g with the start of the
  // next sweep. Returns false when that is g itself (no history yet, or just dropped).
  bool mix(const VecX& x, VecX& g);

  int restarts() const { return restarts_; }  // histories dropped by the safeguard since begin

 private:
  int depth_ = 0;
  int count_ = 0;   // valid columns of df_, dg_: [0, count_)
  int next_ = 0;    // column the next difference goes to (oldest replaced first)
  int restarts_ = 0;
  bool has_prev_ = false;
  bool last_mixed_ = false;  // the last start returned was a combination, not a sweep's result
  double best_norm2_ = 0.0;  // the smallest |f|^2 of the current history
  MatX df_, dg_;    // n x depth: differences of residuals and of sweep results
  VecX f_, f_prev_, g_prev_, gamma_, step_;
};

}  // namespace torsion
