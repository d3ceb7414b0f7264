// The prompts' legal choices (prompts.hpp): one function per reference function of
// cwenv/engine/prompts.py and conditions.py, each naming its twin.
#include "prompts.hpp"

#include <algorithm>

#include "faults.hpp"

namespace cwenv::kampf {

namespace {

bool Bit(std::uint32_t set, int i) { return set >> i & 1; }

// conditions.py react_problem (R01, X24): able to react at all.
bool CanReact(const GameDesc& g, const Fighter& f) {
  if (!f.standing()) return false;
  return !f.Has(kBenommen) || g.options.benommen_reactions_kept;
}

// conditions.py reaction_problem (R01, M05, X38): ``with_mumm`` 0 pays one of the round's
// reactions, 1 pays Mumm for one more once none is left.
bool ReactionOk(const GameDesc& g, const PromptRules& r, const Fighter& f, const Reacting& x,
                bool with_mumm) {
  const bool able = CanReact(g, f);
  const bool bought = with_mumm && f.standing() && r.reaction_while_benommen;
  if (!able && !bought) return false;
  // Test-only fault (faults.hpp): a fighter with no reactions left still has one.
  const int left = x.reactions + (g_fault == Fault::kLastReaction ? 1 : 0);
  if (!with_mumm) return left > 0;
  if (left > 0 && able) return false;  // a reaction is left: M05 pays only for one more
  return MummOk(g.options, f, r.extra_reaction_cost);
}

}  // namespace

void PromptShakes(const GameDesc& g, const PromptRules& r, const Fighter& f, int fi, bool order,
                  bool turn_benommen, std::vector<PromptAct>& out) {
  out.clear();
  if (order || !r.shake_any_decision || f.dead || f.down) return;
  std::vector<Act> shakes;
  MummShakes(g, f, fi, shakes);
  for (const Act& a : shakes) {
    // Z02: the turn's Handlung goes to the Mumm-Probe anyway; Benommen is not shaken here.
    if (turn_benommen && a.arg == kBenommen) continue;
    out.push_back({PromptKind::kMummShake, fi, -1, a.arg, 0});
  }
}

int ReactionChoice(const GameDesc& g, const PromptRules& r, const Fighter& f, const Reacting& x) {
  if (ReactionOk(g, r, f, x, false)) return 0;
  if (ReactionOk(g, r, f, x, true)) return 1;
  return -1;
}

bool ShakeToReact(const GameDesc& g, const PromptRules& r, const Fighter& f, const Reacting& x) {
  if (!f.standing() || !f.Has(kBenommen) || g.options.benommen_reactions_kept ||
      !r.shake_any_decision)
    return false;
  const int extra = x.reactions > 0 ? 0 : r.extra_reaction_cost;
  return MummOk(g.options, f, g.turn.shake_cost + extra);
}

void PreCheckChoices(const GameDesc& g, const PromptRules& r, const Fighter& f, int fi,
                     const Reacting& x, const CheckAt& at, bool turn_benommen,
                     std::vector<PromptAct>& out) {
  out.clear();
  // CheckFrame.actionbonus_problem (P03, X14, X41)
  if (r.actionbonus_declared && !x.actionbonus_used && !at.has_actionbonus &&
      (f.side == kRunner || r.nsc_actionbonus))
    out.push_back({PromptKind::kPreActionbonus, fi, -1, -1, 0});
  // CheckFrame.pre_problem: M02 up to mumm_improve_per_check, M09 not after M02 (X38)
  if (at.improved < r.improve_per_check && MummOk(g.options, f, r.improve_cost))
    out.push_back({PromptKind::kPreImprove, fi, -1, -1, 0});
  if ((!at.improved || r.improve_then_grosser_wurf) && MummOk(g.options, f, r.grosser_wurf_cost))
    out.push_back({PromptKind::kPreGrosserWurf, fi, -1, -1, 0});
  bool malus = false;  // prompts.py malus_to_shake (M08, X38)
  if (out.empty() && at.own_malus) {
    std::vector<PromptAct> shakes;
    PromptShakes(g, r, f, fi, false, turn_benommen, shakes);
    for (const PromptAct& s : shakes) malus |= s.arg < kConditions && Bit(at.own_malus, s.arg);
  }
  if (!out.empty() || malus) out.push_back({PromptKind::kPreNone, fi, -1, -1, 0});
}

void PostCheckChoices(const GameDesc& g, const PromptRules& r, const Fighter& f, int fi,
                      const CheckAt& at, std::vector<PromptAct>& out) {
  out.clear();
  // CheckFrame.post_problem (M01, X53): a Patzer that matters, not after M03 unless allowed
  if (at.patzer && (r.futile_spends || Bit(r.patzer_matters, at.purpose)) &&
      (!at.rerolls || r.avert_after_reroll) && MummOk(g.options, f, r.avert_cost))
    out.push_back({PromptKind::kPostAvert, fi, -1, -1, 0});
  // M03: no Patzer or Volltreffer, a success only where it is graded, per check limit
  if (!at.patzer && !at.volltreffer && (!at.success || r.futile_spends || Bit(r.graded, at.purpose)) &&
      at.rerolls < r.rerolls_per_check && MummOk(g.options, f, r.reroll_cost))
    out.push_back({PromptKind::kPostReroll, fi, -1, -1, 0});
  if (!out.empty()) out.push_back({PromptKind::kPostAccept, fi, -1, -1, 0});
}

void KeepChoices(const PromptRules& r, int fi, bool patzer, std::vector<PromptAct>& out) {
  out.clear();
  out.push_back({PromptKind::kKeepSecond, fi, -1, -1, 0});
  // X38: a rerolled Patzer stands (M01 may still avert it)
  if (!patzer || r.keep_first_on_patzer) out.push_back({PromptKind::kKeepFirst, fi, -1, -1, 0});
}

void NiederwerfenChoices(const GameDesc& g, const PromptRules& r, const Fighter& t, int ti,
                         const Reacting& x, int attacker, std::vector<PromptAct>& out) {
  out.clear();
  const int pay = ReactionChoice(g, r, t, x);
  if (pay < 0 && !ShakeToReact(g, r, t, x)) return;
  if (pay >= 0) out.push_back({PromptKind::kDropProne, ti, attacker, -1, pay});
  out.push_back({PromptKind::kStayUp, ti, attacker, -1, 0});
}

void DefenceChoices(const GameDesc& g, const PromptRules& r, const Fighter& t, int ti,
                    const Reacting& x, int attacker, Mode mode, int index,
                    std::vector<PromptAct>& out) {
  out.clear();
  int pay = ReactionChoice(g, r, t, x);
  if (mode == Mode::kManeuver && r.maneuver_defence_free)
    pay = CanReact(g, t) ? 0 : -1;  // X22: a free defence, if able
  if (pay < 0 && !ShakeToReact(g, r, t, x)) return;
  if (pay >= 0) {  // attack_plan.py defence_values (A03, X21, X22)
    if (mode == Mode::kHack) {
      out.push_back({PromptKind::kDefend, ti, attacker, r.firewall, pay});
    } else if (mode == Mode::kManeuver) {
      out.push_back({PromptKind::kDefend, ti, attacker, r.kampfkunst, pay});
    } else {
      out.push_back({PromptKind::kDefend, ti, attacker, r.ausweichen, pay});
      if (!g.specs[attacker].weapons[index].ranged && r.melee_two_defences)
        out.push_back({PromptKind::kDefend, ti, attacker, r.kampfkunst, pay});
    }
  }
  out.push_back({PromptKind::kNoDefence, ti, attacker, -1, 0});
}

void BlockadeChoices(const GameDesc& g, const PromptRules& r, const Fighter& guard, int gi,
                     const Reacting& x, int mover, int a, int b, std::vector<PromptAct>& out) {
  out.clear();
  const int pay = ReactionChoice(g, r, guard, x);
  if (pay < 0 && !ShakeToReact(g, r, guard, x)) return;
  const int near = std::min(g.Distance(guard.pos, a), g.Distance(guard.pos, b));
  const Spec& spec = g.specs[gi];
  for (int wi = 0; wi < spec.n_weapons; ++wi) {
    const Weapon& w = spec.weapons[wi];
    if (w.ranged || !WeaponUsable(spec, guard, wi) || near > w.reach) continue;
    if (pay < 0) {  // asked with none yet (M08 first): one weapon in reach is enough
      out.push_back({PromptKind::kLetPass, gi, mover, -1, 0});
      return;
    }
    out.push_back({PromptKind::kBlockadeAttack, gi, mover, wi, pay});
  }
  if (!out.empty()) out.push_back({PromptKind::kLetPass, gi, mover, -1, 0});
}

void CatchFallChoices(const GameDesc& g, const PromptRules& r, const Fighter& f, int fi,
                      const Reacting& x, std::vector<PromptAct>& out) {
  out.clear();
  const int pay = ReactionChoice(g, r, f, x);
  if (pay < 0 && !ShakeToReact(g, r, f, x)) return;
  if (pay >= 0) out.push_back({PromptKind::kCatchFall, fi, -1, -1, pay});
  out.push_back({PromptKind::kNoCatch, fi, -1, -1, 0});
}

}  // namespace cwenv::kampf
