// Terrain in Python: the convex-shape-against-triangle query torsion.collide_triangle (the
// routine heightmaps and triangle meshes share), heightmaps (World.add_height_map, the HeightMap
// handle) and their queries.
#include <pybind11/numpy.h>

#include <cstring>
#include <string>
#include <vector>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "collision/collision_detection.hpp"
#include "collision/triangle_contact.hpp"
#include "core/check.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;

namespace {

struct PairContactRecord {  // mirrors PAIR_CONTACT_DTYPE (bind_collision.cpp)
  double position[3];
  double normal[3];
  double depth;
  std::uint32_t feature;
};

void put3(double* dst, const Vec3& v) { dst[0] = v.x(), dst[1] = v.y(), dst[2] = v.z(); }

py::array manifold_records(const py::module_& m, const Manifold& man) {
  py::array out(py::dtype::from_args(m.attr("PAIR_CONTACT_DTYPE")),
                std::vector<py::ssize_t>{static_cast<py::ssize_t>(man.count)});
  if (man.count > 0) std::memset(out.mutable_data(), 0, man.count * sizeof(PairContactRecord));
  auto* rec = static_cast<PairContactRecord*>(out.mutable_data());
  for (int i = 0; i < man.count; ++i) {
    put3(rec[i].position, man.points[i].position);
    put3(rec[i].normal, man.points[i].normal);
    rec[i].depth = man.points[i].depth;
    rec[i].feature = man.points[i].feature;
  }
  return out;
}

Pose pose_from(py::handle position, py::handle quaternion) {
  Pose p;
  p.position = to_vec3(position, "position");
  check_finite_vec(p.position, "position");
  const Vec4 q = to_vec4(quaternion, "quaternion");
  check_finite_vec(q, "quaternion");
  const double nq = q.norm();
  if (!(nq > 1e-12)) throw py::value_error("quaternion (w, x, y, z) must have a non-zero norm");
  p.rotation = Quat(q[0] / nq, q[1] / nq, q[2] / nq, q[3] / nq).toRotationMatrix();
  return p;
}

void bind_collide_triangle(py::module_& m) {
  m.def(
      "collide_triangle",
      [m](const Shape& shape, py::handle position, py::handle quaternion, py::handle vertices,
          py::handle neighbour_normals, py::handle owned, const ContactSettings* settings) {
        if (shape.type == ShapeType::kGround)
          throw py::value_error("shape must be a sphere, box, cylinder or capsule, got a ground");
        const Pose pose = pose_from(position, quaternion);
        ContactTriangle tri;
        const auto v = to_rows(vertices, "vertices", 3, 3);
        for (int i = 0; i < 3; ++i) {
          tri.v[i] = Vec3(v.at(i, 0), v.at(i, 1), v.at(i, 2));
          check_finite_vec(tri.v[i], "vertices");
        }
        if (!neighbour_normals.is_none()) {
          // rows of NaN mean "no neighbour" (a free edge)
          const auto nn = to_rows(neighbour_normals, "neighbour_normals", 3, 3);
          for (int i = 0; i < 3; ++i) {
            const Vec3 ni(nn.at(i, 0), nn.at(i, 1), nn.at(i, 2));
            if (!ni.allFinite()) continue;
            const double len = ni.norm();
            if (!(len > 1e-12))
              throw py::value_error("neighbour_normals rows must be non-zero (or NaN for none)");
            tri.edges[i].has_neighbour = true;
            tri.edges[i].neighbour_normal = ni / len;
          }
        }
        if (!owned.is_none()) {
          const py::sequence seq = owned.cast<py::sequence>();
          if (seq.size() != 3) throw py::value_error("owned must hold 3 booleans (one per edge)");
          for (int i = 0; i < 3; ++i) tri.edges[i].owned = seq[i].cast<bool>();
        }
        ContactSettings s = settings ? *settings : ContactSettings();
        check_contact_settings(s);
        Manifold man;
        {
          py::gil_scoped_release release;
          collide_convex_triangle(shape, pose, tri, s, man);
          reduce_manifold(man, s.max_points_per_pair);
        }
        return manifold_records(m, man);
      },
      arg("shape"), arg("position"), arg("quaternion"), arg("vertices"),
      arg("neighbour_normals") = py::none(), arg("owned") = py::none(), arg("settings") = nullptr,
      "Contacts of a convex shape (sphere, box, cylinder, capsule) at a pose (position (3,) m, "
      "quaternion (w, x, y, z)) against one one-sided triangle: vertices (3, 3) world m, "
      "counter-clockwise seen from the front. neighbour_normals (3, 3): the unit front normal "
      "of the triangle across edge i (vertices i, i+1), a NaN row for a free edge; None: every "
      "edge free. owned: 3 booleans, whether this triangle reports the contacts of each edge "
      "(default all). Normals point from the triangle to the shape. Returns a new structured "
      "array of dtype PAIR_CONTACT_DTYPE (at most settings.max_points_per_pair records).");
}

}  // namespace

void bind_terrain(py::module_& m) { bind_collide_triangle(m); }

}  // namespace torsion::bindings
