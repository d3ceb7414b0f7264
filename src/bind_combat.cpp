// The Python face of the native combat (combat.hpp): _core.Combat, which
// cwenv/native/combat.py wraps. Only conversions live here; the rules are in combat.cpp
// and combat_turn.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "combat.hpp"

namespace nb = nanobind;
using namespace cwenv::kampf;

bool LoadKampf(nb::handle kampf, nb::handle combat, KampfView& out);  // bind_kampf.cpp
const PromptRules& PromptRulesOf(nb::handle prompts);  // bind_prompts.cpp
nb::object KampfAction(nb::handle kampf, const Act& a);  // bind_kampf.cpp

namespace {

using SetupRow = std::tuple<int, int, int>;
using MovesRow = std::tuple<nb::object, int, nb::object, int>;
// (passes, tie_order, reactions_basis, passes_count_initiative_bonus,
//  prone_bonus_to_own_turn, zielen_lost_on_move, zielen_lost_at_round_end, geometry,
//  round_limit, decision_cap, exits_matter, ambush)
using RulesRow = std::tuple<bool, int, int, bool, bool, bool, bool, int, int, int, bool, bool>;

const cwenv::Moves* MovesOf(const nb::object& o, int cells) {
  if (!nb::isinstance<cwenv::Moves>(o)) throw std::invalid_argument("moves must be _core.Moves");
  const cwenv::Moves* m = nb::inst_ptr<cwenv::Moves>(o);
  if (m->size() != cells) throw std::invalid_argument("the moves are not the map's");
  return m;
}

class PyCombat {
 public:
  PyCombat(nb::object kampf, nb::object prompts, nb::handle start, const std::vector<SetupRow>& setup,
           const std::vector<MovesRow>& moves, const RulesRow& rules,
           const std::vector<std::tuple<int, int>>& survive, const nb::bytes& exits,
           std::uint64_t state, std::uint64_t inc)
      : kampf_(std::move(kampf)), prompts_(std::move(prompts)) {
    KampfView v;
    if (!LoadKampf(kampf_, start, v)) throw std::invalid_argument("the combat is not the game's");
    const int cells = static_cast<int>(v.g->terrain.size());
    std::vector<FighterSetup> fs;
    for (const auto& [grundwert, reflexe, bonus] : setup) fs.push_back({grundwert, reflexe, bonus});
    std::vector<FighterMoves> fm;
    for (const auto& [free, free_slow, limited, limited_slow] : moves) {
      keep_.push_back(free), keep_.push_back(limited);
      if (free_slow < 1 || limited_slow < 1) throw std::invalid_argument("a slow cost below 1");
      fm.push_back({MovesOf(free, cells), free_slow, MovesOf(limited, cells), limited_slow});
    }
    CombatRules r;
    std::tie(r.passes, r.tie_order, r.reactions_basis, r.passes_count_initiative_bonus,
             r.prone_bonus_to_own_turn, r.zielen_lost_on_move, r.zielen_lost_at_round_end,
             r.geometry, r.round_limit, r.decision_cap, r.exits_matter, r.ambush) = rules;
    if (r.tie_order < 0 || r.tie_order > 2 || r.reactions_basis < 0 || r.reactions_basis > 2 ||
        r.geometry < 0 || r.geometry > 2 || r.decision_cap < 1)
      throw std::invalid_argument("unknown tie order, reactions basis or geometry");
    for (const auto& [side, rounds] : survive) r.survive.push_back({side, rounds});
    if (static_cast<int>(exits.size()) != cells) throw std::invalid_argument("one exit byte per cell");
    const auto* e = static_cast<const std::uint8_t*>(exits.data());
    r.exits.assign(e, e + cells);
    combat_ = std::make_unique<NativeCombat>(*v.g, *v.lines, PromptRulesOf(prompts_), *v.s,
                                             std::move(fs), std::move(fm), std::move(r),
                                             cwenv::Pcg32::FromState(state, inc));
  }

  // The legal choices as the Kampf's Action objects (the same objects for the same choice).
  nb::list Legal() const {
    nb::list out;
    for (const Act& a : combat_->Legal()) out.append(KampfAction(kampf_, a));
    return out;
  }

  void Apply(int kind, int actor, int target, int cell, int arg) {
    if (kind < 0 || kind > 255) throw Illegal("unknown action kind");
    combat_->Apply({static_cast<Kind>(kind), actor, target, cell, arg});
  }

