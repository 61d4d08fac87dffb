#include "world/contact_stages.hpp"

#include <algorithm>
#include <cstring>

#include "contact/position_correction.hpp"
#include "contact/rigid_kernel.hpp"
#include "core/assert.hpp"
#include "core/cpu_dispatch.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "world/articulated_position_pass.hpp"
#include "world/articulated_system.hpp"

namespace torsion {

namespace {

bool is_articulated(const Object& o) { return o.type() == ObjectType::kArticulatedSystem; }

const RigidBody& body_at(const ObjectList& objects, std::uint32_t index) {
  return static_cast<const SingleBodyObject&>(*objects[index]).body();
}

ArticulatedSystem& system_at(const ObjectList& objects, std::uint32_t index) {
  return static_cast<ArticulatedSystem&>(*objects[index]);
}

// world velocity of the material point at `point` of body `local` of object `index`
Vec3 point_velocity(const ObjectList& objects, std::uint32_t index, std::uint32_t local,
                    const Vec3& point) {
  if (is_articulated(*objects[index]))
    return body_point_velocity(system_at(objects, index).data(), static_cast<int>(local), point);
  return body_point_velocity(body_at(objects, index), point);
}

// Side `s` of `row` on an articulated system: J_s = sign * frame * (J_p(body) - J_p(other)),
// with J_p the world point Jacobian (3 x nv) of the contact point on a body; `other` < 0 for a
// contact with another object, the B body of a self-contact otherwise (one side carries both,
// sign +1). M^-1 J_s^T waits for the step's factorisation (stage_delassus_blocks).
void set_articulated_side(ContactState& cs, ContactProblem& row, int s, std::uint32_t index,
                          const ArticulatedSystem& a, std::int32_t dof_begin, int body, int other,
                          const Vec3& point, double sign) {
  ContactProblems& problems = cs.problems;
  const int nv = a.dof();
  ContactSide& side = row.side[s];
  side.dof_begin = dof_begin;
  side.dof_count = nv;
  side.jac_begin = problems.add_side_storage(nv);
  side.articulated = static_cast<std::int32_t>(index);
  side.path_only = false;  // the general Jacobian below (set for the path-only case)
  side.path_last = -1;
  const ArticulatedModel& model = a.model();
  if (other < 0 && !model.has_mimic) {
    // a point of one body, columns = dofs: J_s is non-zero only on the dofs of the body's path
    // to the root (a foot: its leg's and the base's), column k = f (s_lin + s_ang x r) with s
    // the motion column and r the point from data.ref (point_jacobian's formula); the other
    // columns are zero, written here (add_side_storage leaves the last step's values there)
    const ArticulatedData& data = a.data();
    const Mat3 f = sign * row.frame;
    const Vec3 r = point - data.ref;
    double* j = problems.jac.data() + side.jac_begin;
    side.path_only = true;
    side.path_last = model.body_last_col[static_cast<std::size_t>(body)];
    // a floating base's columns 0 .. 5 close every path (in the order 5, 4, ..., 0)
    const int n_unit = model.floating_base ? 6 : 0;
    int k = model.body_last_col[static_cast<std::size_t>(body)];
    // the path's columns fall from k to 0 (col_parent[k] < k): zero every column between two of
    // them, above the first and (after the loops) below the last
    int above = nv;
    for (; k >= n_unit; k = model.col_parent[static_cast<std::size_t>(k)]) {
      std::fill(j + 3 * (k + 1), j + 3 * above, 0.0);
      above = k;
      const auto sk = data.S.col(k);
      const Vec3 c = sk.tail<3>() + sk.head<3>().cross(r);
      Eigen::Map<Vec3>(j + 3 * k) = f * c;
    }
    if (k == 5) {
      std::fill(j + 18, j + 3 * above, 0.0);
      // the base's unit columns, the same values as the loop's f (s_lin + s_ang x r): the
      // linear column l, s = (0, e_l), gives f e_l = f's column l; the angular column 3 + l,
      // s = (e_l, 0), gives f (e_l x r): e_x x r = (0, -r_z, r_y), e_y x r = (r_z, 0, -r_x),
      // e_z x r = (-r_y, r_x, 0), each f c summed over c's non-zero entries in index order
      for (int l = 0; l < 3; ++l) Eigen::Map<Vec3>(j + 3 * l) = f.col(l);
      for (int i = 0; i < 3; ++i) {
        j[9 + i] = -(f(i, 1) * r.z()) + f(i, 2) * r.y();
        j[12 + i] = f(i, 0) * r.z() + -(f(i, 2) * r.x());
        j[15 + i] = -(f(i, 0) * r.y()) + f(i, 1) * r.x();
      }
      k = -1;
      above = 0;
    }
    for (; k >= 0; k = model.col_parent[static_cast<std::size_t>(k)]) {
      std::fill(j + 3 * (k + 1), j + 3 * above, 0.0);
      above = k;
      const auto sk = data.S.col(k);
      const Vec3 c = sk.tail<3>() + sk.head<3>().cross(r);
      Eigen::Map<Vec3>(j + 3 * k) = f * c;
    }
    std::fill(j, j + 3 * above, 0.0);
    return;
  }
  cs.point_jac_a.setZero(3, nv);
  a.point_jacobian(body, point, cs.point_jac_a);
  if (other >= 0) {
    cs.point_jac_b.setZero(3, nv);
    a.point_jacobian(other, point, cs.point_jac_b);
    cs.point_jac_a -= cs.point_jac_b;
  }
  Eigen::Map<Eigen::Matrix<double, 3, Eigen::Dynamic>> j(problems.jac.data() + side.jac_begin, 3,
                                                         nv);
  const Mat3 f = sign * row.frame;
  j.noalias() = f.lazyProduct(cs.point_jac_a);  // 3x3 times 3 x nv: no GEMM set-up
}

// Side `s` of a 1-D angular row on an articulated system: J = sign * axis^T (J_r(body) -
// J_r(other)), J_r the world rotational Jacobian of a body; `other` as in set_articulated_side.
void set_articulated_angular_side(ContactState& cs, ScalarRow& row, int s, std::uint32_t index,
                                  const ArticulatedSystem& a, std::int32_t dof_begin, int body,
                                  int other, const Vec3& axis, double sign) {
  ContactProblems& problems = cs.problems;
  const int nv = a.dof();
  ContactSide& side = row.side[s];
  side.dof_begin = dof_begin;
  side.dof_count = nv;
  side.jac_begin = problems.add_row_side_storage(nv);
  side.articulated = static_cast<std::int32_t>(index);
  cs.point_jac_a.setZero(3, nv);
  rotational_jacobian(a.model(), a.data(), body, cs.point_jac_a);
  if (other >= 0) {
    cs.point_jac_b.setZero(3, nv);
    rotational_jacobian(a.model(), a.data(), other, cs.point_jac_b);
    cs.point_jac_a -= cs.point_jac_b;
  }
  Eigen::Map<Eigen::Matrix<double, 1, Eigen::Dynamic>> j(problems.row_jac.data() + side.jac_begin,
                                                         1, nv);
  j.noalias() = (sign * axis.transpose()) * cs.point_jac_a;
}

// world angular velocity of body `local` of object `index`
Vec3 angular_velocity(const ObjectList& objects, std::uint32_t index, std::uint32_t local) {
  if (is_articulated(*objects[index]))
    return body_angular_velocity(system_at(objects, index).data(), static_cast<int>(local));
  return body_at(objects, index).angular_velocity;
}

// The rolling (about the contact's tangent axes) and spinning (about its normal) friction rows
// of contact row `parent` (scalar_row.hpp): they drive the relative angular velocity of A with
// respect to B about the axis to zero with a torque of at most coefficient * normal force.
void add_rolling_rows(const ObjectList& objects, ContactState& cs, std::int32_t parent,
                      const Contact& ct, double rolling, double spinning) {
  const std::int32_t dof_a = cs.dof_begin[ct.object_a];
  const std::int32_t dof_b = cs.dof_begin[ct.object_b];
  const Mat3 frame = cs.problems.rows[static_cast<std::size_t>(parent)].frame;
  const Vec3 w_fixed = (dof_a < 0 ? angular_velocity(objects, ct.object_a, ct.local_a) : Vec3::Zero()) -
                       (dof_b < 0 ? angular_velocity(objects, ct.object_b, ct.local_b) : Vec3::Zero());
  const int body_a = static_cast<int>(ct.local_a), body_b = static_cast<int>(ct.local_b);
  for (int axis_index = 0; axis_index < 3; ++axis_index) {
    const double coefficient = axis_index < 2 ? rolling : spinning;
    if (!(coefficient > 0.0)) continue;
    const Vec3 axis = frame.row(axis_index).transpose();
    ScalarRow& row = cs.problems.scalar_rows.emplace_back();
    row.kind = axis_index < 2 ? RowKind::kRolling : RowKind::kSpinning;
    row.parent = parent;
    row.friction = coefficient;
    row.target = -axis.dot(w_fixed);  // immovable sides keep their rotation
    if (ct.object_a == ct.object_b) {
      set_articulated_angular_side(cs, row, 0, ct.object_a, system_at(objects, ct.object_a), dof_a,
                                   body_a, body_b, axis, 1.0);
      continue;
    }
    int s = 0;
    if (dof_a >= 0) {
      if (is_articulated(*objects[ct.object_a]))
        set_articulated_angular_side(cs, row, s++, ct.object_a, system_at(objects, ct.object_a),
                                     dof_a, body_a, -1, axis, 1.0);
      else
        set_single_body_angular_side(cs.problems, row, s++, body_at(objects, ct.object_a), dof_a,
                                     axis, 1.0);
    }
    if (dof_b >= 0) {
      if (is_articulated(*objects[ct.object_b]))
        set_articulated_angular_side(cs, row, s++, ct.object_b, system_at(objects, ct.object_b),
                                     dof_b, body_b, -1, axis, -1.0);
      else
        set_single_body_angular_side(cs.problems, row, s++, body_at(objects, ct.object_b), dof_b,
                                     axis, -1.0);
    }
  }
}

// project an impulse onto the friction cone of coefficient mu (normal part >= 0)
Vec3 project_onto_cone(const Vec3& l, double mu) {
  if (l.z() <= 0.0) return Vec3::Zero();
  const double t = l.head<2>().norm();
  const double limit = mu * l.z();
  if (t <= limit) return l;
  const double s = limit / t;
  return Vec3(s * l.x(), s * l.y(), l.z());
}

}  // namespace

namespace {

// (the body of stage_build_contact_problems, built twice: core/cpu_dispatch.hpp; the AVX2 build
// inlines this file's helpers, set_articulated_side's Jacobian columns among them)
TORSION_ALWAYS_INLINE void stage_build_contact_problems_body(const ObjectList& objects,
                                                             const CollisionShapeList& shapes,
                                                             const std::vector<Contact>& contacts,
                                                             std::uint64_t configuration_number,
                                                             ContactState& cs) {
  ContactProblems& problems = cs.problems;
  problems.clear();

  // the generalized velocities: 6 per dynamic single body, nv per articulated system, in
  // world-index order
  cs.dof_begin.resize(objects.size());
  std::int32_t dofs = 0;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (is_articulated(*objects[i])) {
      cs.dof_begin[i] = dofs;
      dofs += static_cast<const ArticulatedSystem&>(*objects[i]).dof();
      continue;
    }
    const auto& o = static_cast<const SingleBodyObject&>(*objects[i]);
    cs.dof_begin[i] = o.body().is_dynamic() ? dofs : -1;
    if (o.body().is_dynamic()) dofs += 6;
  }
  cs.u.resize(static_cast<std::size_t>(dofs));
  // the material of every local index of every object, from the collision shapes (the shapes of
  // one local index, a robot link's, share its material): names -> indices is a string lookup
  // per shape, so only when they may have changed (see ContactState::material_index_valid). A
  // local index without a shape (a robot body with no collision geometry) is in no contact.
  if (!cs.material_index_valid || cs.material_index_revision != cs.materials.revision() ||
      cs.material_index_configuration != configuration_number) {
    TORSION_ASSERT(shapes.object_count() == objects.size());
    cs.material_begin.resize(objects.size());
    cs.material_index.clear();
    for (std::size_t i = 0; i < objects.size(); ++i) {
      const std::size_t first = cs.material_index.size();
      cs.material_begin[i] = static_cast<std::int32_t>(first);
      for (std::size_t k = shapes.begin(i); k < shapes.end(i); ++k) {
        const CollisionShapeEntry& e = shapes.entries()[k];
        if (first + e.local_index >= cs.material_index.size())
          cs.material_index.resize(first + e.local_index + 1, 0);
        cs.material_index[first + e.local_index] = cs.materials.index_of(*e.material);
      }
    }
    cs.material_index_valid = true;
    cs.material_index_revision = cs.materials.revision();
    cs.material_index_configuration = configuration_number;
  }

