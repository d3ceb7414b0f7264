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
#include <nanobind/stl/string.h>

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

// ``object`` handed to Python in a capsule named ``Name``, deleted with it (a
// RolloutPolicy in kRolloutCapsule, a CombatQuery in kQueryCapsule).
template <typename T, const char* const* Name>
nb::object Capsule(T* object) {
  PyObject* capsule = PyCapsule_New(object, *Name, [](PyObject* o) {
    delete static_cast<T*>(PyCapsule_GetPointer(o, *Name));
  });
  if (!capsule) {
    delete object;
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

constexpr const char* kPolicyName = kRolloutCapsule;
constexpr const char* kQueryName = kQueryCapsule;

nb::object PolicyCapsule(RolloutPolicy* policy) { return Capsule<RolloutPolicy, &kPolicyName>(policy); }
nb::object QueryCapsule(CombatQuery* query) { return Capsule<CombatQuery, &kQueryName>(query); }

// A doctrine's weights by name (its config dumped, with the agent's own weights).
struct Reader {
  const nb::dict& config;
  double operator()(const char* name) const {
    if (!config.contains(name)) throw std::invalid_argument(std::string("missing ") + name);
    return nb::cast<double>(config[name]);
  }
};

// agents/doctrine.py DoctrineConfig and agents/config.py PromptConfig: every twin's.
cwenv::doctrine::DoctrineConfig BaseConfig(const Reader& get) {
  cwenv::doctrine::DoctrineConfig c{};
  c.move_margin = get("move_margin"), c.risk_weight = get("risk_weight");
  c.exit_weight = get("exit_weight"), c.approach_weight = get("approach_weight");
  c.max_cells = static_cast<int>(get("max_cells"));
  c.aim_weight = get("aim_weight"), c.min_act = get("min_act");
  c.ko_bonus = get("ko_bonus"), c.mumm_value = get("mumm_value");
  c.condition_horizon = get("condition_horizon");
  c.shake_weight = get("shake_weight"), c.stand_weight = get("stand_weight");
  c.reaction_value = get("reaction_value"), c.prone_cost = get("prone_cost");
  c.always_blockade = get("always_blockade") != 0.0;
  c.stabilise_worth = get("stabilise_worth");
  return c;
}

using cwenv::doctrine::DoctrineConfig;
using cwenv::doctrine::DoctrineKind;

// Each doctrine with a twin: its kind and the weights of its own config (taktiker.py,
// schuetze.py, stuermer.py).
struct Own {
  const char* name;
  DoctrineKind kind;
  void (*read)(const Reader& get, DoctrineConfig& c);
};
constexpr Own kOwn[] = {
    {"taktiker", DoctrineKind::kTaktiker,
     [](const Reader& get, DoctrineConfig& c) {
       c.focus_weight = get("focus_weight"), c.retreat_weight = get("retreat_weight");
       c.retreat_risk = get("retreat_risk");
     }},
    {"schuetze", DoctrineKind::kSchuetze,
     [](const Reader& get, DoctrineConfig& c) {
       c.danger_weight = get("danger_weight"), c.distance_weight = get("distance_weight");
       c.melee_weight = get("melee_weight");
       c.keep_distance = static_cast<int>(get("keep_distance"));
     }},
    {"stuermer", DoctrineKind::kStuermer,
     [](const Reader& get, DoctrineConfig& c) {
       c.maneuver_mask = static_cast<int>(get("maneuver_mask"));
       c.maneuver_weight = get("maneuver_weight");
       c.min_maneuver_chance = get("min_maneuver_chance");
       c.melee_bonus = get("melee_bonus"), c.ranged_weight = get("ranged_weight");
       c.sprint_value = get("sprint_value");
     }},
};

nb::object DoctrineTwin(const nb::dict& config) {
  if (!config.contains("kind")) throw std::invalid_argument("missing kind");
  const std::string kind = nb::cast<std::string>(config["kind"]);
  for (const Own& own : kOwn)
    if (kind == own.name) {
      const Reader get{config};
      DoctrineConfig c = BaseConfig(get);
      c.kind = own.kind;
      own.read(get, c);
      return PolicyCapsule(cwenv::doctrine::MakeDoctrine(c));
    }
  throw std::invalid_argument("no native twin for doctrine " + kind +
                              " (taktiker, schuetze, stuermer)");
}

}  // namespace

NB_MODULE(_rollouts, m) {
  m.doc() =
      "Rollout policies in C++ for search on the native combat (agents/native/rollouts.cpp).";
  m.def("greedy", [] { return PolicyCapsule(new Greedy()); },
        "agents/greedy.py's GreedyAgent as a native rollout policy (a capsule).");
  m.def("doctrine", &DoctrineTwin, nb::arg("config"),
        "A doctrine's twin as a native policy (a capsule): agents/taktiker.py's Taktiker, "
        "agents/schuetze.py's Schütze or agents/stuermer.py's Stürmer by the config's "
        "``kind``; its choices, a decision it does not value handed back. ``config``: its "
        "weights by name (the Stürmer's manoeuvres as ``maneuver_mask``, a bit per "
        "types.py Maneuver).");
  m.def("state_value", [] { return QueryCapsule(cwenv::doctrine::MakeStateValue()); },
        "agents/search.py state_value for a fight not yet decided, as a native query (a "
        "capsule for CoreCombat.ask): args side, lp_weight, standing_weight, "
        "condition_weight, mumm_value.");
  m.def("move_candidates", [] { return QueryCapsule(cwenv::doctrine::MakeMoveCandidates()); },
        "agents/search.py move_candidates without its random pick, as a native query: args "
        "limit; the answer the cells picked.");
}
