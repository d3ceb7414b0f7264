// The Probenwert and the attack plan in C++ (issue #16; docs/native.md "The attack
// plan"): the native twins of cwenv/engine/checks.py check_parts and
// cwenv/engine/attack_plan.py plan_attack, pure functions of the kept state. The Python
// functions stay the statement of the rules; tests/test_native_plan.py checks the same
// parts (kind, reference and value, in order) and the same plan at every decision of
// seeded random-play games.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kampf.hpp"
#include "prompts.hpp"

namespace cwenv::kampf {

// cwenv.engine.parts.PartKind values.
enum class PartKind : std::uint8_t {
  kValue = 0, kCondition = 1, kBehinderung = 2, kFocus = 3, kMumm = 4, kActionbonus = 5,
  kWeapon = 6, kHack = 7, kManeuver = 8, kRange = 9, kCover = 10, kLivingCover = 11,
  kProneTarget = 12, kAim = 13, kDisarmed = 14, kHelp = 15,
};

// One part of a Probenwert: its source's kind and id (-1: none) and its value (P01, P02).
struct Part {
  PartKind kind;
  int ref;
  int value;
};

inline constexpr int kMaxParts = 24;  // a value, every condition, gear, and an attack's own

struct Parts {
  std::array<Part, kMaxParts> p;
  int n = 0;
  void Add(PartKind kind, int ref, int value) { p[n++] = {kind, ref, value}; }
  int Total() const {
    int sum = 0;
    for (int i = 0; i < n; ++i) sum += p[i].value;
    return sum;
  }
};

// checks.py check_parts: the value, then every condition's malus in MALUS_ORDER (Z01,
// Z03, Z04, Z05, Z07), Behinderung (A01, X42), a cyberware focus (H09).
void CheckParts(const GameDesc& g, const Fighter& f, int fi, int check, bool attack,
                bool reaction, bool defence, Parts& out);

// attack_plan.py AttackPlan.
struct Plan {
  Parts parts;
  CoverAnswer cover;
  bool ranged;
  std::vector<int> targets;
  int aim_qs, no_cover_probenwert, own_parts;
};

// attack_plan.py plan_attack (A01-A05, C01-C05, H10, H11, K01-K05, R06, X03, X26).
void PlanAttack(const GameDesc& g, const Lines& lines, const State& s, int attacker, int target,
                Mode mode, int index, Plan& out);

}  // namespace cwenv::kampf
