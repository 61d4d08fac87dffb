// torsion.WorldBatch (many worlds stepped on the shared thread pool) and torsion.ArticulatedView
// (one robot in every world of a batch, read and written as (N, ...) arrays).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "batch/lean_state.hpp"
#include "batch/world_batch.hpp"
#include "batch/world_copy.hpp"
#include "bindings/articulated_args.hpp"
#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "collision/contact.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/configuration.hpp"
#include "dynamics/articulated/kinematics.hpp"
#include "world/checkpoint.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;
using BatchPtr = std::shared_ptr<WorldBatch>;
using ssize = py::ssize_t;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string shape_text(const std::vector<ssize>& shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k) s += ", ";
    s += std::to_string(shape[k]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string shape_text(const py::array& a) {
  std::vector<ssize> shape(a.shape(), a.shape() + a.ndim());
  return shape_text(shape);
}

// `out` for a result of this shape: a fresh array when out is None, otherwise out itself after
// checking it is a writeable, C-contiguous float64 ndarray of exactly that shape
py::array_t<double> output_array(const py::object& out, const std::vector<ssize>& shape,
                                 const char* name) {
  if (out.is_none()) return py::array_t<double>(shape);
  const std::string want = "a writeable C-contiguous float64 numpy array of shape " + shape_text(shape);
  if (!py::isinstance<py::array>(out))
    throw py::value_error(std::string(name) + " must be " + want + " or None, got " +
                          std::string(py::str(py::type::of(out).attr("__name__"))));
  py::array a = py::reinterpret_borrow<py::array>(out);
  if (!a.dtype().is(py::dtype::of<double>()))
    throw py::value_error(std::string(name) + " must be " + want + ", got dtype " +
                          std::string(py::str(a.dtype())));
  if (!(a.flags() & py::array::c_style))
    throw py::value_error(std::string(name) + " must be " + want + ", got a non-contiguous array");
  if (!a.writeable())
    throw py::value_error(std::string(name) + " must be " + want + ", got a read-only array");
  if (a.ndim() != static_cast<ssize>(shape.size()) ||
      !std::equal(shape.begin(), shape.end(), a.shape()))
    throw py::value_error(std::string(name) + " must be " + want + ", got shape " + shape_text(a));
  return py::reinterpret_borrow<py::array_t<double>>(out);
}

// An input of shape (N, *tail), or of shape tail (the same values for every world) when
// `broadcast`: row(i) points at world i's values.
struct Rows {
  py::array_t<double, py::array::c_style | py::array::forcecast> array;
  ssize stride = 0;  // doubles from one world's row to the next (0: broadcast)
  ssize width = 0;   // doubles per row
  const double* row(std::size_t i) const { return array.data() + stride * static_cast<ssize>(i); }
};

Rows input_rows(py::handle obj, const char* name, ssize n, const std::vector<ssize>& tail,
                bool broadcast) {
  std::vector<ssize> full{n};
  full.insert(full.end(), tail.begin(), tail.end());
  std::string want = "shape " + shape_text(full);
  if (broadcast) want += " (or " + shape_text(tail) + ", the same for every world)";
  Rows r;
  r.array = to_float_array(obj, name, want.c_str());
  r.width = 1;
  for (ssize t : tail) r.width *= t;
  const auto& a = r.array;
  const auto matches = [&](const std::vector<ssize>& shape) {
    return a.ndim() == static_cast<ssize>(shape.size()) &&
           std::equal(shape.begin(), shape.end(), a.shape());
  };
  if (matches(full)) {
    r.stride = r.width;
  } else if (broadcast && matches(tail)) {
    r.stride = 0;
  } else {
    throw py::value_error(std::string(name) + " must have " + want + ", got shape " +
                          shape_text(a));
  }
  return r;
}

// every value of the rows finite; ValueError naming the argument and the world otherwise
void check_finite_rows(const Rows& r, std::size_t n, const char* name) {
  const std::size_t rows = r.stride == 0 ? 1 : n;
  for (std::size_t i = 0; i < rows; ++i) {
    const double* p = r.row(i);
    for (ssize k = 0; k < r.width; ++k)
      if (!std::isfinite(p[k]))
        throw py::value_error(std::string(name) + " must be finite; " +
                              (r.stride == 0 ? std::string("entry ") + std::to_string(k)
                                             : "row " + std::to_string(i) + ", entry " +
                                                   std::to_string(k)) +
                              " is " + fmt(p[k]));
  }
}

// indices of worlds: a 1-D array-like of ints, each in [0, n) (negative ones count from the end)
std::vector<std::int64_t> world_indices(py::handle obj, std::size_t n, const char* name) {
  const py::array src = py::array::ensure(obj);
  if (src && src.ndim() == 1 && src.size() == 0) return {};  // [] is float64 to NumPy
  if (!src || src.ndim() != 1 || (src.dtype().kind() != 'i' && src.dtype().kind() != 'u'))
    throw py::value_error(std::string(name) + " must be a 1-D array-like of world indices (ints)" +
                          (src ? ", got shape " + shape_text(src) + " of dtype " +
                                     std::string(py::str(src.dtype()))
                               : std::string()));
  PyErr_Clear();
  const auto a = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(src);
  if (!a) throw py::value_error(std::string(name) + " must hold ints that fit in 64 bits");
  std::vector<std::int64_t> out(a.data(), a.data() + a.size());
  const std::int64_t count = static_cast<std::int64_t>(n);
  for (std::size_t k = 0; k < out.size(); ++k) {
    std::int64_t i = out[k];
    if (src.dtype().kind() == 'u' && i < 0) i = count;  // past 2**63: out of range
    if (i < 0) i += count;
    if (i < 0 || i >= count)
      throw py::index_error(std::string(name) + "[" + std::to_string(k) + "] = " +
                            std::to_string(out[k]) + " is out of range for a batch of " +
                            std::to_string(n) + " worlds");
    out[k] = i;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ArticulatedView

struct ArticulatedView {
  BatchPtr batch;
  std::string name;
  ObjectId id = 0;
  int nq = 0, nv = 0;
  std::size_t frames = 0, bodies = 0;
  std::shared_ptr<const ArticulatedModel> model;  // world 0's (names of frames and bodies)

  std::size_t size() const { return batch->size(); }

  // the system in every world, checked to be the one the view was made for
  std::vector<ArticulatedSystem*> systems() const {
    std::vector<ArticulatedSystem*> out(batch->size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      Object* o = batch->world(i).find_object(id);
      if (o == nullptr || o->type() != ObjectType::kArticulatedSystem)
        throw RemovedObjectError("world " + std::to_string(i) + ": the articulated system '" +
                                 name + "' (id " + std::to_string(id) +
                                 ") has been removed; make a new view");
      auto* a = static_cast<ArticulatedSystem*>(o);
      if (a->gc_dim() != nq || a->dof() != nv)
        throw std::logic_error("world " + std::to_string(i) + ": object id " + std::to_string(id) +
                               " is no longer the robot this view was made for");
      out[i] = a;
    }
    return out;
  }

  std::vector<int> frame_indices(py::handle frames_arg) const {
    std::vector<int> out;
    if (py::isinstance<py::str>(frames_arg) || !py::hasattr(frames_arg, "__iter__"))
      throw py::value_error("frames must be a sequence of frame names (str) or indices (int)");
    for (py::handle f : frames_arg) out.push_back(frame_index(*model, f));
    return out;
  }

  std::vector<int> body_indices(py::handle bodies_arg) const {
    std::vector<int> out;
    if (py::isinstance<py::str>(bodies_arg) || !py::hasattr(bodies_arg, "__iter__"))
      throw py::value_error("bodies must be a sequence of body names (str) or indices (int)");
    for (py::handle b : bodies_arg) {
      if (py::isinstance<py::str>(b)) {
        const int i = model->find_body(b.cast<std::string>());
        if (i < 0)
          throw py::value_error("bodies: unknown body name '" + b.cast<std::string>() + "'");
        out.push_back(i);
      } else if (const auto i = to_index(b, model->bodies.size(), "body")) {
        out.push_back(static_cast<int>(*i));
      } else {
        throw py::value_error("bodies must hold body names (str) or indices (int)");
      }
    }
    return out;
  }
};

ArticulatedView make_view(const BatchPtr& batch, const std::string& name) {
  ArticulatedView v;
  v.batch = batch;
  v.name = name;
  for (std::size_t i = 0; i < batch->size(); ++i) {
    Object* o = batch->world(i).find_object(name);
    if (o == nullptr)
      throw py::value_error("name: world " + std::to_string(i) + " has no object named '" + name + "'");
    if (o->type() != ObjectType::kArticulatedSystem)
      throw py::value_error("name: object '" + name + "' of world " + std::to_string(i) +
                            " is a " + object_type_name(o->type()) + ", not an articulated system");
    const auto& a = static_cast<const ArticulatedSystem&>(*o);
    if (i == 0) {
      v.id = a.id();
      v.nq = a.gc_dim();
      v.nv = a.dof();
      v.model = a.model_ptr();
      v.frames = a.model().frames.size();
      v.bodies = a.model().bodies.size();
    } else if (a.id() != v.id || a.gc_dim() != v.nq || a.dof() != v.nv ||
               a.model().frames.size() != v.frames || a.model().bodies.size() != v.bodies) {
      throw py::value_error("name: '" + name + "' in world " + std::to_string(i) +
                            " is not the same robot as in world 0 (id, gc/gv sizes, frames or "
                            "bodies differ)");
    }
  }
  return v;
}

// gc / gv of every world into an (N, n) array
py::array_t<double> get_rows(const ArticulatedView& v, const py::object& out, bool velocities,
                             const char* what) {
  const int n = velocities ? v.nv : v.nq;
  auto a = output_array(out, {static_cast<ssize>(v.size()), n}, "out");
  const auto sys = v.systems();
  SharedBatchUse use(*v.batch, what);
  double* o = a.mutable_data();
  for (std::size_t i = 0; i < sys.size(); ++i) {
    const VecX& x = velocities ? sys[i]->data().u : sys[i]->data().q;
    std::copy(x.data(), x.data() + n, o + i * static_cast<std::size_t>(n));
  }
  return a;
}

using ConstMap = Eigen::Map<const VecX>;

void set_pd_targets(const ArticulatedView& v, py::handle positions, py::handle velocities) {
  const std::size_t n = v.size();
  const Rows q = input_rows(positions, "positions", static_cast<ssize>(n), {v.nq}, true);
  check_finite_rows(q, n, "positions");
  Rows u;
  const VecX zeros = VecX::Zero(v.nv);
  const bool has_u = !velocities.is_none();
  if (has_u) {
    u = input_rows(velocities, "velocities", static_cast<ssize>(n), {v.nv}, true);
    check_finite_rows(u, n, "velocities");
  }
  // a spherical joint's target quaternion may not be zero (as set_pd_target), checked for every
  // world before any is changed
  for (std::size_t i = 0; i < (q.stride == 0 ? 1 : n); ++i)
    check_quaternions(*v.model, ConstMap(q.row(i), v.nq),
                      ("positions (world " + std::to_string(i) + ")").c_str(), true);
  const auto sys = v.systems();
  ExclusiveBatchUse use(*v.batch, "set_pd_targets()");
  for (std::size_t i = 0; i < n; ++i)
    sys[i]->set_pd_target(ConstMap(q.row(i), v.nq),
                          has_u ? ConstMap(u.row(i), v.nv) : ConstMap(zeros.data(), v.nv));
}

void set_pd_gains(const ArticulatedView& v, py::handle kp_arg, py::handle kd_arg) {
  const std::size_t n = v.size();
  const Rows kp = input_rows(kp_arg, "kp", static_cast<ssize>(n), {v.nv}, true);
  const Rows kd = input_rows(kd_arg, "kd", static_cast<ssize>(n), {v.nv}, true);
  for (const auto* r : {&kp, &kd}) {
    const char* name = r == &kp ? "kp" : "kd";
    check_finite_rows(*r, n, name);
    for (std::size_t i = 0; i < (r->stride == 0 ? 1 : n); ++i)
      for (int k = 0; k < v.nv; ++k)
        if (r->row(i)[k] < 0.0)
          throw py::value_error(std::string(name) + " must be >= 0; world " + std::to_string(i) +
                                ", dof " + std::to_string(k) + " is " + fmt(r->row(i)[k]));
  }
  const auto sys = v.systems();
  ExclusiveBatchUse use(*v.batch, "set_pd_gains()");
  for (std::size_t i = 0; i < n; ++i)
    sys[i]->set_pd_gains(ConstMap(kp.row(i), v.nv), ConstMap(kd.row(i), v.nv));
}

void set_generalized_forces(const ArticulatedView& v, py::handle tau_arg) {
  const std::size_t n = v.size();
  const Rows tau = input_rows(tau_arg, "tau", static_cast<ssize>(n), {v.nv}, true);
  check_finite_rows(tau, n, "tau");
  const auto sys = v.systems();
  ExclusiveBatchUse use(*v.batch, "set_generalized_forces()");
  for (std::size_t i = 0; i < n; ++i) sys[i]->set_generalized_force(ConstMap(tau.row(i), v.nv));
}

void set_states(const ArticulatedView& v, py::handle indices_arg, py::handle gc_arg,
                py::handle gv_arg) {
  std::vector<std::int64_t> idx;
  if (indices_arg.is_none()) {
    idx.resize(v.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<std::int64_t>(i);
  } else {
    idx = world_indices(indices_arg, v.size(), "indices");
  }
  const std::size_t k = idx.size();
  const Rows q = input_rows(gc_arg, "gc", static_cast<ssize>(k), {v.nq}, false);
  const Rows u = input_rows(gv_arg, "gv", static_cast<ssize>(k), {v.nv}, false);
  check_finite_rows(q, k, "gc");
  check_finite_rows(u, k, "gv");
  for (std::size_t j = 0; j < k; ++j)
    check_quaternions(*v.model, ConstMap(q.row(j), v.nq),
                      ("gc (row " + std::to_string(j) + ")").c_str());
  const auto sys = v.systems();
  for (std::size_t j = 0; j < k; ++j)
    if (v.batch->world(static_cast<std::size_t>(idx[j])).is_mid_step())
      throw std::logic_error("set_states(): world " + std::to_string(idx[j]) +
                             " is between integrate1() and integrate2()");
  ExclusiveBatchUse use(*v.batch, idx.data(), k, "set_states()");
  for (std::size_t j = 0; j < k; ++j)
    sys[static_cast<std::size_t>(idx[j])]->set_state(ConstMap(q.row(j), v.nq),
                                                     ConstMap(u.row(j), v.nv));
}

// a per-frame quantity of `width` doubles (what(system, frame, dst)) for every world and frame,
// shape (N, F, *tail); the worlds in parallel (each task touches its own world only)
template <class What>
py::array_t<double> frame_quantity(const ArticulatedView& v, py::handle frames,
                                   const py::object& out, std::vector<ssize> tail,
                                   const char* what_name, What what) {
  const std::vector<int> f = v.frame_indices(frames);
  const ssize nf = static_cast<ssize>(f.size());
  ssize width = 1;
  for (ssize t : tail) width *= t;
  std::vector<ssize> shape{static_cast<ssize>(v.size()), nf};
  shape.insert(shape.end(), tail.begin(), tail.end());
  auto a = output_array(out, shape, "out");
  const auto sys = v.systems();
  double* o = a.mutable_data();
  SharedBatchUse use(*v.batch, what_name);
  py::gil_scoped_release release;
  v.batch->for_each([&](std::size_t i) {
    ArticulatedSystem& s = *sys[i];
    for (ssize j = 0; j < nf; ++j)
      what(s, f[static_cast<std::size_t>(j)], o + (static_cast<ssize>(i) * nf + j) * width);
  });
  return a;
}

void put3(double* d, const Vec3& x) { d[0] = x.x(), d[1] = x.y(), d[2] = x.z(); }

py::array_t<double> get_frame_positions(const ArticulatedView& v, py::handle frames,
                                        const py::object& out) {
  return frame_quantity(v, frames, out, {3}, "get_frame_positions()",
                        [](ArticulatedSystem& s, int f, double* d) {
                          s.ensure_kinematics();
                          put3(d, frame_placement(s.model(), s.data(), f).position);
                        });
}

py::array_t<double> get_frame_orientations(const ArticulatedView& v, py::handle frames,
                                           const py::object& out) {
  return frame_quantity(v, frames, out, {3, 3}, "get_frame_orientations()",
                        [](ArticulatedSystem& s, int f, double* d) {
                          s.ensure_kinematics();
                          const Mat3 r = frame_placement(s.model(), s.data(), f).rotation;
                          for (int row = 0; row < 3; ++row)
                            for (int col = 0; col < 3; ++col) d[3 * row + col] = r(row, col);
                        });
}

py::array_t<double> get_frame_velocities(const ArticulatedView& v, py::handle frames,
                                         const py::object& out) {
  return frame_quantity(v, frames, out, {3}, "get_frame_velocities()",
                        [](ArticulatedSystem& s, int f, double* d) {
                          s.ensure_velocities();  // (and the kinematics)
                          const int b = s.model().frames[f].body;
                          put3(d, body_point_velocity(
                                      s.data(), b, frame_placement(s.model(), s.data(), f).position));
                        });
}

py::array_t<double> get_frame_angular_velocities(const ArticulatedView& v, py::handle frames,
                                                 const py::object& out) {
  return frame_quantity(v, frames, out, {3}, "get_frame_angular_velocities()",
                        [](ArticulatedSystem& s, int f, double* d) {
                          s.ensure_velocities();
                          put3(d, body_angular_velocity(s.data(), s.model().frames[f].body));
                        });
}

py::array_t<double> get_contact_forces(const ArticulatedView& v, py::handle bodies,
                                       const py::object& out) {
  const std::vector<int> b = v.body_indices(bodies);
  const ssize nb = static_cast<ssize>(b.size());
  auto a = output_array(out, {static_cast<ssize>(v.size()), nb, 3}, "out");
  const auto sys = v.systems();
  double* o = a.mutable_data();
  SharedBatchUse use(*v.batch, "get_contact_forces()");
  py::gil_scoped_release release;
  v.batch->for_each([&](std::size_t i) {
    const World& w = v.batch->world(i);
    const std::uint32_t me = static_cast<std::uint32_t>(sys[i]->index_in_world());
    double* d = o + static_cast<ssize>(i) * nb * 3;
    std::fill(d, d + nb * 3, 0.0);
    const double dt = w.time_step();
    // in contact order, A's side then B's, as Object.get_contacts() lists them
    for (const Contact& c : w.contacts()) {
      if (c.object_a != me && c.object_b != me) continue;
      const Vec3 f = contact_frame(c.normal).transpose() * c.impulse / dt;
      for (int side = 0; side < 2; ++side) {
        const bool is_a = side == 0;
        if ((is_a ? c.object_a : c.object_b) != me) continue;
        const int local = static_cast<int>(is_a ? c.local_a : c.local_b);
        const Vec3 fb = is_a ? f : Vec3(-f);
        for (ssize j = 0; j < nb; ++j)
          if (b[static_cast<std::size_t>(j)] == local)
            for (int k = 0; k < 3; ++k) d[j * 3 + k] += fb[k];
      }
    }
  });
  return a;
}

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

LeanState* capture_state(World& w, py::object out, LeanState& fresh) {
  LeanState* target = &fresh;
  if (!out.is_none()) {
    if (!py::isinstance<LeanState>(out))
      throw py::value_error("out must be a torsion.WorldState or None, got " +
                            std::string(py::str(py::type::of(out).attr("__name__"))));
    target = &out.cast<LeanState&>();
  }
  SharedWorldUse use(w.use(), "capture_state()");
  if (w.object_count() >= kStateGilObjects) {
    py::gil_scoped_release release;
    capture_lean_state(w, *target);
  } else {
    capture_lean_state(w, *target);
  }
  return target;
}

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
        const Placement p = frame_placement(as.model(), as.data(), fi);
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
  py::class_<ArticulatedView>(
      m, "ArticulatedView",
      "One robot (found by name) in every world of a WorldBatch, read and written as (N, ...) "
      "float64 arrays without per-world Python (WorldBatch.articulated(name)). Getters write "
      "into `out` when given (a writeable C-contiguous float64 array of the exact shape, "
      "returned) or return a fresh array. Setters take (N, ...) arrays, or one row for every "
      "world where stated; every argument is checked (shape, finite values) before any world "
      "changes. Values are those of the per-world ArticulatedSystem calls, bit for bit.")
      .def_property_readonly("name", [](const ArticulatedView& v) { return v.name; })
      .def_property_readonly("object_id", [](const ArticulatedView& v) { return v.id; },
                             "Stable id of the robot (the same in every world).")
      .def_property_readonly("dof", [](const ArticulatedView& v) { return v.nv; })
      .def_property_readonly("gc_dim", [](const ArticulatedView& v) { return v.nq; })
      .def("__len__", &ArticulatedView::size)
      .def("get_generalized_coordinates",
           [](const ArticulatedView& v, const py::object& out) {
             return get_rows(v, out, false, "get_generalized_coordinates()"); },
           arg("out") = py::none(), "gc of every world, shape (N, gc_dim).")
      .def("get_generalized_velocities",
           [](const ArticulatedView& v, const py::object& out) {
             return get_rows(v, out, true, "get_generalized_velocities()"); },
           arg("out") = py::none(), "gv of every world, shape (N, dof).")
      .def("set_pd_targets", &set_pd_targets, arg("positions"), arg("velocities") = py::none(),
           "PD targets of every world: positions (N, gc_dim) in gc layout, velocities (N, dof) "
           "(None: zero); either may be one row for every world. As set_pd_target per world.")
      .def("set_pd_gains", &set_pd_gains, arg("kp"), arg("kd"),
           "PD gains of every world, kp and kd (N, dof) or (dof,), finite and >= 0 (the "
           "floating base's six are forced to zero). Switches to PD_PLUS_FEEDFORWARD_TORQUE.")
      .def("set_generalized_forces", &set_generalized_forces, arg("tau"),
           "Feedforward generalized forces of every world, (N, dof) or (dof,) (N m or N). "
           "Persistent, as set_generalized_force.")
      .def("set_states", &set_states, arg("indices"), arg("gc"), arg("gv"),
           "Set gc and gv of the worlds `indices` (K,) (None: every world): gc (K, gc_dim), gv "
           "(K, dof), row k for world indices[k] (quaternions are normalised). RuntimeError "
           "mid-step.")
      .def("get_frame_positions", &get_frame_positions, arg("frames"), arg("out") = py::none(),
           "Origins of `frames` (a sequence of frame names or indices) in every world, world "
           "frame (m), shape (N, F, 3).")
      .def("get_frame_orientations", &get_frame_orientations, arg("frames"),
           arg("out") = py::none(),
           "Rotation matrices (frame to world) of `frames` in every world, shape (N, F, 3, 3).")
      .def("get_frame_velocities", &get_frame_velocities, arg("frames"), arg("out") = py::none(),
           "Linear velocities of the origins of `frames` in every world, world frame (m/s), "
           "shape (N, F, 3).")
      .def("get_frame_angular_velocities", &get_frame_angular_velocities, arg("frames"),
           arg("out") = py::none(),
           "Angular velocities of `frames` in every world, world frame (rad/s), shape (N, F, 3).")
      .def("get_contact_forces", &get_contact_forces, arg("bodies"), arg("out") = py::none(),
           "Net contact force (N, world frame) on each of `bodies` (body names or indices) in "
           "every world, from the contacts of the last step: the sum of the `force` column of "
           "Object.get_contacts() over that body's rows. Shape (N, B, 3).")
      .def("__repr__", [](const ArticulatedView& v) {
        return "<torsion.ArticulatedView '" + v.name + "' x " + std::to_string(v.size()) +
               " worlds, dof " + std::to_string(v.nv) + ">";
      });

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

  auto world = py::reinterpret_borrow<py::class_<World, WorldPtr>>(m.attr("World"));
  world.def("capture_state", [](World& w, py::object out) -> py::object {
        LeanState fresh;
        LeanState* s = capture_state(w, out, fresh);
        if (s != &fresh) return out;
        return py::cast(std::move(fresh));
      },
      arg("out") = py::none(),
      "Capture the lean state for resets (a WorldState; see its docstring), into `out` when "
      "given (its buffers are reused: no allocation once they have the size), which is "
      "returned. RuntimeError mid-step.");
  world.def("restore_state", [](World& w, const LeanState& s) {
        std::string why;
        {
          ExclusiveWorldUse use(w.use(), "restore_state()");
          if (w.object_count() >= kStateGilObjects) {
            py::gil_scoped_release release;
            why = restore_lean_state(w, s);
          } else {
            why = restore_lean_state(w, s);
          }
        }
        if (!why.empty()) throw std::logic_error("restore_state rejected: " + why); },
      arg("state"),
      "Restore a WorldState captured from this world or any world of the same topology: the "
      "motion is restored, the configuration kept. RuntimeError giving the reason (mid-step, "
      "empty, another topology), the world unchanged.");

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
           "num_threads: threads used by the batch's calls (0: all cores).")
      .def_static("from_world", &batch_from_world, arg("world"), arg("num_worlds"),
                  arg("num_threads") = 0,
                  "num_worlds copies of `world` (objects, settings and state: each copy's "
                  "state_hash() is the source's, and it steps bitwise as the source would). "
                  "Robot models and geometry are shared (they are immutable).")
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

}  // namespace torsion::bindings
