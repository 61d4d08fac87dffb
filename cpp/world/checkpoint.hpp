// Checkpoints (World seed: captureCheckpoint / restoreCheckpoint), their portable byte form, the
// world's topology fingerprint and its state hash.
//
// A checkpoint holds everything that influences the next step: time, time step and gravity; every
// object's state, mass properties, pending external forces and torques and collision properties;
// articulated systems' gc/gv, control mode, PD gains and targets, feedforward and last applied
// torques, effort limits and the dofs held at them, gravity compensation, a fixed base's
// placement, and pending external forces; the contact
// solver's parameters, its warm-start record and the direction of its next sweep; materials,
// contact and broad-phase settings; sleeping settings and every object's sleeping state and
// quiet-step counter; the sensor noise stream's seed and state; the step warnings. It does not
// hold what a step recomputes from scratch (contact list, contact problems, mass matrices,
// scratch) nor reporting (collision counters, solver diagnostics): after a restore
// get_contacts() is empty until the next step.
//
// Byte form (little-endian, as written by this build):
//   "TRSNCKPT"  u32 format version (kCheckpointFormatVersion)  u32 byte-order mark 0x01020304
//   u64 topology fingerprint  u64 payload length  u64 payload checksum (FNV-1a)  payload
// The payload is the same sequence of fields checkpoint.cpp's visit functions walk, so the
// writer, the validator and the restorer can never disagree about the layout.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace torsion {

class World;

// 2: acceleration_depth; 3: joint-row warm starts; 4: compact_kernel; 5: the depenetration
// cap; 6: held efforts; 7: every compound child's material; 8: articulated systems' gravity
// compensation and fixed-base placement; 9: wires; 10: the position pass (position_correction);
// 11: deformables; 12: tendons; 13: granular systems; 14: tendon armature; 15: deformables'
// solver, element order and quadratic edge nodes; 16: a tendon spring's dead band and the
// contact solver's relative_threshold; 17: the contact settings' moving_points_per_pair. Bytes
// of another version are refused (Checkpoint::from_bytes), naming both versions.
inline constexpr std::uint32_t kCheckpointFormatVersion = 17;

class Checkpoint {
 public:
  Checkpoint() = default;  // empty: restoring it is rejected
  bool empty() const { return payload_ == nullptr; }
  // identity of the world it was captured from; 0 for one read from bytes (portable: any world
  // with the same topology accepts it)
  std::uint64_t world_identity() const { return world_identity_; }
  std::uint64_t topology_fingerprint() const { return fingerprint_; }
  double world_time() const { return time_; }
  std::size_t payload_size() const { return payload_ ? payload_->size() : 0; }

  // the portable byte form (header + payload); std::logic_error for an empty checkpoint
  std::vector<std::uint8_t> to_bytes() const;
  // std::invalid_argument naming what is wrong for anything that is not a complete, intact
  // checkpoint of this format version
  static Checkpoint from_bytes(const std::uint8_t* data, std::size_t size);

 private:
  friend Checkpoint capture_checkpoint(World& world);
  friend std::string restore_checkpoint(World& world, const Checkpoint& checkpoint);
  std::shared_ptr<const std::vector<std::uint8_t>> payload_;  // immutable, shared by copies
  std::uint64_t world_identity_ = 0;
  std::uint64_t configuration_number_ = 0;
  std::uint64_t fingerprint_ = 0;
  double time_ = 0.0;
};

// std::logic_error between integrate1() and integrate2()
Checkpoint capture_checkpoint(World& world);
// "" when restored; otherwise the reason (a wrong state: mid-step, an empty checkpoint, another
// world's, another topology), and the world is unchanged. A checkpoint read from bytes whose
// payload is malformed or holds a value no setter accepts (NaN or inf state, a mass <= 0, a
// quaternion of zero or non-unit norm, ...) throws std::invalid_argument naming it, and the world
// is unchanged too.
std::string restore_checkpoint(World& world, const Checkpoint& checkpoint);

// a hash of the objects and their shapes (sizes, every compound child and its pose, heightmap
// samples, mesh vertices), robot structures and ids (not of their state): two worlds built the
// same way have the same fingerprint
std::uint64_t topology_fingerprint(World& world);
// FNV-1a over the checkpoint payload: equal hashes <=> (up to hash collisions) bitwise equal
// state, so equal hashes mean the next steps will be bitwise equal too
std::uint64_t state_hash(World& world);

}  // namespace torsion
