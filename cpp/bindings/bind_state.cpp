// World state from Python: checkpoints (and their bytes and pickling), the state hash, single-body
// snapshots and clones, world XML (World(path, params), export_to_xml, get_config_file),
// sleeping islands, the world lock and the lifetime identity.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cctype>
#include <filesystem>
#include <limits>
#include <map>
#include <string>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/world_methods.hpp"
#include "core/check.hpp"
#include "io/mjcf.hpp"
#include "world/world_xml.hpp"
#include "world/checkpoint.hpp"
#include "world/snapshot.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;

namespace {

Object& resolve(const WorldPtr& world, const ObjectHandle& h, const char* arg_name) {
  if (h.world != world) throw py::value_error(std::string(arg_name) + " belongs to another World");
  return h.get();
}

SingleBodyObject& resolve_single(const WorldPtr& world, const ObjectHandle& h, const char* name) {
  Object& o = resolve(world, h, name);
  if (o.type() == ObjectType::kArticulatedSystem)
    throw py::value_error(std::string(name) + " must be a single-body object, got an "
                                              "ArticulatedSystem");
  return static_cast<SingleBodyObject&>(o);
}

// the bytes of a C-contiguous buffer; a strided view (arr[::-1], np.broadcast_to, a Fortran-order
// array) is refused: its memory is not the byte string it stands for
Checkpoint checkpoint_from_buffer(py::handle data) {
  if (!PyObject_CheckBuffer(data.ptr()))
    throw py::value_error("data must be a bytes-like object (bytes, bytearray, memoryview)");
  Py_buffer view;
  if (PyObject_GetBuffer(data.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    throw py::value_error(
        "data must be a C-contiguous bytes-like object; got a non-contiguous buffer (a strided "
        "or broadcast view): pass bytes(data) or numpy.ascontiguousarray(data)");
  }
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&view};
  return Checkpoint::from_bytes(static_cast<const std::uint8_t*>(view.buf),
                                static_cast<std::size_t>(view.len));
}

py::bytes checkpoint_bytes(const Checkpoint& cp) {
  const auto b = cp.to_bytes();
  return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
}

// released by __exit__ (or unlock())
struct WorldLockGuard {
  WorldPtr world;
};

}  // namespace

void bind_state(py::module_& m) {
  py::class_<Checkpoint>(
      m, "Checkpoint",
      "An immutable checkpoint of a world's state between complete steps (World."
      "capture_checkpoint()): time, every object's state and pending forces, articulated "
      "systems' gc/gv and control (mode, PD gains and targets, feedforward), the contact "
      "solver's warm-start record and sweep direction, materials and settings, sleeping state, "
      "the sensor noise stream. Copies share the data. to_bytes()/from_bytes() and pickle give a "
      "portable form that restores into any world built the same way (same topology), in this "
      "process or another.")
      .def(py::init<>(), "An empty checkpoint (restoring it is rejected).")
      .def("is_empty", &Checkpoint::empty)
      .def("get_world_time", &Checkpoint::world_time, "World time (s) at capture.")
      .def("get_topology_fingerprint", &Checkpoint::topology_fingerprint,
           "Fingerprint of the topology (objects, shapes, robot structures, ids) it was taken "
           "from; restore requires the world's to be equal.")
      .def("is_portable", [](const Checkpoint& c) { return !c.empty() && c.world_identity() == 0; },
           "True for a checkpoint read from bytes: any world with the same topology accepts it. "
           "A captured checkpoint is accepted only by the world it came from.")
      .def("to_bytes", &checkpoint_bytes,
           "The portable byte form: a header (b'TRSNCKPT', the format version, a byte-order "
           "mark, the topology fingerprint, the payload length and checksum) and the payload. "
           "RuntimeError for an empty checkpoint.")
      .def_static("from_bytes", &checkpoint_from_buffer, arg("data"),
                  "Read a checkpoint written by to_bytes(). ValueError naming the problem for "
                  "data that is not a complete, intact checkpoint of this format version "
                  "(truncated, corrupted, another version or byte order).")
      .def(py::pickle([](const Checkpoint& c) { return checkpoint_bytes(c); },
                      [](const py::bytes& b) { return checkpoint_from_buffer(b); }))
      .def("__repr__", [](const Checkpoint& c) {
        if (c.empty()) return std::string("Checkpoint(empty)");
        return "Checkpoint(time=" + fmt(c.world_time()) + ", " +
               std::to_string(c.payload_size()) + " bytes" +
               (c.world_identity() == 0 ? ", portable)" : ")");
      });

  py::class_<SingleBodySnapshot>(
      m, "SingleBodySnapshot",
      "Runtime state of one single body (pose, velocities, pending external force and torque) "
      "and its collision properties (group, mask, material). Fields are copies.")
      .def_property_readonly("object_type", [](const SingleBodySnapshot& s) { return s.type; })
      .def_property_readonly("position", [](const SingleBodySnapshot& s) { return to_numpy(s.position); },
                             "COM position (m, world), shape (3,).")
      .def_property_readonly("orientation", [](const SingleBodySnapshot& s) {
        py::array_t<double> q(4);
        double* d = q.mutable_data();
        d[0] = s.orientation.w(), d[1] = s.orientation.x(), d[2] = s.orientation.y(),
        d[3] = s.orientation.z();
        return q; },
                             "Quaternion (w, x, y, z), shape (4,).")
      .def_property_readonly("linear_velocity", [](const SingleBodySnapshot& s) { return to_numpy(s.linear_velocity); },
                             "m/s, world, shape (3,).")
      .def_property_readonly("angular_velocity", [](const SingleBodySnapshot& s) { return to_numpy(s.angular_velocity); },
                             "rad/s, world, shape (3,).")
      .def_property_readonly("collision_group", [](const SingleBodySnapshot& s) { return s.collision.group; })
      .def_property_readonly("collision_mask", [](const SingleBodySnapshot& s) { return s.collision.mask; })
      .def_property_readonly("material", [](const SingleBodySnapshot& s) { return s.collision.material; });

  py::class_<WorldLockGuard>(m, "WorldLockGuard",
                             "Returned by World.lock(): the lock is held; leaving a `with` block "
                             "(or World.unlock()) releases it.")
      .def("__enter__", [](const WorldLockGuard& g) { return g.world; })
      .def("__exit__", [](const WorldLockGuard& g, py::handle, py::handle, py::handle) {
        if (!g.world) throw py::type_error("this WorldLockGuard is not initialised");
        g.world->world_lock().unlock();
        return false;
      });
}

