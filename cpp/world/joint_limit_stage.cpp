// The joint rows of every articulated system (contact/joint_rows.hpp): a stage of integrate2 run
// by stage_solve_contacts once the free velocities are in ContactState::u, so the rows join the
// contacts in the solver's sweeps; and the position-level correction of violated limits, run after
// the position update.
#include "contact/joint_rows.hpp"
#include "world/articulated_system.hpp"
#include "world/contact_stages.hpp"
#include "world/world.hpp"

namespace torsion {

void stage_build_joint_rows(World& world) {
  ContactState& cs = world.contact_state();
  const auto& objects = world.objects();
  const double dt = world.time_step();
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (objects[i]->type() != ObjectType::kArticulatedSystem) continue;
    const auto& a = static_cast<const ArticulatedSystem&>(*objects[i]);
    if (a.is_sleeping()) continue;  // asleep: at rest, not integrated, no rows
    add_joint_rows(cs.problems, a.model(), a.data(), static_cast<std::int32_t>(i),
                   cs.dof_begin[i], cs.u.data(), dt, a.joint_row_dofs(),
                   cs.contact_space.owns(cs.dof_begin[i]));
  }
}

void stage_correct_joint_limit_violations(World& world) {
  for (const auto& obj : world.objects()) {
    if (obj->type() != ObjectType::kArticulatedSystem) continue;
    auto& a = static_cast<ArticulatedSystem&>(*obj);
    if (a.is_sleeping()) continue;
    correct_joint_limit_violations(a.model(), a.data().q);
  }
}

}  // namespace torsion
