// The Python face of the native combat (combat.hpp): _core.Combat, which
// cwenv/native/combat.py wraps. Only conversions live here; the rules are in combat.cpp
// and combat_turn.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bind_strike.hpp"
#include "combat.hpp"

namespace nb = nanobind;
using namespace cwenv::kampf;

bool LoadKampf(nb::handle kampf, nb::handle combat, KampfView& out);  // bind_kampf.cpp
const PromptRules& PromptRulesOf(nb::handle prompts);  // bind_prompts.cpp
nb::object KampfAction(nb::handle kampf, const Act& a);  // bind_kampf.cpp
nb::object PromptAction(nb::handle prompts, const PromptAct& a);  // bind_prompts.cpp

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
           const std::map<std::string, int>& strike, const std::vector<int>& substitute,
           const std::vector<int>& on_gain, const std::vector<CritRow>& crits,
           const std::vector<int>& fumbles, const std::vector<SpecRow>& specs,
           const std::vector<VictoryRowT>& victory, const std::vector<ZehrendRow>& zehrend,
           const std::vector<std::tuple<int, int>>& maneuvers, std::uint64_t state,
           std::uint64_t inc)
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
    StrikeRules sr =
        StrikeOf(strike, substitute, on_gain, crits, fumbles, specs, victory, zehrend, maneuvers);
    for (const StrikeSpec& spec : sr.specs)
      if (spec.weapons.size() > kMaxWeapons) throw std::invalid_argument("too many weapons");
    if (sr.specs.size() != v.g->specs.size())
      throw std::invalid_argument("one strike spec per fighter");
    for (std::size_t i = 0; i < sr.specs.size(); ++i)
      if (static_cast<int>(sr.specs[i].weapons.size()) != v.g->specs[i].n_weapons)
        throw std::invalid_argument("one strike weapon per weapon");
    combat_ = std::make_unique<NativeCombat>(*v.g, *v.lines, PromptRulesOf(prompts_), *v.s,
                                             std::move(fs), std::move(fm), std::move(r),
                                             std::move(sr), cwenv::Pcg32::FromState(state, inc));
  }

  // The legal choices as the Kampf's and Prompts' Action objects (the same objects for
  // the same choice).
  nb::list Legal() const {
    nb::list out;
    if (combat_->prompt()) {
      for (const PromptAct& a : combat_->Prompted()) out.append(PromptAction(prompts_, a));
    } else {
      for (const Act& a : combat_->Legal()) out.append(KampfAction(kampf_, a));
    }
    return out;
  }

  void Apply(int kind, int actor, int target, int cell, int arg, int mumm) {
    if (kind < 0 || kind > 255) throw Illegal("unknown action kind");
    if (combat_->prompt()) {
      combat_->Answer({static_cast<PromptKind>(kind), actor, target, arg, mumm, cell});
    } else {
      if (mumm != 0) throw Illegal("a turn's choice pays no Mumm");
      combat_->Apply({static_cast<Kind>(kind), actor, target, cell, arg});
    }
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
    return nb::make_tuple(o->winner, o->reason, o->rounds, o->about);
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
      return nb::make_tuple("Moved", e.fighter, nb::tuple(nb::cast(e.path)), e.metres,
                            static_cast<int>(e.how));
    }
    nb::tuple operator()(const RoundEnded& e) const { return nb::make_tuple("RoundEnded", e.round); }
    nb::tuple operator()(const CombatEnded& e) const {
      return nb::make_tuple("CombatEnded", e.winner, e.reason, e.rounds, e.about);
    }
    nb::tuple operator()(const CheckRolled& e) const {
      nb::list parts;
      for (int i = 0; i < e.parts.n; ++i) {
        const Part& p = e.parts.p[i];
        parts.append(nb::make_tuple(static_cast<int>(p.kind), p.ref, p.value));
      }
      return nb::make_tuple("CheckRolled", e.fighter, static_cast<int>(e.purpose), e.attacker,
                            e.target, e.mode, e.index, nb::tuple(parts), e.own, e.probenwert, e.d1,
                            e.d2, e.success, e.qs, e.volltreffer, e.patzer, e.forced);
    }
    nb::tuple operator()(const MummSpent& e) const {
      return nb::make_tuple("MummSpent", e.fighter, static_cast<int>(e.spend), e.cost, e.left);
    }
    nb::tuple operator()(const ResultKept& e) const {
      return nb::make_tuple("ResultKept", e.fighter, e.total, e.second);
    }
    nb::tuple operator()(const ReactionUsed& e) const {
      return nb::make_tuple("ReactionUsed", e.fighter, static_cast<int>(e.kind), e.left, e.extra);
    }
    nb::tuple operator()(const AttackDeclared& e) const {
      return nb::make_tuple("AttackDeclared", e.attacker, e.target, e.mode, e.index);
    }
    nb::tuple operator()(const AttackFailed& e) const {
      return nb::make_tuple("AttackFailed", e.attacker, e.target, e.full_cover);
    }
    nb::tuple operator()(const AttackRedirected& e) const {
      return nb::make_tuple("AttackRedirected", e.attacker, e.original, e.new_target, e.d10);
    }
    nb::tuple operator()(const DefenceDeclined& e) const {
      return nb::make_tuple("DefenceDeclined", e.defender);
    }
    nb::tuple operator()(const AttackDefended& e) const {
      return nb::make_tuple("AttackDefended", e.attacker, e.defender, e.attack_roll,
                            e.defence_roll);
    }
    nb::tuple operator()(const Hit& e) const {
      return nb::make_tuple("Hit", e.attacker, e.target, e.qs, e.weakened, e.aim_bonus);
    }
    nb::tuple operator()(const TableRolled& e) const {
      return nb::make_tuple("TableRolled", e.fighter, static_cast<int>(e.table), e.d1, e.d2,
                            e.minus, e.row);
    }
    nb::tuple operator()(const DamageRolled& e) const {
      return nb::make_tuple("DamageRolled", e.target, nb::tuple(nb::cast(e.rolls)), e.bonus,
                            e.armour, e.mode, e.subtotal, static_cast<int>(e.factor), e.total,
                            e.bare, e.direct, e.flat);
    }
    nb::tuple operator()(const DamageHalved& e) const {
      return nb::make_tuple("DamageHalved", e.fighter, e.before, e.after);
    }
    static nb::tuple CauseOf(const Cause& c) {
      return nb::make_tuple(static_cast<int>(c.kind), c.fighter, c.index);
    }
    nb::tuple operator()(const LPChanged& e) const {
      return nb::make_tuple("LPChanged", e.fighter, e.before, e.after, CauseOf(e.cause));
    }
    nb::tuple operator()(const ConditionGained& e) const {
      return nb::make_tuple("ConditionGained", e.fighter, e.condition, e.instead_of);
    }
    nb::tuple operator()(const SterbendAgain& e) const {
      return nb::make_tuple("SterbendAgain", e.fighter, e.d10);
    }
    nb::tuple operator()(const ConditionLost& e) const {
      return nb::make_tuple("ConditionLost", e.fighter, e.condition, static_cast<int>(e.cause),
                            e.by);
    }
    nb::tuple operator()(const StatusChanged& e) const {
      return nb::make_tuple("StatusChanged", e.fighter, static_cast<int>(e.status),
                            CauseOf(e.cause));
    }
    nb::tuple operator()(const ZehrendGained& e) const {
      return nb::make_tuple("ZehrendGained", e.fighter, e.kind, e.again);
    }
    nb::tuple operator()(const ZehrendLost& e) const {
      return nb::make_tuple("ZehrendLost", e.fighter, e.kind, static_cast<int>(e.cause));
    }
    nb::tuple operator()(const ForcedMove& e) const {
      return nb::make_tuple("ForcedMove", e.fighter, nb::tuple(nb::cast(e.path)),
                            static_cast<int>(e.cause));
    }
    nb::tuple operator()(const Fell& e) const {
      return nb::make_tuple("Fell", e.fighter, e.metres, e.dice);
    }
    nb::tuple operator()(const ClimbedPart& e) const {
      return nb::make_tuple("ClimbedPart", e.fighter, e.ledge, e.climbed, e.height, e.down);
    }
    nb::tuple operator()(const Acted& e) const {
      return nb::make_tuple("Acted", e.fighter, static_cast<int>(e.act), e.target, e.index,
                            e.value, e.what);
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
                    const std::vector<std::tuple<int, int>>&, const nb::bytes&,
                    const std::map<std::string, int>&, const std::vector<int>&,
                    const std::vector<int>&, const std::vector<CritRow>&, const std::vector<int>&,
                    const std::vector<SpecRow>&, const std::vector<VictoryRowT>&,
                    const std::vector<ZehrendRow>&, const std::vector<std::tuple<int, int>>&,
                    std::uint64_t, std::uint64_t>(),
           nb::arg("kampf"), nb::arg("prompts"), nb::arg("start"), nb::arg("setup"), nb::arg("moves"),
           nb::arg("rules"), nb::arg("survive"), nb::arg("exits"), nb::arg("strike"),
           nb::arg("substitute"), nb::arg("on_gain"), nb::arg("crits"), nb::arg("fumbles"),
           nb::arg("specs"), nb::arg("victory"), nb::arg("zehrend"), nb::arg("maneuvers"),
           nb::arg("state"), nb::arg("inc"))
      .def("legal", &PyCombat::Legal, "The legal choices (cwenv.engine.actions.Action).")
      .def("apply", &PyCombat::Apply, nb::arg("kind"), nb::arg("actor"), nb::arg("target"),
           nb::arg("cell"), nb::arg("arg"), nb::arg("mumm"),
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
