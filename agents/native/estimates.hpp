// Exact odds for the native doctrines (issue #16): the twins of agents/exact.py
// (roll classes, attack odds by counting, success chances) and agents/estimates.py
// (damage by exact convolution, Volltreffer extra dice, an attack's Estimate), to the bit:
// every sum is taken in the reference's order (its dictionaries' insertion order) with
// the same operations, so a doctrine twin compares the same doubles and makes the same
// choice. The Python modules stay the statement; tests/test_native_taktiker.py holds
// the twin to the Python Taktiker at every decision.
#pragma once

#include <array>
#include <cstdint>
#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

#include "combat_rules.hpp"
#include "probe.hpp"

namespace cwenv::doctrine {

using kampf::Probe;
using kampf::ProbeRules;
using kampf::StrikeRules;

// estimates.py Estimate: P(hit), expected LP damage, P(the target drops).
struct Estimate {
  double hit = 0.0, damage = 0.0, ko = 0.0;
  double Value(double ko_bonus) const { return damage + ko_bonus * ko; }
};

// estimates.py DamageProfile: how one attack's QS turn into LP on one target.
struct Profile {
  int bonus, armour;
  bool floor;
  int flat, factor;
  bool up;
  int lp;
  auto Key() const { return std::array<int, 7>{bonus, armour, floor, flat, factor, up, lp}; }
};

// exact.py Odds.
struct Odds {
  double hit = 0.0;
  std::vector<std::pair<int, double>> qs;  // in the reference dictionary's order
  double volltreffer = 0.0, patzer = 0.0;
};

// A hash of a few ints, for the caches below.
struct IntsHash {
  template <std::size_t N>
  std::size_t operator()(const std::array<int, N>& a) const {
    std::uint64_t h = 1469598103934665603ULL;
    for (int v : a) h = (h ^ static_cast<std::uint32_t>(v)) * 1099511628211ULL;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

// The exact odds of one game's rules, kept as the reference's module caches keep them
// (keyed there by the options object; here the tables are dropped when the rules differ).
class Exact {
 public:
  // Start over when ``strike`` holds other rules than the ones kept.
  void Use(const StrikeRules& strike);

  // exact.py success_chance (P01, P04).
  double SuccessChance(int probenwert);
  // exact.py odds: attack_odds(attack, defence) by counting (A01-A05, P07, X07, X09,
  // X27); ``defence`` < kNoDefence: undefended.
  const Odds& OddsOf(int attack, int defence);
  // estimates.py estimate (A04-A07).
  Estimate EstimateOf(int pw, int dpw, const Profile& p, int aim_qs = 0);
  // estimates.py damage_stats: mean damage and P(damage >= lp) of ``qs`` W10.
  std::pair<double, double> Stats(const Profile& p, int qs);

  static constexpr int kNoDefence = -1000000;

  // exact.py roll_classes: the 100 rolls grouped by what a contest reads, with counts.
  struct Class {
    Probe rep;
    int n;
  };
  const std::vector<Class>& Classes(int probenwert);
  // estimates.py crit_extra_dice (A07).
  double CritExtraDice(int qs);
  // exact.py defended_loss: the expected loss after defending with ``defence`` against
  // the rolled ``attack`` (A04, A05, P07, X07, X27), ``losses`` per QS.
  double DefendedLoss(const Probe& attack, int defence, const std::vector<double>& losses);
  // losses.py's and spends.py's _loss_of: the loss of ``attack`` against the roll ``d``.
  double LossOf(const Probe& attack, const Probe& d, const std::vector<double>& losses) const;
  // probe_odds(probenwert).expected_qs (P05).
  double ExpectedQs(int probenwert) const;
  const ProbeRules& probe() const { return probe_; }

 private:
  const std::vector<double>& Sums(int dice, int offset, bool floor, int& low);

  std::vector<int> signature_;
  ProbeRules probe_{};
  bool volltreffer_defendable_ = true;
  std::vector<int> crit_extra_;  // extra dice per table row from table_low
  int table_low_ = 0;
  // unordered_map keeps its elements in place: the references handed out stay valid
  std::unordered_map<int, std::vector<Class>> classes_;
  std::unordered_map<std::array<int, 2>, Odds, IntsHash> odds_;
  std::unordered_map<int, double> success_;
  std::unordered_map<std::array<int, 3>, std::pair<int, std::vector<double>>, IntsHash> sums_;
  std::unordered_map<std::array<int, 8>, std::pair<double, double>, IntsHash> stats_;
  std::unordered_map<int, double> crit_;
  std::unordered_map<std::array<int, 10>, Estimate, IntsHash> estimates_;
};

}  // namespace cwenv::doctrine
