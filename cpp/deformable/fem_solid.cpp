// Newton's method on the implicit-Euler step of a finite-element neo-Hookean solid
// (fem_solid.hpp).
#include "deformable/fem_solid.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <utility>

namespace torsion {

namespace {

using Mat9 = Eigen::Matrix<double, 9, 9>;
using Mat93 = Eigen::Matrix<double, 9, 3>;

// the six edges of a tetrahedron, in the order of its quadratic element's edge nodes 4..9
constexpr int kEdge[6][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {1, 3}, {2, 3}};

// dN_a/dxi of the 10-node tetrahedron at barycentric point xi = (L1, L2, L3), L0 = 1 - sum
void quadratic_shape_gradients(const Vec3& xi, Vec3 dn[10]) {
  const double l[4] = {1.0 - xi.sum(), xi.x(), xi.y(), xi.z()};
  const Vec3 dl[4] = {Vec3(-1, -1, -1), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  for (int a = 0; a < 4; ++a) dn[a] = (4.0 * l[a] - 1.0) * dl[a];
  for (int e = 0; e < 6; ++e) {
    const int p = kEdge[e][0], q = kEdge[e][1];
    dn[4 + e] = 4.0 * (l[p] * dl[q] + l[q] * dl[p]);
  }
}

Mat3 skew(const Vec3& v) {
  Mat3 s;
  s << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return s;
}

struct Kinematics {
  Mat3 F, cof;
  double J;
};

Kinematics deformation(const std::vector<Vec3>& x, const std::uint32_t* nodes, const Vec3* grad,
                       int npe) {
  Kinematics k;
  k.F.setZero();
  for (int a = 0; a < npe; ++a) k.F.noalias() += x[nodes[a]] * grad[a].transpose();
  k.cof.col(0) = k.F.col(1).cross(k.F.col(2));
  k.cof.col(1) = k.F.col(2).cross(k.F.col(0));
  k.cof.col(2) = k.F.col(0).cross(k.F.col(1));
  k.J = k.F.col(0).dot(k.cof.col(0));
  return k;
}

}  // namespace

struct FemSolid::Work {
  Eigen::SparseMatrix<double> H;  // 3 N x 3 N, column-major, full pattern of the element blocks
  std::vector<int> block;         // (e, a, b, k): value offset of entry (3 n_a, 3 n_b + k)
  std::vector<int> diag;          // (node, i): value offset of (3 n + i, 3 n + i)
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
  bool analyzed = false;
  Eigen::VectorXd g, dx;
  std::vector<Vec3> trial;
};

FemSolid::FemSolid() = default;
FemSolid::FemSolid(const FemSolid& o) : mesh_(o.mesh_) {}
FemSolid& FemSolid::operator=(const FemSolid& o) {
  mesh_ = o.mesh_;
  work_.reset();
  return *this;
}
FemSolid::FemSolid(FemSolid&&) noexcept = default;
FemSolid& FemSolid::operator=(FemSolid&&) noexcept = default;
FemSolid::~FemSolid() = default;

void FemSolid::build(const std::vector<Vec3>& x0,
                     const std::vector<std::array<std::uint32_t, 4>>& tets, int order, double mu,
                     double lam, double density) {
  Mesh m;
  m.vertices = x0.size();
  m.mu = mu;
  m.lam = lam;
  m.a = 1.0 + mu / lam;
  m.npe = order == 2 ? 10 : 4;
  m.nq = order == 2 ? 4 : 1;
  if (order == 2) {
    for (const auto& t : tets)
      for (const auto& e : kEdge)
        m.edges.push_back({std::min(t[e[0]], t[e[1]]), std::max(t[e[0]], t[e[1]])});
    std::sort(m.edges.begin(), m.edges.end());
    m.edges.erase(std::unique(m.edges.begin(), m.edges.end()), m.edges.end());
  }
  const std::size_t nodes = m.vertices + m.edges.size();
  m.mass.assign(nodes, 0.0);
  m.nodes.reserve(tets.size() * m.npe);
  m.weight.reserve(tets.size() * m.nq);
  m.grad.reserve(tets.size() * m.nq * m.npe);
  // the 4-point rule (degree 2) for the quadratic element
  const double qa = 0.5854101966249685, qb = 0.1381966011250105;
  const Vec3 qp[4] = {Vec3(qb, qb, qb), Vec3(qa, qb, qb), Vec3(qb, qa, qb), Vec3(qb, qb, qa)};
  for (const auto& t : tets) {
    Mat3 dm;
    for (int j = 0; j < 3; ++j) dm.col(j) = x0[t[j + 1]] - x0[t[0]];
    const double vol = dm.determinant() / 6.0;
    const Mat3 dmi = dm.inverse();
    for (int a = 0; a < 4; ++a) m.nodes.push_back(t[a]);
    if (order == 2) {
      for (const auto& e : kEdge) {
        const std::array<std::uint32_t, 2> key = {std::min(t[e[0]], t[e[1]]),
                                                  std::max(t[e[0]], t[e[1]])};
        const auto it = std::lower_bound(m.edges.begin(), m.edges.end(), key);
        m.nodes.push_back(static_cast<std::uint32_t>(m.vertices + (it - m.edges.begin())));
      }
      const std::uint32_t* en = &m.nodes[m.nodes.size() - 10];
      for (int a = 0; a < 4; ++a) m.mass[en[a]] += density * vol / 36.0;
      for (int a = 4; a < 10; ++a) m.mass[en[a]] += 4.0 * density * vol / 27.0;
      for (const Vec3& xi : qp) {
        Vec3 dn[10];
        quadratic_shape_gradients(xi, dn);
        m.weight.push_back(vol / 4.0);
        for (const Vec3& d : dn) m.grad.push_back(dmi.transpose() * d);
      }
    } else {
      for (int a = 0; a < 4; ++a) m.mass[t[a]] += density * vol / 4.0;
      // F = sum_a x_a G_a^T with G_a = row a-1 of Dm^-1 (a = 1..3), G_0 = -sum
      const Vec3 g1 = dmi.row(0).transpose(), g2 = dmi.row(1).transpose(),
                 g3 = dmi.row(2).transpose();
      m.weight.push_back(vol);
      m.grad.push_back(-(g1 + g2 + g3));
      m.grad.push_back(g1);
      m.grad.push_back(g2);
      m.grad.push_back(g3);
    }
  }
  mesh_ = std::move(m);
  work_.reset();
}

double FemSolid::energy(const std::vector<Vec3>& x) const {
  const Mesh& m = mesh_;
  const std::size_t ne = m.npe ? m.nodes.size() / m.npe : 0;
  const double rest = (1.0 - m.a) * (1.0 - m.a);
  double e = 0.0;
  for (std::size_t el = 0; el < ne; ++el)
    for (int q = 0; q < m.nq; ++q) {
      const std::size_t eq = el * m.nq + q;
      const Kinematics k = deformation(x, &m.nodes[el * m.npe], &m.grad[eq * m.npe], m.npe);
      e += m.weight[eq] * (0.5 * m.mu * (k.F.squaredNorm() - 3.0) +
                           0.5 * m.lam * ((k.J - m.a) * (k.J - m.a) - rest));
    }
  return e;
}

double FemSolid::total_energy(const std::vector<Vec3>& x, const std::vector<Vec3>& xt,
                              double inv_h2) const {
  double e = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    e += 0.5 * inv_h2 * mesh_.mass[i] * (x[i] - xt[i]).squaredNorm();
  return e + energy(x);
}

// gradient (work_->g) and projected Hessian (work_->H) of the incremental potential at x; rows
// and columns of fixed nodes are the identity (their update is zero)
void FemSolid::assemble(const std::vector<Vec3>& x, const std::vector<Vec3>& xt,
                        const std::vector<std::uint8_t>& fixed, double inv_h2) {
  const Mesh& m = mesh_;
  const std::size_t n = node_count();
  const std::size_t ne = m.nodes.size() / m.npe;
  Work& w = *work_;
  double* val = w.H.valuePtr();
  std::fill(val, val + w.H.nonZeros(), 0.0);
  w.g.setZero(static_cast<Eigen::Index>(3 * n));
  for (std::size_t i = 0; i < n; ++i) {
    const double d = fixed[i] ? 1.0 : inv_h2 * m.mass[i];
    for (int c = 0; c < 3; ++c) val[w.diag[3 * i + c]] += d;
    if (!fixed[i]) w.g.segment<3>(static_cast<Eigen::Index>(3 * i)) = inv_h2 * m.mass[i] * (x[i] - xt[i]);
  }
  Mat93 T[10];
  Mat9 H;
  Eigen::SelfAdjointEigenSolver<Mat9> eig;
  Eigen::LLT<Mat9> llt;
  for (std::size_t el = 0; el < ne; ++el) {
    const std::uint32_t* nd = &m.nodes[el * m.npe];
    for (int q = 0; q < m.nq; ++q) {
      const std::size_t eq = el * m.nq + q;
      const Vec3* G = &m.grad[eq * m.npe];
      const double wq = m.weight[eq];
      const Kinematics k = deformation(x, nd, G, m.npe);
      const double s = m.lam * (k.J - m.a);
      const Mat3 P = m.mu * k.F + s * k.cof;
      for (int a = 0; a < m.npe; ++a)
        if (!fixed[nd[a]]) w.g.segment<3>(3 * static_cast<Eigen::Index>(nd[a])) += wq * (P * G[a]);
      // d^2 psi / dF^2 in vec(F) (column-major) order, then clamped to be positive semi-definite
      const Eigen::Map<const Eigen::Matrix<double, 9, 1>> c(k.cof.data());
      H = m.mu * Mat9::Identity() + m.lam * c * c.transpose();
      const Mat3 s0 = s * skew(k.F.col(0)), s1 = s * skew(k.F.col(1)), s2 = s * skew(k.F.col(2));
      H.block<3, 3>(0, 3) -= s2;
      H.block<3, 3>(0, 6) += s1;
      H.block<3, 3>(3, 0) += s2;
      H.block<3, 3>(3, 6) -= s0;
      H.block<3, 3>(6, 0) -= s1;
      H.block<3, 3>(6, 3) += s0;
      // near rest and in moderate strain it is positive definite already (a 9 x 9 Cholesky
      // says so); only otherwise the eigen-decomposition
      llt.compute(H);
      if (llt.info() != Eigen::Success) {
        eig.compute(H);
        const auto ev = eig.eigenvalues();
        H = eig.eigenvectors() * ev.cwiseMax(0.0).asDiagonal() * eig.eigenvectors().transpose();
      }
      // T_b = H B_b (B_b: d vec(F) / d x_b, 9 x 3: rows 3 j + i, column i, value G_b[j])
      for (int b = 0; b < m.npe; ++b)
        T[b] = G[b].x() * H.middleCols<3>(0) + G[b].y() * H.middleCols<3>(3) +
               G[b].z() * H.middleCols<3>(6);
      for (int a = 0; a < m.npe; ++a) {
        if (fixed[nd[a]]) continue;
        for (int b = 0; b < m.npe; ++b) {
          if (fixed[nd[b]]) continue;
          // K_ab = w B_a^T T_b
          const Mat3 kab = wq * (G[a].x() * T[b].middleRows<3>(0) +
                                 G[a].y() * T[b].middleRows<3>(3) +
                                 G[a].z() * T[b].middleRows<3>(6));
          const int* off = &w.block[((el * m.npe + a) * m.npe + b) * 3];
          for (int kk = 0; kk < 3; ++kk)
            for (int i = 0; i < 3; ++i) val[off[kk] + i] += kab(i, kk);
        }
      }
    }
  }
}

int FemSolid::solve(std::vector<Vec3>& x, const std::vector<Vec3>& xt,
                    const std::vector<std::uint8_t>& fixed, double h, int max_iter, double tol) {
  const Mesh& m = mesh_;
  const std::size_t n = node_count();
  const std::size_t ne = m.nodes.size() / m.npe;
  if (!work_) {
    // the sparsity pattern: every node pair sharing an element, 3 x 3 blocks
    work_ = std::make_unique<Work>();
    Work& w = *work_;
    std::vector<Eigen::Triplet<double>> trip;
    trip.reserve(ne * m.npe * m.npe * 9 + 3 * n);
    for (std::size_t el = 0; el < ne; ++el)
      for (int a = 0; a < m.npe; ++a)
        for (int b = 0; b < m.npe; ++b)
          for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k)
              trip.emplace_back(3 * m.nodes[el * m.npe + a] + i, 3 * m.nodes[el * m.npe + b] + k, 0.0);
    for (std::size_t i = 0; i < 3 * n; ++i) trip.emplace_back(i, i, 0.0);
    const auto dim = static_cast<Eigen::Index>(3 * n);
    w.H.resize(dim, dim);
    w.H.setFromTriplets(trip.begin(), trip.end());
    w.H.makeCompressed();
    const int* outer = w.H.outerIndexPtr();
    const int* inner = w.H.innerIndexPtr();
    auto offset = [&](int row, int col) {
      const int* p = std::lower_bound(inner + outer[col], inner + outer[col + 1], row);
      return static_cast<int>(p - inner);
    };
    w.block.resize(ne * m.npe * m.npe * 3);
    for (std::size_t el = 0; el < ne; ++el)
      for (int a = 0; a < m.npe; ++a)
        for (int b = 0; b < m.npe; ++b)
          for (int k = 0; k < 3; ++k)
            w.block[((el * m.npe + a) * m.npe + b) * 3 + k] =
                offset(3 * static_cast<int>(m.nodes[el * m.npe + a]),
                       3 * static_cast<int>(m.nodes[el * m.npe + b]) + k);
    w.diag.resize(3 * n);
    for (std::size_t i = 0; i < 3 * n; ++i)
      w.diag[i] = offset(static_cast<int>(i), static_cast<int>(i));
  }
  Work& w = *work_;
  const double inv_h2 = 1.0 / (h * h);
  int it = 0;
  for (; it < max_iter; ++it) {
    assemble(x, xt, fixed, inv_h2);
    if (!w.analyzed) {
      w.ldlt.analyzePattern(w.H);
      w.analyzed = true;
    }
    w.ldlt.factorize(w.H);
    if (w.ldlt.info() != Eigen::Success) break;
    w.dx = w.ldlt.solve(-w.g);
    const double slope = w.g.dot(w.dx);
    if (!(slope < 0.0)) break;  // at the minimum (to round-off)
    const double e0 = total_energy(x, xt, inv_h2);
    w.trial.resize(n);
    double step = 1.0;
    bool accepted = false;
    for (int ls = 0; ls < 30 && !accepted; ++ls) {
      for (std::size_t i = 0; i < n; ++i)
        w.trial[i] = x[i] + step * w.dx.segment<3>(static_cast<Eigen::Index>(3 * i));
      const double e1 = total_energy(w.trial, xt, inv_h2);
      // Armijo, with the round-off of e0 allowed (near the minimum both are equal to ~1e-16)
      if (e1 <= e0 + 1e-4 * step * slope + 1e-13 * std::abs(e0)) accepted = true;
      else step *= 0.5;
    }
    if (!accepted) break;
    x.swap(w.trial);
    if (step * w.dx.lpNorm<Eigen::Infinity>() < tol) {
      ++it;
      break;
    }
  }
  return it;
}

}  // namespace torsion
