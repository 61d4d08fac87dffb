// A small deterministic random stream (SplitMix64 seeding a xoshiro256** generator). Owned by
// whoever needs randomness (a World's sensors, the IK configuration search); never global.
#pragma once

#include <cmath>
#include <cstdint>

namespace torsion {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& s : s_) s = splitmix64(x);
    has_spare_ = false;
  }

  std::uint64_t next_u64() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // uniform in [0, 1) with 53 random bits
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // standard normal by the polar Box-Muller method (pairs; the second is kept for the next call)
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

  // The stream's whole state (checkpoints save and restore it): the generator's four words and
  // the polar method's spare normal. Restored, the stream continues exactly where it was saved.
  struct State {
    std::uint64_t words[4];
    double spare;
    bool has_spare;
  };
  State save_state() const {
    State st{{s_[0], s_[1], s_[2], s_[3]}, spare_, has_spare_};
    return st;
  }
  void restore_state(const State& st) {
    for (int k = 0; k < 4; ++k) s_[k] = st.words[k];
    spare_ = st.spare;
    has_spare_ = st.has_spare;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  std::uint64_t s_[4];
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace torsion