  nb::object Decision() const {
    const auto asked = combat_->decision();
    if (!asked) return nb::none();
    return nb::make_tuple(static_cast<int>(*asked), combat_->decider(), combat_->slot());
  }

  // The events from ``start`` on as (class name, fields...).
  nb::list EventsFrom(std::size_t start) const {
    nb::list out;
    const auto& events = combat_->events();
    for (std::size_t i = start; i < events.size(); ++i) out.append(std::visit(Tuple{}, events[i]));
    return out;
  }

  nb::object Outcome() const {
    const auto& o = combat_->outcome();
    if (!o) return nb::none();
    return nb::make_tuple(o->winner, o->reason, o->rounds, o->survived);
  }

  const NativeCombat& combat() const { return *combat_; }

 private:
  struct Tuple {
    nb::tuple operator()(const RoundStarted& e) const { return nb::make_tuple("RoundStarted", e.round); }
    nb::tuple operator()(const InitiativeRolled& e) const {
      return nb::make_tuple("InitiativeRolled", e.fighter, e.grundwert, nb::tuple(nb::cast(e.dice)),
                            e.initiative, e.reactions, e.actions, nb::tuple(nb::cast(e.steps)));
    }
    nb::tuple operator()(const TurnStarted& e) const {
      return nb::make_tuple("TurnStarted", e.fighter, e.step, e.passes);
    }
    nb::tuple operator()(const TurnEnded& e) const { return nb::make_tuple("TurnEnded", e.fighter); }
    nb::tuple operator()(const Moved& e) const {
      return nb::make_tuple("Moved", e.fighter, nb::tuple(nb::cast(e.path)), e.metres, e.sprint);
    }
    nb::tuple operator()(const RoundEnded& e) const { return nb::make_tuple("RoundEnded", e.round); }
    nb::tuple operator()(const CombatEnded& e) const {
      return nb::make_tuple("CombatEnded", e.winner, e.reason, e.rounds, e.survived);
    }
  };

  nb::object kampf_;  // its GameDesc and Lines are the combat's
  nb::object prompts_;  // the game's _core.Prompts: its rules are the combat's
  std::vector<nb::object> keep_;  // the step tables
  std::unique_ptr<NativeCombat> combat_;
};

}  // namespace

void BindCombat(nb::module_& m) {
  nb::exception<Unported>(m, "Unported", PyExc_NotImplementedError);
  nb::class_<PyCombat>(m, "CoreCombat",
                       "A combat the core runs itself (src/combat.hpp); cwenv/native/combat.py "
                       "builds and wraps it.")
      .def(nb::init<nb::object, nb::object, nb::handle, const std::vector<SetupRow>&,
                    const std::vector<MovesRow>&, const RulesRow&,
                    const std::vector<std::tuple<int, int>>&, const nb::bytes&, std::uint64_t,
                    std::uint64_t>(),
           nb::arg("kampf"), nb::arg("prompts"), nb::arg("start"), nb::arg("setup"), nb::arg("moves"),
           nb::arg("rules"), nb::arg("survive"), nb::arg("exits"), nb::arg("state"),
           nb::arg("inc"))
      .def("legal", &PyCombat::Legal, "The legal choices (cwenv.engine.actions.Action).")
      .def("apply", &PyCombat::Apply, nb::arg("kind"), nb::arg("actor"), nb::arg("target"),
           nb::arg("cell"), nb::arg("arg"),
           "Validate and carry out a choice (ValueError; Unported where the rules reach what "
           "is not ported).")
      .def_prop_ro("decision", &PyCombat::Decision, "(DecisionKind, fighter, slot) or None.")
      .def("events_from", &PyCombat::EventsFrom, nb::arg("start"),
           "The events from index ``start`` on, as (class name, fields...).")
      .def_prop_ro("outcome", &PyCombat::Outcome, "(winner, reason, rounds, survived) or None.")
      .def_prop_ro("round", [](const PyCombat& c) { return c.combat().round(); })
      .def_prop_ro("history", [](const PyCombat& c) { return c.combat().history(); })
      .def_prop_ro("forced", [](const PyCombat& c) { return c.combat().forced(); })
      .def_prop_ro("dice_state", [](const PyCombat& c) {
        return nb::make_tuple(c.combat().dice().state(), c.combat().dice().inc());
      });
}