  problems.rows.reserve(contacts.size());
  std::size_t warm_cursor = 0;  // where the last warm-start lookup ended (WarmStartCache::find)
  cs.warm_start.begin_lookups();
  // whether a contact may start from last step's impulse (not when it bounces)
  auto may_warm_start = [&cs](const ContactProblem& row) {
    return cs.warm_start_enabled &&
           !(row.restitution > 0.0 && row.impact_velocity > row.restitution_threshold);
  };
  // start a row from a remembered world-frame impulse f, re-projected onto its cone
  auto start_from = [](ContactProblem& row, const Vec3& f) {
    row.lambda = project_onto_cone(row.frame * f, row.mu);
    row.warm_started = true;
  };
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const Contact& ct = contacts[k];
    const std::int32_t dof_a = cs.dof_begin[ct.object_a];
    const std::int32_t dof_b = cs.dof_begin[ct.object_b];
    if (dof_a < 0 && dof_b < 0) continue;  // nothing can move
    problems.rows.emplace_back();
    ContactProblem& row = problems.rows.back();
    row.contact = static_cast<std::uint32_t>(k);
    // the points of one manifold usually share its normal: the frame, a function of the normal
    // alone, is then the previous row's (the same bits, signed zeros included: exactly what
    // contact_frame would give)
    const ContactProblem* previous =
        problems.rows.size() >= 2 ? &problems.rows[problems.rows.size() - 2] : nullptr;
    if (previous != nullptr &&
        std::memcmp(contacts[previous->contact].normal.data(), ct.normal.data(),
                    3 * sizeof(double)) == 0)
      row.frame = previous->frame;
    else
      row.frame = contact_frame(ct.normal);
    row.depth = ct.depth;

