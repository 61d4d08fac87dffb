// Ray tests, the lidar and the depth camera, added to torsion.World.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>

#include "batch/thread_pool.hpp"
#include "bindings/array_pool.hpp"
#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "bindings/world_methods.hpp"
#include "core/check.hpp"
#include "query/ray_direction.hpp"
#include "query/ray_order.hpp"
#include "world/ray_queries.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// one hit as Python sees it (RaiSim's RayCollisionItem)
// (a deformable's surface hit: object_id, object_index and local_index -1, deformable_id its
// id and triangle the surface triangle's index; otherwise those two are -1)
struct PyRayHit {
  WorldPtr world;
  Vec3 position, normal;
  double distance;
  std::int64_t object_id;
  std::int64_t object_index, local_index;
  std::int64_t deformable_id = -1, triangle = -1;
};

struct PyRayBatch {
  py::array_t<bool> hit;
  py::array_t<double> distance, position, normal;
  py::array_t<std::int64_t> object_index, local_index, deformable_id, triangle;
};

PyRayHit make_py_hit(const WorldPtr& w, const RayScene& scene, const RayHit& hit) {
  if (hit.surface >= 0)
    return PyRayHit{w, hit.position, hit.normal, hit.distance, -1, -1, -1,
                    static_cast<std::int64_t>(scene.surfaces()[static_cast<std::size_t>(hit.surface)].deformable_id),
                    hit.triangle};
  const RayCastBody& b = scene.bodies()[hit.body];
  return PyRayHit{w, hit.position, hit.normal, hit.distance, static_cast<std::int64_t>(b.object_id),
                  b.object_index, b.local_index, -1, -1};
}

// RaiSim's "ignore" indices are size_t: -10 (the default) or any negative means "none"
std::uint64_t to_ignore_index(std::int64_t v) {
  return v < 0 ? kNoIgnore : static_cast<std::uint64_t>(v);
}

RayFilter make_filter(std::int64_t object_id, std::int64_t local_id, py::handle mask) {
  RayFilter f;
  f.ignore_object = to_ignore_index(object_id);
  f.ignore_local = to_ignore_index(local_id);
  f.mask = to_group(mask, "collision_mask");
  return f;
}

// 0: all cores (ValueError for < 0); the work runs on the shared pool (batch/thread_pool.hpp)
int resolve_threads(int num_threads) { return ThreadPool::resolve_thread_count(num_threads); }

py::list ray_test(const WorldPtr& w, py::handle start, py::handle direction, double length,
                  std::int64_t object_id, std::int64_t local_id, py::handle mask) {
  const Vec3 s = to_vec3(start, "start");
  const Vec3 d = to_vec3(direction, "direction");
  check_finite_vec(s, "start");
  check_finite_vec(d, "direction");
  if (std::isnan(length)) throw py::value_error("length must not be NaN");
  const RayFilter filter = make_filter(object_id, local_id, mask);
  std::shared_ptr<const RayScene> scene;
  RayHit hit;
  bool found;
  {
    SharedWorldUse use(w->use(), "ray_test()");
    py::gil_scoped_release release;
    scene = w->ray_scene();
    found = scene->cast(s, normalized_ray_direction(d), length, filter, hit);
  }
  py::list out;
  if (found) out.append(make_py_hit(w, *scene, hit));
  return out;
}

// a hint that *p will be read soon (nothing where the compiler has no such hint)
inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

// ray_test_batch's scratch: the hits in the coherent order and each row's place in it. Kept per
// thread between calls (a fresh 0.8 MB for 10k rays would be faulted in on every call), dropped
// after a call that needed more than kKeepBytes.
struct BatchScratch {
  static constexpr std::size_t kKeepBytes = std::size_t{64} << 20;
  std::vector<RayHit> hits;
  std::vector<std::uint8_t> found;
  std::vector<std::uint32_t> place;
  void trim() {
    if (hits.capacity() * (sizeof(RayHit) + 5) > kKeepBytes) *this = BatchScratch();
  }
};

