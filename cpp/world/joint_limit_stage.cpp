// The joint rows of every articulated system (contact/joint_rows.hpp): a stage of integrate2 run
// before every solve once the free velocities are in ContactState::u, so the rows join the
// contacts in the solver's sweeps; and the position-level correction of violated limits, run after
// the position update.
#include "contact/joint_rows.hpp"
#include "world/articulated_system.hpp"
#include "world/contact_stages.hpp"

namespace torsion {

void stage_build_joint_rows(const ObjectList& objects, const std::vector<std::int32_t>& dof_begin,
                            const std::vector<double>& u, const ContactSpaceSolver& space,
                            double dt, std::size_t first_joint_row, ContactProblems& problems) {
  problems.scalar_rows.resize(first_joint_row);  // the last solve's joint rows, if any
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (objects[i]->type() != ObjectType::kArticulatedSystem) continue;
    const auto& a = static_cast<const ArticulatedSystem&>(*objects[i]);
    if (a.is_sleeping()) continue;  // asleep: at rest, not integrated, no rows
    add_joint_rows(problems, a.model(), a.data(), static_cast<std::int32_t>(i), dof_begin[i],
                   u.data(), dt, a.joint_row_dofs(), space.owns(dof_begin[i]),
                   a.step_start_velocity().data());
  }
}

void stage_correct_joint_limit_violations(const ObjectList& objects) {
  for (const auto& obj : objects) {
    if (obj->type() != ObjectType::kArticulatedSystem) continue;
    auto& a = static_cast<ArticulatedSystem&>(*obj);
    if (a.is_sleeping()) continue;
    correct_joint_limit_violations(a.model(), a.data().q);
  }
}

}  // namespace torsion