    const MaterialPairProperties& m =
        cs.materials.pair(cs.material_index[cs.material_begin[ct.object_a] + ct.local_a],
                          cs.material_index[cs.material_begin[ct.object_b] + ct.local_b]);
    row.restitution = m.restitution;
    row.restitution_threshold = m.restitution_threshold;

    const Vec3 va = point_velocity(objects, ct.object_a, ct.local_a, ct.position);
    const Vec3 vb = point_velocity(objects, ct.object_b, ct.local_b, ct.position);
    const Vec3 dv = va - vb;
    row.impact_velocity = -ct.normal.dot(dv);
    row.slip_velocity = (dv + row.impact_velocity * ct.normal).norm();
    row.mu = effective_friction(m.friction, m.static_friction,
                                m.static_friction_threshold_velocity, row.slip_velocity);
    // immovable sides keep their velocity: a constant part of the contact velocity
    if (dof_a < 0) row.v_fixed += row.frame * va;
    if (dof_b < 0) row.v_fixed -= row.frame * vb;
    const bool art_a = is_articulated(*objects[ct.object_a]);
    const bool art_b = is_articulated(*objects[ct.object_b]);
    const int body_a = static_cast<int>(ct.local_a), body_b = static_cast<int>(ct.local_b);
    if (ct.object_a == ct.object_b) {
      // a self-contact: one side over the system's gv, J = J_A - J_B
      set_articulated_side(cs, row, 0, ct.object_a, system_at(objects, ct.object_a), dof_a, body_a,
                           body_b, ct.position, 1.0);
    } else {
      // two single rigid bodies (or one and an immovable body) with the compact kernel on: the
      // solver reads and writes this contact only through its lever arms, so no J, M^-1 J^T
      const bool compact = cs.solver.params().compact_kernel && !(dof_a >= 0 && art_a) &&
                           !(dof_b >= 0 && art_b);
      int s = 0;
      if (dof_a >= 0) {
        if (art_a)
          set_articulated_side(cs, row, s++, ct.object_a, system_at(objects, ct.object_a), dof_a,
                               body_a, -1, ct.position, 1.0);
        else
          set_single_body_side(problems, row, s++, body_at(objects, ct.object_a), dof_a,
                               ct.position, 1.0, !compact);
      }
      if (dof_b >= 0) {
        if (art_b)
          set_articulated_side(cs, row, s++, ct.object_b, system_at(objects, ct.object_b), dof_b,
                               body_b, -1, ct.position, -1.0);
        else
          set_single_body_side(problems, row, s++, body_at(objects, ct.object_b), dof_b,
                               ct.position, -1.0, !compact);
      }
    }

