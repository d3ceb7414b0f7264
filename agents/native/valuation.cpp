// The worth of the Handlungen to a doctrine's twin: each function names its twin in
// agents/valuation.py, agents/worth.py or the doctrine's module and keeps its order of
// operations.
#include <algorithm>
#include <cmath>
#include <variant>

#include "taktiker.hpp"

namespace cwenv::doctrine {

using kampf::Act;
using kampf::Kind;

namespace {

// valuation.py heal_value.
double HealValue(const Board& b, int f, int dice) {
  const Fighter& ff = b.s.fighters[f];
  const int lp = b.g.specs[f].lp;
  const double healed = std::min(5.5 * std::max(dice, 1), static_cast<double>(lp - ff.lp));
  const double weight = ff.lp <= lp / 2.0 ? 1.5 : 0.5;
  return healed * weight;
}

}  // namespace

double Mind::ManeuverWorth(int a, int t, int m) {
  if (m == kFestsetzen) return b.ConditionGain(t, kampf::kBenommen, cfg.condition_horizon, cfg.mumm_value);
  if (m == kUmreissen)
    return b.ConditionGain(t, kampf::kNiedergeworfen, cfg.condition_horizon, cfg.mumm_value);
  if (m == kEntwaffnen) return b.AttackLoss(t) * std::max(1, b.c.actions(t)) * cfg.condition_horizon;
  (void)a;  // the attacker does not enter the worth (the reference takes it too)
  return 0.0;  // Wegstossen, Mitzerren only move the target
}

double Mind::BestWeaponValue(int wi) {
  double best = 0.0;
  for (int ti : b.enemies) {
    const auto est = b.WeaponEstimate(b.me, ti, wi);
    if (est) best = std::max(best, est->Value(cfg.ko_bonus) * TargetWeight(ti));
  }
  return best;
}

double Mind::CurrentBest() {
  const kampf::Spec& spec = b.g.specs[b.me];
  double best = 0.0;
  bool any = false;
  for (int wi = 0; wi < spec.n_weapons; ++wi)
    if (kampf::WeaponUsable(spec, b.mf, wi)) {
      const double v = BestWeaponValue(wi);
      best = any ? std::max(best, v) : v, any = true;
    }
  return best;
}

// valuation.py climb_share (B03, X40): a partial climb of a high ledge is worth its share.
double Mind::ClimbShare(const Act& a) const {
  const auto* turn = std::get_if<kampf::TurnF>(&b.c.stack().back());
  if (!turn || !turn->hard) throw Deferred{};  // not at a searched TURN decision
  const std::optional<kampf::ClimbStep> step = b.c.PlannedClimb(*turn, a.cell);
  if (!step) return 1.0;
  return static_cast<double>(step->done + step->gained) / step->height;
}

// worth.py zehrend_cost (Z08, X20): 1W10 against armour and resistances each round until
// the check that ends it succeeds, up to the horizon.
double Mind::ZehrendCost(int f, int slot) {
  const kampf::ZehrendKind& z = b.strike.zehrend_kinds.at(b.c.zehrend(f).at(slot));
  const double per_round = b.exact.Stats(b.DamageProfile(f, 0, z.armour_mode, z.form, 0), 1).first;
  const double p = b.exact.SuccessChance(b.CheckValue(f, z.check));
  double sum = 0.0;
  for (int n = 0; n < static_cast<int>(cfg.condition_horizon) + 1; ++n) sum += std::pow(1 - p, n);
  return per_round * sum;
}

long Mind::ShakeWorthIt(const std::vector<int>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const double cost = args[i] >= kampf::kZehrendArg
                            ? ZehrendCost(b.me, args[i] - kampf::kZehrendArg)
                            : Cost(b.me, args[i]);
    if (cost >= 2 * cfg.mumm_value && cost > 0) return static_cast<long>(i);
  }
  return -1;
}

