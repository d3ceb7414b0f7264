// The native combat's events for Python (combat_events.hpp): each as (class name,
// fields...), which cwenv/engine/native/events.py turns into the reference's frozen events.
// Conversions only.
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include <variant>

#include "combat_events.hpp"

namespace nb = nanobind;
using namespace cwenv::kampf;

namespace {

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

}  // namespace

nb::tuple EventTuple(const Event& e) { return std::visit(Tuple{}, e); }
