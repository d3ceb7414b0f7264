// agents._rollouts: rollout policies in C++ for search on the native combat (issue #16,
// "native rollout policies"): each implements the core's RolloutPolicy (src/rollout.hpp)
// and is handed to NativeCombat.rollout in a capsule, so a rollout never crosses into
// Python per decision. The engine knows none of them.
//
// greedy: agents/greedy.py GreedyAgent, choice for choice on the same state — the most
// hurt standing enemy in reach is attacked, else the nearest cell to an enemy is walked
// to, else a reload, else the end of the turn; prompts get the obvious answers. Its one
// random choice (no such option at all) draws from the rollout's PCG32 stream instead of
// Python's random.Random, or, in an exact play-on (whole games, cwenv/agent.py play_out),
// is left to the Python agent and its generator. tests/test_native_rollouts.py holds it
// to the Python agent.
#include <nanobind/nanobind.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "combat.hpp"
#include "doctrine.hpp"

namespace nb = nanobind;
using namespace cwenv::kampf;

namespace {

// agents/greedy.py PROMPT_PREFERENCE
constexpr std::array<PromptKind, 11> kPreference = {
    PromptKind::kDefend,      PromptKind::kBlockadeAttack, PromptKind::kCatchFall,
    PromptKind::kAvertDeath,  PromptKind::kPostAvert,      PromptKind::kKeepSecond,
    PromptKind::kPreNone,     PromptKind::kPostAccept,     PromptKind::kStayUp,
    PromptKind::kTakeDamage,  PromptKind::kDragStop,
};

int Chebyshev(int width, int a, int b) {
  const int dx = std::abs(a % width - b % width), dy = std::abs(a / width - b / width);
  return dx > dy ? dx : dy;
}

class Greedy final : public RolloutPolicy {
 public:
  std::size_t Choose(const NativeCombat& c, cwenv::Pcg32* rng) const override {
    const Asked kind = *c.decision();
    if (kind == Asked::kTurn) return Turn(c, rng);
    if (kind == Asked::kOrder) return 0;  // no preferred kind: the first
    const std::vector<PromptAct>& legal = c.Prompted();
    if (kind == Asked::kKeep) return Keep(c, legal);
    for (PromptKind want : kPreference)
      for (std::size_t i = 0; i < legal.size(); ++i)
        if (legal[i].kind == want) return i;
    return 0;
  }

 private:
  // GreedyAgent._turn
  static std::size_t Turn(const NativeCombat& c, cwenv::Pcg32* rng) {
    const std::vector<Act>& legal = c.Legal();
    const std::vector<Fighter>& fighters = c.state().fighters;
    std::size_t best = legal.size();
    for (std::size_t i = 0; i < legal.size(); ++i) {  // the most hurt standing target
      const Act& a = legal[i];
      if (a.kind != Kind::kAttack || !fighters[a.target].standing()) continue;
      if (best == legal.size()) {
        best = i;
        continue;
      }
      const Act& b = legal[best];
      const int lp = fighters[a.target].lp, best_lp = fighters[b.target].lp;
      if (lp < best_lp || (lp == best_lp && a.arg < b.arg)) best = i;
    }
    if (best < legal.size()) return best;
    const Fighter& me = fighters[c.decider()];
    const int width = c.width();
    std::vector<int> spots;
    for (const Fighter& f : fighters)
      if (f.side != me.side && f.standing()) spots.push_back(f.pos);
    if (!spots.empty()) {  // the nearest cell to an enemy, ties to the lowest cell
      int here = Chebyshev(width, me.pos, spots.front());
      for (int spot : spots) here = std::min(here, Chebyshev(width, me.pos, spot));
      int best_gap = here;
      for (std::size_t i = 0; i < legal.size(); ++i) {
        const Act& a = legal[i];
        if (a.kind != Kind::kMove) continue;
        int gap = here;  // grid.py nearest, capped at here: only nearer cells count
        for (int spot : spots) gap = std::min(gap, Chebyshev(width, a.cell, spot));
        if (gap < best_gap || (gap == best_gap && best < legal.size() && a.cell < legal[best].cell))
          best = i, best_gap = gap;
      }
      if (best < legal.size()) return best;
    }
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i].kind == Kind::kReload) return i;
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i].kind == Kind::kEndTurn) return i;
    // the random last resort: the Python agent's own generator draws it in an exact play
    if (!rng) return kDeferChoice;
    return rng->Bounded(static_cast<std::uint32_t>(legal.size()));
  }

  // greedy.py _keep_better (M03): keep whichever of the two rolls is the better result.
  static std::size_t Keep(const NativeCombat& c, const std::vector<PromptAct>& legal) {
    const CheckF& check = std::get<CheckF>(c.stack().back());
    const Probe &first = check.first, &second = check.result;
    const auto key = [](const Probe& p) { return std::array<int, 3>{p.success, p.qs, !p.patzer}; };
    const PromptKind want = key(second) >= key(first) ? PromptKind::kKeepSecond
                                                      : PromptKind::kKeepFirst;
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i].kind == want) return i;
    return legal.size() - 1;
  }
};

nb::object Capsule(RolloutPolicy* policy) {
  PyObject* capsule = PyCapsule_New(policy, kRolloutCapsule, [](PyObject* o) {
    delete static_cast<RolloutPolicy*>(PyCapsule_GetPointer(o, kRolloutCapsule));
  });
  if (!capsule) {
    delete policy;
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

}  // namespace

NB_MODULE(_rollouts, m) {
  m.doc() =
      "Rollout policies in C++ for search on the native combat (agents/native/rollouts.cpp).";
  m.def("greedy", [] { return Capsule(new Greedy()); },
        "agents/greedy.py's GreedyAgent as a native rollout policy (a capsule).");
  m.def(
      "taktiker",
      [](const nb::dict& config) {
        const auto get = [&config](const char* name) {
          if (!config.contains(name)) throw std::invalid_argument(std::string("missing ") + name);
          return nb::cast<double>(config[name]);
        };
        cwenv::doctrine::TaktikerConfig c{};
        c.move_margin = get("move_margin"), c.risk_weight = get("risk_weight");
        c.exit_weight = get("exit_weight"), c.approach_weight = get("approach_weight");
        c.max_cells = nb::cast<int>(config["max_cells"]);
        c.aim_weight = get("aim_weight"), c.min_act = get("min_act");
        c.ko_bonus = get("ko_bonus"), c.mumm_value = get("mumm_value");
        c.condition_horizon = get("condition_horizon");
        c.shake_weight = get("shake_weight"), c.stand_weight = get("stand_weight");
        c.reaction_value = get("reaction_value"), c.prone_cost = get("prone_cost");
        c.always_blockade = get("always_blockade") != 0.0;
        c.focus_weight = get("focus_weight"), c.retreat_weight = get("retreat_weight");
        c.retreat_risk = get("retreat_risk"), c.stabilise_worth = get("stabilise_worth");
        return Capsule(cwenv::doctrine::MakeTaktiker(c));
      },
      nb::arg("config"),
      "agents/taktiker.py's Taktiker as a native policy (a capsule): its choices, a "
      "decision it does not value handed back. ``config``: its weights by name.");
}
