// Contact materials. In RaiSim (and torsion) contact properties belong to a *pair* of materials:
// every collision body names its material, and the pair (in either order) selects the friction,
// restitution and the other coefficients used for a contact between them. A pair that has not been
// set, or a name never mentioned, falls back to the default material properties.
//
// A World owns one MaterialManager (no global state). Lookup by name is for the API; the step
// resolves names to small integer indices once and looks pairs up in a dense table.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace torsion {

struct MaterialPairProperties {
  double friction = 0.8;                // dynamic Coulomb coefficient (>= 0)
  double restitution = 0.0;             // Newton's coefficient, in [0, 1]
  double restitution_threshold = 0.0;   // impacts slower than this (m/s) do not bounce
  double static_friction = 0.8;         // coefficient at zero slip (>= 0)
  double static_friction_threshold_velocity = 1e-3;  // slip speed (m/s) at which the coefficient
                                                     // has reached the dynamic one
  double rolling_friction = 0.0;        // m: rolling torque <= rolling_friction * normal force
  double spinning_friction = 0.0;       // m: spinning torque <= spinning_friction * normal force
};

// std::invalid_argument naming the offending field unless every field is finite, the friction
// coefficients and thresholds are >= 0, the restitution is in [0, 1] and, where the static
// friction coefficient differs from the dynamic one, its threshold velocity is > 0
void validate_material_pair_properties(const MaterialPairProperties& p);

class MaterialManager {
 public:
  static constexpr const char* kDefaultName = "default";

  // the pair (mat1, mat2) in either order; replaces an earlier setting of the same pair
  void set_pair(const std::string& mat1, const std::string& mat2, const MaterialPairProperties& p);
  // the properties of every pair that has not been set
  void set_default(const MaterialPairProperties& p);
  // the pair's properties; unknown names are treated as "default"
  const MaterialPairProperties& get(const std::string& mat1, const std::string& mat2) const;
  const MaterialPairProperties& default_properties() const { return default_; }

  // --- fast path for the step ---
  // index of a material name, or the index of "default" for a name never used in set_pair
  int index_of(const std::string& name) const;
  // the properties of a pair of indices from index_of()
  const MaterialPairProperties& pair(int a, int b) const {
    const int slot = table_[static_cast<std::size_t>(a) * n_ + static_cast<std::size_t>(b)];
    return slot < 0 ? default_ : props_[static_cast<std::size_t>(slot)];
  }
  // incremented by every change, so callers may cache index_of() results
  std::uint64_t revision() const { return revision_; }
  // Replace every pair and the default by those of `other` (RaiSim's updateMaterialProp); the
  // revision moves past both managers' revisions.
  void replace_with(const MaterialManager& other);

  // f(name_a, name_b, properties) for every pair that was set, by name (name_a <= name_b, pairs
  // in name order): checkpoints and world files list them so, in whatever order they were set
  template <class F>
  void for_each_pair(F&& f) const {
    for (auto i = names_.begin(); i != names_.end(); ++i)
      for (auto j = i; j != names_.end(); ++j) {
        const int slot =
            table_[static_cast<std::size_t>(i->second) * n_ + static_cast<std::size_t>(j->second)];
        if (slot >= 0) f(i->first, j->first, props_[static_cast<std::size_t>(slot)]);
      }
  }

 private:
  int intern(const std::string& name);
  void grow_table(std::size_t n);

  std::map<std::string, int> names_;              // name -> index (index 0 is "default")
  std::vector<int> table_ = {-1};                 // n_ x n_, symmetric; -1 = use default_
  std::size_t n_ = 1;
  std::vector<MaterialPairProperties> props_;     // the pairs that were set
  MaterialPairProperties default_;
  std::uint64_t revision_ = 0;
};

}  // namespace torsion
