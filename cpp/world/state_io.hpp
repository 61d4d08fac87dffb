// The three walkers of a world's state (world/checkpoint.cpp): a Writer appends every field to a
// byte buffer, a Reader<false> reads and checks a buffer without touching the world, and a
// Reader<true> reads it again into the world. One visit function drives all three, so the layout
// is defined once.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "math/types.hpp"

namespace torsion::state_io {

// FNV-1a over 64-bit words (then the tail bytes): the FNV-1a step with a word instead of a byte,
// eight times fewer multiplications than the byte-wise hash, followed by a final avalanche
// (SplitMix64's) so every input bit reaches every output bit. A multiplication only carries bits
// upwards, so after each word the high half is folded into the low half: without that, flips of
// the same high bit in two words a few words apart could cancel before the avalanche (the
// checkpoint fuzz test found such a pair 32 bytes apart that passed the payload checksum).
inline std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n,
                           std::uint64_t h = 0xcbf29ce484222325ULL) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    h ^= word;
    h *= 0x100000001b3ULL;
    h ^= h >> 32;
  }
  for (; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  h ^= static_cast<std::uint64_t>(n);
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

// the check of a field that has none
struct NoCheck {
  template <class T>
  void operator()(const T&) const {}
};

class Writer {
 public:
  static constexpr bool kWriting = true;
  static constexpr bool kApply = false;
  std::vector<std::uint8_t> out;

  void raw(const void* p, std::size_t n) {
    const std::size_t at = out.size();
    if (at + n > out.capacity()) out.reserve(2 * (at + n));
    out.resize(at + n);
    std::memcpy(out.data() + at, p, n);
  }
  // Every field can carry a check (see Reader); the writer writes the field as it is.
  template <class T, class Check = NoCheck>
  void val(const T& v, const Check& = {}) {
    static_assert(std::is_trivially_copyable_v<T>);
    raw(&v, sizeof(T));
  }
  template <class T>
  void get(const T& v) {
    val(v);
  }
  template <class Check = NoCheck>
  void vec3(const Vec3& v, const Check& = {}) {
    raw(v.data(), 3 * sizeof(double));
  }
  template <class Check = NoCheck>
  void quat(const Quat& q, const Check& = {}) {
    raw(q.coeffs().data(), 4 * sizeof(double));
  }
  template <class Check = NoCheck>
  void mat3(const Mat3& m, const Check& = {}) {
    raw(m.data(), 9 * sizeof(double));
  }
  template <class Check = NoCheck>
  void vecx(const VecX& v, Eigen::Index, const Check& = {}) {
    val(static_cast<std::uint64_t>(v.size()));
    raw(v.data(), static_cast<std::size_t>(v.size()) * sizeof(double));
  }
  template <class Check = NoCheck>
  void str(const std::string& s, const Check& = {}) {
    val(static_cast<std::uint64_t>(s.size()));
    raw(s.data(), s.size());
  }
  // a count of items written next
  std::uint64_t count(std::uint64_t n, std::size_t) {
    val(n);
    return n;
  }
  // a bool as one byte, 0 or 1
  void flag(const bool& b) { val(static_cast<std::uint8_t>(b ? 1 : 0)); }
};

// kApply = false: reads into scratch (validation); true: into the referenced fields
template <bool Apply>
class Reader {
 public:
  static constexpr bool kWriting = false;
  static constexpr bool kApply = Apply;
  Reader(const std::uint8_t* p, std::size_t n) : p_(p), n_(n) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("checkpoint data is malformed: " + what + " (at byte " +
                                std::to_string(pos_) + " of " + std::to_string(n_) + ")");
  }
  void raw(void* dst, std::size_t n) {
    if (n > n_ - pos_) fail("it ends early");
    std::memcpy(dst, p_ + pos_, n);
    pos_ += n;
  }
  // Every field can carry a check: the check pass (Apply = false) hands the value read to
  // `check`, which throws std::invalid_argument for a value no setter would accept (a NaN mass,
  // a zero quaternion), so such a payload is refused before anything is applied. The apply pass
  // does not check again: it runs after a passed check pass, or on a checkpoint this world
  // captured.
  template <class T, class Check = NoCheck>
  void val(T& v, const Check& check = {}) {
    T t;
    raw(&t, sizeof(T));
    land(v, t, check);
  }
  // always stores (items of lists that are read into scratch first)
  template <class T>
  void get(T& v) {
    raw(&v, sizeof(T));
  }
  template <class Check = NoCheck>
  void vec3(Vec3& v, const Check& check = {}) {
    Vec3 t;
    raw(t.data(), 3 * sizeof(double));
    land(v, t, check);
  }
  template <class Check = NoCheck>
  void quat(Quat& q, const Check& check = {}) {
    Quat t;
    raw(t.coeffs().data(), 4 * sizeof(double));
    land(q, t, check);
  }
  template <class Check = NoCheck>
  void mat3(Mat3& m, const Check& check = {}) {
    Mat3 t;
    raw(t.data(), 9 * sizeof(double));
    land(m, t, check);
  }
  template <class Check = NoCheck>
  void vecx(VecX& v, Eigen::Index expected, const Check& check = {}) {
    VecX t;
    vecx_into(t, expected);
    land(v, t, check);  // into the same storage: views of it stay valid
  }
  template <class Check = NoCheck>
  void str(std::string& s, const Check& check = {}) {
    std::string t;
    str_into(t);
    if constexpr (Apply) s = std::move(t);
    else check(t);
  }
  // a count of items of at least `item_bytes` bytes each, checked against the bytes left
  std::uint64_t count(std::uint64_t, std::size_t item_bytes) {
    std::uint64_t n = 0;
    raw(&n, sizeof n);
    if (item_bytes > 0 && n > (n_ - pos_) / item_bytes) fail("a count exceeds the data");
    return n;
  }
  bool at_end() const { return pos_ == n_; }
  // a bool stored as one byte: any other value than 0 or 1 is refused (as a bool it would be
  // undefined behaviour)
  void flag(bool& b) {
    std::uint8_t v = 0;
    raw(&v, 1);
    if (v > 1) fail("a flag is " + std::to_string(v) + ", not 0 or 1");
    if constexpr (Apply) b = v != 0;
  }

 private:
  // the value read lands in the field (apply pass) or goes to its check (check pass)
  template <class T, class Check>
  static void land(T& field, const T& read, const Check& check) {
    if constexpr (Apply) field = read;
    else check(read);
  }
  void vecx_into(VecX& t, Eigen::Index expected) {
    std::uint64_t n = 0;
    raw(&n, sizeof n);
    if (n != static_cast<std::uint64_t>(expected))
      fail("a vector has " + std::to_string(n) + " entries where the world has " +
           std::to_string(expected));
    t.resize(expected);
    raw(t.data(), static_cast<std::size_t>(expected) * sizeof(double));
  }
  void str_into(std::string& t) {
    std::uint64_t n = 0;
    raw(&n, sizeof n);
    if (n > n_ - pos_) fail("a string is longer than the data");
    t.assign(reinterpret_cast<const char*>(p_ + pos_), static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
  }

  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t pos_ = 0;
};

}  // namespace torsion::state_io
