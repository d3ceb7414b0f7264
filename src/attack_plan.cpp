// checks.py check_parts and attack_plan.py plan_attack in C++ (src/attack_plan.hpp).
#include "attack_plan.hpp"

#include <algorithm>
#include <span>

#include "faults.hpp"

namespace cwenv::kampf {

namespace {

constexpr int kHacking = 4;  // CheckValue.HACKING (H10)
constexpr int kCoverPenalty[4] = {0, -2, -4, 0};  // CoverLevel.penalty (C01)

// los.py cells_in_radius (Chebyshev, in index order) and area_targets: who an area attack
// reaches, not behind full massive cover from the centre unless it has Durchdringung (C01,
// C03).
void AreaTargets(const GameDesc& g, const Lines& lines, const State& s, int centre, int radius,
                 bool durchdringung, std::vector<int>& out) {
  const int cx = centre % g.width, cy = centre / g.width;
  const std::span<const std::uint8_t> opaque(s.opaque);
  for (int y = std::max(0, cy - radius); y < std::min(g.height, cy + radius + 1); ++y)
    for (int x = std::max(0, cx - radius); x < std::min(g.width, cx + radius + 1); ++x) {
      const int cell = y * g.width + x;
      const int idx = s.occupant[cell];
      if (idx < 0 || s.fighters[idx].dead) continue;
      if (durchdringung || cell == centre || !lines.Blocked(opaque, centre, cell))
        out.push_back(idx);
    }
}

}  // namespace

void CheckParts(const GameDesc& g, const Fighter& f, int fi, int check, bool attack,
                bool reaction, bool defence, Parts& out) {
  const AttackTables& t = g.attack;
  const AttackSpec& spec = t.specs[fi];
  out.n = 0;
  out.Add(PartKind::kValue, check, spec.values[check]);
  const CheckSortRow& sort = t.sorts[check][attack | reaction << 1 | defence << 2];
  if (f.conditions) {
    for (std::size_t i = 0; i < t.malus_order.size(); ++i) {
      const int cond = t.malus_order[i];
      if (f.Has(cond) && sort.malus >> i & 1)
        out.Add(PartKind::kCondition, cond, t.condition_penalty);
    }
  }
  if (spec.behinderung && sort.behinderung)
    out.Add(PartKind::kBehinderung, -1, -spec.behinderung);
  if (f.focus_bonus) out.Add(PartKind::kFocus, -1, f.focus_bonus);  // spent by the check
}

void PlanAttack(const GameDesc& g, const Lines& lines, const State& s, int attacker, int target,
                Mode mode, int index, Plan& out) {
  const AttackTables& t = g.attack;
  const Spec& spec = g.specs[attacker];
  const AttackSpec& own = t.specs[attacker];
  const Fighter& a = s.fighters[attacker];
  const Fighter& tf = s.fighters[target];
  const bool hack = mode == Mode::kHack, maneuver = mode == Mode::kManeuver;
  const bool weapon_mode = mode == Mode::kWeapon || mode == Mode::kBlockade;
  // attack_plan.py attack_is_ranged and area_radius: hacks meet cover, manoeuvres do not
  const Weapon* w = weapon_mode ? &spec.weapons[index] : nullptr;
  const bool ranged = hack || (w && w->ranged);
  const int radius = hack ? spec.hacks[index].area_radius : w ? w->area_radius : 0;
  const AttackWeapon& means = hack ? own.hacks[index] : maneuver ? t.unarmed : own.weapons[index];
  // A Blockadeangriff is a reaction (R04): Eingeschränkt's -2 applies (Z03).
  CheckParts(g, a, attacker, hack ? kHacking : means.skill, true, mode == Mode::kBlockade,
             false, out.parts);
  out.own_parts = out.parts.n;
  out.ranged = ranged;
  out.targets.clear();
  if (radius) {
    const bool ignores = hack || t.area_cover_all;  // C03, X26
    AreaTargets(g, lines, s, tf.pos, radius, means.durchdringung, out.targets);
    out.cover = CoverAgainst(g, lines, s, attacker, target, true, ignores);
  } else {
    out.targets.push_back(target);
    out.cover = CoverAgainst(g, lines, s, attacker, target, ranged, false);
  }
  Parts& p = out.parts;
  if (weapon_mode) {
    if (means.modifier) p.Add(PartKind::kWeapon, index, means.modifier);
    if (ranged) {  // WeaponSpec.range_modifier: 0 out of range (its None)
      const int dist = g.Distance(a.pos, tf.pos);
      for (int b = 0; b < w->bands; ++b)
        if (dist <= w->ranges[b].max_m) {
          if (w->ranges[b].modifier) p.Add(PartKind::kRange, -1, w->ranges[b].modifier);
          break;
        }
    }
  } else if (hack) {
    if (means.modifier) p.Add(PartKind::kHack, index, means.modifier);
  } else {
    const int modifier = t.maneuver_modifier[index];  // K01, K03: the manoeuvre's difficulty
    if (modifier) p.Add(PartKind::kManeuver, index, modifier);
  }
  const int level = static_cast<int>(out.cover.level);
  const int cover_penalty = kCoverPenalty[level];
  if (cover_penalty)
    p.Add(out.cover.living ? PartKind::kLivingCover : PartKind::kCover, level, cover_penalty);
  const bool open = out.cover.level == Cover::kNone ||
                    (g_fault == Fault::kPlanProne && out.cover.level == Cover::kHalf);  // test only
  if (tf.prone_bonus && open && (ranged || t.niederwerfen_vs_melee))
    p.Add(PartKind::kProneTarget, -1, -t.prone_malus);  // R06 without cover
  out.aim_qs = 0;
  if (ranged && mode == Mode::kWeapon && a.aim_target == target && a.aim_stacks) {
    p.Add(PartKind::kAim, -1, t.zielen_bonus * a.aim_stacks);  // H11, X03
    out.aim_qs = t.zielen_qs_bonus * a.aim_stacks;
  }
  if (a.disarmed) p.Add(PartKind::kDisarmed, -1, -t.entwaffnen_nsc_penalty);  // K01
  out.no_cover_probenwert = p.Total() - (out.cover.living ? cover_penalty : 0);
}

}  // namespace cwenv::kampf
