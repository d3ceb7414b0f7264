// The native combat's damage, LP, conditions, dying and death (combat.hpp): damage.py
// DamageFrame, LoseLPFrame, kill and SequenceFrame (A06, D01-D08, Z06, M04, M06),
// conditions.py gain_condition and lose_condition (Z01-Z07, X19).
#include <algorithm>

#include "combat.hpp"
#include "faults.hpp"

namespace cwenv::kampf {

namespace {

constexpr int kRolled = 1, kFinished = 2;  // DamageStage after the roll; LossStage's answer
constexpr int kDeathAnswered = 1;

}  // namespace

// conditions.py gain_condition (Z01-Z07, X19): a condition held gives its substitute, up
// to escalation_steps times; then what gaining it does (B03, X24).
void NativeCombat::GainCondition(int fi, int cond) {
  Fighter& f = s_.fighters[fi];
  if (f.dead) return;
  const int original = cond;
  int steps = 0;
  while (f.Has(cond)) {
    const int instead = strike_.substitute[cond];
    if (steps >= strike_.escalation_steps || instead < 0) return;
    cond = instead;
    ++steps;
  }
  f.conditions |= 1u << cond;
  Count(Tally::kCondition, cond);
  events_.push_back(ConditionGained{fi, cond, cond != original ? original : -1});
  const int on_gain = strike_.on_gain[cond];
  if (on_gain >= kOnGainLetGo) LetGo(f);
  if (on_gain == kOnGainReactionsLost) reactions_[fi] = 0;
  dirty_ = true;
}

void NativeCombat::LoseCondition(int fi, int cond, LostBy cause, int by) {
  Fighter& f = s_.fighters[fi];
  if (!f.Has(cond)) return;
  f.conditions &= ~(1u << cond);
  events_.push_back(ConditionLost{fi, cond, cause, by});
}

void NativeCombat::Kill(int fi, const Cause& cause) {  // damage.py kill (D07)
  Fighter& f = s_.fighters[fi];
  f.dead = f.down = true;
  LetGo(f);
  reactions_[fi] = 0;
  Count(Tally::kDead, f.side);
  events_.push_back(StatusChanged{fi, Status::kDead, cause});
  dirty_ = true;
}

// DamageFrame (A06, D01, D02, D04, X08, X32, X33, M06): the dice with the bonus, armour
// per roll, resistances, then the M06 prompt and the LP loss.
NativeCombat::Result NativeCombat::Step(DamageF& d, Value v) {
  Fighter& f = s_.fighters[d.target];
  if (d.stage == 0) {
    if (f.dead) return Result::kDone;
    const StrikeSpec& spec = strike_.specs[d.target];
    int armour = spec.armour + f.armour_bonus;
    if (g_fault == Fault::kStrikeArmour) --armour;  // test only (faults.hpp)
    armour = ArmourAfterMode(strike_, armour, d.mode);
    std::vector<int> rolls(static_cast<std::size_t>(std::max(d.dice, 0)));
    for (int& r : rolls) r = dice_.D10();
    int subtotal = 0;
    const int bonus_until = d.dice - d.bare, armour_until = d.dice - d.direct_tail;
    for (int i = 0; i < d.dice; ++i) {
      const int x = rolls[i] + (i < bonus_until ? d.bonus : 0) - (i < armour_until ? armour : 0);
      subtotal += x > 0 || !strike_.armour_floor_zero ? x : 0;
    }
    subtotal += d.flat;
    int total = std::max(subtotal, 0);  // damage.py resistance_factor (D04, X32)
    Factor factor = Factor::kNone;
    const bool resist = d.forms & spec.resist, vuln = d.forms & spec.vuln;
    if (d.forms & spec.immune) {
      total = 0, factor = Factor::kImmun;
    } else if (resist && !vuln) {
      total = strike_.resistance_up ? (total + 1) / 2 : total / 2, factor = Factor::kResistent;
    } else if (vuln && !resist) {
      total = strike_.resistance_up ? (total * 3 + 1) / 2 : total * 3 / 2;
      factor = Factor::kVerwundbar;
    }
    events_.push_back(DamageRolled{d.target, std::move(rolls), d.bonus, armour, d.mode,
                                   subtotal, factor, total, d.bare, d.direct_tail, d.flat});
    d.total = total;
    d.stage = kRolled;
    if (total > 0 &&
        MummOk(g_.options, f, strike_.cost[static_cast<int>(Spend::kTrefferWegstecken)])) {
      asked_acts_ = {{PromptKind::kHalveDamage, d.target, -1, -1, 0},
                     {PromptKind::kTakeDamage, d.target, -1, -1, 0}};
      return Ask(Asked::kDamage, d.target, asked_acts_);
    }
    v = {};
  }
  if (d.stage == kRolled) {
    if (v.prompted && v.answer.kind == PromptKind::kHalveDamage) {
      SpendMumm(d.target, Spend::kTrefferWegstecken);
      const int halved = d.total / 2;  // M06: 'Dabei wird abgerundet'
      events_.push_back(DamageHalved{d.target, d.total, halved});
      d.total = halved;
    }
    d.stage = kFinished;
    if (d.source >= 0 && d.total > 0) Count(Tally::kDamageDealt, 0, d.total);
    LoseLPF l;
    l.fighter = d.target, l.amount = d.total, l.cause = d.cause, l.non_lethal = d.non_lethal;
    l.ongoing = d.ongoing;
    return Push(l);
  }
  return Result::kDone;
}

// LoseLPFrame (D05-D08, Z06, X05, X11, X28, X29, X34, X44, M04).
NativeCombat::Result NativeCombat::Step(LoseLPF& l, Value v) {
  const int fi = l.fighter;
  Fighter& f = s_.fighters[fi];
  if (l.stage == kDeathAnswered) {
    if (v.answer.kind == PromptKind::kAvertDeath) {
      SpendMumm(fi, Spend::kTodAbwenden);
      const int before = f.lp;
      f.lp = 0, f.down = true;
      LetGo(f);
      stabilised_[fi] = 1;
      events_.push_back(LPChanged{fi, before, 0, {CauseKind::kAvertedDeath}});
      if (strike_.tod_abwenden_ends_sterbend) LoseCondition(fi, kSterbend, LostBy::kMumm);
      events_.push_back(StatusChanged{fi, Status::kUnconscious, {}});
      return Result::kDone;
    }
    Kill(fi, l.cause);
    return Result::kDone;
  }
  if (f.dead) return Result::kDone;
  if (l.die) return WouldDie(l);
  if (l.amount <= 0) return Result::kDone;
  int amount = l.amount;
  // D08: ongoing effects 'wirken … weiter', they are no new wound (Z06)
  if (l.damage && !l.ongoing && f.down && f.Has(kSterbend) && strike_.sterbend_damage_reinflicts) {
    const int extra = dice_.D10();  // Z06: sterbend again, 1W10 direct damage (X29)
    events_.push_back(SterbendAgain{fi, extra});
    amount += extra;
  }
  const int before = f.lp;
  int after = before - amount;
  if (l.non_lethal && strike_.non_lethal_floor_zero && before > 0) after = std::max(after, 0);
  f.lp = after;
  events_.push_back(LPChanged{fi, before, after, l.cause});
  dirty_ = true;
  const int lp = g_.specs[fi].lp;  // "at half": after <= lp / 2, compared as the reals are
  if (2 * after <= lp && (2 * before > lp || (l.damage && strike_.angeschlagen_every_hit)) &&
      after > 0)
    GainCondition(fi, kAngeschlagen);
  if (after <= 0 && !f.down) {
    f.down = true;
    LetGo(f);
    reactions_[fi] = 0;
    Count(Tally::kDown, f.side);
    if (strike_.kampfunfaehig_prone) f.conditions |= 1u << kNiedergeworfen;  // X44
    if (l.non_lethal && after == 0) {
      events_.push_back(StatusChanged{fi, Status::kNonLethal, {}});
      return Result::kDone;
    }
    if (f.side != kRunner && strike_.nsc_at_zero_dead) return WouldDie(l);
    events_.push_back(StatusChanged{fi, Status::kKampfunfaehig, {}});
    f.conditions |= 1u << kSterbend;
    events_.push_back(ConditionGained{fi, kSterbend, -1});
  } else if (after <= 0 && l.damage && !l.non_lethal && !f.Has(kSterbend)) {
    // D05, D07: the unconscious or stabilised fighter hurt again at 0 LP or less is dying
    stabilised_[fi] = 0;
    f.conditions |= 1u << kSterbend;
    events_.push_back(ConditionGained{fi, kSterbend, -1});
  }
  const int limit = -strike_.specs[fi].unbeugsamkeit;  // dies_at (D07, X05)
  if (f.down && (strike_.death_at_or_below ? f.lp <= limit : f.lp < limit)) return WouldDie(l);
  return Result::kDone;
}

// LoseLPFrame._would_die (M04): 'Würde dein Runner sterben, kannst du 1 Mummpunkt bezahlen'.
NativeCombat::Result NativeCombat::WouldDie(LoseLPF& l) {
  const int fi = l.fighter;
  if (MummOk(g_.options, s_.fighters[fi], strike_.cost[static_cast<int>(Spend::kTodAbwenden)])) {
    l.stage = kDeathAnswered;
    asked_acts_ = {{PromptKind::kAvertDeath, fi, -1, -1, 0},
                   {PromptKind::kAcceptDeath, fi, -1, -1, 0}};
    return Ask(Asked::kDeath, fi, asked_acts_);
  }
  Kill(fi, l.cause);
  return Result::kDone;
}

NativeCombat::Result NativeCombat::Step(SeqF& q, Value) {
  if (q.i >= static_cast<int>(q.frames.size())) return Result::kDone;
  return std::visit([&](const auto& f) { return Push(f); }, q.frames[q.i++]);
}

}  // namespace cwenv::kampf
