#include "world/articulated_contact_space.hpp"

#include "world/articulated_system.hpp"
#include "world/world.hpp"

namespace torsion {

void stage_select_contact_space(World& world) {
  ContactState& cs = world.contact_state();
  ContactSpaceSolver& space = cs.contact_space;
  space.clear();
  const auto& objects = world.objects();
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (objects[i]->type() != ObjectType::kArticulatedSystem) continue;
    const auto& a = static_cast<const ArticulatedSystem&>(*objects[i]);
    space.add_system(cs.dof_begin[i], a.model(), a.data());
  }
  space.select(cs.problems);
}

}  // namespace torsion
