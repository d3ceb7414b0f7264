// The Probe in C++ (issue #16): the native twin of cwenv/rules/probe.py, pure functions of
// the Probenwert, the two dice and the rule options the native combat hands over. The
// Python module stays the statement; tests/test_native_probe.py checks every Probenwert,
// pair of dice and reading against it.
#pragma once

namespace cwenv::kampf {

inline constexpr int kAutoFailRoll = 19;  // P04: 19 and 20 always fail
inline constexpr int kMaxOrdinaryQs = 4;  // P05

// The readings the Probe reads (cwenv/rules/readings.py), as src/probe.hpp numbers them.
struct ProbeRules {
  int volltreffer_qs = 0;  // X06: 0 probenwert_band, 1 roll_band, 2 max_ordinary
  bool grosser_wurf_highest_roll = false;  // X54
  bool difference_raw = false;            // X07 defended_hit_qs: raw
  bool volltreffer_wins_contest = false;  // X27
  bool lone_winner_difference = false;    // X27 contest_lone_winner_qs: difference
  bool tie_own_roll = false;              // X27 contest_tie_qs: own_roll
};

// probe.py ProbeResult.
struct Probe {
  int probenwert = 0, d1 = 0, d2 = 0;
  bool success = false;
  int qs = 0;
  bool volltreffer = false, patzer = false;
  int total() const { return d1 + d2; }
};

// probe.py qs_band (P05, X06).
inline int QsBand(int value) { return value <= 0 ? 0 : (value + 4) / 5; }

// probe.py volltreffer_qs (P06, X06).
inline int VolltrefferQs(const ProbeRules& r, int probenwert, int roll) {
  if (r.volltreffer_qs == 0) return QsBand(probenwert) > 1 ? QsBand(probenwert) : 1;
  if (r.volltreffer_qs == 1) return QsBand(roll);
  return kMaxOrdinaryQs;
}

// probe.py resolve_probe (P01, P04, P05, P06).
inline Probe ResolveProbe(const ProbeRules& r, int probenwert, int d1, int d2) {
  const int roll = d1 + d2;
  const bool success = roll <= probenwert && roll < kAutoFailRoll;
  const bool pasch = d1 == d2;
  if (success && pasch) return {probenwert, d1, d2, true, VolltrefferQs(r, probenwert, roll), true, false};
  if (success) return {probenwert, d1, d2, true, QsBand(roll), false, false};
  return {probenwert, d1, d2, false, 0, false, pasch};
}

// probe.py forced_volltreffer (M09, X54).
inline Probe ForcedVolltreffer(const ProbeRules& r, int probenwert) {
  int d1, d2;
  if (r.grosser_wurf_highest_roll) {
    int roll = probenwert < kAutoFailRoll - 1 ? probenwert : kAutoFailRoll - 1;
    if (roll < 2) roll = 2;
    d1 = (roll + 1) / 2 < 10 ? (roll + 1) / 2 : 10;
    d2 = roll - d1;
  } else {
    const int half = probenwert >= 0 ? probenwert / 2 : -((-probenwert + 1) / 2);  // floor
    d1 = d2 = half < 1 ? 1 : half > 9 ? 9 : half;
  }
  const int qs = VolltrefferQs(r, probenwert, d1 + d2);
  return {probenwert, d1, d2, true, qs > 1 ? qs : 1, true, false};
}

// probe.py difference_qs (A04, P07, X07).
inline int DifferenceQs(const ProbeRules& r, int difference) {
  if (r.difference_raw) return difference > 0 ? difference : 0;
  return QsBand(difference);
}

// probe.py contest (P07, X27): the winner (0 actor, 1 defender, -1 nobody) and its QS.
struct Contest {
  int winner, qs;
};
inline Contest ContestOf(const ProbeRules& r, const Probe& a, const Probe& d) {
  if (r.volltreffer_wins_contest) {
    if (a.volltreffer && !d.volltreffer) return {0, a.qs};
    if (d.volltreffer && !a.volltreffer) return {1, d.qs};
  }
  if (a.success != d.success) {
    const int winner = a.success ? 0 : 1;
    if (r.lone_winner_difference) {
      const int gap = a.total() > d.total() ? a.total() - d.total() : d.total() - a.total();
      const int qs = DifferenceQs(r, gap);
      return {winner, qs > 1 ? qs : 1};
    }
    return {winner, a.success ? a.qs : d.qs};
  }
  if (!a.success) return {-1, 0};
  if (a.total() > d.total()) return {0, DifferenceQs(r, a.total() - d.total())};
  if (a.total() == d.total() && r.tie_own_roll) return {1, QsBand(d.total())};
  return {1, DifferenceQs(r, d.total() - a.total())};
}

// probe.py hit_qs (A04, A05, P07, X27): the QS of the hit, or -1 when the defence holds.
inline int HitQs(const ProbeRules& r, const Probe& attack, const Probe& defence) {
  if (!defence.success && !r.lone_winner_difference) return attack.qs;
  const Contest c = ContestOf(r, attack, defence);
  return c.winner == 0 ? (c.qs > 0 ? c.qs : 0) : -1;
}

}  // namespace cwenv::kampf
