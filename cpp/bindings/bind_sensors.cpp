// torsion._core._HalActuatorPlan and _HalSensorPlan: the HAL bridge's per-cycle work
// (world/sensor_plan.hpp) bound for torsion.hal.Simulation, which builds them from a device
// description once and then makes one call per side per HAL cycle; and _hal_write_commands,
// _hal_read_commands, _hal_write_sensors, _hal_read_sensors: the sequence-locked copies of the
// HAL's shared memory blocks (torsion.hal.shm) that both sides make every cycle. Internal to torsion.hal
// (hence the leading underscore); every argument is still checked (ValueError / TypeError
// naming it), and a plan whose robot was removed raises RemovedObjectError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#include <immintrin.h>
#endif

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "world/sensor_plan.hpp"

namespace torsion::bindings {

namespace {

using py::arg;
using py_convert::to_mat3;
using py_convert::to_rows;
using py_convert::to_vec3;

// the data of a C-contiguous float64 array of shape (n,) (writable if `writable`), used in
// place; TypeError / ValueError naming `name` otherwise
double* vector_buffer(py::handle obj, py::ssize_t n, const char* name, bool writable) {
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(std::string(name) + " must be a NumPy float64 array of shape (" + std::to_string(n) +
                         ",), got " + std::string(py::str(py::type::of(obj).attr("__name__"))));
  auto a = py::reinterpret_borrow<py::array>(obj);
  if (!a.dtype().is(py::dtype::of<double>()) || a.ndim() != 1 || a.shape(0) != n ||
      !(a.flags() & py::array::c_style) || (writable && !a.writeable()))
    throw py::value_error(std::string(name) + " must be a " + (writable ? "writable " : "") +
                          "C-contiguous float64 array of shape (" + std::to_string(n) + ",), got dtype " +
                          std::string(py::str(a.dtype())) + ", shape " + std::string(py::str(py::tuple(a.attr("shape")))));
  return static_cast<double*>(a.mutable_data());
}

std::vector<double> to_doubles(py::handle obj, const char* name) {
  auto a = to_rows(obj, name, -1, 0);
  return std::vector<double>(a.data(), a.data() + a.shape(0));
}

std::vector<int> to_ints(py::handle obj, const char* name) {
  std::vector<int> out;
  for (py::handle h : py::iter(obj)) {
    if (PyBool_Check(h.ptr()) || !(PyLong_Check(h.ptr()) || py::hasattr(h, "__index__")))
      throw py::type_error(std::string(name) + " must hold integers");
    const long long v = py::int_(py::reinterpret_borrow<py::object>(h)).cast<long long>();
    if (v < -(1LL << 31) || v >= (1LL << 31)) throw py::value_error(std::string(name) + " holds an integer out of range");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

// appends an entry to a plan and checks the whole plan; the entry is dropped again if invalid
template <class Plan, class Vec, class T>
void add_checked(Plan& plan, Vec& list, T entry, const ArticulatedSystem& s) {
  list.push_back(std::move(entry));
  try {
    plan.check(s);
  } catch (...) {
    list.pop_back();
    throw;
  }
}

// --- the HAL's sequence locks (python/torsion/hal/shm.py): one writer makes a block's first
// word odd, writes, makes it even again; a reader copies between two loads of the word and
// retries while it is odd or has moved. Here with the fences the protocol needs on any
// processor (release before the closing store, acquire after the copy), not only on x86-64's
// ordered loads and stores that the NumPy version relies on.

// how many items an array must have: exactly n, or at least n
struct Count {
  py::ssize_t n;
  bool at_least;
};
Count exactly(py::ssize_t n) { return {n, false}; }
Count at_least(py::ssize_t n) { return {n, true}; }

// the data of a C-contiguous, aligned array of 8-byte items of the NumPy kind `kind` ('u'
// uint64, 'f' float64), writable if asked; its item count into *size
void* words_of(py::handle obj, Count want, char kind, bool writable, const char* name, py::ssize_t* size = nullptr) {
  const py::ssize_t n = want.n;
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(std::string(name) + " must be a NumPy array, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  auto a = py::reinterpret_borrow<py::array>(obj);
  const py::ssize_t count = a.size();
  const bool size_ok = want.at_least ? count >= n : count == n;
  if (a.dtype().kind() != kind || a.itemsize() != 8 || !(a.flags() & py::array::c_style) || !size_ok ||
      (writable && !a.writeable()) || reinterpret_cast<std::uintptr_t>(a.data()) % 8 != 0)
    throw py::value_error(std::string(name) + " must be a " + (writable ? "writable " : "") + "C-contiguous, aligned " +
                          (kind == 'u' ? "uint64" : "float64") + " array of " +
                          (want.at_least ? "at least " : "") + std::to_string(n) + " items, got dtype " +
                          std::string(py::str(a.dtype())) + ", size " + std::to_string(count));
  if (size) *size = count;
  return const_cast<void*>(a.data());
}

inline std::uint64_t load_acquire(const std::uint64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
inline std::uint64_t load_relaxed(const std::uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
inline void store_relaxed(std::uint64_t* p, std::uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
inline void store_release(std::uint64_t* p, std::uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

// one writer's update of a block: `body` runs between the odd and the even store
template <class Body>
void seq_write(std::uint64_t* head, Body&& body) {
  const std::uint64_t s = load_relaxed(head);
  store_relaxed(head, s + 1);                   // odd: writing
  __atomic_thread_fence(__ATOMIC_RELEASE);      // no data store moves before it
  body();
  store_release(head, s + 2);                   // even: consistent; every data store before it
}

// up to `tries` attempts at a consistent copy; false if the block stayed odd or kept moving
// (the caller then waits with its own timeout and dead-writer handling)
template <class Body>
bool seq_read(const std::uint64_t* head, int tries, Body&& body) {
  for (int k = 0; k < tries; ++k) {
    const std::uint64_t s1 = load_acquire(head);
    if (s1 & 1) continue;
    body();
    __atomic_thread_fence(__ATOMIC_ACQUIRE);  // the copy's loads happen before the second load
    if (load_relaxed(head) == s1) return true;
  }
  return false;
}

constexpr int kReadTries = 64;

// a spin-wait's pause between two loads: PAUSE (x86) / YIELD (arm64) tell the core it is
// spinning, which leaves its execution resources to a sibling hardware thread (another
// process's physics may run there) and saves power
inline void cpu_relax() {
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
  _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

// waits until *word differs from `last`: first spinning (loads with cpu_relax between them) for
// up to spin_seconds, then sleeping in steps growing from 20 us to 1 ms; gives up after
// max_seconds in all. True when the word changed. The other side of the HAL writes the word from
// another process; the caller releases the GIL around this.
bool wait_word_change(const std::uint64_t* word, std::uint64_t last, double spin_seconds, double max_seconds) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto end = start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(max_seconds));
  const auto spin_end =
      start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(std::min(spin_seconds, max_seconds)));
  for (;;) {
    for (int k = 0; k < 32; ++k) {  // ~1 us of loads between two clock reads
      if (load_acquire(word) != last) return true;
      cpu_relax();
    }
    if (clock::now() >= spin_end) break;
  }
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    if (load_acquire(word) != last) return true;
    const auto now = clock::now();
    if (now >= end) return false;
    std::this_thread::sleep_for(std::min<clock::duration>(pause, end - now));
    pause = std::min(pause + std::chrono::microseconds(20), std::chrono::microseconds(1000));
  }
}

struct PyActuatorPlan {
  ArticulatedSystemHandle robot;
  HalActuatorPlan plan;
};

struct PySensorPlan {
  ArticulatedSystemHandle robot;
  HalSensorPlan plan;
};

}  // namespace

void bind_sensors(py::module_& m) {
  // --- sequence-locked copies of the HAL's blocks (shm.py documents the layout)
  m.def("_hal_write_commands", [](py::handle head, py::handle cmd, py::handle values, py::handle stiffness) {
          py::ssize_t n2 = 0;
          auto* h = static_cast<std::uint64_t*>(words_of(head, at_least(3), 'u', true, "head"));
          auto* c = static_cast<double*>(words_of(cmd, at_least(2), 'f', true, "cmd", &n2));
          if (n2 % 2) throw py::value_error("cmd must hold 2 rows of the same length");
          const py::ssize_t n = n2 / 2;
          const auto* v = static_cast<const double*>(words_of(values, exactly(n), 'f', false, "values"));
          const auto* st = static_cast<const double*>(words_of(stiffness, exactly(n), 'f', false, "stiffness"));
          // the values must be finite (stiffness may be NaN: an LED's); checked before writing
          std::string bad;
          for (py::ssize_t i = 0; i < n; ++i)
            if (!std::isfinite(v[i])) bad += (bad.empty() ? "" : ", ") + std::to_string(i);
          if (!bad.empty()) throw py::value_error("values must be finite, got non-finite entries at [" + bad + "]");
          std::uint64_t counter = 0;
          seq_write(h, [&] {
            std::memcpy(c, v, sizeof(double) * n);
            std::memcpy(c + n, st, sizeof(double) * n);
            counter = load_relaxed(h + 1) + 1;  // C_COUNTER: the command counter
            store_relaxed(h + 1, counter);
          });
          return counter; },
        arg("head"), arg("cmd"), arg("values"), arg("stiffness"),
        "The robot side's command write: values (finite, else ValueError and nothing written) and "
        "stiffness into the (2, n) block cmd, the command counter (head word 1) incremented, under "
        "the block's sequence lock (head word 0). Returns the new counter.");
  m.def("_hal_read_commands", [](py::handle head, py::handle cmd, py::handle out) -> py::object {
          py::ssize_t n = 0;
          const auto* h = static_cast<const std::uint64_t*>(words_of(head, at_least(3), 'u', false, "head"));
          const auto* c = static_cast<const double*>(words_of(cmd, at_least(2), 'f', false, "cmd", &n));
          auto* o = static_cast<double*>(words_of(out, exactly(n), 'f', true, "out"));
          std::uint64_t counter = 0;
          const bool ok = seq_read(h, kReadTries, [&] {
            std::memcpy(o, c, sizeof(double) * n);
            counter = load_relaxed(h + 1);
          });
          if (!ok) return py::none();
          return py::int_(counter); },
        arg("head"), arg("cmd"), arg("out"),
        "The simulator side's command read: a consistent copy of cmd into out and the command "
        "counter (head word 1); None if the block was being written for every try.");
  m.def("_hal_write_sensors", [](py::handle head, py::handle sens, py::handle values, std::uint64_t cycle,
                                 std::uint64_t applied, double time) {
          py::ssize_t n = 0;
          auto* h = static_cast<std::uint64_t*>(words_of(head, at_least(4), 'u', true, "head"));
          auto* s = static_cast<double*>(words_of(sens, at_least(0), 'f', true, "sens", &n));
          const auto* v = static_cast<const double*>(words_of(values, exactly(n), 'f', false, "values"));
          std::uint64_t time_bits;
          std::memcpy(&time_bits, &time, sizeof time_bits);
          seq_write(h, [&] {
            std::memcpy(s, v, sizeof(double) * n);
            store_relaxed(h + 1, cycle);      // S_CYCLE
            store_relaxed(h + 2, applied);    // S_APPLIED
            store_relaxed(h + 3, time_bits);  // S_TIME (float64 bits)
          }); },
        arg("head"), arg("sens"), arg("values"), arg("cycle"), arg("applied"), arg("time"),
        "The simulator side's sensor write: values into sens, the cycle, the applied command "
        "counter and the simulation time into head words 1-3, under the sequence lock.");
  m.def("_hal_read_sensors", [](py::handle head, py::handle sens, py::handle out) -> py::object {
          py::ssize_t n = 0;
          const auto* h = static_cast<const std::uint64_t*>(words_of(head, at_least(4), 'u', false, "head"));
          const auto* s = static_cast<const double*>(words_of(sens, at_least(0), 'f', false, "sens", &n));
          auto* o = static_cast<double*>(words_of(out, exactly(n), 'f', true, "out"));
          std::uint64_t cycle = 0, applied = 0, time_bits = 0;
          const bool ok = seq_read(h, kReadTries, [&] {
            std::memcpy(o, s, sizeof(double) * n);
            cycle = load_relaxed(h + 1);
            applied = load_relaxed(h + 2);
            time_bits = load_relaxed(h + 3);
          });
          if (!ok) return py::none();
          double time;
          std::memcpy(&time, &time_bits, sizeof time);
          return py::make_tuple(cycle, applied, time); },
        arg("head"), arg("sens"), arg("out"),
        "The robot side's sensor read: a consistent copy of sens into out and (cycle, applied "
        "command counter, simulation time); None if the block was being written for every try.");

  m.def("_hal_wait_change", [](py::handle head, py::ssize_t word, std::uint64_t last, double spin_seconds,
                               double max_seconds) {
          if (word < 0) throw py::value_error("word must be >= 0, got " + std::to_string(word));
          const auto* h = static_cast<const std::uint64_t*>(words_of(head, at_least(word + 1), 'u', false, "head"));
          if (!(std::isfinite(spin_seconds) && spin_seconds >= 0.0))
            throw py::value_error("spin_seconds must be a finite number >= 0, got " + std::to_string(spin_seconds));
          if (!(std::isfinite(max_seconds) && max_seconds >= 0.0 && max_seconds <= 3600.0))
            throw py::value_error("max_seconds must be a finite number in [0, 3600], got " + std::to_string(max_seconds));
          py::gil_scoped_release release;  // the other threads of this process run meanwhile
          return wait_word_change(h + word, last, spin_seconds, max_seconds); },
        arg("head"), arg("word"), arg("last"), arg("spin_seconds"), arg("max_seconds"),
        "Wait until head[word] differs from last (a counter the other side of the HAL bumps), the "
        "GIL released: spinning for up to spin_seconds, then sleeping in steps growing to 1 ms; "
        "True when it changed, False after max_seconds.");

  py::class_<PyActuatorPlan>(m, "_HalActuatorPlan",
                             "The HAL bridge's actuator side (torsion.hal.Simulation): one cycle's commands "
                             "to PD gains and targets, velocity targets and feedforward torques in one call.")
      .def(py::init([](const ArticulatedSystemHandle& robot, py::handle start_value, py::handle start_stiffness,
                       py::handle q_ref) {
             ArticulatedSystem& s = robot.obj();
             PyActuatorPlan p{robot, {}};
             p.plan.start_value = to_doubles(start_value, "start_value");
             p.plan.start_stiffness = to_doubles(start_stiffness, "start_stiffness");
             auto q = to_rows(q_ref, "q_ref", s.gc_dim(), 0);
             p.plan.q_ref = Eigen::Map<const VecX>(q.data(), s.gc_dim());
             p.plan.check(s);
             return p;
           }),
           arg("robot"), arg("start_value"), arg("start_stiffness"), arg("q_ref"),
           "robot: the ArticulatedSystem; start_value, start_stiffness: per actuator (used for NaN "
           "commands; LEDs' start stiffness may be NaN); q_ref: the PD target template (gc).")
      .def("add_position", [](PyActuatorPlan& p, int actuator, int gc, int dof, double ratio, double kp, double kd,
                              double lo, double hi) {
             add_checked(p.plan, p.plan.position, HalActuatorPlan::Position{actuator, gc, dof, ratio, kp, kd, lo, hi},
                         p.robot.obj()); },
           arg("actuator"), arg("gc"), arg("dof"), arg("ratio"), arg("kp"), arg("kd"), arg("lo"), arg("hi"),
           "q_ref[gc] = ratio * clamp(value, lo, hi); gains (s kp, s kd) on dof.")
      .def("add_velocity", [](PyActuatorPlan& p, int actuator, int dof, double kd, double max) {
             add_checked(p.plan, p.plan.velocity, HalActuatorPlan::Velocity{actuator, dof, kd, max}, p.robot.obj()); },
           arg("actuator"), arg("dof"), arg("kd"), arg("max"),
           "u_ref[dof] = clamp(value, -max, max); damping gain s kd.")
      .def("add_torque", [](PyActuatorPlan& p, int actuator, int dof, double max) {
             add_checked(p.plan, p.plan.torque, HalActuatorPlan::Torque{actuator, dof, max}, p.robot.obj()); },
           arg("actuator"), arg("dof"), arg("max"), "tau[dof] += clamp(value, -s max, s max).")
      .def("add_led", [](PyActuatorPlan& p, int actuator) {
             add_checked(p.plan, p.plan.leds, actuator, p.robot.obj()); },
           arg("actuator"), "An LED: apply() writes clamp(value, 0, 1) to led_out.")
      .def("apply", [](PyActuatorPlan& p, py::handle values, py::handle stiffness, py::handle led_out) {
             ArticulatedSystem& s = p.robot.obj();
             const auto n = static_cast<py::ssize_t>(p.plan.start_value.size());
             const double* v = vector_buffer(values, n, "values", false);
             const double* st = vector_buffer(stiffness, n, "stiffness", false);
             double* led = vector_buffer(led_out, static_cast<py::ssize_t>(p.plan.leds.size()), "led_out", true);
             p.plan.apply(s, v, st, led); },
           arg("values"), arg("stiffness"), arg("led_out"),
           "Apply one cycle's commands (float64 arrays, one value per actuator; NaN: the start "
           "value / stiffness) to the robot; LED intensities into led_out.")
      .def("fetch_and_apply", [](PyActuatorPlan& p, py::handle head, py::handle cmd, py::handle cmd_out,
                                 py::handle led_out) -> py::object {
             ArticulatedSystem& s = p.robot.obj();
             const auto n = static_cast<py::ssize_t>(p.plan.start_value.size());
             const auto* h = static_cast<const std::uint64_t*>(words_of(head, at_least(3), 'u', false, "head"));
             const auto* c = static_cast<const double*>(words_of(cmd, exactly(2 * n), 'f', false, "cmd"));
             auto* o = static_cast<double*>(words_of(cmd_out, exactly(2 * n), 'f', true, "cmd_out"));
             double* led = vector_buffer(led_out, static_cast<py::ssize_t>(p.plan.leds.size()), "led_out", true);
             std::uint64_t counter = 0;
             const bool ok = seq_read(h, kReadTries, [&] {
               std::memcpy(o, c, sizeof(double) * 2 * n);
               counter = load_relaxed(h + 1);
             });
             if (!ok) return py::none();
             p.plan.apply(s, o, o + n, led);
             return py::int_(counter); },
           arg("head"), arg("cmd"), arg("cmd_out"), arg("led_out"),
           "_hal_read_commands(head, cmd, cmd_out) and, when it got a copy, apply(cmd_out[0], "
           "cmd_out[1], led_out): the command counter, or None (nothing applied) when the block "
           "stayed mid-write.");

  py::class_<PySensorPlan>(m, "_HalSensorPlan",
                           "The HAL bridge's sensor side (torsion.hal.Simulation): every non-camera "
                           "sensor of a cycle into one float64 buffer in one call (the GIL released).")
      .def(py::init([](const ArticulatedSystemHandle& robot, int size, double period) {
             PySensorPlan p{robot, {}};
             p.plan.size = size;
             p.plan.period = period;
             p.plan.check(robot.obj());
             return p;
           }),
           arg("robot"), arg("size"), arg("period"),
           "robot: the ArticulatedSystem; size: the sensor block's length; period: the HAL period (s).")
      .def("add_encoder", [](PySensorPlan& p, const std::string& kind, int index, int out, double mul, double add) {
             HalSensorPlan::EncoderKind k;
             if (kind == "angle") k = HalSensorPlan::EncoderKind::kAngle;
             else if (kind == "speed") k = HalSensorPlan::EncoderKind::kSpeed;
             else if (kind == "torque") k = HalSensorPlan::EncoderKind::kTorque;
             else throw py::value_error("kind must be 'angle', 'speed' or 'torque', got '" + kind + "'");
             add_checked(p.plan, p.plan.encoders, HalSensorPlan::Encoder{k, index, out, mul, add}, p.robot.obj()); },
           arg("kind"), arg("index"), arg("out"), arg("mul") = 1.0, arg("add") = 0.0,
           "angle: out = gc[index] mul + add; speed: gv[index] mul; torque: the applied torque of dof index.")
      .def("add_coupled", [](PySensorPlan& p, int out, py::handle gc, py::handle mul, py::handle add, py::handle ratio) {
             add_checked(p.plan, p.plan.coupled,
                         HalSensorPlan::Coupled{out, to_ints(gc, "gc"), to_doubles(mul, "mul"), to_doubles(add, "add"),
                                                to_doubles(ratio, "ratio")},
                         p.robot.obj()); },
           arg("out"), arg("gc"), arg("mul"), arg("add"), arg("ratio"),
           "out = mean over i of (gc[gc_i] mul_i + add_i) / ratio_i.")
      .def("add_imu", [](PySensorPlan& p, int out, int frame, py::handle xyz, py::handle rotation) {
             add_checked(p.plan, p.plan.imus, HalSensorPlan::Imu{out, frame, to_vec3(xyz, "xyz"), to_mat3(rotation, "rotation")},
                         p.robot.obj()); },
           arg("out"), arg("frame"), arg("xyz"), arg("rotation"),
           "7 values at out: roll, pitch, proper acceleration x, y, z, angular velocity x, y (sensor frame).")
      .def("add_fsr_group", [](PySensorPlan& p, int body, int frame, py::handle out, py::handle xy) {
             auto a = to_rows(xy, "xy", -1, 2);
             HalSensorPlan::FsrGroup g{body, frame, to_ints(out, "out"), {}, {}};
             for (py::ssize_t k = 0; k < a.shape(0); ++k) {
               g.x.push_back(a.at(k, 0));
               g.y.push_back(a.at(k, 1));
             }
             add_checked(p.plan, p.plan.fsr_groups, std::move(g), p.robot.obj()); },
           arg("body"), arg("frame"), arg("out"), arg("xy"),
           "The FSRs of one link (positions xy (k, 2) in the frame): kg from the normal forces of "
           "the contacts on body; four on a rectangle share bilinearly, otherwise the nearest takes it.")
      .def("add_region", [](PySensorPlan& p, int body, int frame, int out, py::handle centre, py::handle half) {
             add_checked(p.plan, p.plan.regions,
                         HalSensorPlan::Region{body, frame, out, to_vec3(centre, "centre"), to_vec3(half, "half")},
                         p.robot.obj()); },
           arg("body"), arg("frame"), arg("out"), arg("centre"), arg("half"),
           "A bumper or tactile: 1 if a contact on body lies within half of centre (frame), else 0.")
      .def("add_rays", [](PySensorPlan& p, const std::string& kind, int out, int frame, py::handle xyz,
                          py::handle rotation, py::handle directions, double min_range, double max_range, int echoes) {
             bool sonar;
             if (kind == "sonar") sonar = true;
             else if (kind == "depth_infrared") sonar = false;
             else throw py::value_error("kind must be 'sonar' or 'depth_infrared', got '" + kind + "'");
             auto d = to_rows(directions, "directions", sonar ? -1 : 1, 3);
             HalSensorPlan::Rays r{sonar, out, frame, sonar ? echoes : 1, to_vec3(xyz, "xyz"), to_mat3(rotation, "rotation"),
                                   {}, min_range, max_range};
             for (py::ssize_t k = 0; k < d.shape(0); ++k) r.directions.emplace_back(d.at(k, 0), d.at(k, 1), d.at(k, 2));
             add_checked(p.plan, p.plan.rays, std::move(r), p.robot.obj()); },
           arg("kind"), arg("out"), arg("frame"), arg("xyz"), arg("rotation"), arg("directions"), arg("min_range"),
           arg("max_range"), arg("echoes") = 1,
           "A sonar (directions (n, 3) in the sensor frame; echoes values) or a depth infrared (one "
           "direction; one value) placed at xyz, rotation in frame.")
      .def("begin_cycle", [](PySensorPlan& p) {
             ArticulatedSystem& s = p.robot.obj();
             p.plan.begin_cycle(s); },
           "Record the cycle's start (the IMUs' velocities); call before stepping.")
      .def("measure", [](PySensorPlan& p, py::handle out) {
             ArticulatedSystem& s = p.robot.obj();
             double* o = vector_buffer(out, p.plan.size, "out", true);
             World& w = *p.robot.world;
             // the lazy kinematics caches are filled with the GIL held, as the getters do
             s.ensure_kinematics();
             s.ensure_velocities();
             SharedWorldUse use(w.use(), "_HalSensorPlan.measure()");
             py::gil_scoped_release release;
             p.plan.measure(w, s, o); },
           arg("out"), "Every sensor of the cycle into out (float64, the sensor block's length).")
      .def("measure_and_send", [](PySensorPlan& p, py::handle out, py::handle head, py::handle sens,
                                  std::uint64_t cycle, std::uint64_t applied) {
             ArticulatedSystem& s = p.robot.obj();
             double* o = vector_buffer(out, p.plan.size, "out", true);
             auto* h = static_cast<std::uint64_t*>(words_of(head, at_least(4), 'u', true, "head"));
             auto* sb = static_cast<double*>(words_of(sens, exactly(p.plan.size), 'f', true, "sens"));
             World& w = *p.robot.world;
             s.ensure_kinematics();
             s.ensure_velocities();
             {
               SharedWorldUse use(w.use(), "_HalSensorPlan.measure_and_send()");
               py::gil_scoped_release release;
               p.plan.measure(w, s, o);
             }
             // the copy into shared memory with the GIL held, as every other access to the mapping
             const double time = w.world_time();
             std::uint64_t time_bits;
             std::memcpy(&time_bits, &time, sizeof time_bits);
             seq_write(h, [&] {
               std::memcpy(sb, o, sizeof(double) * static_cast<std::size_t>(p.plan.size));
               store_relaxed(h + 1, cycle);
               store_relaxed(h + 2, applied);
               store_relaxed(h + 3, time_bits);
             }); },
           arg("out"), arg("head"), arg("sens"), arg("cycle"), arg("applied"),
           "measure(out), then out with the cycle, the applied command counter and the world's time "
           "into the sensor block (as _hal_write_sensors).");
}

}  // namespace torsion::bindings
