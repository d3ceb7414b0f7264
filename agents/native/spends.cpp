// The Taktiker's twin's Mumm around a check (issue #16): the twins of agents/spends.py
// (M01, M02, M03, M09, P03) and worth.py patzer_cost, each function naming its twin and
// keeping its order of operations.
#include <array>
#include <variant>

#include "answers.hpp"

namespace cwenv::doctrine {

// spends.py check_sort.
Sort Answers::SortOf(const kampf::CheckF& k, AttackRef& attack) const {
  if (k.about_attack) {
    attack = {k.attacker, k.target, static_cast<Mode>(k.mode), k.index, k.about_roll, k.about,
              k.aim_qs};
    if (static_cast<int>(k.purpose) == kPurposeAttack) return Sort::kAttack;
    if (static_cast<int>(k.purpose) == kPurposeDefence && k.about_roll) return Sort::kDefence;
  }
  if (b.mf.down && b.mf.Has(kampf::kSterbend)) return Sort::kDying;
  if (b.mf.Has(kampf::kBenommen)) return Sort::kBenommen;
  return Sort::kOther;
}

// spends.py _attack_value: my declared attack's worth with ``delta`` on its Probenwert.
double Answers::AttackValue(const AttackRef& info, int delta) {
  if (info.mode == Mode::kManeuver) {
    const double worth = m.ManeuverWorth(b.me, info.target, info.index);
    return b.ManeuverChance(b.me, info.target, info.index, delta) * worth;
  }
  const auto est = info.mode == Mode::kHack ? b.HackEstimate(b.me, info.target, info.index, delta)
                                            : b.WeaponEstimate(b.me, info.target, info.index, -1,
                                                               false, delta);
  return est ? est->Value(m.cfg.ko_bonus) : 0.0;
}

// spends.py _forced_value (M09).
double Answers::ForcedValue(const AttackRef& info, int pw) {
  const Probe result = kampf::ForcedVolltreffer(b.exact.probe(), pw);
  std::vector<double> table(kMaxQs + 1, 0.0);
  if (info.mode == Mode::kManeuver) {
    std::fill(table.begin() + 1, table.end(), m.ManeuverWorth(b.me, info.target, info.index));
  } else {
    Profile prof;
    if (info.mode == Mode::kHack) {
      const kampf::StrikeHack& h = b.strike.specs[b.me].hacks[info.index];
      prof = b.DamageProfile(info.target, h.bonus, h.armour_mode, h.forms, 0);
    } else {
      prof = b.WeaponProfile(b.me, info.target, info.index);
    }
    const double crit = b.exact.CritExtraDice(result.qs) * b.exact.Stats(prof, 1).first;
    for (int k = 1; k <= kMaxQs; ++k)
      table[k] = b.exact.Stats(prof, k).first + m.cfg.ko_bonus * b.exact.Stats(prof, k).second + crit;
  }
  const Mode mode = info.mode == Mode::kBlockade ? Mode::kWeapon : info.mode;
  const int dpw = b.DefenceValueOf(info.target, mode, b.me, info.index);
  if (dpw == Exact::kNoDefence) return table[std::min(result.qs, kMaxQs)];
  return b.exact.DefendedLoss(result, dpw, table);
}

// spends.py _attack_pw.
int Answers::AttackPw(const AttackRef& info) {
  if (info.mode == Mode::kWeapon || info.mode == Mode::kBlockade) {
    const auto av = b.WeaponAttackValue(b.me, info.target, info.index);
    if (av) return av->first;
  }
  const Mode mode = info.mode == Mode::kBlockade ? Mode::kWeapon : info.mode;
  kampf::Plan plan;
  kampf::PlanAttack(b.g, b.c.lines(), b.s, b.me, info.target, mode, info.index, plan);
  return plan.parts.Total();
}

// spends.py _my_defence_pw (A03).
int Answers::MyDefencePw(const AttackRef& info) const {
  return b.BestDefence(b.me, info.mode == Mode::kBlockade ? Mode::kWeapon : info.mode,
                       info.attacker, info.index);
}

// spends.py pre_check (P03, M02, M09).
long Answers::PreCheck() {
  const long bonus = First(PromptKind::kPreActionbonus);
  if (bonus >= 0) return bonus;  // P03: a free +2
  const long improve = First(PromptKind::kPreImprove), grand = First(PromptKind::kPreGrosserWurf);
  AttackRef attack{};
  const Sort sort = SortOf(std::get<kampf::CheckF>(Top()), attack);
  double gain_improve = 0.0, gain_grand = 0.0;
  if (sort == Sort::kAttack) {
    const double base = AttackValue(attack, 0);
    if (improve >= 0) gain_improve = AttackValue(attack, 2) - base;
    if (grand >= 0) gain_grand = ForcedValue(attack, AttackPw(attack)) - base;
  } else if (sort == Sort::kDefence) {
    const std::vector<double> losses = LossTable(attack);
    const int dpw = MyDefencePw(attack);
    const double base = b.exact.DefendedLoss(attack.roll, dpw, losses);
    if (improve >= 0) gain_improve = base - b.exact.DefendedLoss(attack.roll, dpw + 2, losses);
    if (grand >= 0) {
      const Probe forced = kampf::ForcedVolltreffer(b.exact.probe(), dpw);
      gain_grand = base - b.exact.LossOf(attack.roll, forced, losses);
    }
  } else if (sort == Sort::kBenommen && improve >= 0) {
    const int pw = b.CheckValue(b.me, b.strike.benommen_check);
    const double gain = b.exact.SuccessChance(pw + 2) - b.exact.SuccessChance(pw);
    gain_improve = gain * b.Offense(b.me) * Turns();
  }
  const double net_improve = gain_improve - m.cfg.mumm_value;
  const double net_grand = gain_grand - 3 * m.cfg.mumm_value;
  if (grand >= 0 && net_grand > 0 && net_grand >= net_improve) return grand;
  if (improve >= 0 && net_improve > 0) return improve;
  return First(PromptKind::kPreNone);
}

// worth.py patzer_cost (A08, X09).
double Answers::PatzerCost() {
  double total = 0.0;
  const double off = b.Offense(b.me);
  const std::vector<int>& rows = b.strike.fumbles;
  for (int d1 = 1; d1 <= 10; ++d1)
    for (int d2 = 1; d2 <= 10; ++d2) {
      const int i = d1 + d2 - b.strike.table_low;
      const auto row = static_cast<kampf::Fumble>(
          rows[i < 0 ? 0 : std::min(i, static_cast<int>(rows.size()) - 1)]);
      double cost = 0.0;
      switch (row) {
        case kampf::Fumble::kMuskelriss: cost = 5.5 + m.Cost(b.me, kampf::kAngeschlagen); break;
        case kampf::Fumble::kUeberdehnt: cost = 5.5; break;
        case kampf::Fumble::kOffeneDeckung: cost = m.Cost(b.me, kampf::kVerwirrt); break;
        case kampf::Fumble::kFehltritt: cost = m.Cost(b.me, kampf::kEingeschraenkt); break;
        case kampf::Fumble::kWaffeBlockiert: cost = off; break;
        case kampf::Fumble::kEntmutigt: cost = m.Cost(b.me, kampf::kEntmutigt); break;
        default: break;
      }
      total += cost;
    }
  return total / 100;
}

// spends.py post_check and _reroll_gain (M01, M03).
long Answers::PostCheck() {
  const kampf::CheckF& k = std::get<kampf::CheckF>(Top());
  const Probe& r = k.result;
  AttackRef info{};
  const Sort sort = SortOf(k, info);
  const long avert = First(PromptKind::kPostAvert), reroll = First(PromptKind::kPostReroll);
  if (avert >= 0) {
    if (sort == Sort::kAttack) return PatzerCost() >= m.cfg.mumm_value ? avert : -1;
    return sort == Sort::kDying ? avert : -1;  // D08: a Patzer on the dying check kills
  }
  if (reroll < 0) return -1;
  double gain = 0.0;
  if (sort == Sort::kAttack) {
    gain = r.success ? 0.0 : AttackValue(info, 0);
  } else if (sort == Sort::kDefence) {
    const std::vector<double> losses = LossTable(info);
    const double now = b.exact.LossOf(info.roll, r, losses);
    double total = 0.0;
    for (const Exact::Class& c : b.exact.Classes(r.probenwert))
      total += c.n * std::min(now, b.exact.LossOf(info.roll, c.rep, losses));
    gain = now - total / 100;
  } else if (sort == Sort::kBenommen && !r.success) {
    gain = b.exact.SuccessChance(r.probenwert) * b.Offense(b.me) * Turns();
  } else if (sort == Sort::kDying && !r.success) {
    gain = b.exact.SuccessChance(r.probenwert) * (5.5 + m.cfg.ko_bonus / 2);
  }
  return gain >= m.cfg.mumm_value && gain > 0 ? reroll : -1;
}

// spends.py keep (M03): the better of the two results.
long Answers::Keep() {
  const kampf::CheckF& k = std::get<kampf::CheckF>(Top());
  const auto key = [](const Probe& r) {
    return r.success ? std::array<int, 3>{2, r.volltreffer, r.total()}
                     : std::array<int, 3>{0, !r.patzer, 0};
  };
  return First(key(k.result) >= key(k.first) ? PromptKind::kKeepSecond : PromptKind::kKeepFirst);
}

}  // namespace cwenv::doctrine
