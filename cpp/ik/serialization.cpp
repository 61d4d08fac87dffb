// ik_save / ik_load: the kinematic-content binary format, version 1 (semantics.md §B8); ik_load
// also reads version 0, CoppeliaSim's "export IK content": the same object, joint, dummy and
// element records, but every scene object is listed (shapes, cameras, ... are read as dummies,
// as the routines do), there are no handle lists, joint modes are CoppeliaSim's, and a group's
// options are bits of two flag bytes instead of an int.
// Native-endian 4-byte ints and float32 values, NUL-terminated strings, one byte per bool. As in
// the original, it is neither forward nor backward compatible, and values pass through float32
// (so a round trip keeps float32 precision, and save(load(save(env))) is byte-identical, up to
// a position at an upper limit, which load clamps into the rounded interval min + range).
// Loaded values pass the setters' checks: a file cannot make a state the API refuses.
// Not saved, as in the seed: element weights and joint limit margins.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "core/check.hpp"
#include "ik/environment.hpp"
#include "math/unit_vector.hpp"

namespace torsion::ik {

namespace {


struct Writer {
  std::vector<unsigned char> out;
  void raw(const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    out.insert(out.end(), b, b + n);
  }
  void i32(int v) {
    const int32_t x = v;
    raw(&x, 4);
  }
  void f32(double v) {
    const float x = static_cast<float>(v);
    raw(&x, 4);
  }
  void u8(bool v) { out.push_back(v ? 1 : 0); }
  void str(const std::string& s) { raw(s.c_str(), s.size() + 1); }
  void quat(const Quat& q) {
    f32(q.w());
    f32(q.x());
    f32(q.y());
    f32(q.z());
  }
};

struct Reader {
  const unsigned char* data;
  size_t size;
  size_t at = 0;
  void need(size_t n) {
    if (at + n > size)
      throw std::invalid_argument("malformed kinematic content: truncated at byte " +
                                  std::to_string(at) + " of " + std::to_string(size));
  }
  int i32() {
    need(4);
    int32_t x;
    std::memcpy(&x, data + at, 4);
    at += 4;
    return x;
  }
  double f32() {
    need(4);
    float x;
    std::memcpy(&x, data + at, 4);
    at += 4;
    if (!std::isfinite(x))
      throw std::invalid_argument("malformed kinematic content: non-finite value at byte " +
                                  std::to_string(at - 4));
    return x;
  }
  bool u8() { return byte() != 0; }
  int byte() {
    need(1);
    return data[at++];
  }
  std::string str() {
    size_t end = at;
    while (end < size && data[end] != 0) ++end;
    if (end >= size) throw std::invalid_argument("malformed kinematic content: unterminated string");
    std::string s(reinterpret_cast<const char*>(data + at), end - at);
    at = end + 1;
    return s;
  }
  Quat quat() {
    const double w = f32(), x = f32(), y = f32(), z = f32();
    Vec4 u = Vec4::Zero();  // set by normalize_scaled when it succeeds
    if (!normalize_scaled(Vec4(w, x, y, z), &u))
      throw std::invalid_argument("malformed kinematic content: zero quaternion");
    return Quat(u[0], u[1], u[2], u[3]);
  }
  int count(const char* what) {
    const int n = i32();
    if (n < 0 || size_t(n) > size)
      throw std::invalid_argument(std::string("malformed kinematic content: bad ") + what +
                                  " count " + std::to_string(n));
    return n;
  }
};

// Loaded values pass the setters' own checks (a file must not make a state the API refuses):
// runs `check` and says where in the file the refused value was
template <class F>
void check_content(const std::string& where, F&& check) {
  try {
    check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("malformed kinematic content: " + where + ": " + e.what());
  }
}

[[noreturn]] void refuse(const std::string& what) {
  throw std::invalid_argument("malformed kinematic content: " + what);
}

void check_joint(const JointData& j, const std::string& where) {
  check_content(where, [&] {
    if (j.cyclic && (j.type != kJointTypeRevolute || j.screw_pitch != 0.0))
      throw std::invalid_argument("only revolute joints without screw pitch can be cyclic");
    if (!j.cyclic) check_non_negative(j.range, "interval range");
    check_positive(j.max_step, "max_step_size");
    check_non_negative(j.ik_weight, "ik_weight");
    if (j.mode != kJointModePassive && j.mode != kJointModeIk && j.mode != kJointModeDependent)
      throw std::invalid_argument("mode must be passive (0), ik (2) or dependent (4), got " +
                                  std::to_string(j.mode));
  });
}

// The position inside the joint's interval, as set_joint_position keeps it: a position saved at
// a limit comes back outside the limits by float32 rounding (min, range and position are rounded
// separately), which is not an error; farther outside, it is clamped (or wrapped) as the setter
// would. Within rounding of [-pi, pi] a cyclic position is clamped rather than wrapped, so that
// float32(pi) stays near pi instead of jumping to -pi.
double position_in_interval(const JointData& j) {
  if (j.cyclic) {
    if (std::abs(j.position) > kPi + 1e-6) return wrap_angle(j.position);
    return std::min(std::max(j.position, -kPi), kPi);
  }
  return std::min(std::max(j.position, j.min), j.min + j.range);
}

void write_list(Writer& w, const std::vector<int>& v) {
  w.i32(int(v.size()));
  for (int h : v) w.i32(h);
}

}  // namespace

std::vector<unsigned char> Environment::save() const {
  Writer w;
  w.i32(1);  // version
  w.i32(int(objects_.size()));
  for (const Object& o : objects_) {
    w.i32(o.type);
    w.quat(o.local.q);
    for (int k = 0; k < 3; ++k) w.f32(o.local.p[k]);
    w.i32(o.handle);
    w.i32(o.parent);
    w.str(o.name);
    if (o.type == kObjectTypeJoint) {
      const JointData& j = o.joint;
      w.i32(j.type);
      w.f32(j.screw_pitch);  // screw lead / 2 pi
      w.quat(j.spherical);
      w.u8(j.cyclic);
      w.f32(j.min);
      w.f32(j.range);
      w.f32(j.position);
      w.f32(j.max_step);
      w.f32(j.ik_weight);
      w.i32(j.mode);
      w.i32(j.master);
      w.f32(j.mult);
      w.f32(j.offset);
    } else {
      w.i32(o.linked_dummy);
      w.i32(o.linked_dummy);
    }
  }
  // handle lists: next handle, orphans, all objects, joints, dummies
  w.i32(next_object_handle_);
  std::vector<int> orphans, all, joints, dummies;
  for (const Object& o : objects_) {
    if (o.parent < 0) orphans.push_back(o.handle);
    all.push_back(o.handle);
    (o.type == kObjectTypeJoint ? joints : dummies).push_back(o.handle);
  }
  write_list(w, orphans);
  write_list(w, all);
  write_list(w, joints);
  write_list(w, dummies);
  // groups
  w.i32(next_group_handle_);
  w.i32(int(groups_.size()));
  for (const Group& g : groups_) {
    w.i32(g.handle);
    w.str(g.name);
    w.i32(g.max_iterations);
    w.i32(g.flags);
    for (int k = 0; k < 3; ++k) w.f32(0.0);  // legacy floats
    w.f32(g.damping);
    w.i32(g.method);
    w.i32(0);  // legacy int
    w.u8(false);
    w.u8(false);
    w.i32(int(g.elements.size()));
    for (const Element& e : g.elements) {
      w.i32(e.handle);
      w.i32(e.tip);
      w.i32(e.base);
      w.i32(e.constraints_base);
      w.f32(e.angular_precision);
      w.f32(e.linear_precision);
      w.i32(e.constraints);
      w.f32(e.linear_weight);
      w.f32(e.angular_weight);
      w.u8(e.enabled);
    }
  }
  return w.out;
}

void Environment::load(const unsigned char* data, size_t size) {
  if (!empty())
    throw std::logic_error("ik_load: the environment must be empty (it has " +
                           std::to_string(objects_.size()) + " objects and " +
                           std::to_string(groups_.size()) + " IK groups)");
  Reader r{data, size};
  const int version = r.i32();
  if (version != 0 && version != 1)
    throw std::invalid_argument("malformed kinematic content: unsupported version " +
                                std::to_string(version) + " (versions 0 and 1 are supported)");
  Environment env;  // filled, checked, then moved in: a bad file leaves *this untouched
  const int n = r.count("object");
  int max_handle = -1;
  for (int i = 0; i < n; ++i) {
    Object o;
    o.type = r.i32();
    if (version == 0) {
      // CoppeliaSim object types: 1 joint; shapes (0), cameras (3), dummies (4), ... all carry
      // the dummy record
      if (o.type < 0)
        throw std::invalid_argument("malformed kinematic content: unknown object type " +
                                    std::to_string(o.type));
      if (o.type != kObjectTypeJoint) o.type = kObjectTypeDummy;
    }
    if (o.type == -1) continue;
    if (o.type != kObjectTypeJoint && o.type != kObjectTypeDummy)
      throw std::invalid_argument("malformed kinematic content: unknown object type " +
                                  std::to_string(o.type));
    o.local.q = r.quat();
    for (int k = 0; k < 3; ++k) o.local.p[k] = r.f32();
    o.handle = r.i32();
    o.parent = r.i32();
    o.name = r.str();
    if (o.handle < 0 || o.handle > kMaxObjectHandle)
      throw std::invalid_argument("malformed kinematic content: bad handle " +
                                  std::to_string(o.handle));
    const std::string where = "object " + std::to_string(o.handle);
    check_content(where, [&] { check_name(o.name, "name"); });
    if (o.type == kObjectTypeJoint) {
      JointData& j = o.joint;
      j.type = r.i32();
      if (j.type < kJointTypeRevolute || j.type > kJointTypeSpherical)
        throw std::invalid_argument("malformed kinematic content: bad joint type " +
                                    std::to_string(j.type));
      j.screw_pitch = r.f32();
      j.spherical = r.quat();
      j.cyclic = r.u8();
      j.min = r.f32();
      j.range = r.f32();
      j.position = r.f32();
      j.max_step = r.f32();
      j.ik_weight = r.f32();
      j.mode = r.i32();
      if (version == 0) {
        // CoppeliaSim modes: 0 passive, 1 motion (old), 2 IK, 3 IK-dependent (old), 4 dependent,
        // 5 force: those outside IK and dependency are passive here
        j.mode = j.mode == kJointModeIk                        ? kJointModeIk
                 : (j.mode == 3 || j.mode == kJointModeDependent) ? kJointModeDependent
                                                                : kJointModePassive;
      }
      j.master = r.i32();
      j.mult = r.f32();
      j.offset = r.f32();
      if (j.type == kJointTypePrismatic) j.limit_margin = 0.01;
      check_joint(j, where);
      if (j.cyclic) {  // as set_joint_interval stores a cyclic interval
        j.min = -kPi;
        j.range = 2.0 * kPi;
      }
      if (j.type != kJointTypeSpherical) j.position = position_in_interval(j);
    } else {
      o.linked_dummy = r.i32();
      r.i32();
    }
    max_handle = std::max(max_handle, o.handle);
    env.objects_.push_back(o);
  }
  env.next_object_handle_ = max_handle + 1;
  if (version == 1) {
    // the handle table is sized by this field: past the handle cap it is malformed, not a
    // request for gigabytes (2**31-1 allocated 8 GiB)
    const int next = r.i32();
    if (next < 0 || next > kMaxObjectHandle + 1)
      throw std::invalid_argument("malformed kinematic content: bad next object handle " +
                                  std::to_string(next) + " (expected 0.." +
                                  std::to_string(kMaxObjectHandle + 1) + ")");
    env.next_object_handle_ = std::max(next, max_handle + 1);
    for (int list = 0; list < 4; ++list) {  // the handle lists are implied by the objects
      const int m = r.count("handle list");
      for (int k = 0; k < m; ++k) r.i32();
    }
  }
  env.rebuild_slots();
  for (const Object& o : env.objects_) {
    if (env.slot_of_handle_[o.handle] < 0 ||
        env.objects_[env.slot_of_handle_[o.handle]].handle != o.handle)
      throw std::invalid_argument("malformed kinematic content: duplicate handle");
    if (o.parent != -1 && env.slot(o.parent) < 0)
      throw std::invalid_argument("malformed kinematic content: object " +
                                  std::to_string(o.handle) + " has a missing parent");
    if (o.parent != -1 && env.is_ancestor(o.handle, o.handle))
      throw std::invalid_argument("malformed kinematic content: the hierarchy has a cycle");
    if (o.type == kObjectTypeJoint && o.joint.master != -1 &&
        (env.slot(o.joint.master) < 0 ||
         env.objects_[env.slot(o.joint.master)].type != kObjectTypeJoint))
      throw std::invalid_argument("malformed kinematic content: bad joint dependency");
    if (o.type == kObjectTypeDummy && o.linked_dummy != -1 && env.slot(o.linked_dummy) < 0)
      throw std::invalid_argument("malformed kinematic content: bad linked dummy");
    const std::string where = "object " + std::to_string(o.handle);
    if (o.type == kObjectTypeDummy && o.linked_dummy != -1) {
      // set_linked_dummy: another dummy, linked both ways
      const Object& other = env.objects_[env.slot(o.linked_dummy)];
      if (o.linked_dummy == o.handle) refuse(where + ": a dummy cannot be linked to itself");
      if (other.type != kObjectTypeDummy || other.linked_dummy != o.handle)
        refuse(where + ": linked dummy " + std::to_string(o.linked_dummy) +
               " is not a dummy linked back to it");
    }
    if (o.type == kObjectTypeJoint && o.joint.master != -1 &&
        (o.joint.type == kJointTypeSpherical ||
         env.objects_[env.slot(o.joint.master)].joint.type == kJointTypeSpherical))
      refuse(where + ": spherical joints cannot be dependent or masters");
  }
  for (size_t a = 0; a < env.objects_.size(); ++a)  // create_*: names are unique
    for (size_t b = 0; b < a; ++b)
      if (env.objects_[a].name == env.objects_[b].name)
        refuse("objects " + std::to_string(env.objects_[b].handle) + " and " +
               std::to_string(env.objects_[a].handle) + " have the same name '" +
               escape_bytes(env.objects_[a].name) + "'");
  for (const Object& o : env.objects_)  // dependency loops
    if (o.type == kObjectTypeJoint) {
      int h = o.handle;
      for (size_t guard = 0; h >= 0; ++guard) {
        if (guard > env.objects_.size())
          throw std::invalid_argument("malformed kinematic content: joint dependency loop");
        h = env.objects_[env.slot(h)].joint.master;
      }
    }
  env.next_group_handle_ = version == 1 ? r.i32() : 0;
  const int ng = r.count("group");
  for (int i = 0; i < ng; ++i) {
    Group g;
    g.handle = r.i32();
    g.name = r.str();
    const std::string where = "IK group " + std::to_string(g.handle);
    if (g.handle < 0) refuse("bad IK group handle " + std::to_string(g.handle));
    check_content(where, [&] { check_name(g.name, "name"); });
    for (const Group& other : env.groups_) {
      if (other.handle == g.handle)
        refuse("two IK groups have the handle " + std::to_string(g.handle));
      if (other.name == g.name)
        refuse("IK groups " + std::to_string(other.handle) + " and " + std::to_string(g.handle) +
               " have the same name '" + escape_bytes(g.name) + "'");
    }
    // as set_calculation: a file's 0 or negative count is malformed (it was raised to 1
    // silently, so the loaded group did not run what the file said)
    g.max_iterations = r.i32();
    check_content(where, [&] {
      if (g.max_iterations < 1)
        throw std::invalid_argument("max_iterations must be >= 1, got " +
                                    std::to_string(g.max_iterations));
    });
    g.flags = r.i32();  // version 0: a deprecated int (the options are in the flag bytes)
    for (int k = 0; k < 3; ++k) r.f32();
    g.damping = r.f32();
    check_content(where, [&] { check_non_negative(g.damping, "damping"); });
    g.method = r.i32();
    if (g.method < kMethodPseudoInverse || g.method > kMethodUndampedPseudoInverse)
      throw std::invalid_argument("malformed kinematic content: bad method");
    r.i32();  // version 0: the group it runs conditionally on (not supported: ignored)
    const int flags1 = r.byte(), flags2 = r.byte();
    if (version == 0) {
      // bit 0 enabled, 1 restore on position miss, 2 on orientation miss, 5 honour the max
      // step sizes; second byte bit 0: joint-limit correction (avoid limits)
      g.flags = ((flags1 & 1) ? kGroupEnabled : 0) | ((flags1 & 2) ? kGroupRestoreOnBadLinTol : 0) |
                ((flags1 & 4) ? kGroupRestoreOnBadAngTol : 0) |
                ((flags1 & 32) ? 0 : kGroupIgnoreMaxSteps) | ((flags2 & 1) ? kGroupAvoidLimits : 0);
    }
    if (g.flags < 0 || (g.flags & ~kGroupFlagsAll) != 0)  // as set_group_flags
      refuse(where + ": invalid flags " + std::to_string(g.flags));
    const int ne = r.count("element");
    for (int k = 0; k < ne; ++k) {
      Element e;
      e.handle = r.i32();
      e.tip = r.i32();
      e.base = r.i32();
      e.constraints_base = r.i32();
      e.angular_precision = r.f32();
      e.linear_precision = r.f32();
      e.constraints = r.i32();
      e.linear_weight = r.f32();
      e.angular_weight = r.f32();
      e.enabled = r.u8();
      if (env.slot(e.tip) < 0 || (e.base != -1 && env.slot(e.base) < 0) ||
          (e.constraints_base != -1 && env.slot(e.constraints_base) < 0))
        throw std::invalid_argument("malformed kinematic content: element refers to a missing "
                                    "object");
      const std::string ewhere = where + ", element " + std::to_string(k);
      if (env.objects_[env.slot(e.tip)].type != kObjectTypeDummy)
        refuse(ewhere + ": the tip must be a dummy, got object " + std::to_string(e.tip));
      if (e.constraints < 0 || e.constraints > kConstraintPose)
        refuse(ewhere + ": invalid constraints " + std::to_string(e.constraints));
      check_content(ewhere, [&] {
        check_non_negative(e.linear_precision, "linear_precision");
        check_non_negative(e.angular_precision, "angular_precision");
        check_non_negative(e.linear_weight, "linear_weight");
        check_non_negative(e.angular_weight, "angular_weight");
      });
      g.next_element_handle = std::max(g.next_element_handle, e.handle + 1);
      g.elements.push_back(e);
    }
    env.next_group_handle_ = std::max(env.next_group_handle_, g.handle + 1);
    env.groups_.push_back(g);
  }
  if (r.at != size)
    throw std::invalid_argument("malformed kinematic content: " + std::to_string(size - r.at) +
                                " trailing bytes");
  const uint64_t old_version = structure_version_, old_pose_version = pose_version_;
  *this = std::move(env);
  structure_version_ = old_version + 1;
  pose_version_ = old_pose_version + 1;
}

}  // namespace torsion::ik
