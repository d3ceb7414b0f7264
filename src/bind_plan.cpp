// The Python face of the Probenwert and the attack plan (attack_plan.hpp): module
// functions on a _core.Kampf, which cwenv/engine/plan_core.py calls. Only conversions
// live here; the rules are in attack_plan.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "attack_plan.hpp"
#include "kampf.hpp"
#include "probe.hpp"

namespace nb = nanobind;
using namespace cwenv::kampf;

GameDesc& KampfDescToFill(nb::handle kampf);  // bind_kampf.cpp
bool LoadKampf(nb::handle kampf, nb::handle combat, KampfView& out);  // bind_kampf.cpp

namespace {

// (skill, modifier, durchdringung)
using MeansRow = std::tuple<int, int, bool>;
// (values, behinderung, weapons, hacks, cyberware as (kind, amount))
using SpecRow = std::tuple<std::vector<int>, int, std::vector<MeansRow>, std::vector<MeansRow>,
                           std::vector<std::tuple<int, int>>>;
// (niederwerfen_vs_melee, area_cover_all, zielen_bonus, zielen_qs_bonus,
//  entwaffnen_nsc_penalty, prone_malus, condition_penalty)
using RulesRow = std::tuple<bool, bool, int, int, int, int, int>;

AttackWeapon MeansOf(const MeansRow& row) {
  const auto& [skill, modifier, durch] = row;
  if (skill < 0 || skill >= kCheckValues) throw std::invalid_argument("unknown check value");
  return {skill, modifier, durch};
}

void AttackTablesOf(nb::handle kampf, const std::vector<int>& malus_order,
                    const std::vector<std::vector<std::tuple<std::uint32_t, bool>>>& sorts,
                    const std::vector<SpecRow>& specs, const MeansRow& unarmed,
                    const std::vector<int>& maneuvers, const RulesRow& rules) {
  GameDesc& g = KampfDescToFill(kampf);
  AttackTables t;
  if (malus_order.size() > 32) throw std::invalid_argument("more than 32 condition maluses");
  for (int c : malus_order)
    if (c < 0 || c >= kConditions) throw std::invalid_argument("unknown condition");
  t.malus_order = malus_order;
  if (sorts.size() != kCheckValues) throw std::invalid_argument("one row per check value");
  for (int c = 0; c < kCheckValues; ++c) {
    if (sorts[c].size() != 8) throw std::invalid_argument("eight sorts per check value");
    for (int k = 0; k < 8; ++k) t.sorts[c][k] = {std::get<0>(sorts[c][k]), std::get<1>(sorts[c][k])};
  }
  if (specs.size() != g.specs.size()) throw std::invalid_argument("one row per fighter");
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& [values, behinderung, weapons, hacks, cyber] = specs[i];
    const Spec& spec = g.specs[i];
    if (values.size() != kCheckValues || weapons.size() != static_cast<std::size_t>(spec.n_weapons) ||
        hacks.size() != static_cast<std::size_t>(spec.n_hacks) ||
        cyber.size() != static_cast<std::size_t>(spec.n_cyber))
      throw std::invalid_argument("a fighter's row is not its stat block's");
    AttackSpec a;
    for (int c = 0; c < kCheckValues; ++c) a.values[c] = values[c];
    a.behinderung = behinderung;
    for (std::size_t w = 0; w < weapons.size(); ++w) a.weapons[w] = MeansOf(weapons[w]);
    for (std::size_t h = 0; h < hacks.size(); ++h) a.hacks[h] = MeansOf(hacks[h]);
    for (std::size_t k = 0; k < cyber.size(); ++k)
      a.cyber_kind[k] = std::get<0>(cyber[k]), a.cyber_amount[k] = std::get<1>(cyber[k]);
    t.specs.push_back(a);
  }
  t.unarmed = MeansOf(unarmed);
  t.maneuver_modifier = maneuvers;
  const auto& [vs_melee, area_all, bonus, qs_bonus, disarmed, prone, penalty] = rules;
  t.niederwerfen_vs_melee = vs_melee, t.area_cover_all = area_all;
  t.zielen_bonus = bonus, t.zielen_qs_bonus = qs_bonus, t.entwaffnen_nsc_penalty = disarmed;
  t.prone_malus = prone, t.condition_penalty = penalty;
  t.ready = true;
  g.attack = std::move(t);
}

// The parts as a tuple of (PartKind, ref, value): hashable, so plan_core.py keeps the
// typed parts it made of each.
nb::tuple PartsOut(const Parts& p) {
  nb::list out;
  for (int i = 0; i < p.n; ++i)
    out.append(nb::make_tuple(static_cast<int>(p.p[i].kind), p.p[i].ref, p.p[i].value));
  return nb::tuple(out);
}

// The combat loaded, or false (not the game's); std::invalid_argument without the tables.
bool Load(nb::handle kampf, nb::handle combat, KampfView& view) {
  if (!KampfDescToFill(kampf).attack.ready)
    throw std::invalid_argument("attack_tables first (cwenv/engine/plan_core.py)");
  return LoadKampf(kampf, combat, view);
}

void CheckFighter(const KampfView& v, int i) {
  if (i < 0 || i >= static_cast<int>(v.s->fighters.size()))
    throw std::out_of_range("no fighter " + std::to_string(i));
}

