// Terrain in Python: the convex-shape-against-triangle query torsion.collide_triangle (the
// routine heightmaps and triangle meshes share), heightmaps (World.add_height_map, the HeightMap
// handle) and their queries.
#include <pybind11/numpy.h>

#include <string>
#include <vector>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/world_methods.hpp"
#include "collision/collision_detection.hpp"
#include "collision/triangle_contact.hpp"
#include "core/check.hpp"
#include "geometry/height_map.hpp"
#include "geometry/perlin_terrain.hpp"
#include "geometry/support.hpp"
#include "io/height_map_text.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;

namespace {

void bind_collide_triangle(py::module_& m) {
  m.def(
      "collide_triangle",
      [m](const Shape& shape, py::handle position, py::handle quaternion, py::handle vertices,
          py::handle neighbour_normals, py::handle owned, const ContactSettings* settings) {
        if (!shape_is_convex_bounded(shape))
          throw py::value_error(std::string("shape must be a sphere, box, cylinder, capsule or "
                                            "convex mesh, got a ") +
                                shape_type_name(shape.type));
        const Pose pose = to_pose(position, quaternion, "position", "quaternion");
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
          // True/False or NumPy bools, as a list, tuple or array (a str is not one)
          const py::object flags = py::module_::import("numpy").attr("asarray")(owned);
          const py::array a = py::array::ensure(flags);
          if (!a || a.dtype().kind() != 'b' || a.ndim() != 1 || a.shape(0) != 3)
            throw py::value_error("owned must hold 3 booleans (one per edge), got " +
                                  py::repr(owned).cast<std::string>());
          for (int i = 0; i < 3; ++i) tri.edges[i].owned = flags[py::int_(i)].cast<bool>();
        }
        ContactSettings s = settings ? *settings : ContactSettings();
        check_contact_settings(s);
        s.margin += kMarginRoundOff;  // as in a world (collide_shapes)
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
      "Contacts of a convex shape (sphere, box, cylinder, capsule, convex mesh) at a pose (position (3,) m, "
      "quaternion (w, x, y, z)) against one one-sided triangle: vertices (3, 3) world m, "
      "counter-clockwise seen from the front. neighbour_normals (3, 3): the unit front normal "
      "of the triangle across edge i (vertices i, i+1), a NaN row for a free edge; None: every "
      "edge free. owned: 3 booleans, whether this triangle reports the contacts of each edge "
      "(default all). Normals point from the triangle to the shape. Returns a new structured "
      "array of dtype PAIR_CONTACT_DTYPE (at most settings.max_points_per_pair records).");
}

using WorldPtr = std::shared_ptr<World>;

const HeightMapData& data_of(const HeightMapHandle& h) { return *h.obj().shape().height_map; }

std::vector<double> to_heights(py::handle heights) {
  const auto a = to_rows(heights, "heights", -1, 0);
  std::vector<double> v(static_cast<std::size_t>(a.shape(0)));
  for (py::ssize_t i = 0; i < a.shape(0); ++i) v[static_cast<std::size_t>(i)] = a.at(i);
  return v;
}

constexpr const char* kGroupDoc =
    " collision_group / collision_mask: 64-bit ints (default: group bit 63, the static group; "
    "mask -1, all). Returns the HeightMap handle. RuntimeError mid-step.";

// the heightmap of `data` added to the world, with the Python arguments' group and mask: its handle
py::object add_samples(const WorldPtr& w, HeightMapPtr data, double center_x, double center_y,
                       const std::string& material, py::handle group, py::handle mask) {
  auto& o = w->add_height_map(std::move(data), center_x, center_y, material,
                              to_group(group, "collision_group"), to_group(mask, "collision_mask"));
  return make_handle(w, o);
}

void bind_terrain_properties(py::module_& m) {
  py::class_<TerrainProperties>(
      m, "TerrainProperties",
      "Perlin-noise terrain (World.add_height_map(center_x, center_y, terrain_properties)): "
      "height = height_offset + z_scale * sum over octaves o < fractal_octaves of "
      "fractal_gain**o * noise(frequency * fractal_lacunarity**o * (x, y)), (x, y) relative to "
      "the grid centre (m), noise = 2-D gradient noise in [-1, 1] (0 on lattice points) from a "
      "permutation shuffled by seed; with step_size > 0 the heights are rounded to multiples "
      "of it. Fields: frequency (1/m, > 0, default 0.3), z_scale (m, default 1), x_size, "
      "y_size (m, > 0, default 10), x_samples, y_samples (>= 2, default 100), fractal_octaves "
      "(1..32, default 5), fractal_lacunarity (> 0, default 2), fractal_gain (default 0.5), "
      "seed (int >= 0, default 0), step_size (m, >= 0, default 0), height_offset (m, default "
      "0). Same properties, same heights.")
      .def(py::init<>())
      .def_readwrite("frequency", &TerrainProperties::frequency)
      .def_readwrite("z_scale", &TerrainProperties::z_scale)
      .def_readwrite("x_size", &TerrainProperties::x_size)
      .def_readwrite("y_size", &TerrainProperties::y_size)
      .def_readwrite("x_samples", &TerrainProperties::x_samples)
      .def_readwrite("y_samples", &TerrainProperties::y_samples)
      .def_readwrite("fractal_octaves", &TerrainProperties::fractal_octaves)
      .def_readwrite("fractal_lacunarity", &TerrainProperties::fractal_lacunarity)
      .def_readwrite("fractal_gain", &TerrainProperties::fractal_gain)
      .def_readwrite("seed", &TerrainProperties::seed)
      .def_readwrite("step_size", &TerrainProperties::step_size)
      .def_readwrite("height_offset", &TerrainProperties::height_offset)
      .def("generate", [](const TerrainProperties& p) {
             HeightMapPtr d;
             {
               py::gil_scoped_release r;
               d = make_perlin_terrain(p);
             }
             py::array_t<double> out({static_cast<py::ssize_t>(d->y_samples()),
                                      static_cast<py::ssize_t>(d->x_samples())});
             std::memcpy(out.mutable_data(), d->heights().data(), d->heights().size() * sizeof(double));
             return out; },
           "The heights this terrain gives, as a new array of shape (y_samples, x_samples) (m); "
           "row j is y = -y_size/2 + j * y_size/(y_samples-1) from the centre.");
}

void bind_height_map_handle(py::module_& m) {
  py::class_<HeightMapHandle, SingleBodyHandle>(
      m, "HeightMap",
      "A static heightmap: a grid of x_samples by y_samples heights over x_size by y_size (m) "
      "centred at (center_x, center_y). Sample (i, j) (i along x, j along y) is "
      "heights[j * x_samples + i] at x = center_x - x_size/2 + i * x_size/(x_samples-1), "
      "y = center_y - y_size/2 + j * y_size/(y_samples-1). The surface is two triangles per "
      "cell (split from (i, j) to (i+1, j+1)); a triangle with a NaN or infinite corner is a "
      "hole (no collision, rays pass); outside the grid there is no surface.")
      .def("get_height", [](const HeightMapHandle& h, double x, double y) {
             const Vec3 c = h.obj().body().position;
             double z;
             Vec3 n;
             if (!data_of(h).surface_at(x - c.x(), y - c.y(), z, n)) return static_cast<double>(NAN);
             return z; },
           arg("x"), arg("y"),
           "Surface height (m) at world (x, y) (m): the height of the cell triangle there; NaN "
           "outside the grid or over a hole.")
      .def("get_normal", [](const HeightMapHandle& h, double x, double y) {
             const Vec3 c = h.obj().body().position;
             double z;
             Vec3 n;
             if (!data_of(h).surface_at(x - c.x(), y - c.y(), z, n)) n.setConstant(NAN);
             return to_numpy(n); },
           arg("x"), arg("y"),
           "Unit upward surface normal at world (x, y) (m), a new array of shape (3,); NaN "
           "outside the grid or over a hole.")
      .def("get_x_samples", [](const HeightMapHandle& h) { return data_of(h).x_samples(); })
      .def("get_y_samples", [](const HeightMapHandle& h) { return data_of(h).y_samples(); })
      .def("get_x_size", [](const HeightMapHandle& h) { return data_of(h).x_size(); }, "m")
      .def("get_y_size", [](const HeightMapHandle& h) { return data_of(h).y_size(); }, "m")
      .def("get_center_x", [](const HeightMapHandle& h) { return h.obj().body().position.x(); }, "m")
      .def("get_center_y", [](const HeightMapHandle& h) { return h.obj().body().position.y(); }, "m")
      .def("get_height_vector", [](const HeightMapHandle& h) {
             const auto& v = data_of(h).heights();
             py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
             std::memcpy(out.mutable_data(), v.data(), v.size() * sizeof(double));
             return out; },
           "The samples as given (m), a new array of shape (x_samples * y_samples,), x fastest.")
      .def("get_height_map", [](const HeightMapHandle& h) {
             const HeightMapData& d = data_of(h);
             py::array_t<double> out({static_cast<py::ssize_t>(d.y_samples()),
                                      static_cast<py::ssize_t>(d.x_samples())});
             std::memcpy(out.mutable_data(), d.heights().data(), d.heights().size() * sizeof(double));
             return out; },
           "The samples as a new array of shape (y_samples, x_samples) (m): [j, i] is sample "
           "(i, j).");
}

}  // namespace

