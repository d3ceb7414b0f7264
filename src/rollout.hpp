// The rollout-policy interface of the native combat (issue #16, "native rollout policies"):
// search plays a sampled future to its horizon in C++ (NativeCombat::Rollout) with a policy
// per side that chooses among the legal choices without crossing into Python. The engine
// knows no policy: agents/native/rollouts.cpp implements them (agents._rollouts) against
// this header and hands them over in a capsule named kRolloutCapsule.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "stream.hpp"

namespace cwenv::kampf {

class NativeCombat;

struct RolloutPolicy {
  virtual ~RolloutPolicy() = default;
  // The index of the choice to take among c.Legal() (a TURN or ORDER decision) or
  // c.Prompted() (a prompt); asked where there are two or more, and in an exact play-on
  // (Horizon) at every decision, as the Python agent is. Where the choice is
  // a random draw the policy draws from ``rng``; with no ``rng`` (an exact play-on, whose
  // draws belong to the Python agent's own generator) it returns kDeferChoice instead.
  virtual std::size_t Choose(const NativeCombat& c, Pcg32* rng) const = 0;
};

inline constexpr std::size_t kDeferChoice = static_cast<std::size_t>(-1);

inline constexpr const char* kRolloutCapsule = "cwenv.kampf.RolloutPolicy";

// A question a native module of agents/ asks of the combat where it stands, without a
// step (a search's state value, its candidate cells), so that search need not read the
// mirror in Python for it: handed over in a capsule named kQueryCapsule, with numbers in
// and numbers out (what they mean is the query's own affair).
struct CombatQuery {
  virtual ~CombatQuery() = default;
  virtual std::vector<double> Ask(const NativeCombat& c, std::span<const double> args) const = 0;
};

inline constexpr const char* kQueryCapsule = "cwenv.kampf.CombatQuery";

// Where a rollout stops (agents/search.py Horizon): after round ``stop_round``, after
// ``stop_turns`` turns counted (-1: no such limit), after ``max_steps`` decisions. An
// ``exact`` rollout (cwenv/agent.py play_out) also stops, deferred, before a decision of a
// side with no policy and before a choice its policy would draw at random, so that the
// Python agents make those and every game is the one they would play alone.
struct Horizon {
  int stop_round;
  long long stop_turns;
  int max_steps;
  bool exact = false;
};

}  // namespace cwenv::kampf
