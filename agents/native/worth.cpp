// What conditions and manoeuvres are worth to the native doctrines (issue #16): each
// function names its twin in agents/worth.py or agents/estimates.py and keeps its order
// of operations.
#include <algorithm>

#include "board.hpp"

namespace cwenv::doctrine {

namespace {

constexpr int kHacking = 4;  // CheckValue.HACKING

}  // namespace

// Board.foes_of (board.py hostile_sides: Runner and Gegner fight; neutrals nobody).
std::vector<int> Board::FoesOf(int f) const {
  const int side = s.fighters[f].side;
  const int foe = side == kampf::kRunner ? kampf::kGegner : side == kampf::kGegner ? kampf::kRunner : -1;
  std::vector<int> out;
  for (std::size_t i = 0; i < s.fighters.size(); ++i)
    if (s.fighters[i].side == foe && s.fighters[i].standing()) out.push_back(static_cast<int>(i));
  return out;
}

// min(foes, key=(distance, index)).
int Board::Nearest(int f, const std::vector<int>& foes) const {
  int best = foes.front();
  for (int g : foes)
    if (Dist(s.fighters[f].pos, s.fighters[g].pos) < Dist(s.fighters[f].pos, s.fighters[best].pos))
      best = g;
  return best;
}

int Board::BestDefence(int t, kampf::Mode mode, int a, int index) const {
  const kampf::PromptRules& r = c.prompt_rules();
  if (mode == kampf::Mode::kHack) return CheckValue(t, r.firewall, false, true, true);
  if (mode == kampf::Mode::kManeuver) return CheckValue(t, r.kampfkunst, false, true, true);
  int value = CheckValue(t, r.ausweichen, false, true, true);
  if (!Ranged(a, index) && r.melee_two_defences)
    value = std::max(value, CheckValue(t, r.kampfkunst, false, true, true));
  return value;
}

int Board::DefenceValueOf(int t, kampf::Mode mode, int a, int index) const {
  if (mode == kampf::Mode::kBlockade) mode = kampf::Mode::kWeapon;
  const bool free = mode == kampf::Mode::kManeuver && c.prompt_rules().maneuver_defence_free;
  const Fighter& tf = s.fighters[t];
  if (kampf::ReactionChoice(g, c.prompt_rules(), tf, c.reacting(t)) < 0 && !(free && tf.standing()))
    return Exact::kNoDefence;
  return BestDefence(t, mode, a, index);
}

// estimates.py offense.
double Board::Offense(int f) {
  auto found = offense_.find(f);
  if (found != offense_.end()) return found->second;
  const std::vector<int> foes = FoesOf(f);
  double best = 0.0;
  if (!foes.empty()) {
    const int t = Nearest(f, foes);
    const kampf::Spec& spec = g.specs[f];
    const Fighter& ff = s.fighters[f];
    for (int wi = 0; wi < spec.n_weapons; ++wi) {
      const kampf::Weapon& w = spec.weapons[wi];
      if (!kampf::WeaponUsable(spec, ff, wi) || w.area_radius > 0) continue;
      int pw = CheckValue(f, at.specs[f].weapons[wi].skill, true) + at.specs[f].weapons[wi].modifier;
      if (w.ranged && w.bands) pw += w.ranges[0].modifier;
      const Estimate est = exact.EstimateOf(pw, DefenceValue(t, f, wi), WeaponProfile(f, t, wi));
      best = std::max(best, est.damage);
    }
    const kampf::StrikeSpec& ss = strike.specs[f];
    for (int hi = 0; hi < spec.n_hacks; ++hi) {
      const kampf::StrikeHack& h = ss.hacks[hi];
      if (ff.upload_progress[hi] < spec.hacks[hi].upload || !h.deals_damage) continue;
      const int pw = CheckValue(f, kHacking, true) + at.specs[f].hacks[hi].modifier;
      const int dpw = DefenceValueOf(t, kampf::Mode::kHack, f, hi);
      const Profile p = DamageProfile(t, h.bonus, h.armour_mode, h.forms, 0);
      best = std::max(best, exact.EstimateOf(pw, dpw, p).damage);
    }
  }
  offense_.emplace(f, best);
  return best;
}

// worth.py _best_attack.
double Board::BestAttack(int gi, int t, int delta, int tdelta) {
  double best = 0.0;
  const kampf::Spec& spec = g.specs[gi];
  for (int wi = 0; wi < spec.n_weapons; ++wi) {
    const kampf::Weapon& w = spec.weapons[wi];
    if (!kampf::WeaponUsable(spec, s.fighters[gi], wi) || w.area_radius > 0) continue;
    int pw = CheckValue(gi, at.specs[gi].weapons[wi].skill, true) + at.specs[gi].weapons[wi].modifier;
    if (w.ranged && w.bands) pw += w.ranges[0].modifier;
    const int base = DefenceValue(t, gi, wi);
    const int dpw = base == Exact::kNoDefence ? base : base + tdelta;
    best = std::max(best, exact.EstimateOf(pw + delta, dpw, WeaponProfile(gi, t, wi)).damage);
  }
  return best;
}

double Board::AttackLoss(int f, int delta) {
  const auto key = std::make_pair(f, delta);
  auto found = attack_loss_.find(key);
  if (found != attack_loss_.end()) return found->second;
  double hit = 0.0;
  const std::vector<int> foes = FoesOf(f);
  if (!foes.empty()) {
    const int t = Nearest(f, foes);
    hit = std::max(0.0, BestAttack(f, t, 0, 0) - BestAttack(f, t, delta, 0));
  }
  attack_loss_.emplace(key, hit);
  return hit;
}

double Board::DefenceLoss(int f, int delta) {
  const auto key = std::make_pair(f, delta);
  auto found = defence_loss_.find(key);
  if (found != defence_loss_.end()) return found->second;
  double hit = 0.0;
  if (kampf::ReactionChoice(g, c.prompt_rules(), s.fighters[f], c.reacting(f)) >= 0)
    for (int gi : FoesOf(f)) {
      const double worse = BestAttack(gi, f, 0, delta) - BestAttack(gi, f, 0, 0);
      hit += std::max(0.0, worse);
    }
  defence_loss_.emplace(key, hit);
  return hit;
}

double Board::ConditionCost(int f, int cond, double horizon, double mumm_value) {
  const double off = Offense(f);
  const int turns = std::max(1, c.actions(f));
  switch (cond) {
    case kampf::kBenommen: return off * turns + DefenceLoss(f, -20) * 0.5;
    case kampf::kNiedergeworfen: return 0.5 * off + DefenceLoss(f) * std::min(horizon, 1.0);
    case kampf::kAngeschlagen: return (AttackLoss(f) * turns + DefenceLoss(f)) * horizon;
    case kampf::kEntmutigt:
      return AttackLoss(f) * turns * horizon + std::min(s.fighters[f].mumm, 2) * mumm_value;
    case kampf::kEingeschraenkt: return (DefenceLoss(f) + 0.2 * off) * horizon;
    case kampf::kVerwirrt:
      return (g.specs[f].n_hacks ? 0.25 * off : 0.05 * off) * horizon;
    default: return 0.0;
  }
}

double Board::ConditionGain(int t, int cond, double horizon, double mumm_value) {
  int n = 0;  // worth.py inflicted
  while (s.fighters[t].Has(cond)) {
    if (n >= strike.escalation_steps || strike.substitute[cond] < 0) return 0.0;
    cond = strike.substitute[cond];
    ++n;
  }
  return ConditionCost(t, cond, horizon, mumm_value);
}

double Board::ManeuverChance(int a, int t, int m, int pw_delta) {
  kampf::Plan plan;
  kampf::PlanAttack(g, c.lines(), s, a, t, kampf::Mode::kManeuver, m, plan);
  const int dpw = DefenceValueOf(t, kampf::Mode::kManeuver, a, m);
  return exact.OddsOf(plan.parts.Total() + pw_delta, dpw).hit;
}

}  // namespace cwenv::doctrine