double Mind::HandlungValue(const Act& a) {
  if (cfg.kind == DoctrineKind::kStuermer && a.kind == Kind::kManeuver)  // its own (K01-K05)
    return cfg.maneuver_mask >> a.arg & 1 ? StuermerManeuver(a.target, a.arg) : 0.0;
  const kampf::Spec& spec = b.g.specs[b.me];
  const kampf::StrikeSpec& own = b.strike.specs[b.me];
  switch (a.kind) {
    case Kind::kAttack: {  // attack_value (H01)
      if (spec.weapons[a.arg].area_radius > 0) return AreaValue(a);
      if (!b.Enemy(a.target)) return 0.0;
      const auto est = b.WeaponEstimate(b.me, a.target, a.arg);
      if (!est) return 0.0;
      return est->Value(cfg.ko_bonus) * TargetWeight(a.target) * WeaponWeight(spec.weapons[a.arg]);
    }
    case Kind::kManeuver: {  // maneuver_value (K01-K05)
      if (!b.Enemy(a.target)) return 0.0;
      const double worth = ManeuverWorth(b.me, a.target, a.arg);
      return b.ManeuverChance(b.me, a.target, a.arg) * worth * TargetWeight(a.target);
    }
    case Kind::kZielen: {  // aim_value (H11, X03) times the aim weight
      const int drawn = b.mf.drawn;
      if (!b.Enemy(a.target) || drawn < 0) return 0.0 * cfg.aim_weight;
      const auto now = b.WeaponEstimate(b.me, a.target, drawn);
      const auto aimed = b.WeaponEstimate(b.me, a.target, drawn, -1, true);
      if (!now || !aimed) return 0.0 * cfg.aim_weight;
      const double weight = TargetWeight(a.target) * WeaponWeight(spec.weapons[drawn]);
      return (aimed->Value(cfg.ko_bonus) - now->Value(cfg.ko_bonus)) * weight * cfg.aim_weight;
    }
    case Kind::kReload: {
      if (b.mf.ammo[a.arg] <= 0) return 0.9 * BestWeaponValue(a.arg) + 0.5;
      for (int wi = 0; wi < spec.carried; ++wi)
        if (kampf::WeaponUsable(spec, b.mf, wi)) return 0.05;
      return 0.3;
    }
    case Kind::kDraw:
    case Kind::kPickUp: {  // draw_value (H04)
      const kampf::Weapon& w = spec.weapons[a.arg];
      double best = 0.0;
      const int walk = b.WalkDistance(b.mf.pos);
      for (int ti : b.enemies) {
        const int pos = b.s.fighters[ti].pos;
        const int dist = b.Dist(b.mf.pos, pos);
        if (!w.ranged && std::min(walk, dist) > w.reach + spec.movement) continue;
        if (w.ranged && !RangeModifier(w, dist)) continue;
        const auto est = b.WeaponEstimate(b.me, ti, a.arg, w.ranged ? -1 : pos);
        if (est) best = std::max(best, est->Value(cfg.ko_bonus) * TargetWeight(ti));
      }
      return std::max(0.0, 0.8 * (best - CurrentBest()));
    }
    case Kind::kUseItem: {
      const kampf::ItemDef& item = own.catalogue.at(b.c.item_ids(b.me).at(a.arg));
      if (item.heal) return HealValue(b, b.me, item.amount);
      return item.condition >= 0 && b.mf.Has(item.condition) ? Cost(b.me, item.condition) : 0.0;
    }
    case Kind::kCyberware: {  // cyberware_value (H09)
      const kampf::CyberDef& ability = own.cyber.at(a.arg);
      switch (ability.kind) {
        case kampf::kAbilityHeal: return HealValue(b, b.me, ability.amount);
        case kampf::kAbilityShake:
          return ability.condition >= 0 && b.mf.Has(ability.condition) ? Cost(b.me, ability.condition)
                                                                        : 0.0;
        case kampf::kAbilityArmour: {
          int near = 0;
          for (int e : b.enemies) near += b.Dist(b.s.fighters[e].pos, b.mf.pos) <= 12;
          return 0.5 * ability.amount * near;
        }
        default: return 0.0;
      }
    }
    case Kind::kShake: {  // H12: shake_chance (the condition's check) times its cost
      const int check = b.strike.shake_check[a.arg];
      if (check < 0) throw Deferred{};
      return Success(check) * Cost(b.me, a.arg) * cfg.shake_weight;
    }
    case Kind::kStabilise: return Success(b.strike.technik_check) * cfg.stabilise_worth;
    case Kind::kAufstehen: {
      double cost = b.ConditionCost(b.me, kampf::kNiedergeworfen, 1.0, cfg.mumm_value);
      bool melee = true;
      for (int wi = 0; wi < spec.n_weapons; ++wi)
        if (kampf::WeaponUsable(spec, b.mf, wi) && spec.weapons[wi].ranged) melee = false;
      if (melee && b.NearestEnemyDistance(b.mf.pos) > kampf::MeleeReach(spec, b.mf))
        cost += b.Offense(b.me);
      return cost * cfg.stand_weight;
    }
    case Kind::kFreeWeapon:
      return 0.8 * Success(b.strike.technik_check) * BestWeaponValue(a.arg);
    case Kind::kHelfen: return 0.1;
    case Kind::kRucksack: {
      const kampf::ItemDef& item = own.catalogue.at(b.c.backpack_ids(b.me).at(a.arg));
      if (item.condition >= 0 && b.mf.Has(item.condition))
        return 0.3 * b.ConditionCost(b.me, item.condition, 1.0, cfg.mumm_value);
      return 0.0;
    }
    case Kind::kDoor: {  // door_value (H04)
      if (!b.s.opaque[a.cell] || b.enemies.empty()) return 0.0;
      if (b.WalkDistance(a.cell) < b.WalkDistance(b.mf.pos)) return std::max(1.0, b.Offense(b.me));
      return 0.0;
    }
    case Kind::kHack: {  // hack_value (H10)
      if (!b.Enemy(a.target)) return 0.0;
      const auto est = b.HackEstimate(b.me, a.target, a.arg);
      if (!est) return 0.0;
      double value = est->Value(cfg.ko_bonus);
      const int cond = own.hacks[a.arg].condition;
      if (cond >= 0)
        value += est->hit * b.ConditionGain(a.target, cond, cfg.condition_horizon, cfg.mumm_value);
      return value * TargetWeight(a.target);
    }
    case Kind::kUpload: {  // H03: a share of the hack's best worth per upload step left
      const int left = std::max(1, spec.hacks[a.arg].upload - b.mf.upload_progress[a.arg]);
      double best = 0.0;  // valuation.py best_hack
      for (int ti : b.enemies) {
        const auto est = b.HackEstimate(b.me, ti, a.arg);
        if (est) best = std::max(best, est->Value(cfg.ko_bonus));
      }
      return 0.9 * best / left;
    }
    case Kind::kSchwierig: {  // H07: swim, climb or jump toward the enemy
      const int gain = b.WalkDistance(b.mf.pos) - b.WalkDistance(a.cell);
      const double worth = gain > 2 ? 0.5 * cfg.approach_weight * gain : 0.0;
      return worth * ClimbShare(a);
    }
    default: throw Deferred{};
  }
}

double Mind::AreaValue(const Act& a) {
  // attack_value's area weapon: every fighter it reaches counts, allies against (C03)
  kampf::Plan plan;
  kampf::PlanAttack(b.g, b.c.lines(), b.s, b.me, a.target, kampf::Mode::kWeapon, a.arg, plan);
  double total = 0.0;
  for (int idx : plan.targets) {
    const auto est = b.WeaponEstimate(b.me, idx, a.arg);
    const Fighter& g = b.s.fighters[idx];
    if (!est || !g.standing()) continue;
    if (g.side == b.mf.side) {
      total -= 1.5 * est->Value(cfg.ko_bonus);
    } else if (b.Enemy(idx)) {
      total += est->Value(cfg.ko_bonus) * TargetWeight(idx);
    }
  }
  return total;
}

}  // namespace cwenv::doctrine