BatchScratch& batch_scratch(std::size_t n) {
  thread_local BatchScratch s;
  if (s.hits.size() < n) {
    s.hits.resize(n);
    s.found.resize(n);
    s.place.resize(n);
  }
  return s;
}

PyRayBatch ray_test_batch(const WorldPtr& w, py::handle starts, py::handle directions,
                          py::handle lengths, py::handle mask, int num_threads) {
  // the cap before any conversion copies the rows (gigabytes for a batch past it)
  const Py_ssize_t rows_given = PyObject_Length(starts.ptr());
  if (rows_given < 0) PyErr_Clear();  // no len(): to_rows names what it expected
  if (rows_given > 0 && static_cast<std::uint64_t>(rows_given) > kMaxRaysPerCall)
    throw py::value_error("starts: at most 2**28 rays per call, got " +
                          std::to_string(rows_given) + " (split the batch)");
  auto s = to_rows(starts, "starts", -1, 3);
  const py::ssize_t n = s.shape(0);
  auto d = to_rows(directions, "directions", n, 3);
  auto l = to_rows(lengths, "lengths", n, 0);
  const double* sp = s.data();
  const double* dp = d.data();
  const double* lp = l.data();
  for (py::ssize_t i = 0; i < 3 * n; ++i) {
    if (!std::isfinite(sp[i])) throw py::value_error("starts must be finite (row " + std::to_string(i / 3) + ")");
    if (!std::isfinite(dp[i])) throw py::value_error("directions must be finite (row " + std::to_string(i / 3) + ")");
  }
  for (py::ssize_t i = 0; i < n; ++i)
    if (std::isnan(lp[i])) throw py::value_error("lengths must not be NaN (row " + std::to_string(i) + ")");
  RayFilter filter;
  filter.mask = to_group(mask, "collision_mask");
  const int threads = resolve_threads(num_threads);

  // every element of every output is written below (hit or miss): the pool's memory is
  // uninitialised, and recycled from earlier results (bindings/array_pool.hpp)
  const Py_intptr_t rows = n;
  PyRayBatch out{pooled_array<bool>({rows}), pooled_array<double>({rows}),
                 pooled_array<double>({rows, 3}), pooled_array<double>({rows, 3}),
                 pooled_array<std::int64_t>({rows}), pooled_array<std::int64_t>({rows}),
                 pooled_array<std::int64_t>({rows}), pooled_array<std::int64_t>({rows})};
  bool* hit_p = out.hit.mutable_data();
  double* dist_p = out.distance.mutable_data();
  double* pos_p = out.position.mutable_data();
  double* nrm_p = out.normal.mutable_data();
  std::int64_t* obj_p = out.object_index.mutable_data();
  std::int64_t* loc_p = out.local_index.mutable_data();
  std::int64_t* def_p = out.deformable_id.mutable_data();
  std::int64_t* tri_p = out.triangle.mutable_data();
  {
    SharedWorldUse use(w->use(), "ray_test_batch()");
    py::gil_scoped_release release;
    const std::shared_ptr<const RayScene> scene_ptr = w->ray_scene();
    const RayScene& scene = *scene_ptr;
    // the rays are cast in a coherent order (query/ray_order.hpp), each result written to its
    // caller's row: no result depends on the order. Small batches are cast as given.
    constexpr py::ssize_t kSortFrom = 64;
    std::vector<std::uint32_t> order;
    if (n >= kSortFrom) coherent_ray_order(sp, dp, static_cast<std::size_t>(n), order);
    const std::uint32_t* const ord = order.empty() ? nullptr : order.data();
    // Two passes. The first casts the rays in the coherent order and writes each hit to the
    // scratch record at its place in that order (consecutive); the second walks the caller's
    // rows and copies each row's record into the eight outputs. Written straight to the rows,
    // each ray touched eight cache lines at random places of 0.9 MB of outputs (10k rays); now
    // it reads one record at a random place and the outputs are written in order.
    BatchScratch& scratch = batch_scratch(static_cast<std::size_t>(n));
    RayHit* const rec = scratch.hits.data();
    std::uint8_t* const rec_found = scratch.found.data();
    std::uint32_t* const place = scratch.place.data();  // place[row]: the row's record
    // casts the rays at places [begin, end) of the order
    auto cast_range = [&](py::ssize_t begin, py::ssize_t end) {
      // the directions of a few rays are normalised together before they are cast: their square
      // roots and divisions overlap instead of stalling each ray in turn (same values)
      constexpr py::ssize_t kChunk = 16;
      // the rays' rows are gathered here too (in the coherent order they are scattered over
      // the inputs): a start loaded right before its cast stalled it
      Vec3 dirs[kChunk], starts_c[kChunk];
      double lengths_c[kChunk];
      for (py::ssize_t c = begin; c < end; c += kChunk) {
        const py::ssize_t m = std::min(kChunk, end - c);
        // the next chunk's rows asked for while this one is cast
        if (ord != nullptr)
          for (py::ssize_t k = c + kChunk; k < std::min(c + 2 * kChunk, end); ++k) {
            const std::uint32_t i = ord[k];
            prefetch(dp + 3 * static_cast<std::size_t>(i));
            prefetch(sp + 3 * static_cast<std::size_t>(i));
            prefetch(lp + i);
          }
        for (py::ssize_t k = 0; k < m; ++k) {
          const py::ssize_t i = ord != nullptr ? static_cast<py::ssize_t>(ord[c + k]) : c + k;
          place[i] = static_cast<std::uint32_t>(c + k);
          const double* v = dp + 3 * i;
          const Vec3 raw(v[0], v[1], v[2]);
          if (!unit_ray_direction_common(raw, dirs[k])) dirs[k] = normalized_ray_direction(raw);
          starts_c[k] = Vec3(sp[3 * i], sp[3 * i + 1], sp[3 * i + 2]);
          lengths_c[k] = lp[i];
        }
        // neighbours of the order cast in pairs (RayScene::cast2: the same results as single
        // casts)
        bool found[2];
        for (py::ssize_t k = 0; k < m; k += 2) {
          RayHit* const h = rec + (c + k);
          if (k + 1 < m) {
            scene.cast2(starts_c + k, dirs + k, lengths_c + k, filter, h, found);
            rec_found[c + k] = found[0];
            rec_found[c + k + 1] = found[1];
          } else {
            rec_found[c + k] = scene.cast(starts_c[k], dirs[k], lengths_c[k], filter, *h);
          }
        }
      }
    };
    // copies the records of rows [begin, end) into the outputs
    auto write_rows = [&](py::ssize_t begin, py::ssize_t end) {
      // the records are read at random places: the ones kAhead rows on are asked for early
      // (both of the cache lines a record spans), so their loads overlap instead of stalling
      constexpr py::ssize_t kAhead = 8;
      for (py::ssize_t i = begin; i < end; ++i) {
        if (i + kAhead < end) {
          const char* ahead = reinterpret_cast<const char*>(rec + place[i + kAhead]);
          prefetch(ahead);
          prefetch(ahead + sizeof(RayHit) - 1);
        }
        const std::uint32_t p = place[i];
        const RayHit& hit = rec[p];
        const bool found = rec_found[p] != 0;
        hit_p[i] = found;
        if (found) {
          dist_p[i] = hit.distance;
          for (int j = 0; j < 3; ++j) {
            pos_p[3 * i + j] = hit.position[j];
            nrm_p[3 * i + j] = hit.normal[j];
          }
          if (hit.surface >= 0) {
            obj_p[i] = loc_p[i] = -1;
            def_p[i] = static_cast<std::int64_t>(
                scene.surfaces()[static_cast<std::size_t>(hit.surface)].deformable_id);
            tri_p[i] = hit.triangle;
          } else {
            const RayCastBody& b = scene.bodies()[hit.body];
            obj_p[i] = b.object_index;
            loc_p[i] = b.local_index;
            def_p[i] = tri_p[i] = -1;
          }
        } else {
          dist_p[i] = kInf;
          for (int j = 0; j < 3; ++j) pos_p[3 * i + j] = nrm_p[3 * i + j] = kNaN;
          obj_p[i] = loc_p[i] = def_p[i] = tri_p[i] = -1;
        }
      }
    };
    // blocks of kBlock rays on the shared pool, handed out one at a time (each ray and each row
    // is written by one task only). Small blocks (~10 us of work) balance the threads when one of
    // them starts late or runs slower on a loaded machine.
    constexpr py::ssize_t kBlock = 128;
    const int t = static_cast<int>(std::min<py::ssize_t>(threads, std::max<py::ssize_t>(1, n / 256)));
    if (t <= 1) {
      cast_range(0, n);
      write_rows(0, n);
    } else {
      const auto blocks = static_cast<std::size_t>((n + kBlock - 1) / kBlock);
      auto block_of = [n](std::size_t b) {
        const auto k = static_cast<py::ssize_t>(b);
        return std::make_pair(k * kBlock, std::min(n, (k + 1) * kBlock));
      };
      ThreadPool::shared().parallel_for(blocks, t, [&](std::size_t b) {
        const auto [begin, end] = block_of(b);
        cast_range(begin, end);
      });
      ThreadPool::shared().parallel_for(blocks, t, [&](std::size_t b) {
        const auto [begin, end] = block_of(b);
        write_rows(begin, end);
      });
    }
    scratch.trim();
  }
  return out;
}

