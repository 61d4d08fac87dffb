#include "contact/material.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/check.hpp"

namespace torsion {

void validate_material_pair_properties(const MaterialPairProperties& p) {
  check_non_negative(p.friction, "friction");
  check_non_negative(p.restitution_threshold, "restitution_threshold");
  check_non_negative(p.static_friction, "static_friction");
  check_non_negative(p.static_friction_threshold_velocity, "static_friction_threshold_velocity");
  check_non_negative(p.rolling_friction, "rolling_friction");
  check_non_negative(p.spinning_friction, "spinning_friction");
  if (!std::isfinite(p.restitution) || p.restitution < 0.0 || p.restitution > 1.0)
    throw_invalid("restitution must be in [0, 1], got " + fmt(p.restitution));
  // the coefficient falls from static to dynamic over slip speeds up to the threshold: at 0 no
  // slip is slow enough to get the static one (effective_friction), which was silently ignored
  if (p.static_friction != p.friction && !(p.static_friction_threshold_velocity > 0.0))
    throw_invalid("static_friction_threshold_velocity must be > 0 when static_friction (" +
                  fmt(p.static_friction) + ") differs from friction (" + fmt(p.friction) +
                  "), got " + fmt(p.static_friction_threshold_velocity) +
                  ": static friction would never act");
}

int MaterialManager::index_of(const std::string& name) const {
  if (name == kDefaultName) return 0;  // the common case, asked per collision body every step
  const auto it = names_.find(name);
  return it == names_.end() ? 0 : it->second;
}

int MaterialManager::intern(const std::string& name) {
  if (names_.empty()) names_.emplace(kDefaultName, 0);
  const auto it = names_.find(name);
  if (it != names_.end()) return it->second;
  const int index = static_cast<int>(names_.size());
  names_.emplace(name, index);
  grow_table(names_.size());
  return index;
}

void MaterialManager::grow_table(std::size_t n) {
  std::vector<int> t(n * n, -1);
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t j = 0; j < n_; ++j) t[i * n + j] = table_[i * n_ + j];
  table_ = std::move(t);
  n_ = n;
}

void MaterialManager::set_pair(const std::string& mat1, const std::string& mat2,
                               const MaterialPairProperties& p) {
  validate_material_pair_properties(p);
  check_material_name(mat1, "mat1");
  check_material_name(mat2, "mat2");
  const auto a = static_cast<std::size_t>(intern(mat1));
  const auto b = static_cast<std::size_t>(intern(mat2));
  int& slot = table_[a * n_ + b];
  if (slot < 0) {
    slot = static_cast<int>(props_.size());
    props_.push_back(p);
  } else {
    props_[static_cast<std::size_t>(slot)] = p;
  }
  table_[b * n_ + a] = slot;
  ++revision_;
}

void MaterialManager::set_default(const MaterialPairProperties& p) {
  validate_material_pair_properties(p);
  default_ = p;
  ++revision_;
}

void MaterialManager::replace_with(const MaterialManager& other) {
  const std::uint64_t next = std::max(revision_, other.revision_) + 1;
  if (&other != this) *this = other;
  revision_ = next;
}

const MaterialPairProperties& MaterialManager::get(const std::string& mat1,
                                                   const std::string& mat2) const {
  return pair(index_of(mat1), index_of(mat2));
}

}  // namespace torsion