    // warm start: the previous impulse of this pair and feature near this point, unless the
    // contact bounces (the pair's other remembered impulses: after the loop)
    row.lambda.setZero();
    row.warm_started = false;
    if (may_warm_start(row)) {
      Vec3 f;
      if (cs.warm_start.find(objects[ct.object_a]->id(), objects[ct.object_b]->id(), ct.local_a,
                             ct.local_b, ct.feature, ct.position, f, warm_cursor))
        start_from(row, f);
    }
    if (m.rolling_friction > 0.0 || m.spinning_friction > 0.0)
      add_rolling_rows(objects, cs, static_cast<std::int32_t>(problems.rows.size() - 1), ct,
                       m.rolling_friction, m.spinning_friction);
  }
  // a contact whose feature is new: the nearest impulse of its pair no other contact took
  std::size_t pair_cursor = 0;
  for (ContactProblem& row : problems.rows) {
    if (row.warm_started || !may_warm_start(row)) continue;
    const Contact& ct = contacts[row.contact];
    Vec3 f;
    if (cs.warm_start.find_of_pair(objects[ct.object_a]->id(), objects[ct.object_b]->id(),
                                   ct.local_a, ct.local_b, ct.position, f, pair_cursor))
      start_from(row, f);
  }
}

void stage_build_contact_problems_baseline(const ObjectList& objects,
                                           const CollisionShapeList& shapes,
                                           const std::vector<Contact>& contacts,
                                           std::uint64_t configuration_number, ContactState& cs) {
  stage_build_contact_problems_body(objects, shapes, contacts, configuration_number, cs);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET __attribute__((flatten)) void stage_build_contact_problems_avx2(
    const ObjectList& objects, const CollisionShapeList& shapes,
    const std::vector<Contact>& contacts, std::uint64_t configuration_number, ContactState& cs) {
  stage_build_contact_problems_body(objects, shapes, contacts, configuration_number, cs);
}
#endif

}  // namespace

