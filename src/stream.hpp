// The one random stream of both engines (issue #16): PCG32 seeded from any int, W10s
// without bias. Mirrors cwenv/rules/stream.py line for line; docs/dice.md states it.
#pragma once

#include <cstdint>
#include <span>

namespace cwenv {

// SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijection of 64-bit words.
constexpr std::uint64_t Mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class Pcg32 {
 public:
  static constexpr std::uint64_t kMultiplier = 6364136223846793005ULL;
  static constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;
  // 2**32 mod 10: outputs below it would favour faces 1..6.
  static constexpr std::uint32_t kW10Reject = static_cast<std::uint32_t>((1ULL << 32) % 10);

  // O'Neill's pcg32_srandom_r(initstate, initseq).
  static Pcg32 Srandom(std::uint64_t initstate, std::uint64_t initseq) {
    Pcg32 rng;
    rng.inc_ = (initseq << 1) | 1u;
    rng.Next();
    rng.state_ += initstate;
    rng.Next();
    return rng;
  }

  // stream.py seed_state: the seed's zigzag as 64-bit words, least significant first.
  static Pcg32 FromWords(std::span<const std::uint64_t> words) {
    std::uint64_t acc = 0;
    for (std::uint64_t w : words) acc = Mix64((acc ^ w) + kGolden);
    return Srandom(Mix64(acc + kGolden), Mix64(acc + 2 * kGolden));
  }

  // The common case, a seed that fits int64: its zigzag is one word.
  static Pcg32 FromSeed(std::int64_t seed) {
    const std::uint64_t z =
        (static_cast<std::uint64_t>(seed) << 1) ^ static_cast<std::uint64_t>(seed >> 63);
    return FromWords(std::span<const std::uint64_t>(&z, 1));
  }

  static Pcg32 FromState(std::uint64_t state, std::uint64_t inc) {
    Pcg32 rng;
    rng.state_ = state;
    rng.inc_ = inc;
    return rng;
  }

  std::uint32_t Next() {
    const std::uint64_t old = state_;
    state_ = old * kMultiplier + inc_;
    const auto xorshifted = static_cast<std::uint32_t>(((old >> 18) ^ old) >> 27);
    const auto rot = static_cast<std::uint32_t>(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
  }

  // pcg32_boundedrand_r: uniform in 0..bound-1 by rejecting the low remainder.
  std::uint32_t Bounded(std::uint32_t bound) {
    const std::uint32_t threshold = -bound % bound;
    for (;;) {
      const std::uint32_t r = Next();
      if (r >= threshold) return r % bound;
    }
  }

  int D10() {
    for (;;) {
      const std::uint32_t r = Next();
      if (r >= kW10Reject) return static_cast<int>(r % 10) + 1;
    }
  }

  std::uint64_t state() const { return state_; }
  std::uint64_t inc() const { return inc_; }

 private:
  std::uint64_t state_ = 0;
  std::uint64_t inc_ = 1;
};

}  // namespace cwenv
