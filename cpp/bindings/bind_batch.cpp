// torsion.WorldBatch (many worlds stepped on the shared thread pool), torsion.WorldState (the lean
// state for resets, World.capture_state / restore_state) and the batch's rays. The robot views
// are in bind_batch_view.cpp.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "batch/lean_state.hpp"
#include "batch/world_batch.hpp"
#include "batch/world_copy.hpp"
#include "bindings/batch_args.hpp"
#include "bindings/fastcall.hpp"
#include "bindings/thread_guard.hpp"
#include "bindings/world_methods.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "world/checkpoint.hpp"

namespace torsion::bindings {

using namespace py_convert;
using namespace batch_args;
using py::arg;
using WorldPtr = std::shared_ptr<World>;
using BatchPtr = std::shared_ptr<WorldBatch>;
using ssize = py::ssize_t;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------------------------
// WorldBatch

void check_topologies(WorldBatch& b) {
  const std::uint64_t f0 = topology_fingerprint(b.world(0));
  for (std::size_t i = 1; i < b.size(); ++i) {
    const std::uint64_t fi = topology_fingerprint(b.world(i));
    if (fi != f0)
      throw py::value_error("build: world " + std::to_string(i) +
                            " has another topology than world 0 (topology fingerprint " +
                            std::to_string(fi) + " != " + std::to_string(f0) +
                            "): every world of a batch must have the same objects, shapes and "
                            "robots, added in the same order");
  }
}

std::size_t count_arg(std::int64_t num_worlds) {
  if (num_worlds < 1)
    throw py::value_error("num_worlds must be >= 1, got " + std::to_string(num_worlds));
  return static_cast<std::size_t>(num_worlds);
}

BatchPtr make_batch(const py::object& build, std::int64_t num_worlds, int num_threads) {
  const std::size_t n = count_arg(num_worlds);
  ThreadPool::resolve_thread_count(num_threads);  // ValueError before any build runs
  if (!PyCallable_Check(build.ptr()))
    throw py::type_error("build must be a callable build(world, index), got " +
                         std::string(py::str(py::type::of(build).attr("__name__"))));
  std::vector<WorldPtr> worlds;
  worlds.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto w = std::make_shared<World>();
    build(w, i);
    if (w->is_mid_step())
      throw py::value_error("build: world " + std::to_string(i) +
                            " was left between integrate1() and integrate2()");
    worlds.push_back(std::move(w));
  }
  auto batch = std::make_shared<WorldBatch>(std::move(worlds), num_threads);
  check_topologies(*batch);
  return batch;
}

BatchPtr batch_from_world(const WorldPtr& source, std::int64_t num_worlds, int num_threads) {
  if (!source) throw py::type_error("world must be a torsion.World");
  const std::size_t n = count_arg(num_worlds);
  ThreadPool::resolve_thread_count(num_threads);
  std::vector<WorldPtr> worlds(n);
  {
    SharedWorldUse use(source->use(), "WorldBatch.from_world()");
    py::gil_scoped_release release;
    for (auto& w : worlds) {
      w = std::make_shared<World>();
      copy_world(*source, *w);
    }
  }
  return std::make_shared<WorldBatch>(std::move(worlds), num_threads);
}