void world_methods_terrain(WorldClass& world) {
  const py::int_ static_group = py::int_(1).attr("__lshift__")(63);
  world
      .def("add_height_map", [](const WorldPtr& w, long long x_samples, long long y_samples,
                                double x_size, double y_size, double center_x, double center_y,
                                py::handle heights, const std::string& material, py::handle group,
                                py::handle mask) {
             auto data = std::make_shared<const HeightMapData>(x_samples, y_samples, x_size, y_size,
                                                               to_heights(heights));
             return add_samples(w, std::move(data), center_x, center_y, material, group, mask); },
           arg("x_samples"), arg("y_samples"), arg("x_size"), arg("y_size"), arg("center_x"),
           arg("center_y"), arg("heights"), arg("material") = "default",
           arg("collision_group") = static_group, arg("collision_mask") = -1,
           (std::string("Add a static heightmap from raw samples: x_samples, y_samples (>= 2) "
                        "samples over x_size by y_size (m, finite, > 0) centred at (center_x, "
                        "center_y) (m); heights: array-like of x_samples * y_samples heights (m), "
                        "x fastest (see HeightMap), copied unchanged: NaN or inf samples make "
                        "holes. ValueError on a wrong count or bad size.") + kGroupDoc).c_str())
      .def("add_height_map", [](const WorldPtr& w, py::object raisim_height_map_file_name,
                                double center_x, double center_y, const std::string& material,
                                py::handle group, py::handle mask) {
             const std::string path =
                 to_path(raisim_height_map_file_name, "raisim_height_map_file_name");
             HeightMapPtr data;
             {
               py::gil_scoped_release r;
               data = load_height_map_text(path);
             }
             return add_samples(w, std::move(data), center_x, center_y, material, group, mask); },
           arg("raisim_height_map_file_name"), arg("center_x"), arg("center_y"),
           arg("material") = "default", arg("collision_group") = static_group,
           arg("collision_mask") = -1,
           (std::string("Add a static heightmap from a RaiSim heightmap text file (str or "
                        "path): whitespace-separated 'x_samples y_samples x_size y_size' then "
                        "x_samples * y_samples heights (m, x fastest; nan/inf allowed: holes). "
                        "ValueError if the file cannot be read or is malformed.") + kGroupDoc).c_str())
      .def("add_height_map", [](const WorldPtr& w, py::object png_file_name, double center_x,
                                double center_y, double x_size, double y_size, double height_scale,
                                double height_offset, const std::string& material,
                                py::handle group, py::handle mask) {
             check_finite(height_scale, "height_scale");
             check_finite(height_offset, "height_offset");
             // decoded by Pillow (the `images` extra) in torsion.terrain
             py::tuple t = py::module_::import("torsion.terrain")
                               .attr("_png_samples")(png_file_name, height_scale, height_offset);
             auto data = std::make_shared<const HeightMapData>(
                 t[0].cast<long long>(), t[1].cast<long long>(), x_size, y_size, to_heights(t[2]));
             return add_samples(w, std::move(data), center_x, center_y, material, group, mask); },
           arg("png_file_name"), arg("center_x"), arg("center_y"), arg("x_size"), arg("y_size"),
           arg("height_scale"), arg("height_offset"), arg("material") = "default",
           arg("collision_group") = static_group, arg("collision_mask") = -1,
           (std::string("Add a static heightmap from a PNG image (str or path; needs Pillow: "
                        "pip install torsion[images]). Pixel (column i, row r) of a W x H image "
                        "is sample (i, H-1-r) (the image's top row is the largest y), height = "
                        "height_offset + height_scale * value, value the grey level (0..255 for "
                        "8-bit, 0..65535 for 16-bit images). x_size, y_size (m, > 0).") + kGroupDoc).c_str())
      .def("add_height_map", [](const WorldPtr& w, double center_x, double center_y,
                                const TerrainProperties& props, const std::string& material,
                                py::handle group, py::handle mask) {
             HeightMapPtr data;
             {
               py::gil_scoped_release r;
               data = make_perlin_terrain(props);
             }
             return add_samples(w, std::move(data), center_x, center_y, material, group, mask); },
           arg("center_x"), arg("center_y"), arg("terrain_properties"),
           arg("material") = "default", arg("collision_group") = static_group,
           arg("collision_mask") = -1,
           (std::string("Add a static heightmap of Perlin-noise terrain (see TerrainProperties; "
                        "deterministic by its seed) centred at (center_x, center_y) (m).") +
            kGroupDoc).c_str())
      .def("add_height_map", [](const WorldPtr& w, const HeightMapHandle& other, py::handle group,
                                py::handle mask) {
             if (other.world != w)
               throw py::value_error("height_map_to_be_cloned belongs to another World");
             const SingleBodyObject& src = other.obj();
             auto& o = w->add_height_map(src.shape().height_map, src.body().position.x(),
                                         src.body().position.y(), src.collision().material,
                                         to_group(group, "collision_group"),
                                         to_group(mask, "collision_mask"));
             return make_handle(w, o); },
           arg("height_map_to_be_cloned"), arg("collision_group") = static_group,
           arg("collision_mask") = -1,
           (std::string("Add a copy of another heightmap of this world (same samples, size, "
                        "centre and material; the samples are shared, they never change).") +
            kGroupDoc).c_str());
}

void bind_terrain(py::module_& m) {
  bind_collide_triangle(m);
  bind_terrain_properties(m);
  bind_height_map_handle(m);
}

}  // namespace torsion::bindings
