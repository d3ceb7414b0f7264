// Encoding 2's attack previews (encode2.hpp PlanPreview, WritePreview), after
// cwenv/engine/attack_plan.py plan_attack, cwenv/engine/preview.py preview_attack and
// mean_damage_per_qs, and cwenv/envs/candidates.py _previews. What reads the check
// tables (the parts, the defence, the armour mode) Python hands in (previews_core.py).
#include <algorithm>

#include "encode2.hpp"

namespace cwenv::encode2 {

namespace {

constexpr int kCoverPenalty[4] = {0, -2, -4, 0};  // types.py CoverLevel.penalty (C01)
constexpr int kProneTargetMalus = 2;  // attack_plan.py PRONE_TARGET_MALUS (R06)

// specs.py WeaponSpec.range_modifier for a ranged weapon, 0 out of range (A01).
int RangeModifier(const kampf::Weapon& w, int distance) {
  const bool edge = g_encode_fault == EncodeFault::kPreviewRange;  // test only
  for (int b = 0; b < w.bands; ++b)
    if (edge ? distance < w.ranges[b].max_m : distance <= w.ranges[b].max_m)
      return w.ranges[b].modifier;
  return 0;
}

}  // namespace

PreviewPlan PlanPreview(const GameDesc& g, const Lines& lines, const State& s,
                        const PreviewRules& r, const PreviewIn& in) {
  const Fighter& a = s.fighters[in.actor];
  const Fighter& t = s.fighters[in.target];
  // C01-C04: an area attack meets cover as a ranged one, ignoring all but full where it
  // ignores (C03, X26); a direct one as its kind.
  const kampf::CoverAnswer cover = kampf::CoverAgainst(
      g, lines, s, in.actor, in.target, in.area || in.ranged, in.area && in.ignores);
  int probenwert = in.base;
  if (in.band_weapon >= 0)
    probenwert += RangeModifier(g.specs[in.actor].weapons[in.band_weapon], g.Distance(a.pos, t.pos));
  const int level = static_cast<int>(cover.level);
  probenwert += kCoverPenalty[level];
  if (in.prone_bonus && cover.level == Cover::kNone && (in.ranged || r.niederwerfen_vs_melee))
    probenwert -= kProneTargetMalus;  // R06 without cover
  int aim_qs = 0;
  if (in.ranged && in.aim_mode && a.aim_target == in.target && a.aim_stacks) {  // H11, X03
    probenwert += r.zielen_bonus * a.aim_stacks;
    aim_qs = r.zielen_qs_bonus * a.aim_stacks;
  }
  if (a.disarmed) probenwert -= r.entwaffnen_penalty;  // K01
  return {probenwert, level, aim_qs};
}

void WritePreview(const State& s, const PreviewRules& r, const PreviewIn& in,
                  const PreviewPlan& plan, const Chances& ch, std::span<float> row) {
  const double expected_qs = ch.expected_qs + plan.aim_qs * ch.hit;
  double dmg_lp = 0.0;
  if (in.damage) {  // preview.py mean_damage_per_qs: W10 + bonus - armour (A06, D01, D02)
    int sum = 0;
    for (int roll = 1; roll <= 10; ++roll) {
      const int v = roll + in.bonus - in.armour;
      sum += r.armour_floor_zero ? std::max(v, 0) : v;
    }
    dmg_lp = expected_qs * std::max(sum / 10.0, 0.0);
  }
  const int lp = std::max(1, s.fighters[in.target].lp);
  const double cols[8] = {
      ch.success, ch.hit, expected_qs / 3, dmg_lp / 20, dmg_lp / lp, plan.cover / 3.0,
      static_cast<double>(in.has_defence), plan.probenwert / 30.0,
  };
  for (int k = 0; k < 8; ++k) row[k] = static_cast<float>(cols[k]);
}

}  // namespace cwenv::encode2
