// The doctrines' native twins (issue #16, "native rollout policies"): agents/native/
// taktiker.cpp; and search's native questions, agents/native/queries.cpp. Built into agents._rollouts against the core's headers; the engine knows
// none of them.
#pragma once

#include "rollout.hpp"

namespace cwenv::doctrine {

// The doctrines with a twin: the same Doctrine base (agents/doctrine.py), their own hooks
// (target_weight, weapon_weight, risk, cell_bonus, candidate_keys).
enum class DoctrineKind { kTaktiker, kSchuetze, kStuermer };

// The weights the twin reads (agents/doctrine.py DoctrineConfig, agents/config.py
// PromptConfig, and the doctrine's own config), in LP-equivalents.
struct DoctrineConfig {
  double move_margin, risk_weight, exit_weight, approach_weight;
  int max_cells;
  double aim_weight, min_act, ko_bonus, mumm_value, condition_horizon;
  double stabilise_worth;
  double shake_weight, stand_weight;  // Doctrine's class weights (H12, Aufstehen)
  double reaction_value, prone_cost;  // agents/config.py PromptConfig: the prompts' prices
  bool always_blockade;
  DoctrineKind kind = DoctrineKind::kTaktiker;
  double focus_weight = 0, retreat_weight = 0, retreat_risk = 0;  // taktiker.py
  double danger_weight = 0, distance_weight = 0, melee_weight = 0;  // schuetze.py
  int keep_distance = 0;
  // stuermer.py: the manoeuvres it considers (a bit set over types.py Maneuver), ...
  int maneuver_mask = 0;
  double maneuver_weight = 0, min_maneuver_chance = 0, melee_bonus = 0, ranged_weight = 0;
  double sprint_value = 0;
};

// A doctrine's twin (the Taktiker's, the Schütze's or the Stürmer's, by ``config.kind``): its turns and
// its answers to the prompts; a decision that reaches what the twin does not value is
// handed back (kDeferChoice) to the Python agent.
kampf::RolloutPolicy* MakeDoctrine(const DoctrineConfig& config);

// agents/search.py's questions of a state (agents/native/queries.cpp): state_value for a
// fight not yet decided, and move_candidates without its random pick.
kampf::CombatQuery* MakeStateValue();
kampf::CombatQuery* MakeMoveCandidates();

}  // namespace cwenv::doctrine
