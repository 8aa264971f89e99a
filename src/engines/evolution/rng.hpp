// The evolutionary engines' random numbers: xoshiro256** seeded through SplitMix64 from
// the user's seed and a stream id (island, generation, child, worker), so that every
// random choice flows from the explicit seed (docs/ARCHITECTURE.md, "Conventions" 8) and parallel work draws
// from independent streams whatever the thread timing.
#pragma once

#include <cstdint>
#include <initializer_list>

namespace ccsched::evo {

class Rng {
 public:
  // The stream for (seed, ids...): distinct id lists give unrelated streams.
  explicit Rng(std::uint64_t seed, std::initializer_list<std::uint64_t> ids = {}) {
    std::uint64_t x = seed ^ 0x6a09e667f3bcc909ULL;
    for (const std::uint64_t id : ids) x = mix(x ^ mix(id + 0x9e3779b97f4a7c15ULL));
    for (auto& s : s_) s = mix(x += 0x9e3779b97f4a7c15ULL);
  }

  std::uint64_t next() {
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
  // Uniform in [0, n), n >= 1 (modulo bias below 2^-32 for the n used here).
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return uniform() < p; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t s_[4];
};

}  // namespace ccsched::evo
