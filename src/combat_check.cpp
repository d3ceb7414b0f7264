// The native combat's Probe (combat.hpp): checks.py CheckFrame with its Mumm prompts
// (P01-P06, M01-M03, M09, P03), spend_mumm, and conditions.py's reactions (R01, M05).
#include <algorithm>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

constexpr int kActionbonusValue = 2;  // checks.py ACTIONBONUS_VALUE (P03)
// CheckStage
constexpr int kBeforeRoll = 0, kRoll = 1, kAfterRoll = 2, kKeep = 3;

bool HasKind(const Parts& parts, PartKind kind) {
  for (int i = 0; i < parts.n; ++i)
    if (parts.p[i].kind == kind) return true;
  return false;
}

}  // namespace

// checks.py check(): the fighter's own parts (check_parts), ``own`` of them.
CheckF NativeCombat::Check(int fi, int check, Purpose purpose, bool reaction, bool defence) {
  CheckF c;
  c.fighter = fi, c.purpose = purpose;
  CheckParts(g_, s_.fighters[fi], fi, check, false, reaction, defence, c.parts);
  c.own = c.parts.n;
  return c;
}

// What prompts.cpp reads of a CheckFrame (bind_prompts.cpp CheckOf).
CheckAt NativeCombat::At(const CheckF& c) const {
  CheckAt at{};
  at.purpose = static_cast<int>(c.purpose);
  at.improved = c.improved, at.rerolls = c.rerolls;
  at.has_actionbonus = HasKind(c.parts, PartKind::kActionbonus);
  for (int i = 1; i < c.own; ++i)
    if (c.parts.p[i].kind == PartKind::kCondition) at.own_malus |= 1u << c.parts.p[i].ref;
  at.patzer = c.result.patzer, at.success = c.result.success;
  at.volltreffer = c.result.volltreffer;
  return at;
}

// checks.py spend_mumm (M01-M09, X10): an entmutigt fighter also burns its maximum.
void NativeCombat::SpendMumm(int fi, Spend spend) {
  Fighter& f = s_.fighters[fi];
  const int cost = strike_.cost[static_cast<int>(spend)];
  f.mumm -= cost;
  if (f.Has(kEntmutigt)) f.mumm_max -= cost;
  events_.push_back(MummSpent{fi, spend, cost, f.mumm});
}

// conditions.py can_use_reaction (R01, X24).
bool NativeCombat::CanReact(const Fighter& f) const {
  return f.standing() && (!f.Has(kBenommen) || g_.options.benommen_reactions_kept);
}

// conditions.py pay_reaction (R01, M05).
void NativeCombat::PayReaction(int fi, int with_mumm, Reaction kind) {
  if (with_mumm) {
    SpendMumm(fi, Spend::kZusaetzlicheReaktion);
  } else {
    --reactions_[fi];
  }
  events_.push_back(ReactionUsed{fi, kind, reactions_[fi], with_mumm != 0});
}

// CheckFrame._roll (P01, P04-P06, M09): the Probenwert with M02's +2s; a focus (H09) is
// spent by the check it is part of.
Probe NativeCombat::Roll(CheckF& c, bool forced) {
  Fighter& f = s_.fighters[c.fighter];
  Parts parts = c.parts;
  if (c.improved) parts.Add(PartKind::kMumm, -1, 2 * c.improved);
  const int probenwert = parts.Total();
  if (f.focus_bonus && HasKind(parts, PartKind::kFocus)) f.focus_bonus = 0;
  Probe r;
  if (forced) {
    r = ForcedVolltreffer(strike_.probe, probenwert);
  } else {
    const int d1 = dice_.D10();  // the first die first: Python evaluates left to right
    const int d2 = dice_.D10();
    r = ResolveProbe(strike_.probe, probenwert, d1, d2);
  }
  events_.push_back(CheckRolled{c.fighter, c.purpose, c.attacker, c.target, c.mode, c.index,
                                parts, probenwert, r.d1, r.d2, r.success, r.qs, r.volltreffer,
                                r.patzer, forced});
  return r;
}

// CheckFrame.step: M02/M09/P03 before the roll, the roll, M01/M03 after it, M03's choice.
NativeCombat::Result NativeCombat::Step(CheckF& c, Value v) {
  const int fi = c.fighter;
  if (c.stage == kBeforeRoll && !c.helped) {  // P08: announced help rolls first
    c.helped = true;
    if (s_.fighters[fi].helpers && c.purpose == Purpose::kAttack &&
        c.mode != static_cast<int>(Mode::kBlockade))
      throw Unported("announced help (P08)");
    v = {};
  }
  if (c.stage == kBeforeRoll) {
    if (v.prompted) {
      switch (v.answer.kind) {
        case PromptKind::kPreActionbonus:
          actionbonus_used_[fi] = 1;
          c.parts.Add(PartKind::kActionbonus, -1, kActionbonusValue);
          break;
        case PromptKind::kPreImprove:
          SpendMumm(fi, Spend::kProbeVerbessern);
          ++c.improved;
          break;
        case PromptKind::kPreGrosserWurf:
          SpendMumm(fi, Spend::kGrosserWurf);
          c.result = Roll(c, true);
          return Return(c.result);
        default:
          c.stage = kRoll;
      }
    }
    if (c.stage == kBeforeRoll) {
      const CheckAt at = At(c);
      PreCheckChoices(g_, prompts_, s_.fighters[fi], fi, ReactingOf(fi), at,
                      at.own_malus && turn_fighter_ == fi && TurnBenommen(), asked_acts_);
      if (!asked_acts_.empty()) return Ask(Asked::kPreCheck, fi, asked_acts_);
    }
    c.stage = kRoll;
    v = {};
  }
  if (c.stage == kRoll) {
    c.result = Roll(c, false);
    c.stage = kAfterRoll;
    v = {};
  }
  if (c.stage == kAfterRoll) {
    if (v.prompted) {
      if (v.answer.kind == PromptKind::kPostAvert) {
        SpendMumm(fi, Spend::kPatzerAbwenden);
        const Probe r = c.result;
        c.result = {r.probenwert, r.d1, r.d2, false, 0, false, false};
        return Return(c.result);
      }
      if (v.answer.kind == PromptKind::kPostReroll) {
        SpendMumm(fi, Spend::kProbeWiederholen);
        ++c.rerolls;
        c.first = c.result;
        c.result = Roll(c, false);
        c.stage = kKeep;
        KeepChoices(prompts_, fi, c.result.patzer, asked_acts_);
        return Ask(Asked::kKeep, fi, asked_acts_);
      }
      return Return(c.result);
    }
    PostCheckChoices(g_, prompts_, s_.fighters[fi], fi, At(c), asked_acts_);
    if (!asked_acts_.empty()) return Ask(Asked::kPostCheck, fi, asked_acts_);
    return Return(c.result);
  }
  // kKeep, M03: 'Du entscheidest anschliessend, welches der beiden Ergebnisse gilt'
  const bool second = v.answer.kind == PromptKind::kKeepSecond;
  if (!second) c.result = c.first;
  events_.push_back(ResultKept{fi, c.result.total(), second});
  c.stage = kAfterRoll;
  PostCheckChoices(g_, prompts_, s_.fighters[fi], fi, At(c), asked_acts_);
  if (!asked_acts_.empty()) return Ask(Asked::kPostCheck, fi, asked_acts_);
  return Return(c.result);
}

}  // namespace cwenv::kampf
