// One decision of a doctrine's twin (agents/native/taktiker.cpp): its weights, its hooks
// (hooks.cpp) and its board, shared by the turn (taktiker.cpp), the worth of the
// Handlungen (valuation.cpp) and the prompts' answers (answers.cpp). Internal to agents._rollouts.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "board.hpp"
#include "doctrine.hpp"

namespace cwenv::doctrine {

// Thrown where the decision reaches what the twin does not value yet: the Python agent
// decides it (an exact play-on) or the rollout's fallback does.
struct Deferred {};

inline constexpr int kEntwaffnen = 0, kFestsetzen = 1, kUmreissen = 3;  // types.py Maneuver

struct Mind {
  const DoctrineConfig& cfg;
  Board& b;
  mutable std::optional<bool> retreat = {}, armed = {};  // kept per decision

  // The doctrine's target_weight: the Taktiker's focus fire on the enemy that lost the
  // largest share of its LP, the Schütze's preference for the most dangerous one.
  double TargetWeight(int ti) const;
  // The doctrine's weapon_weight: the Schütze discounts melee while it has a gun.
  double WeaponWeight(const kampf::Weapon& w) const;
  // schuetze.py Schuetze.armed: a gun drawn or drawable, loaded or reloadable (H04, H05).
  bool Armed() const;
  // taktiker.py Taktiker.retreating: angeschlagen (Z01) and outnumbered.
  bool Retreating() const;
  // The doctrine's risk: the weight of the damage taken on a cell.
  double Risk() const;
  // The doctrine's cell_bonus (beyond attack and risk): the Taktiker falling back wants
  // distance, the Schütze keeps its distance while it has a gun, the Stürmer wants melee.
  double CellBonus(int cell) const;
  // The doctrine's candidate_keys (lower first; ``covered``: a cover cell, C01, C02).
  double CandidateKey(int cell, bool covered) const;
  // stuermer.py: an enemy within my melee reach (at least 1 m) of ``cell``.
  bool InReach(int cell) const;
  // stuermer.py Stuermer._maneuver: the worth of manoeuvre ``m`` on ``t`` (K01-K05), 0
  // when not allowed or too unlikely.
  double StuermerManeuver(int t, int m);
  // estimates.py danger: the expected damage ``f`` deals per round (I03).
  double Danger(int f) const { return b.Offense(f) * std::max(1, b.c.actions(f)); }
  // worth.py condition_cost with the doctrine's horizon and Mumm value.
  double Cost(int f, int cond) { return b.ConditionCost(f, cond, cfg.condition_horizon, cfg.mumm_value); }
  // worth.py maneuver_worth (K01-K05).
  double ManeuverWorth(int a, int t, int m);
  // valuation.py best_weapon_value, current_best.
  double BestWeaponValue(int wi);
  double CurrentBest();
  // valuation.py shake_chance and the success chances of its checks (exact.py).
  double Success(int check) { return b.exact.SuccessChance(b.CheckValue(b.me, check)); }
  // valuation.py handlung_value (valuation.cpp).
  double HandlungValue(const kampf::Act& a);
  double AreaValue(const kampf::Act& a);
  double ClimbShare(const kampf::Act& a) const;
  double ZehrendCost(int f, int slot);
  // worth.py shake_worth_it: the first of the M08 choices ``args`` (a condition, or a
  // Zehrend's kZehrendArg + slot) worth its two Mumm, -1 for none.
  long ShakeWorthIt(const std::vector<int>& args);
};

// doctrine.py Doctrine.turn: the index of the TURN choice (taktiker.cpp).
std::size_t TurnChoice(Mind& m);
// prompts.py answer_prompt: the index among Prompted() (answers.cpp).
std::size_t PromptAnswer(Mind& m);

}  // namespace cwenv::doctrine