Mat3 to_rotation(py::handle rot, const char* name) {
  const Mat3 r = to_mat3(rot, name);
  check_finite_vec(r.reshaped(), name);
  if ((r.transpose() * r - Mat3::Identity()).cwiseAbs().maxCoeff() > 1e-6 || r.determinant() < 0.0)
    throw py::value_error(std::string(name) + " must be a rotation matrix (orthonormal, det +1)");
  return r;
}

}  // namespace

void bind_query(py::module_& m) {
  py::class_<PyRayHit>(m, "RayHit", "One ray hit (RaiSim's RayCollisionItem). Values are copies.")
      .def_property_readonly("position", [](const PyRayHit& h) { return to_numpy(h.position); },
                             "Hit point, world frame (m), shape (3,).")
      .def_property_readonly("normal", [](const PyRayHit& h) { return to_numpy(h.normal); },
                             "Outward surface normal of the hit body at the hit point, world frame.")
      .def_property_readonly("distance", [](const PyRayHit& h) { return h.distance; },
                             "Distance from the ray start (m).")
      .def_property_readonly("object_id", [](const PyRayHit& h) { return h.object_id; },
                             "Stable id of the hit object (-1 when a deformable was hit).")
      .def_property_readonly("object_index", [](const PyRayHit& h) { return h.object_index; },
                             "World index of the hit object at the time of the test (-1 when a "
                             "deformable was hit).")
      .def_property_readonly("local_index", [](const PyRayHit& h) { return h.local_index; },
                             "Local body index within the hit object (0 for a single body; -1 "
                             "when a deformable was hit).")
      .def_property_readonly("deformable_id", [](const PyRayHit& h) { return h.deformable_id; },
                             "Id of the hit deformable (DeformableObject.id; "
                             "World.get_deformable(id)), -1 when a world object was hit.")
      .def_property_readonly("triangle", [](const PyRayHit& h) { return h.triangle; },
                             "Index of the hit triangle in the deformable's "
                             "get_surface_triangles() (a cloth's triangles, a solid's boundary "
                             "faces), -1 when a world object was hit.")
      .def_property_readonly("object", [](const PyRayHit& h) -> py::object {
             if (h.object_id < 0) return py::none();
             Object* o = h.world->find_object(static_cast<ObjectId>(h.object_id));
             return o ? make_handle(h.world, *o) : py::none(); },
           "Handle of the hit object (None if it has been removed since, or a deformable was "
           "hit).")
      .def("__repr__", [](const PyRayHit& h) {
             if (h.deformable_id >= 0)
               return "<torsion.RayHit distance=" + std::to_string(h.distance) + " deformable_id=" +
                      std::to_string(h.deformable_id) + " triangle=" + std::to_string(h.triangle) + ">";
             return "<torsion.RayHit distance=" + std::to_string(h.distance) + " object_index=" +
                    std::to_string(h.object_index) + " local_index=" + std::to_string(h.local_index) + ">";
           });

  thread_guard::declare_world_bound<PyRayHit>(m.attr("RayHit"));  // `object` reads the world

  py::class_<PyRayBatch>(m, "RayBatchResult",
                         "Hits of ray_test_batch: one row per ray. Misses have hit False, distance "
                         "inf, NaN position and normal, and object/local index -1. A row that hit "
                         "a deformable has object/local index -1 and its deformable_id and "
                         "triangle (index in get_surface_triangles()); other rows have those -1.")
      .def_readonly("hit", &PyRayBatch::hit, "(N,) bool")
      .def_readonly("distance", &PyRayBatch::distance, "(N,) m")
      .def_readonly("position", &PyRayBatch::position, "(N, 3) world (m)")
      .def_readonly("normal", &PyRayBatch::normal, "(N, 3) world")
      .def_readonly("object_index", &PyRayBatch::object_index, "(N,) int64 world index")
      .def_readonly("local_index", &PyRayBatch::local_index, "(N,) int64 local body index")
      .def_readonly("deformable_id", &PyRayBatch::deformable_id, "(N,) int64 deformable id")
      .def_readonly("triangle", &PyRayBatch::triangle,
                    "(N,) int64 the deformable's surface triangle");

  py::class_<DepthCameraProperties>(
      m, "DepthCameraProperties",
      "Settings of the CPU ray-cast depth camera. Camera frame: +X forward, +Y left, +Z up; "
      "pinhole with horizontal field of view hfov (deg); depth is measured along +X.")
      .def(py::init([](int width, int height, double clip_near, double clip_far, double hfov,
                       bool depth, bool segmentation, bool point_cloud, double noise_std) {
             DepthCameraProperties p;
             p.width = width;
             p.height = height;
             p.clip_near = clip_near;
             p.clip_far = clip_far;
             p.hfov = hfov;
             p.depth = depth;
             p.segmentation = segmentation;
             p.point_cloud = point_cloud;
             p.noise_std = noise_std;
             validate(p);
             return p; }),
           arg("width") = 160, arg("height") = 120, arg("clip_near") = 0.05, arg("clip_far") = 10.0,
           arg("hfov") = 90.0, arg("depth") = true, arg("segmentation") = true,
           arg("point_cloud") = false, arg("noise_std") = 0.0)
      .def_readwrite("width", &DepthCameraProperties::width, "pixels")
      .def_readwrite("height", &DepthCameraProperties::height, "pixels")
      .def_readwrite("clip_near", &DepthCameraProperties::clip_near, "m along +X")
      .def_readwrite("clip_far", &DepthCameraProperties::clip_far, "m along +X")
      .def_readwrite("hfov", &DepthCameraProperties::hfov, "horizontal field of view (deg)")
      .def_readwrite("depth", &DepthCameraProperties::depth)
      .def_readwrite("segmentation", &DepthCameraProperties::segmentation)
      .def_readwrite("point_cloud", &DepthCameraProperties::point_cloud)
      .def_readwrite("noise_std", &DepthCameraProperties::noise_std, "Gaussian depth noise (m)");

}