void stage_build_contact_problems(const ObjectList& objects, const CollisionShapeList& shapes,
                                  const std::vector<Contact>& contacts,
                                  std::uint64_t configuration_number, ContactState& cs) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2())
    return stage_build_contact_problems_avx2(objects, shapes, contacts, configuration_number, cs);
#endif
  stage_build_contact_problems_baseline(objects, shapes, contacts, configuration_number, cs);
}

// --- integrate2: the contact pipeline (step.cpp runs these in order; see contact_stages.hpp) ---

void stage_gather_free_velocities(const ObjectList& objects,
                                  const std::vector<std::int32_t>& dof_begin,
                                  std::vector<double>& u) {
  TORSION_ASSERT(dof_begin.size() == objects.size());
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::int32_t d = dof_begin[i];
    if (d < 0) continue;
    TORSION_ASSERT(static_cast<std::size_t>(d) < u.size());
    double* ui = u.data() + d;
    if (is_articulated(*objects[i])) {
      const VecX& gv = static_cast<const ArticulatedSystem&>(*objects[i]).data().u;
      std::copy(gv.data(), gv.data() + gv.size(), ui);
      continue;
    }
    const RigidBody& b = static_cast<const SingleBodyObject&>(*objects[i]).body();
    for (int j = 0; j < 3; ++j) {
      ui[j] = b.linear_velocity[j];
      ui[3 + j] = b.angular_velocity[j];
    }
  }
}

