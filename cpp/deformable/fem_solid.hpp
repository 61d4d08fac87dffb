// The elastic solid as finite elements, solved by Newton's method (DeformableMaterial.solver =
// kNewton): linear (4-node) or quadratic (10-node) tetrahedra with the stable neo-Hookean energy
// of the XPBD constraints (deformable.hpp),
//   psi(F) = mu/2 (|F|^2 - 3) + lam/2 ((J - a)^2 - (1 - a)^2),   a = 1 + mu/lam,
// integrated at 1 point (linear) or 4 points (quadratic, exact for the small-strain stiffness).
//
// Why: Gauss-Seidel sweeps (XPBD) do not converge on a stiff, finely meshed solid (the bending
// modes of a slender beam need thousands of sweeps), and linear tetrahedra lock in bending (a
// 20 x 2 x 2-cell beam of Kuhn tetrahedra is 45 % too stiff when fully converged). One substep
// here is the implicit-Euler step that XPBD approximates, minimized to convergence:
//   x = argmin  sum_i m_i/(2 h^2) |x_i - x~_i|^2 + E(x),   x~ = x + h v + h^2 g (the prediction),
// with a projected Newton method (the 9 x 9 Hessian of psi in F clamped to its non-negative
// eigenvalues, so every element Hessian is positive semi-definite), a sparse LDL^T factorization
// (Eigen's SimplicialLDLT, the pattern analysed once) and a backtracking line search. The
// converged equilibrium satisfies grad E = f whatever dt and the iteration count (XPBD's
// promise, reached by convergence instead of by compliance).
//
// Quadratic elements add one node at the midpoint of every mesh edge (numbered after the mesh's
// vertices; internal: they are not vertices of the DeformableObject, have no collision proxy,
// and are fixed when both ends of their edge are). Masses are lumped by diagonal scaling
// (Hinton-Rock-Zienkiewicz): rho V / 36 per corner and 4 rho V / 27 per edge node.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "math/types.hpp"

namespace torsion {

class FemSolid {
 public:
  FemSolid();
  // copies take the mesh; the sparse system and its factorization are rebuilt on demand
  FemSolid(const FemSolid& o);
  FemSolid& operator=(const FemSolid& o);
  FemSolid(FemSolid&&) noexcept;
  FemSolid& operator=(FemSolid&&) noexcept;
  ~FemSolid();

  // rest vertices, tetrahedra (positive volume), order 1 or 2, Lame parameters of the energy
  // (mu, lam as in the header) and density: builds the nodes, quadrature data and lumped masses
  void build(const std::vector<Vec3>& x0, const std::vector<std::array<std::uint32_t, 4>>& tets,
             int order, double mu, double lam, double density);

  std::size_t vertex_count() const { return mesh_.vertices; }
  std::size_t node_count() const { return mesh_.vertices + mesh_.edges.size(); }
  // edge node k (node vertex_count() + k) sits at the midpoint of these two vertices at rest
  const std::vector<std::array<std::uint32_t, 2>>& edges() const { return mesh_.edges; }
  const std::vector<double>& node_masses() const { return mesh_.mass; }

  // elastic energy (J, 0 at rest) at node positions x (node_count())
  double energy(const std::vector<Vec3>& x) const;

  // One implicit-Euler substep of length h: x holds the starting guess on entry (fixed nodes at
  // their prescribed positions) and the minimizer on return; xt is the predicted (inertial)
  // position; fixed[i] != 0 for nodes that do not move. Stops when the largest Newton update is
  // below tol (m) or after max_iter iterations; returns the iterations run.
  int solve(std::vector<Vec3>& x, const std::vector<Vec3>& xt, const std::vector<std::uint8_t>& fixed,
            double h, int max_iter, double tol);

 private:
  struct Mesh {
    std::size_t vertices = 0;
    int npe = 4;  // nodes per element
    int nq = 1;   // quadrature points per element
    std::vector<std::array<std::uint32_t, 2>> edges;
    std::vector<std::uint32_t> nodes;  // element e: nodes[e * npe + a]
    std::vector<double> weight;        // (e, q): rest volume of the point
    std::vector<Vec3> grad;            // (e, q, a): dN_a/dX at the point
    std::vector<double> mass;          // per node, lumped
    double mu = 0.0, lam = 0.0, a = 1.0;
  };
  struct Work;  // the sparse system and its factorization (fem_solid.cpp)

  double total_energy(const std::vector<Vec3>& x, const std::vector<Vec3>& xt, double inv_h2) const;
  void assemble(const std::vector<Vec3>& x, const std::vector<Vec3>& xt,
                const std::vector<std::uint8_t>& fixed, double inv_h2);

  Mesh mesh_;
  std::unique_ptr<Work> work_;
};

}  // namespace torsion