void world_methods_query(WorldClass& world) {
  world
      .def("ray_test", &ray_test, arg("start"), arg("direction"), arg("length"),
           arg("object_id") = -10, arg("local_id") = -10, arg("collision_mask") = -1,
           "Cast a ray and return its closest hit as a list of zero or one RayHit (RaiSim's "
           "rayTest). The direction is normalised (a zero vector means +z); a non-positive "
           "length gives no hit. The body whose world index is object_id and local index "
           "local_id is ignored when both are set (>= 0). A body is skipped when "
           "(its group & collision_mask) == 0 or its mask is 0.")
      .def("ray_test_batch", &ray_test_batch, arg("starts"), arg("directions"), arg("lengths"),
           arg("collision_mask") = -1, py::kw_only(), arg("num_threads") = 0,
           "Cast N rays at once: starts (N, 3), directions (N, 3), lengths (N,). Same semantics "
           "as ray_test, ray by ray, bit for bit; runs with the GIL released on num_threads "
           "threads (0: all cores). Returns a RayBatchResult of fresh arrays.")
      .def("ray_test_lidar", [](const WorldPtr& w, py::handle rot, py::handle pos, double yaw_start,
                                double yaw_increment, std::int64_t yaw_count, double pitch_start,
                                double pitch_increment, std::int64_t pitch_count, double range_min,
                                double range_max, std::int64_t object_id, std::int64_t local_id,
                                py::handle mask) {
             if (yaw_count < 0 || pitch_count < 0)
               throw py::value_error("yaw_count and pitch_count must be >= 0");
             LidarPattern p{yaw_start, yaw_increment, static_cast<std::uint64_t>(yaw_count),
                            pitch_start, pitch_increment, static_cast<std::uint64_t>(pitch_count),
                            range_min, range_max};
             validate(p);
             const Mat3 r = to_rotation(rot, "rot");
             const Vec3 x = to_vec3(pos, "pos");
             check_finite_vec(x, "pos");
             const RayFilter filter = make_filter(object_id, local_id, mask);
             std::vector<Vec3> scan;
             {
               SharedWorldUse use(w->use(), "ray_test_lidar()");
               py::gil_scoped_release release;
               std::vector<RayCastBody> bodies;
               collect_ray_cast_bodies(*w, bodies);
               std::vector<RaySurface> surfaces;
               collect_ray_surfaces(*w, surfaces);
               RayScene scratch;
               try {
                 ray_test_lidar(bodies, std::move(surfaces), r, x, p, filter, scratch, scan);
               } catch (const std::bad_alloc&) {
                 throw std::runtime_error(
                     "ray_test_lidar(): not enough memory for the points of " +
                     std::to_string(p.yaw_count) + " x " + std::to_string(p.pitch_count) +
                     " rays; cast fewer rays per call");
               }
             }
             py::array_t<double> out({static_cast<py::ssize_t>(scan.size()), py::ssize_t(3)});
             auto o = out.mutable_unchecked<2>();
             for (std::size_t i = 0; i < scan.size(); ++i)
               for (int k = 0; k < 3; ++k) o(i, k) = scan[i][k];
             return out; },
           arg("rot"), arg("pos"), arg("yaw_start"), arg("yaw_increment"), arg("yaw_count"),
           arg("pitch_start"), arg("pitch_increment"), arg("pitch_count"), arg("range_min"),
           arg("range_max"), arg("object_id") = -10, arg("local_id") = -10,
           arg("collision_mask") = -1,
           "Spinning-lidar scan (RaiSim's rayTestLidar). rot (3, 3) sensor to world, pos (3,) "
           "world. Ray (i, j) has yaw = yaw_start + i yaw_increment, pitch = pitch_start + j "
           "pitch_increment and sensor-frame direction (cos p cos y, cos p sin y, sin p), yaw-"
           "major order. Returns the (M, 3) sensor-frame points of the rays whose hit lies in "
           "[range_min, range_max] (a fresh array).")
      .def("get_ray_cast_bodies", [](const WorldPtr& w) {
             std::vector<RayCastBody> bodies;
             collect_ray_cast_bodies(*w, bodies);
             py::list out;
             for (const auto& b : bodies) {
               py::dict d;
               d["shape"] = shape_type_name(b.shape.type);
               d["position"] = to_numpy(b.pose.position);
               d["rotation"] = to_numpy(b.pose.rotation);
               d["collision_group"] = b.group;
               d["collision_mask"] = b.mask;
               d["object_index"] = b.object_index;
               d["local_index"] = b.local_index;
               d["object_id"] = b.object_id;
               out.append(d);
             }
             return out; },
           "Every collision body exactly as ray tests see it, with its current world pose: a "
           "list of dicts (shape, position, rotation, collision_group, collision_mask, "
           "object_index, local_index, object_id). A ray with mask m skips a body when "
           "(group & m) == 0 or its mask is 0.")
      .def("capture_depth_camera", [](const WorldPtr& w, py::handle pos, py::handle rot,
                                      const DepthCameraProperties& props, std::int64_t object_id,
                                      std::int64_t local_id, py::handle mask, int num_threads) {
             validate(props);
             const Vec3 x = to_vec3(pos, "pos");
             check_finite_vec(x, "pos");
             const Mat3 r = to_rotation(rot, "rot");
             const RayFilter filter = make_filter(object_id, local_id, mask);
             const int threads = resolve_threads(num_threads);
             DepthCameraFrame frame;
             {
               SharedWorldUse use(w->use(), "capture_depth_camera()");
               py::gil_scoped_release release;
               capture_depth_camera(*w->ray_scene(), x, r, props, filter, w->sensor_noise(), frame, threads);
             }
             const py::ssize_t h = props.height, wd = props.width;
             py::dict out;
             if (props.depth) {
               py::array_t<double> a({h, wd});
               std::copy(frame.depth.begin(), frame.depth.end(), a.mutable_data());
               out["depth"] = a;
             }
             if (props.segmentation) {
               py::array_t<std::int32_t> a({h, wd});
               std::copy(frame.segmentation.begin(), frame.segmentation.end(), a.mutable_data());
               out["segmentation"] = a;
               py::array_t<std::int64_t> ids({h, wd});
               std::copy(frame.object_ids.begin(), frame.object_ids.end(), ids.mutable_data());
               out["object_id"] = ids;
               py::array_t<std::int32_t> links({h, wd});
               std::copy(frame.links.begin(), frame.links.end(), links.mutable_data());
               out["link"] = links;
               py::array_t<std::int64_t> defs({h, wd});
               std::copy(frame.deformable_ids.begin(), frame.deformable_ids.end(), defs.mutable_data());
               out["deformable_id"] = defs;
               py::array_t<std::int64_t> tris({h, wd});
               std::copy(frame.triangles.begin(), frame.triangles.end(), tris.mutable_data());
               out["triangle"] = tris;
             }
             if (props.point_cloud) {
               py::array_t<double> a({h, wd, py::ssize_t(3)});
               double* p = a.mutable_data();
               for (std::size_t k = 0; k < frame.points.size(); ++k)
                 for (int c = 0; c < 3; ++c) p[3 * k + c] = frame.points[k][c];
               out["point_cloud"] = a;
             }
             return py::module_::import("torsion.sensors").attr("DepthCameraFrame")(**out); },
           arg("pos"), arg("rot"), arg("properties"), arg("object_id") = -10, arg("local_id") = -10,
           arg("collision_mask") = -1, py::kw_only(), arg("num_threads") = 0,
           "Capture a depth camera frame (RaiSim's captureDepthCamera): pos (3,) and rot (3, 3, "
           "camera to world; camera +X forward, +Y left, +Z up). Returns a DepthCameraFrame of "
           "fresh arrays: depth (H, W) along +X in m (clip_far where nothing is seen), "
           "segmentation (H, W) int32 world index (-1 background) with object_id (H, W) int64, the "
           "object's stable id (unchanged when other objects are removed), and link (H, W) "
           "int32, the body seen within it (a robot's body index, a compound's child, 0 for a "
           "single body; -1 background), deformable_id and triangle (H, W) int64, the deformable "
           "seen and its surface triangle (-1 elsewhere; segmentation, object_id and link are -1 "
           "on its pixels), point_cloud (H, W, 3) world "
           "points (NaN background); each present only when requested. Noise is drawn from the "
           "world's sensor noise stream (set_sensor_noise_seed).")
      .def("set_sensor_noise_seed", [](World& w, std::uint64_t seed) { w.set_sensor_noise_seed(seed); },
           arg("seed"), "Restart the sensor noise stream from this seed (all 64 bits count).")
      .def("get_sensor_noise_seed", &World::sensor_noise_seed);
}

}  // namespace torsion::bindings
