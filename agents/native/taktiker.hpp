// One decision of the Taktiker's twin (agents/native/taktiker.cpp): its weights and its
// board, shared by the turn (taktiker.cpp), the worth of the Handlungen (valuation.cpp)
// and the prompts' answers (answers.cpp). Internal to agents._rollouts.
#pragma once

#include <cstddef>
#include <vector>

#include "board.hpp"
#include "doctrine.hpp"

namespace cwenv::doctrine {

// Thrown where the decision reaches what the twin does not value yet: the Python agent
// decides it (an exact play-on) or the rollout's fallback does.
struct Deferred {};

inline constexpr int kEntwaffnen = 0, kFestsetzen = 1, kUmreissen = 3;  // types.py Maneuver

struct Mind {
  const TaktikerConfig& cfg;
  Board& b;

  // taktiker.py Taktiker.target_weight: focus fire on the enemy that lost the largest
  // share of its LP.
  double TargetWeight(int ti) const;
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