nb::object CheckPartsOf(nb::handle kampf, nb::handle combat, int fighter, int check, bool attack,
                        bool reaction, bool defence) {
  KampfView v;
  if (!Load(kampf, combat, v)) return nb::none();
  CheckFighter(v, fighter);
  if (check < 0 || check >= kCheckValues) throw std::out_of_range("no check value");
  Parts p;
  CheckParts(*v.g, v.s->fighters[fighter], fighter, check, attack, reaction, defence, p);
  return PartsOut(p);
}

nb::object PlanOf(nb::handle kampf, nb::handle combat, int attacker, int target, int mode,
                  int index) {
  KampfView v;
  if (!Load(kampf, combat, v)) return nb::none();
  CheckFighter(v, attacker), CheckFighter(v, target);
  const Spec& spec = v.g->specs[attacker];
  const int count = mode == 1   ? spec.n_hacks
                    : mode == 2 ? static_cast<int>(v.g->attack.maneuver_modifier.size())
                                : spec.n_weapons;
  if (mode < 0 || mode > 3) throw std::out_of_range("no attack mode");
  if (index < 0 || index >= count) throw std::out_of_range("no such weapon, hack or manoeuvre");
  static Plan plan;  // the targets' buffer reused (one thread holds the GIL)
  PlanAttack(*v.g, *v.lines, *v.s, attacker, target, static_cast<Mode>(mode), index, plan);
  nb::list targets;
  for (int t : plan.targets) targets.append(t);
  const CoverAnswer& c = plan.cover;
  return nb::make_tuple(PartsOut(plan.parts),
                        nb::make_tuple(static_cast<int>(c.level), c.living, c.coverer,
                                       static_cast<int>(c.terrain)),
                        plan.ranged, nb::tuple(targets), plan.aim_qs, plan.no_cover_probenwert,
                        plan.own_parts);
}

// probe.hpp's readings from (volltreffer_qs, grosser_wurf_highest_roll, difference_raw,
// volltreffer_wins_contest, lone_winner_difference, tie_own_roll), as strike.py names them.
using ProbeRow = std::tuple<int, bool, bool, bool, bool, bool>;
ProbeRules ProbeRulesOf(const ProbeRow& row) {
  ProbeRules r;
  std::tie(r.volltreffer_qs, r.grosser_wurf_highest_roll, r.difference_raw,
           r.volltreffer_wins_contest, r.lone_winner_difference, r.tie_own_roll) = row;
  if (r.volltreffer_qs < 0 || r.volltreffer_qs > 2) throw std::invalid_argument("volltreffer_qs");
  return r;
}
using ProbeTuple = std::tuple<int, int, int, bool, int, bool, bool>;
ProbeTuple TupleOf(const Probe& p) {
  return {p.probenwert, p.d1, p.d2, p.success, p.qs, p.volltreffer, p.patzer};
}
Probe ProbeOf(const ProbeTuple& t) {
  Probe p;
  std::tie(p.probenwert, p.d1, p.d2, p.success, p.qs, p.volltreffer, p.patzer) = t;
  return p;
}

}  // namespace

void BindPlan(nb::module_& m) {
  m.def(
      "resolve_probe",
      [](const ProbeRow& rules, int probenwert, int d1, int d2) {
        return TupleOf(ResolveProbe(ProbeRulesOf(rules), probenwert, d1, d2));
      },
      nb::arg("rules"), nb::arg("probenwert"), nb::arg("d1"), nb::arg("d2"),
      "probe.py resolve_probe natively (src/probe.hpp), as a ProbeResult's fields.");
  m.def(
      "forced_volltreffer",
      [](const ProbeRow& rules, int probenwert) {
        return TupleOf(ForcedVolltreffer(ProbeRulesOf(rules), probenwert));
      },
      nb::arg("rules"), nb::arg("probenwert"), "probe.py forced_volltreffer natively.");
  m.def(
      "hit_qs",
      [](const ProbeRow& rules, const ProbeTuple& attack, const ProbeTuple& defence) {
        return HitQs(ProbeRulesOf(rules), ProbeOf(attack), ProbeOf(defence));
      },
      nb::arg("rules"), nb::arg("attack"), nb::arg("defence"),
      "probe.py hit_qs natively; -1 where the defence holds (its None).");
  m.def("attack_tables", &AttackTablesOf, nb::arg("kampf"), nb::arg("malus_order"),
        nb::arg("sorts"), nb::arg("specs"), nb::arg("unarmed"), nb::arg("maneuvers"),
        nb::arg("rules"),
        "Hand a Kampf what check_parts and plan_attack read (src/attack_plan.hpp; "
        "cwenv/engine/plan_core.py builds the rows).");
  m.def("check_parts", &CheckPartsOf, nb::arg("kampf"), nb::arg("combat"), nb::arg("fighter"),
        nb::arg("check"), nb::arg("attack"), nb::arg("reaction"), nb::arg("defence"),
        "checks.py check_parts natively: ((PartKind, ref, value), ...); None when the combat is "
        "not the game's.");
  m.def("plan_attack", &PlanOf, nb::arg("kampf"), nb::arg("combat"), nb::arg("attacker"),
        nb::arg("target"), nb::arg("mode"), nb::arg("index"),
        "attack_plan.py plan_attack natively: (parts, (level, living, coverer, terrain), "
        "ranged, targets, aim_qs, no_cover_probenwert, own_parts); None when the combat is "
        "not the game's.");
}
