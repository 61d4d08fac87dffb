// World methods about contacts: materials and the contact solver's settings.
#include "core/check.hpp"
#include "world/world.hpp"

namespace torsion {

MaterialManager& World::edit_materials() {
  if (state_.sleeping_enabled) wake_all();  // friction may no longer hold a resting body
  return contact_.materials;
}

void World::set_material_pair_prop(const std::string& mat1, const std::string& mat2,
                                   const MaterialPairProperties& p) {
  edit_materials().set_pair(mat1, mat2, p);
}

void World::set_default_material(const MaterialPairProperties& p) {
  edit_materials().set_default(p);
}

void World::update_material_prop(const MaterialManager& materials) {
  edit_materials().replace_with(materials);
}

const MaterialPairProperties& World::material_pair_properties(const std::string& mat1,
                                                              const std::string& mat2) const {
  return contact_.materials.get(mat1, mat2);
}

void World::set_erp(double erp, double erp2) {
  ContactSolverParams p = contact_.solver.params();
  p.erp = erp;
  p.erp2 = erp2;
  validate_contact_solver_params(p);
  contact_.solver.params() = p;
}

void World::set_contact_solver_param(double alpha_init, double alpha_min, double alpha_decay,
                                     int max_iter, double threshold) {
  ContactSolverParams p = contact_.solver.params();
  p.alpha_init = alpha_init;
  p.alpha_min = alpha_min;
  p.alpha_decay = alpha_decay;
  p.max_iter = max_iter;
  p.threshold = threshold;
  validate_contact_solver_params(p);
  contact_.solver.params() = p;
}

void World::set_contact_solver_iteration_order(bool fixed) {
  contact_.solver.params().fixed_order = fixed;
}

}  // namespace torsion