void stage_delassus_blocks(const ObjectList& objects, const ContactSpaceSolver& space,
                           std::size_t first_joint_row, ContactProblems& problems) {
  TORSION_ASSERT(first_joint_row <= problems.scalar_rows.size());
  // articulated sides: M^-1 J^T = A^-1 J^T with the damped mass matrix A of this step
  for (ContactProblem& row : problems.rows) {
    if (space.owns(row.side[0].dof_begin)) continue;  // contact space: no A^-1 J^T, G later
    for (const ContactSide& side : row.side) {
      if (side.dof_begin < 0 || side.articulated < 0) continue;
      TORSION_ASSERT(is_articulated(*objects[static_cast<std::size_t>(side.articulated)]));
      const int n = side.dof_count;
      Eigen::Map<MatX> mj(problems.minv_jt.data() + side.jac_begin, n, 3);
      mj = Eigen::Map<const Eigen::Matrix<double, 3, Eigen::Dynamic>>(
               problems.jac.data() + side.jac_begin, 3, n)
               .transpose();
      static_cast<const ArticulatedSystem&>(*objects[static_cast<std::size_t>(side.articulated)])
          .apply_inverse_mass(mj);
    }
    compute_delassus_block(problems, row);
  }
  // rolling and spinning rows: articulated sides' A^-1 J^T, then g (the joint rows after
  // first_joint_row have theirs from add_joint_rows)
  for (std::size_t r = 0; r < first_joint_row; ++r) {
    ScalarRow& row = problems.scalar_rows[r];
    if (space.owns(row.side[0].dof_begin)) continue;  // contact space: no A^-1 J^T, g later
    for (const ContactSide& side : row.side) {
      if (side.dof_begin < 0 || side.articulated < 0) continue;
      const int n = side.dof_count;
      Eigen::Map<MatX> mj(problems.row_minv_jt.data() + side.jac_begin, n, 1);
      mj = Eigen::Map<const VecX>(problems.row_jac.data() + side.jac_begin, n);
      static_cast<const ArticulatedSystem&>(*objects[static_cast<std::size_t>(side.articulated)])
          .apply_inverse_mass(mj);
    }
    row.g = row_delassus(problems, row);
  }
}

namespace {

// (the body of stage_apply_starting_impulses, built twice: core/cpu_dispatch.hpp)
TORSION_ALWAYS_INLINE std::size_t stage_apply_starting_impulses_body(
    const ObjectList& objects, const ContactSpaceSolver& space, const WarmStartCache& warm_start,
    bool warm_start_enabled, std::size_t first_joint_row, bool restart, ContactProblems& problems,
    std::vector<double>& u) {
  TORSION_ASSERT(first_joint_row <= problems.scalar_rows.size());
  // in row order, contacts first, then the 1-D rows: the order the impulses reach u
  std::size_t warm = 0;
  for (ContactProblem& row : problems.rows) {
    if (space.owns(row.side[0].dof_begin)) {  // contact space: its solve starts the impulses
      warm += row.warm_started ? 1 : 0;
      continue;
    }
    if (row.warm_started || (restart && !row.lambda.isZero(0.0))) {
      if (has_jacobian(row))
        apply_contact_impulse(problems, row, row.lambda, u.data());
      else
        apply_rigid_impulse(problems, row, row.lambda, u.data());
      warm += row.warm_started ? 1 : 0;
    }
  }
  for (std::size_t r = 0; r < problems.scalar_rows.size(); ++r) {
    ScalarRow& row = problems.scalar_rows[r];
    const bool contact_space = space.owns(row.side[0].dof_begin);
    if (r < first_joint_row) {  // rolling and spinning rows: from their last solution on a restart
      if (restart && row.lambda != 0.0 && !contact_space)
        apply_row_impulse(problems, row, row.lambda, u.data());
      continue;
    }
    double lambda = 0.0;  // joint rows: last step's impulse of the same (system, dof, kind)
    if (warm_start_enabled &&
        warm_start.find_row(objects[static_cast<std::size_t>(row.object)]->id(),
                            static_cast<std::uint32_t>(row.dof),
                            static_cast<std::uint32_t>(row.kind), lambda)) {
      row.lambda = std::clamp(lambda, row.lower, row.upper);
      row.warm_started = true;
      if (!contact_space) apply_row_impulse(problems, row, row.lambda, u.data());
      // not counted: the diagnostic's warm_started counts contacts (joint_limit_rows has these)
    }
  }
  return warm;
}

std::size_t stage_apply_starting_impulses_baseline(
    const ObjectList& objects, const ContactSpaceSolver& space, const WarmStartCache& warm_start,
    bool warm_start_enabled, std::size_t first_joint_row, bool restart, ContactProblems& problems,
    std::vector<double>& u) {
  return stage_apply_starting_impulses_body(objects, space, warm_start, warm_start_enabled,
                                            first_joint_row, restart, problems, u);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET __attribute__((flatten)) std::size_t stage_apply_starting_impulses_avx2(
    const ObjectList& objects, const ContactSpaceSolver& space, const WarmStartCache& warm_start,
    bool warm_start_enabled, std::size_t first_joint_row, bool restart, ContactProblems& problems,
    std::vector<double>& u) {
  return stage_apply_starting_impulses_body(objects, space, warm_start, warm_start_enabled,
                                            first_joint_row, restart, problems, u);
}
#endif

}  // namespace

std::size_t stage_apply_starting_impulses(const ObjectList& objects,
                                          const ContactSpaceSolver& space,
                                          const WarmStartCache& warm_start,
                                          bool warm_start_enabled, std::size_t first_joint_row,
                                          bool restart, ContactProblems& problems,
                                          std::vector<double>& u) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2())
    return stage_apply_starting_impulses_avx2(objects, space, warm_start, warm_start_enabled,
                                              first_joint_row, restart, problems, u);
