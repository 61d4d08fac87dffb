// IK groups and their elements: creation, lookup and settings.
#include <stdexcept>

#include "core/check.hpp"
#include "core/errors.hpp"
#include "ik/environment.hpp"

namespace torsion::ik {

namespace {

// a handle that names no group: erased, or never given out
[[noreturn]] void bad_group(int handle) {
  throw RemovedObjectError("invalid IK group handle: " + std::to_string(handle) +
                           " (no such group in this IK environment: erased or never created)");
}

}  // namespace

int Environment::group_slot(int handle) const {
  for (size_t i = 0; i < groups_.size(); ++i)
    if (groups_[i].handle == handle) return int(i);
  return -1;
}

const Group& Environment::group(int handle) const {
  const int s = group_slot(handle);
  if (s < 0) bad_group(handle);
  return groups_[s];
}

Group& Environment::group_mut(int handle) {
  const int s = group_slot(handle);
  if (s < 0) bad_group(handle);
  return groups_[s];
}

int Environment::create_group(const std::string& name) {
  check_name(name, "name");
  Group g;
  g.handle = next_group_handle_;
  g.name = name.empty() ? "ikGroup" + std::to_string(g.handle) : name;
  if (does_group_exist(g.name))
    throw std::invalid_argument("invalid IK group name: '" + g.name + "' already exists");
  ++next_group_handle_;
  groups_.push_back(g);
  touch();
  return g.handle;
}

void Environment::erase_group(int handle) {
  const int s = group_slot(handle);
  if (s < 0) bad_group(handle);
  groups_.erase(groups_.begin() + s);
  touch();
}

bool Environment::does_group_exist(const std::string& name) const {
  for (const Group& g : groups_)
    if (g.name == name) return true;
  return false;
}

int Environment::group_handle(const std::string& name) const {
  for (const Group& g : groups_)
    if (g.name == name) return g.handle;
  throw std::invalid_argument("invalid IK group name: no IK group named '" + name + "'");
}

int Environment::add_element(int group_handle, int tip) {
  Group& g = group_mut(group_handle);
  if (object(tip).type != kObjectTypeDummy)
    throw std::invalid_argument("invalid dummy handle: the tip must be a dummy, got object " +
                                std::to_string(tip));
  Element e;
  e.handle = g.next_element_handle++;
  e.tip = tip;
  g.elements.push_back(e);
  g.jacobian_valid = false;
  touch();
  return int(g.elements.size()) - 1;
}

Element& Environment::element_mut(int group_handle, int index) {
  Group& g = group_mut(group_handle);
  if (index >= 0 && (index & kHandleFlagTipDummy)) {
    const int tip = index & ~kHandleFlagTipDummy;
    for (Element& e : g.elements)
      if (e.tip == tip) return e;
    throw std::invalid_argument("invalid IK element: group " + std::to_string(group_handle) +
                                " has no element with tip " + std::to_string(tip));
  }
  if (index < 0 || index >= static_cast<int>(g.elements.size()))
    throw std::out_of_range("invalid IK element index: " + std::to_string(index) + " (group " +
                            std::to_string(group_handle) + " has " +
                            std::to_string(g.elements.size()) + " elements)");
  return g.elements[index];
}

const Element& Environment::element(int group_handle, int index) const {
  return const_cast<Environment*>(this)->element_mut(group_handle, index);
}

void Environment::set_element_base(int group_handle, int index, int base, int constraints_base) {
  element(group_handle, index);
  if (base != -1) object(base);
  if (constraints_base != -1) object(constraints_base);
  Element& e = element_mut(group_handle, index);
  e.base = base;
  e.constraints_base = constraints_base;
  group_mut(group_handle).jacobian_valid = false;
  touch();
}

void Environment::set_element_constraints(int group_handle, int index, int constraints) {
  element(group_handle, index);
  if (constraints < 0 || constraints > kConstraintPose)
    throw std::invalid_argument("invalid constraints: expected a combination of x (1), y (2), "
                                "z (4), alpha_beta (8), gamma (16), got " +
                                std::to_string(constraints));
  element_mut(group_handle, index).constraints = constraints;
  group_mut(group_handle).jacobian_valid = false;
  touch();
}

void Environment::set_element_precision(int group_handle, int index, double linear,
                                        double angular) {
  element(group_handle, index);
  check_non_negative(linear, "linear_precision");
  check_non_negative(angular, "angular_precision");
  Element& e = element_mut(group_handle, index);
  e.linear_precision = linear;
  e.angular_precision = angular;
}

void Environment::set_element_weights(int group_handle, int index, double linear, double angular,
                                      double element_weight) {
  element(group_handle, index);
  check_non_negative(linear, "linear_weight");
  check_non_negative(angular, "angular_weight");
  check_non_negative(element_weight, "element_weight");
  Element& e = element_mut(group_handle, index);
  e.linear_weight = linear;
  e.angular_weight = angular;
  e.weight = element_weight;
}

void Environment::set_element_enabled(int group_handle, int index, bool enabled) {
  element_mut(group_handle, index).enabled = enabled;
  group_mut(group_handle).jacobian_valid = false;
  touch();
}

void Environment::set_group_calculation(int group_handle, int method, double damping,
                                        int max_iterations) {
  group(group_handle);
  if (method < kMethodPseudoInverse || method > kMethodUndampedPseudoInverse)
    throw std::invalid_argument("invalid method: expected pseudo_inverse (0), "
                                "damped_least_squares (1), jacobian_transpose (2) or "
                                "undamped_pseudo_inverse (3), got " + std::to_string(method));
  check_non_negative(damping, "damping");
  if (max_iterations < 1)
    throw std::invalid_argument("max_iterations must be >= 1, got " +
                                std::to_string(max_iterations));
  Group& g = group_mut(group_handle);
  g.method = method;
  g.damping = damping;
  g.max_iterations = max_iterations;
}

void Environment::set_group_flags(int group_handle, int flags) {
  group(group_handle);
  if (flags < 0 || (flags & ~kGroupFlagsAll) != 0)
    throw std::invalid_argument("invalid flags: expected a combination of enabled (1), "
                                "ignore_max_steps (2), restore_on_bad_lin_tol (4), "
                                "restore_on_bad_ang_tol (8), stop_on_limit_hit (16), "
                                "avoid_limits (64), got " + std::to_string(flags));
  group_mut(group_handle).flags = flags;
}

}  // namespace torsion::ik
