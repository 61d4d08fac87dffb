// The contact-space solve of articulated systems (contact/contact_space_solver.hpp) in the step:
// stage_select_contact_space (contact_stages.hpp), run before every solve of integrate2 once the
// contact and rolling rows exist and the systems' damped mass matrices are factorised.
#include "world/articulated_system.hpp"
#include "world/contact_stages.hpp"

namespace torsion {

void stage_select_contact_space(const ObjectList& objects,
                                const std::vector<std::int32_t>& dof_begin,
                                const ContactProblems& problems, ContactSpaceSolver& space) {
  space.clear();
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (objects[i]->type() != ObjectType::kArticulatedSystem) continue;
    const auto& a = static_cast<const ArticulatedSystem&>(*objects[i]);
    space.add_system(dof_begin[i], a.model(), a.data());
  }
  space.select(problems);
}

}  // namespace torsion
