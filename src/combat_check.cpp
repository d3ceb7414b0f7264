// The native combat's Probe (combat.hpp): checks.py CheckFrame with its Mumm prompts
// (P01-P06, M01-M03, M09, P03), spend_mumm, and conditions.py's reactions (R01, M05).
#include <algorithm>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

constexpr int kActionbonusValue = 2;  // checks.py ACTIONBONUS_VALUE (P03)
// CheckStage
constexpr int kBeforeRoll = 0, kRoll = 1, kAfterRoll = 2, kKeep = 3;
constexpr int kUnasked = 0, kRolling = 1, kHelped = 2;  // helping.py UNASKED, ROLLING, HELPED

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
  Count(Tally::kMumm, static_cast<int>(spend));
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
  Count(Tally::kReaction, static_cast<int>(kind));
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
                                parts, c.own, probenwert, r.d1, r.d2, r.success, r.qs, r.volltreffer,
                                r.patzer, forced});
  return r;
}

// helping.py helpable (X60): help counts for the checks of one's own Handlung (not a
// Blockadeangriff); under help_scope attacks only for attacks.
bool NativeCombat::Helpable(const CheckF& c) const {
  switch (c.purpose) {
    case Purpose::kAttack:
      return c.mode != static_cast<int>(Mode::kBlockade);
    case Purpose::kMove:
    case Purpose::kBenommen:
    case Purpose::kShake:
    case Purpose::kStabilise:
    case Purpose::kFreeWeapon:
    case Purpose::kRucksack:
      return !strike_.help_attacks_only;
    default:
      return false;
  }
}

// helping.py help_frame (P08, X59): the standing helpers announced for ``c``'s roller
// roll its check's value with the modifiers beyond its own parts; the announcement is used
// up. False: no helper rolls.
bool NativeCombat::HelpFrame(const CheckF& c, HelpersF& out) {
  const int fi = c.fighter;
  if (helpers_[fi].empty() || !Helpable(c)) return false;
  out.helpers.clear();
  for (int h : helpers_[fi])
    if (s_.fighters[h].standing()) out.helpers.push_back(h);
  helpers_[fi].clear();
  SyncHelpers(fi);
  if (out.helpers.empty()) return false;
  out.ally = fi, out.skill = c.parts.p[0].ref;
  if (!strike_.help_modifier_none)
    for (int i = c.own; i < c.parts.n; ++i)
      if (c.parts.p[i].kind != PartKind::kHelp)
        out.modifiers.Add(c.parts.p[i].kind, c.parts.p[i].ref, c.parts.p[i].value);
  return true;
}

// helping.py HelpersFrame: each helper's check in turn; the best QS of the successful ones.
NativeCombat::Result NativeCombat::Step(HelpersF& h, Value v) {
  if (h.next && v.probe.success) {
    h.best = std::max(h.best, v.probe.qs);
    events_.push_back(Acted{h.helpers[h.next - 1], ActKind::kHelp, h.ally, -1, v.probe.qs});
  }
  if (h.next < static_cast<int>(h.helpers.size())) {
    CheckF c = Check(h.helpers[h.next++], h.skill, Purpose::kHelp, false, false);
    c.target = h.ally;
    for (int i = 0; i < h.modifiers.n; ++i)
      c.parts.Add(h.modifiers.p[i].kind, h.modifiers.p[i].ref, h.modifiers.p[i].value);
    return Push(std::move(c));
  }
  ret_ = {};
  ret_.valued = true, ret_.value = h.best;
  return Result::kDone;
}

// CheckFrame.step: M02/M09/P03 before the roll, the roll, M01/M03 after it, M03's choice.
NativeCombat::Result NativeCombat::Step(CheckF& c, Value v) {
  const int fi = c.fighter;
  if (c.stage == kBeforeRoll && c.helped != kHelped) {  // P08: announced help rolls first
    if (c.helped == kUnasked) {  // helping.py help_step
      HelpersF helpers;
      c.helped = HelpFrame(c, helpers) ? kRolling : kHelped;
      if (c.helped == kRolling) return Push(std::move(helpers));
    } else {
      c.helped = kHelped;
      if (v.valued && v.value) c.parts.Add(PartKind::kHelp, -1, v.value);
    }
    v = {};
  }
  if (c.stage == kBeforeRoll) {
    if (v.prompted) {
      switch (v.answer.kind) {
        case PromptKind::kPreActionbonus:
          actionbonus_used_[fi] = 1;
          c.parts.Add(PartKind::kActionbonus, -1, kActionbonusValue);
          Count(Tally::kActionbonus);
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
