#include "world/contact_stages.hpp"

#include <algorithm>

#include "world/world.hpp"

namespace torsion {

namespace {

const RigidBody& body_at(const World& world, std::uint32_t index) {
  return static_cast<const SingleBodyObject&>(*world.objects()[index]).body();
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

void stage_build_contact_problems(World& world) {
  ContactState& cs = world.contact_state();
  ContactProblems& problems = cs.problems;
  problems.clear();
  const auto& objects = world.objects();
  const std::vector<Contact>& contacts = world.contacts();

  // the generalized velocities: 6 per dynamic body, in world-index order
  cs.dof_begin.resize(objects.size());
  cs.material_index.resize(objects.size());
  std::int32_t dofs = 0;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const auto& o = static_cast<const SingleBodyObject&>(*objects[i]);
    cs.dof_begin[i] = o.body().is_dynamic() ? dofs : -1;
    if (o.body().is_dynamic()) dofs += 6;
    cs.material_index[i] = cs.materials.index_of(o.collision().material);
  }
  cs.u.resize(static_cast<std::size_t>(dofs));

  problems.rows.reserve(contacts.size());
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const Contact& ct = contacts[k];
    const std::int32_t dof_a = cs.dof_begin[ct.object_a];
    const std::int32_t dof_b = cs.dof_begin[ct.object_b];
    if (dof_a < 0 && dof_b < 0) continue;  // nothing can move
    problems.rows.emplace_back();
    ContactProblem& row = problems.rows.back();
    row.contact = static_cast<std::uint32_t>(k);
    row.frame = contact_frame(ct.normal);
    row.depth = ct.depth;

    const MaterialPairProperties& m =
        cs.materials.pair(cs.material_index[ct.object_a], cs.material_index[ct.object_b]);
    row.restitution = m.restitution;
    row.restitution_threshold = m.restitution_threshold;

    const RigidBody& a = body_at(world, ct.object_a);
    const RigidBody& b = body_at(world, ct.object_b);
    const Vec3 va = body_point_velocity(a, ct.position);
    const Vec3 vb = body_point_velocity(b, ct.position);
    const Vec3 dv = va - vb;
    row.impact_velocity = -ct.normal.dot(dv);
    row.slip_velocity = (dv + row.impact_velocity * ct.normal).norm();
    row.mu = effective_friction(m.friction, m.static_friction,
                                m.static_friction_threshold_velocity, row.slip_velocity);
    // immovable sides keep their velocity: a constant part of the contact velocity
    if (dof_a < 0) row.v_fixed += row.frame * va;
    if (dof_b < 0) row.v_fixed -= row.frame * vb;
    int s = 0;
    if (dof_a >= 0) set_single_body_side(problems, row, s++, a, dof_a, ct.position, 1.0);
    if (dof_b >= 0) set_single_body_side(problems, row, s++, b, dof_b, ct.position, -1.0);

    // warm start: the previous impulse of this pair near this point, unless the contact bounces
    row.lambda.setZero();
    row.warm_started = false;
    const bool bounces = row.restitution > 0.0 && row.impact_velocity > row.restitution_threshold;
    if (cs.warm_start_enabled && !bounces) {
      Vec3 f;
      if (cs.warm_start.find(objects[ct.object_a]->id(), objects[ct.object_b]->id(), ct.local_a,
                             ct.local_b, ct.feature, ct.position, f)) {
        row.lambda = project_onto_cone(row.frame * f, row.mu);
        row.warm_started = true;
      }
    }
  }
}

void stage_solve_contacts(World& world) {
  ContactState& cs = world.contact_state();
  ContactProblems& problems = cs.problems;
  const auto& objects = world.objects();
  std::vector<Contact>& contacts = world.contacts();
  if (problems.rows.empty()) {
    cs.solver.solve(problems, cs.u.data());  // resets the diagnostics
    cs.warm_start.begin();
    cs.warm_start.commit();
    return;
  }

  // the free velocities, then the warm-start impulses applied to them
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::int32_t d = cs.dof_begin[i];
    if (d < 0) continue;
    const RigidBody& b = body_at(world, static_cast<std::uint32_t>(i));
    double* u = cs.u.data() + d;
    for (int j = 0; j < 3; ++j) {
      u[j] = b.linear_velocity[j];
      u[3 + j] = b.angular_velocity[j];
    }
  }
  std::size_t warm = 0;
  for (ContactProblem& row : problems.rows) {
    compute_delassus_block(problems, row);
    if (row.warm_started) {
      apply_contact_impulse(problems, row, row.lambda, cs.u.data());
      ++warm;
    }
  }
  cs.solver.set_normal_targets(problems, world.time_step());
  cs.solver.solve(problems, cs.u.data());
  cs.solver.set_warm_started_count(warm);

  // corrected velocities back into the bodies
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::int32_t d = cs.dof_begin[i];
    if (d < 0) continue;
    RigidBody& b = static_cast<SingleBodyObject&>(*objects[i]).body();
    const double* u = cs.u.data() + d;
    b.linear_velocity = Vec3(u[0], u[1], u[2]);
    b.angular_velocity = Vec3(u[3], u[4], u[5]);
  }

  // impulses into the contacts, and into the warm-start record
  cs.warm_start.begin();
  for (const ContactProblem& row : problems.rows) {
    Contact& ct = contacts[row.contact];
    ct.impulse = row.lambda;
    cs.warm_start.add(objects[ct.object_a]->id(), objects[ct.object_b]->id(), ct.local_a,
                      ct.local_b, ct.feature, ct.position, row.frame.transpose() * row.lambda);
  }
  cs.warm_start.commit();
}

}  // namespace torsion