void world_methods_state(WorldClass& w) {
  w.def(py::init([](py::handle path, py::object params, bool ignore_unsupported) {
          const std::string p = to_path(path, "path");
          if (is_mjcf_file(p)) {  // a <mujoco> file: MJCF (bind_mjcf.cpp)
            auto world = std::make_shared<World>();
            load_mjcf_into(world, p, ignore_unsupported);
            return world;
          }
          const std::map<std::string, std::string> values = template_values(params);
          auto world = std::make_shared<World>();
          // a USD stage (the seed's World(configFile) reads .usd/.usda/.usdc/.usdz as a USD
          // Physics articulation): read in Python through usd-core (torsion/usd.py)
          std::string ext = std::filesystem::path(p).extension().string();
          for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (ext == ".usd" || ext == ".usda" || ext == ".usdc" || ext == ".usdz") {
            py::module_::import("torsion.usd").attr("_load_world")(
                py::cast(world), py::module_::import("os").attr("fsdecode")(py::bytes(p)));
            return world;
          }
          py::gil_scoped_release release;
          load_world_xml(*world, p, values);
          return world;
        }),
        arg("path"), arg("params") = py::none(), arg("ignore_unsupported") = false,
        "Build a world from a torsion world XML file (see docs/architecture.md, 'World XML'). "
        "Every @@name token in the file is replaced by str(params[name]) (floats by repr, bools "
        "as true/false) before parsing; missing names raise ValueError naming them; a malformed "
        "file raises ValueError naming the element. A file whose root element is <mujoco> is "
        "read as MJCF (World.load_mjcf_file; ignore_unsupported is used only there). "
        "A .usd/.usda/.usdc/.usdz file is read as a USD Physics articulation "
        "(World.add_usd_articulated_system; needs the usd extra); params are then ignored.");
  w.def("export_to_xml", [](World& world, py::handle directory, py::handle file_name) {
          // the seed's exportToXml(dir, fileName): the file dir/fileName
          const std::string d = to_path(directory, "dir");
          const std::string f = to_path(file_name, "file_name");
          if (f.empty()) throw py::value_error("file_name must not be empty");
          const std::string p = (std::filesystem::path(d) / f).string();
          SharedWorldUse use(world.use(), "export_to_xml()");
          py::gil_scoped_release release;
          export_world_xml(world, p); },
        arg("dir"), arg("file_name"),
        "The seed's exportToXml(dir, fileName): write the world to dir/file_name (see the "
        "one-argument form).");
  w.def("export_to_xml", [](World& world, py::handle path) {
          const std::string p = to_path(path, "path");
          SharedWorldUse use(world.use(), "export_to_xml()");
          py::gil_scoped_release release;
          export_world_xml(world, p); },
        arg("path"),
        "Write the world (settings, materials, every object with its current state, robots by "
        "their URDF path or text) as torsion world XML that World(path) reloads to the same "
        "world: numbers with 17 significant digits, so the reload is bit-for-bit, names and "
        "paths holding '@@' included. Mesh objects: their collision geometry is written as "
        "OBJ files (body frame, 17 digits) in '<file stem>_meshes/' beside the file, referenced "
        "from it, and reloads bit for bit. Not kept: warm-start impulses and the contact solver's "
        "next sweep direction, sleeping state, pending external forces, held efforts and the "
        "last applied torques, the step warnings, the sensor noise stream's position (use a "
        "checkpoint for those). RuntimeError mid-step.");
  w.def("get_config_file", &World::config_file,
        "The absolute path of the world XML this world was built from, or '' if none.");

  // checkpoints
  w.def("capture_checkpoint", [](World& world) {
          SharedWorldUse use(world.use(), "capture_checkpoint()");
          py::gil_scoped_release release;
          return capture_checkpoint(world); },
        "Capture the world's state (a Checkpoint). RuntimeError between integrate1() and "
        "integrate2() (a split step).");
  w.def("restore_checkpoint", [](World& world, const Checkpoint& cp) {
          std::string why;
          {
            ExclusiveWorldUse use(world.use(), "restore_checkpoint()");
            py::gil_scoped_release release;
            why = restore_checkpoint(world, cp);
          }
          if (!why.empty()) throw std::logic_error("restore_checkpoint rejected: " + why); },
        arg("checkpoint"),
        "Restore a checkpoint: the next steps are bitwise those that followed its capture. "
        "Rejected with RuntimeError giving the reason, and the world left unchanged: during a "
        "split step, for an empty checkpoint, one captured from another World, or after the "
        "topology changed (objects added or removed; for one from bytes: a world built "
        "differently). One from bytes whose payload is malformed or holds a value no setter "
        "accepts (NaN or inf state, a mass <= 0, a zero or non-unit quaternion, ...) raises "
        "ValueError naming it, the world left unchanged too. After a restore get_contacts() is "
        "empty until the next step.");
  w.def("state_hash", [](World& world) { return state_hash(world); },
        "A 64-bit hash (FNV-1a) of everything a checkpoint holds: equal hashes mean bitwise "
        "equal state. RuntimeError mid-step.");
  w.def("get_topology_fingerprint", [](World& world) { return topology_fingerprint(world); },
        "A hash of the objects, shapes, robot structures and ids (not of the state).");

  // snapshots and clones
  w.def("capture_single_body_snapshot", [](const WorldPtr& world, const ObjectHandle& h) {
          return capture_single_body_snapshot(resolve_single(world, h, "obj")); },
        arg("obj"),
        "A SingleBodySnapshot of a single body of this world (ValueError for an object of "
        "another world or an articulated system).");
  w.def("restore_single_body_snapshot",
        [](const WorldPtr& world, const SingleBodySnapshot& s, py::handle target,
           bool restore_collision) {
          SingleBodyObject* o = nullptr;
          if (py::isinstance<ObjectHandle>(target)) {
            o = &resolve_single(world, target.cast<const ObjectHandle&>(), "obj_or_id");
          } else if (PyLong_Check(target.ptr()) && !PyBool_Check(target.ptr())) {
            // an int past 64 bits is an id no object has, as a negative one
            const std::optional<std::int64_t> id = to_int64(target);
            Object* found =
                id && *id >= 0 ? world->find_object(static_cast<ObjectId>(*id)) : nullptr;
            if (!found)
              throw py::value_error("obj_or_id: no object with id " +
                                    py::str(target).cast<std::string>() + " in this world");
            if (found->type() == ObjectType::kArticulatedSystem)
              throw py::value_error("obj_or_id: object " + std::to_string(*id) +
                                    " is an ArticulatedSystem, not a single body");
            o = static_cast<SingleBodyObject*>(found);
          } else {
            throw py::value_error("obj_or_id must be a single-body object handle or a stable id (int)");
          }
          restore_single_body_snapshot(*world, *o, s, restore_collision);
        },
        arg("snapshot"), arg("obj_or_id"), arg("restore_collision_properties") = true,
        "Put a snapshot's state (and, by default, its collision group, mask and material) onto a "
        "single body given by handle or stable id. ValueError if the object's type differs from "
        "the snapshot's or it is not in this world. Counts as a user modification (wakes it).");
  w.def("clone_single_body_object",
        [](const WorldPtr& world, const ObjectHandle& h, const std::string& name) {
          const SingleBodyObject& src = resolve_single(world, h, "obj");
          return make_handle(world, clone_single_body_object(*world, src, name)); },
        arg("obj"), arg("name") = "",
        "A new object of the same shape (sphere, box, cylinder or capsule) with the source's "
        "pose, velocities, mass and inertia, body type, damping, material and collision filter. "
        "ValueError for the ground; RuntimeError mid-step.");

  // sleeping
  w.def("set_sleeping_enabled", &World::set_sleeping_enabled, arg("enabled"),
        "Turn sleeping islands on or off (off by default); turning them off wakes everything.");
  w.def("is_sleeping_enabled", &World::sleeping_enabled);
  w.def("set_sleeping_parameters", [](World& world, double linear, double angular,
                                      const py::int_& quiet_steps) {
          // any Python int (pybind11 refused 2**40 with a TypeError): < 1 clamps to 1 as
          // documented, past the int range is an error
          if (quiet_steps > py::int_(std::numeric_limits<int>::max()))
            throw py::value_error("quiet_steps must be at most " +
                                  std::to_string(std::numeric_limits<int>::max()) + ", got " +
                                  py::str(quiet_steps).cast<std::string>());
          const int steps = quiet_steps < py::int_(1) ? 1 : quiet_steps.cast<int>();
          world.set_sleeping_parameters(linear, angular, steps); },
        arg("linear_vel_threshold"), arg("angular_vel_threshold"), arg("quiet_steps"),
        "An island sleeps when every member stayed below both speed thresholds (m/s, rad/s; "
        "negative values clamp to 0) for quiet_steps consecutive steps (< 1 clamps to 1).");
  w.def("set_sleeping_velocity_thresholds", &World::set_sleeping_velocity_thresholds,
        arg("linear_vel_threshold"), arg("angular_vel_threshold"),
        "Only the speed thresholds (m/s, rad/s; negative values clamp to 0).");
  w.def("get_sleeping_parameters", [](const World& world) {
          py::dict d;
          d["linear_vel_threshold"] = world.sleeping_parameters().linear_velocity_threshold;
          d["angular_vel_threshold"] = world.sleeping_parameters().angular_velocity_threshold;
          d["quiet_steps"] = world.sleeping_parameters().quiet_steps;
          return d; },
        "dict with linear_vel_threshold (m/s), angular_vel_threshold (rad/s), quiet_steps.");
  w.def("wake_object", [](const WorldPtr& world, const ObjectHandle& h) {
          world->wake_object(resolve(world, h, "obj")); },
        arg("obj"), "Wake an object and its sleeping island.");
  w.def("wake_all", &World::wake_all, "Wake every object.");
  w.def("is_object_sleeping", [](const WorldPtr& world, py::handle key) {
          if (const auto i = to_index(key, world->object_count(), "object"))
            return world->is_object_sleeping(world->object_at(*i));
          if (py::isinstance<ObjectHandle>(key))
            return world->is_object_sleeping(resolve(world, key.cast<const ObjectHandle&>(), "obj"));
          throw py::value_error("obj_or_index must be an object handle or a world index (int)"); },
        arg("obj_or_index"),
        "True if the object (handle or world index) is sleeping; always False while sleeping is "
        "disabled.");

  // the lock
  w.def("lock", [](const WorldPtr& world) {
          {
            py::gil_scoped_release release;
            world->world_lock().lock();
          }
          return WorldLockGuard{world}; },
        "Take the world's lock, waiting for it (GIL released while waiting); `with world.lock():` "
        "releases it at the end of the block. The world never takes it itself: it is the way to "
        "share a world with another thread, every thread taking it around its use of the world. "
        "Not recursive: taking it twice from one thread raises RuntimeError.");
  w.def("lock_mutex", [](World& world) {
          py::gil_scoped_release release;
          world.world_lock().lock(); },
        "Same as lock() without the context manager (the seed's lockMutex).");
  w.def("try_lock", [](World& world) { return world.world_lock().try_lock(); },
        "Take the lock if it is free; True if taken.");
  w.def("unlock", [](World& world) { world.world_lock().unlock(); },
        "Release the lock; RuntimeError unless this thread holds it.");
  w.def("unlock_mutex", [](World& world) { world.world_lock().unlock(); }, "Same as unlock().");
  w.def("is_locked", [](World& world) { return world.world_lock().is_locked(); });
  w.def("get_lifetime_identity", &World::lifetime_identity,
        "A number unique to this World among all Worlds created in this process, never reused "
        "(unlike id(world)); checkpoints remember it.");
}

}  // namespace torsion::bindings