#endif
  return stage_apply_starting_impulses_baseline(objects, space, warm_start, warm_start_enabled,
                                                first_joint_row, restart, problems, u);
}

void stage_solve(double dt, std::size_t warm_started, ContactProblems& problems,
                 std::vector<double>& u, BisectionContactSolver& solver,
                 ContactSpaceSolver& space) {
  if (problems.rows.empty() && problems.scalar_rows.empty()) {
    solver.solve(problems, u.data());  // nothing to solve: resets the diagnostics
    return;
  }
  solver.set_normal_targets(problems, dt);
  solver.solve(problems, u.data(), &space);
  solver.set_warm_started_count(warm_started);
}

// With effort clamping, the solved velocity decides which PD dofs are held at their limit
// (ArticulatedSystem::step_update_saturations): a load that comes through a contact (an arm's
// link reaching a table) makes a demand exceed its limit, a held dof's demand can come back
// within its limit or change sign. If a system's set changed, its free velocity is solved again
// and so are the contacts (from their last impulses), so that each step applies the clamped
// demand of its own end velocity. Without any contacts or joint rows, the solved velocity is the
// free one: the same check, on the free solve alone.
bool stage_update_effort_saturations(const ObjectList& objects,
                                     const std::vector<std::int32_t>& dof_begin,
                                     const std::vector<double>& u, double dt, bool may_release,
                                     std::vector<double>& u_free) {
  TORSION_ASSERT(u.size() == u_free.size() && dof_begin.size() == objects.size());
  bool changed = false;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (!is_articulated(*objects[i]) || dof_begin[i] < 0) continue;
    ArticulatedSystem& a = static_cast<ArticulatedSystem&>(*objects[i]);
    if (a.is_sleeping() || !a.clamp_to_effort_limits()) continue;
    VecX& gv = a.data().u;  // the solved velocity, then (if changed) the new free one
    const double* solved = u.data() + dof_begin[i];
    std::copy(solved, solved + gv.size(), gv.data());
    if (!a.step_update_saturations(dt, may_release)) continue;
    std::copy(gv.data(), gv.data() + gv.size(), u_free.data() + dof_begin[i]);
    changed = true;
  }
  return changed;
}

void stage_write_back_velocities(const ObjectList& objects,
                                 const std::vector<std::int32_t>& dof_begin,
                                 const std::vector<double>& u) {
  TORSION_ASSERT(dof_begin.size() == objects.size());
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::int32_t d = dof_begin[i];
    if (d < 0) continue;
    const double* ui = u.data() + d;
    if (is_articulated(*objects[i])) {
      VecX& gv = static_cast<ArticulatedSystem&>(*objects[i]).data().u;
      std::copy(ui, ui + gv.size(), gv.data());
      continue;
    }
    RigidBody& b = static_cast<SingleBodyObject&>(*objects[i]).body();
    b.linear_velocity = Vec3(ui[0], ui[1], ui[2]);
    b.angular_velocity = Vec3(ui[3], ui[4], ui[5]);
  }
}

