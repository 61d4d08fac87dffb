#include "dynamics/articulated/mass_queries.hpp"

#include "core/assert.hpp"

namespace torsion {

Vec3 body_com_world(const ArticulatedModel& model, const ArticulatedData& data, int body) {
  TORSION_ASSERT(body >= 0 && body < static_cast<int>(model.bodies.size()));
  TORSION_ASSERT(data.body_position.size() == model.bodies.size());
  return data.body_position[body] + data.body_rotation[body] * model.bodies[body].com;
}

Vec3 composite_com(const ArticulatedModel& model, const ArticulatedData& data) {
  TORSION_ASSERT(data.body_position.size() == model.bodies.size());
  const auto& bs = model.bodies;
  Vec3 c = Vec3::Zero();
  double mt = 0.0;
  for (std::size_t i = 0; i < bs.size(); ++i) {
    c += bs[i].mass * (data.body_position[i] + data.body_rotation[i] * bs[i].com);
    mt += bs[i].mass;
  }
  return mt > 0.0 ? Vec3(c / mt) : c;
}

double kinetic_energy(const ArticulatedModel& model, const ArticulatedData& data) {
  TORSION_ASSERT(data.inertias_valid);
  TORSION_ASSERT(data.body_velocity.size() == model.bodies.size());
  double e = 0.0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Vec6& v = data.body_velocity[i];
    e += 0.5 * v.dot(data.inertia[i].apply(v));
  }
  return e;
}

double potential_energy(const ArticulatedModel& model, const ArticulatedData& data,
                        const Vec3& gravity) {
  TORSION_ASSERT(data.body_position.size() == model.bodies.size());
  double e = 0.0;
  const auto& bs = model.bodies;
  for (std::size_t i = 0; i < bs.size(); ++i)
    e -= bs[i].mass * gravity.dot(data.body_position[i] + data.body_rotation[i] * bs[i].com);
  return e;
}

}  // namespace torsion