void batch_integrate(WorldBatch& b, std::int64_t steps) {
  if (steps < 0) throw py::value_error("steps must be >= 0, got " + std::to_string(steps));
  // in chunks, so that Ctrl-C interrupts a long run between them
  constexpr std::int64_t kChunk = 1024;
  for (std::int64_t done = 0; done < steps;) {
    const std::int64_t n = std::min(kChunk, steps - done);
    {
      ExclusiveBatchUse use(b, "integrate()");
      py::gil_scoped_release release;
      b.integrate(n);
    }
    done += n;
    if (done < steps && PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

py::array_t<std::uint64_t> batch_state_hashes(WorldBatch& b) {
  py::array_t<std::uint64_t> out(static_cast<ssize>(b.size()));
  std::uint64_t* o = out.mutable_data();
  SharedBatchUse use(b, "state_hashes()");
  py::gil_scoped_release release;
  b.state_hashes(o);
  return out;
}

void batch_restore(WorldBatch& b, py::handle indices_arg, py::handle what) {
  const bool lean = py::isinstance<LeanState>(what);
  if (!lean && !py::isinstance<Checkpoint>(what))
    throw py::type_error("checkpoint must be a torsion.Checkpoint or a torsion.WorldState, got " +
                         std::string(py::str(py::type::of(what).attr("__name__"))));
  std::vector<std::int64_t> idx;
  if (indices_arg.is_none()) {
    idx.resize(b.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<std::int64_t>(i);
  } else {
    idx = world_indices(indices_arg, b.size(), "indices");
  }
  ExclusiveBatchUse use(b, idx.data(), idx.size(), "restore()");
  if (lean) {
    const LeanState& state = what.cast<const LeanState&>();
    py::gil_scoped_release release;
    b.restore(idx.data(), idx.size(), state);
  } else {
    const Checkpoint& cp = what.cast<const Checkpoint&>();
    py::gil_scoped_release release;
    b.restore(idx.data(), idx.size(), cp);
  }
}

// worlds this large release the GIL for a state capture or restore (smaller ones take less
// than releasing it costs)
constexpr std::size_t kStateGilObjects = 256;

void capture_into(World& w, LeanState& state) {
  SharedWorldUse use(w.use(), "capture_state()");
  if (w.object_count() >= kStateGilObjects) {
    py::gil_scoped_release release;
    capture_lean_state(w, state);
  } else {
    capture_lean_state(w, state);
  }
}

// the Python class bound for LeanState (torsion.WorldState)
PyTypeObject* state_type() {
  static PyTypeObject* const type =
      reinterpret_cast<PyTypeObject*>(py::type::of<LeanState>().ptr());
  return type;
}

// World.capture_state(out=None) and World.restore_state(state) as raw CPython fast-call methods
// (fastcall.hpp): resets are a hot path, and pybind11's dispatch cost a quarter of a 100-body
// capture. Same signatures, results and errors as pybind11 bindings would have.
PyObject* world_capture_state(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                              PyObject* kwnames) {
  return fastcall::guarded([&]() -> PyObject* {
    static const char* const kNames[] = {"out"};
    static const fastcall::Signature kSig{"capture_state", kNames, 1, 0};
    PyObject* a[1] = {Py_None};
    fastcall::parse_arguments(kSig, args, nargs, kwnames, a);
    World& w = fastcall::self_as<World>(self);
    // the world's use first: another thread holding the world is the error, whatever the arguments
    thread_guard::CallUse call(w, thread_guard::Use::kShared, "World.capture_state()");
    if (a[0] != Py_None) {
      if (!PyObject_TypeCheck(a[0], state_type()))
        throw py::value_error("out must be a torsion.WorldState or None, got " +
                              std::string(Py_TYPE(a[0])->tp_name));
      capture_into(w, fastcall::self_as<LeanState>(a[0]));
      Py_INCREF(a[0]);
      return a[0];
    }
    LeanState fresh;
    capture_into(w, fresh);
    return py::cast(std::move(fresh)).release().ptr();
  });
}

PyObject* world_restore_state(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                              PyObject* kwnames) {
  return fastcall::guarded([&]() -> PyObject* {
    static const char* const kNames[] = {"state"};
    static const fastcall::Signature kSig{"restore_state", kNames, 1, 1};
    PyObject* a[1] = {nullptr};
    fastcall::parse_arguments(kSig, args, nargs, kwnames, a);
    World& w = fastcall::self_as<World>(self);
    thread_guard::CallUse call(w, thread_guard::Use::kExclusive, "World.restore_state()");
    if (!PyObject_TypeCheck(a[0], state_type()))
      throw py::type_error("restore_state(): state must be a torsion.WorldState, got " +
                           std::string(Py_TYPE(a[0])->tp_name));
    const LeanState& state = fastcall::self_as<LeanState>(a[0]);
    std::string why;
    {
      ExclusiveWorldUse use(w.use(), "restore_state()");
      if (w.object_count() >= kStateGilObjects) {
        py::gil_scoped_release release;
        why = restore_lean_state(w, state);
      } else {
        why = restore_lean_state(w, state);
      }
    }
    if (!why.empty()) throw std::logic_error("restore_state rejected: " + why);
    Py_RETURN_NONE;
  });
}

template <class F>
PyCFunction as_cfunction(F* f) {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
}

// static: CPython keeps pointers to these definitions for the life of the interpreter
PyMethodDef kStateMethods[] = {
    {"capture_state", as_cfunction(&world_capture_state), METH_FASTCALL | METH_KEYWORDS,
     "capture_state(self: torsion._core.World, out: typing.Any = None) -> typing.Any\n\n"
     "Capture the lean state for resets (a WorldState; see its docstring), into `out` when "
     "given (its buffers are reused: no allocation once they have the size), which is "
     "returned. RuntimeError mid-step.\n"},
    {"restore_state", as_cfunction(&world_restore_state), METH_FASTCALL | METH_KEYWORDS,
     "restore_state(self: torsion._core.World, state: WorldState) -> None\n\n"
     "Restore a WorldState captured from this world or any world of the same topology: the "
     "motion is restored, the configuration kept. RuntimeError giving the reason (mid-step, "
     "empty, another topology), the world unchanged.\n"},
};

// Batched rays: (N, R) rays per call, world i's rays cast in world i. With `articulated`, the
// starts and directions are in a frame of that robot (per world); yaw_only keeps the frame's
// position and heading only (a height scan stays vertical when the base rolls or pitches).
py::array_t<double> batch_ray_test(const BatchPtr& b, py::handle starts, py::handle directions,
                                   py::handle lengths, py::handle mask, py::object articulated,
                                   py::object frame, bool yaw_only, py::object out) {
  const std::size_t n = b->size();
  // the number of rays per world from starts' shape: (N, R, 3) or (R, 3)
  const py::array probe = py::array::ensure(starts);
  PyErr_Clear();
  ssize r = -1;
  if (probe && probe.ndim() == 3) r = probe.shape(1);
  else if (probe && probe.ndim() == 2) r = probe.shape(0);
  if (r < 0)
    throw py::value_error("starts must have shape (N, R, 3) (or (R, 3), the same for every world)" +
                          (probe ? ", got shape " + shape_text(probe) : std::string()));
  const Rows s = input_rows(starts, "starts", static_cast<ssize>(n), {r, 3}, true);
  const Rows d = input_rows(directions, "directions", static_cast<ssize>(n), {r, 3}, true);
  const Rows l = input_rows(lengths, "lengths", static_cast<ssize>(n), {r}, true);
  check_finite_rows(s, n, "starts");
  check_finite_rows(d, n, "directions");
  for (std::size_t i = 0; i < (l.stride == 0 ? 1 : n); ++i)
    for (ssize k = 0; k < r; ++k)
      if (std::isnan(l.row(i)[k]))
        throw py::value_error("lengths must not be NaN (world " + std::to_string(i) + ", ray " +
                              std::to_string(k) + ")");
  RayFilter filter;
  filter.mask = to_group(mask, "collision_mask");
  std::vector<ArticulatedSystem*> sys;
  int fi = -1;
  if (!articulated.is_none()) {
    if (!py::isinstance<py::str>(articulated))
      throw py::value_error("articulated must be the name (str) of a robot in every world, or None");
    const ArticulatedView v = make_view(b, articulated.cast<std::string>());
    sys = v.systems();
    fi = frame.is_none() ? -1 : frame_index(*v.model, frame);
  } else if (!frame.is_none()) {
    throw py::value_error("frame needs articulated (the name of the robot it belongs to)");
  }
  auto a = output_array(out, {static_cast<ssize>(n), r}, "out");
  double* o = a.mutable_data();
  SharedBatchUse use(*b, "ray_test_batch()");
  py::gil_scoped_release release;
  b->for_each([&](std::size_t i) {
    Mat3 rot = Mat3::Identity();
    Vec3 pos = Vec3::Zero();
    if (!sys.empty()) {
      ArticulatedSystem& as = *sys[i];
      as.ensure_kinematics();
      if (fi >= 0) {
        const Pose p = frame_placement(as.model(), as.data(), fi);
        rot = p.rotation, pos = p.position;
      } else {  // the root body
        rot = as.data().body_rotation[0], pos = as.data().body_position[0];
      }
      if (yaw_only) {
        const double yaw = std::atan2(rot(1, 0), rot(0, 0));
        rot = Eigen::AngleAxisd(yaw, Vec3::UnitZ()).toRotationMatrix();
      }
    }
    const std::shared_ptr<const RayScene> scene = b->world(i).ray_scene();
    const double* sp = s.row(i);
    const double* dp = d.row(i);
    const double* lp = l.row(i);
    double* oi = o + static_cast<ssize>(i) * r;
    for (ssize k = 0; k < r; ++k) {
      const Vec3 start = pos + rot * Vec3(sp[3 * k], sp[3 * k + 1], sp[3 * k + 2]);
      const Vec3 dir = normalized_ray_direction(rot * Vec3(dp[3 * k], dp[3 * k + 1], dp[3 * k + 2]));
      RayHit hit;
      oi[k] = scene->cast(start, dir, lp[k], filter, hit) ? hit.distance : kInf;
    }
  });
  return a;
}

}  // namespace

void bind_batch(py::module_& m) {
  bind_articulated_view(m);
  m.def("_thread_pool_workers", [] { return ThreadPool::shared().worker_count(); },
        "Worker threads the shared pool has started so far (for tests: they are reused).");

  py::class_<LeanState>(
      m, "WorldState",
      "A lean state for resets (World.capture_state()): the motion a world carries from step "
      "to step -- time, every body's pose, velocities and pending forces, every robot's gc, gv, "
      "PD targets, feedforward and held efforts, the contact solver's warm starts, sleeping "
      "flags, the sensor noise stream -- without the configuration (materials, settings, "
      "masses, inertias, damping, body types, collision filters, PD gains, effort limits). "
      "Restoring it into a world configured as at capture continues bitwise as after the "
      "capture; it restores into any world of the same topology. Much cheaper than a "
      "Checkpoint; not serialisable (use a Checkpoint for that).")
      .def(py::init<>(), "An empty state (restoring it is rejected); capture into it with "
                         "World.capture_state(out=state).")
      .def("is_empty", &LeanState::empty)
      .def("get_world_time", &LeanState::world_time, "World time (s) at capture.")
      .def("get_topology_fingerprint", &LeanState::topology_fingerprint)
      .def("get_byte_size", &LeanState::byte_size, "Bytes of data it holds.")
      .def("__repr__", [](const LeanState& s) {
        if (s.empty()) return std::string("WorldState(empty)");
        return "WorldState(time=" + fmt(s.world_time()) + ", " + std::to_string(s.byte_size()) +
               " bytes)";
      });

  py::class_<WorldBatch, BatchPtr>(
      m, "WorldBatch",
      "N independent worlds stepped together in C++ on a persistent thread pool (shared with "
      "ray_test_batch and the depth camera), with the GIL released. Every world is stepped by "
      "one thread at a time, so the results are bitwise those of N separate worlds, whatever "
      "the number of threads. world(i) gives each World for set-up and inspection; "
      "articulated(name) reads and writes one robot in every world as (N, ...) arrays.")
      .def(py::init(&make_batch), arg("build"), arg("num_worlds"), arg("num_threads") = 0,
           "Make num_worlds fresh Worlds and call build(world, index) on each (with the GIL). "
           "Every world must end with the same topology (objects, shapes, robots, in the same "
           "order: World.get_topology_fingerprint()); ValueError naming the first that differs. "
           "num_threads: threads used by the batch's calls (0: all cores). Fresh worlds all "
           "start with sensor noise seed 0: set_seeds() gives them independent streams.")
      .def_static("from_world", &batch_from_world, arg("world"), arg("num_worlds"),
                  arg("num_threads") = 0,
                  "num_worlds copies of `world` (objects, settings and state: each copy's "
                  "state_hash() is the source's, and it steps bitwise as the source would). "
                  "Robot models and geometry are shared (they are immutable). The copies "
                  "share the source's sensor noise seed too: set_seeds() gives them "
                  "independent streams.")
      .def("__len__", &WorldBatch::size)
      .def("world", [](const WorldBatch& b, std::int64_t i) {
             const std::int64_t n = static_cast<std::int64_t>(b.size());
             if (i < -n || i >= n)
               throw py::index_error("world index " + std::to_string(i) +
                                     " is out of range for a batch of " + std::to_string(n) +
                                     " worlds");
             return b.world_ptr(static_cast<std::size_t>(i < 0 ? i + n : i)); },
           arg("index"), "The World at this index (negative counts from the end).")
      .def_property("num_threads", &WorldBatch::num_threads, &WorldBatch::set_num_threads,
                    "Threads the batch's calls use (set 0 for all cores).")
      .def("integrate", &batch_integrate, arg("steps") = 1,
           "Advance every world `steps` time steps, in parallel, GIL released (Ctrl-C "
           "interrupts between chunks of 1024 steps). RuntimeError if a world is mid-step or "
           "used by another thread.")
      .def("state_hashes", &batch_state_hashes,
           "World.state_hash() of every world, shape (N,) uint64.")
      .def("articulated", [](const BatchPtr& b, const std::string& name) { return make_view(b, name); },
           arg("name"),
           "An ArticulatedView of the robot named `name` in every world (ValueError if a world "
           "has none or it is another robot).")
      .def("restore", &batch_restore, arg("indices"), arg("checkpoint"),
           "Restore `checkpoint` (a Checkpoint, or a WorldState: the lean, much cheaper reset) "
           "into the worlds `indices` (a 1-D array-like of ints; None: every world). It may "
           "come from any world of the same topology (another world of the batch, its source, "
           "or bytes). RuntimeError naming the world, before any world changes, if one has "
           "another topology or is mid-step.")
      .def("set_seeds", [](WorldBatch& b, py::handle seeds) {
             std::vector<std::uint64_t> s(b.size());
             if (PyLong_Check(seeds.ptr()) && !PyBool_Check(seeds.ptr())) {
               // one base seed: world i gets splitmix64(base + i), independent streams
               const std::uint64_t base = py::reinterpret_borrow<py::int_>(seeds).cast<std::uint64_t>();
               for (std::size_t i = 0; i < s.size(); ++i) {
                 std::uint64_t z = base + 0x9e3779b97f4a7c15ULL * (i + 1);
                 z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
                 z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
                 s[i] = z ^ (z >> 31);
               }
             } else {
               const py::array src = py::array::ensure(seeds);
               PyErr_Clear();
               if (!src || src.ndim() != 1 || src.shape(0) != static_cast<ssize>(b.size()) ||
                   (src.dtype().kind() != 'i' && src.dtype().kind() != 'u'))
                 throw py::value_error("seeds must be an int (a base seed) or an array-like of " +
                                       std::to_string(b.size()) + " ints (one per world)");
               const auto a = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(src);
               std::copy(a.data(), a.data() + b.size(), s.begin());
             }
             ExclusiveBatchUse use(b, "set_seeds()");
             for (std::size_t i = 0; i < s.size(); ++i) b.world(i).set_sensor_noise_seed(s[i]);
           },
           arg("seeds"),
           "Seed every world's sensor noise stream: an int gives world i the seed "
           "splitmix64(seed + (i + 1) * golden ratio), independent streams; an array gives one "
           "seed per world. Read them back with get_seeds() (e.g. to seed numpy Generators for "
           "per-world randomisation).")
      .def("get_seeds", [](WorldBatch& b) {
             py::array_t<std::uint64_t> out(static_cast<ssize>(b.size()));
             for (std::size_t i = 0; i < b.size(); ++i)
               out.mutable_data()[i] = b.world(i).sensor_noise_seed();
             return out; },
           "Every world's sensor noise seed, shape (N,) uint64.")
      .def("get_world_times", [](WorldBatch& b) {
             py::array_t<double> out(static_cast<ssize>(b.size()));
             for (std::size_t i = 0; i < b.size(); ++i) out.mutable_data()[i] = b.world(i).world_time();
             return out; },
           "Every world's time (s), shape (N,).")
      .def("ray_test_batch", &batch_ray_test, arg("starts"), arg("directions"), arg("lengths"),
           arg("collision_mask") = -1, py::kw_only(), arg("articulated") = py::none(),
           arg("frame") = py::none(), arg("yaw_only") = false, arg("out") = py::none(),
           "Cast R rays in every world: starts and directions (N, R, 3) or (R, 3) (the same "
           "for every world), lengths (N, R) or (R,). Returns the hit distances (N, R) (inf "
           "for a miss), as World.ray_test_batch would give per world. With articulated (a "
           "robot name), starts and directions are in the frame `frame` of that robot (name or "
           "index; None: its root body) in each world; yaw_only=True keeps only the frame's "
           "position and heading (a height scan). Parallel on the batch's threads.")
      .def("__repr__", [](const WorldBatch& b) {
        return "<torsion.WorldBatch " + std::to_string(b.size()) + " worlds, " +
               std::to_string(b.num_threads()) + " threads>";
      });
}

void world_methods_batch(WorldClass& world) {
  for (PyMethodDef& def : kStateMethods) fastcall::install_method(world, &def);
  // fast-call methods take the world's use in their body (capture reads, restore writes)
  thread_guard::declare_self_guarded(world, "capture_state", thread_guard::Use::kShared);
  thread_guard::declare_self_guarded(world, "restore_state", thread_guard::Use::kExclusive);
}

}  // namespace torsion::bindings