namespace {

// (the body of stage_store_warm_start, built twice: core/cpu_dispatch.hpp)
TORSION_ALWAYS_INLINE void stage_store_warm_start_body(const ObjectList& objects,
                                                       const ContactProblems& problems,
                                                       std::size_t first_joint_row,
                                                       std::vector<Contact>& contacts,
                                                       WarmStartCache& warm_start) {
  TORSION_ASSERT(first_joint_row <= problems.scalar_rows.size());
  warm_start.begin();
  for (const ContactProblem& row : problems.rows) {
    TORSION_ASSERT(row.contact < contacts.size());
    Contact& ct = contacts[row.contact];
    ct.impulse = row.lambda;
    warm_start.add(objects[ct.object_a]->id(), objects[ct.object_b]->id(), ct.local_a,
                   ct.local_b, ct.feature, ct.position, row.frame.transpose() * row.lambda);
  }
  for (std::size_t r = first_joint_row; r < problems.scalar_rows.size(); ++r) {
    const ScalarRow& row = problems.scalar_rows[r];
    warm_start.add_row(objects[static_cast<std::size_t>(row.object)]->id(),
                       static_cast<std::uint32_t>(row.dof), static_cast<std::uint32_t>(row.kind),
                       row.lambda);
  }
  warm_start.commit();
}

void stage_store_warm_start_baseline(const ObjectList& objects, const ContactProblems& problems,
                                     std::size_t first_joint_row, std::vector<Contact>& contacts,
                                     WarmStartCache& warm_start) {
  stage_store_warm_start_body(objects, problems, first_joint_row, contacts, warm_start);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET __attribute__((flatten)) void stage_store_warm_start_avx2(
    const ObjectList& objects, const ContactProblems& problems, std::size_t first_joint_row,
    std::vector<Contact>& contacts, WarmStartCache& warm_start) {
  stage_store_warm_start_body(objects, problems, first_joint_row, contacts, warm_start);
}
#endif

}  // namespace

void stage_store_warm_start(const ObjectList& objects, const ContactProblems& problems,
                            std::size_t first_joint_row, std::vector<Contact>& contacts,
                            WarmStartCache& warm_start) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2())
    return stage_store_warm_start_avx2(objects, problems, first_joint_row, contacts, warm_start);
#endif
  stage_store_warm_start_baseline(objects, problems, first_joint_row, contacts, warm_start);
}

void stage_correct_positions(const ObjectList& objects, const std::vector<std::int32_t>& dof_begin,
                             const ContactProblems& problems, const std::vector<double>& u,
                             double dt, const ContactSolverParams& params,
                             std::vector<double>& u_position,
                             std::vector<double>& position_impulse,
                             std::vector<double>& position_target) {
  TORSION_ASSERT(dof_begin.size() == objects.size());
  const PositionCorrectionResult r = solve_position_correction(
      problems, u, dt, params.position_correction, params.max_depenetration_velocity,
      position_impulse, position_target, u_position);
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::int32_t d = dof_begin[i];
    if (d < 0) continue;
    if (is_articulated(*objects[i])) {
      // robots: their contacts with immovable bodies (articulated_position_pass.hpp)
      auto& a = static_cast<ArticulatedSystem&>(*objects[i]);
      if (!a.is_sleeping())
        correct_articulated_positions(a, static_cast<std::int32_t>(i), d, problems, u, dt,
                                      params.position_correction,
                                      params.max_depenetration_velocity);
      continue;
    }
    if (r.sweeps == 0) continue;
    auto& o = static_cast<SingleBodyObject&>(*objects[i]);
    if (o.is_sleeping()) continue;
    const double* p = u_position.data() + d;  // translations only (position_correction.hpp)
    const Vec3 dx(p[0], p[1], p[2]);
    if (dx.isZero(0.0)) continue;  // untouched: bitwise as before
    o.body().position += dt * dx;
  }
}

}  // namespace torsion
