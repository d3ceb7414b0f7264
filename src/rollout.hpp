// The rollout-policy interface of the native combat (issue #16, "native rollout policies"):
// search plays a sampled future to its horizon in C++ (NativeCombat::Rollout) with a policy
// per side that chooses among the legal choices without crossing into Python. The engine
// knows no policy: agents/native/rollouts.cpp implements them (agents._rollouts) against
// this header and hands them over in a capsule named kRolloutCapsule.
#pragma once

#include <cstddef>

#include "stream.hpp"

namespace cwenv::kampf {

class NativeCombat;

struct RolloutPolicy {
  virtual ~RolloutPolicy() = default;
  // The index of the choice to take among c.Legal() (a TURN or ORDER decision) or
  // c.Prompted() (a prompt); asked only where there are two or more.
  virtual std::size_t Choose(const NativeCombat& c, Pcg32& rng) const = 0;
};

inline constexpr const char* kRolloutCapsule = "cwenv.kampf.RolloutPolicy";

// Where a rollout stops (agents/search.py Horizon): after round ``stop_round``, after
// ``stop_turns`` turns counted (-1: no such limit), after ``max_steps`` decisions.
struct Horizon {
  int stop_round;
  long long stop_turns;
  int max_steps;
};

}  // namespace cwenv::kampf
