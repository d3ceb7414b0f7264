// The doctrines' native twins (issue #16, "native rollout policies"): agents/native/
// taktiker.cpp. Built into agents._rollouts against the core's headers; the engine knows
// none of them.
#pragma once

#include "rollout.hpp"

namespace cwenv::doctrine {

// agents/taktiker.py TaktikerConfig: the weights the twin reads (agents/doctrine.py
// DoctrineConfig, agents/config.py PromptConfig), in LP-equivalents.
struct TaktikerConfig {
  double move_margin, risk_weight, exit_weight, approach_weight;
  int max_cells;
  double aim_weight, min_act, ko_bonus, mumm_value, condition_horizon;
  double focus_weight, retreat_weight, retreat_risk, stabilise_worth;
  double shake_weight, stand_weight;  // Doctrine's class weights (H12, Aufstehen)
  double reaction_value, prone_cost;  // agents/config.py PromptConfig: the prompts' prices
  bool always_blockade;
};

// The Taktiker's twin: its turns and its answers to the prompts; a decision that reaches
// what the twin does not value is handed back (kDeferChoice) to the Python agent.
kampf::RolloutPolicy* MakeTaktiker(const TaktikerConfig& config);

}  // namespace cwenv::doctrine
