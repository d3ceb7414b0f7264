// The doctrines' hooks in C++ (issue #16): what agents/doctrine.py lets a doctrine say
// for itself, for the Taktiker (agents/taktiker.py), the Schütze (agents/schuetze.py) and
// the Stürmer (agents/stuermer.py), each a switch over DoctrineKind, so a doctrine without
// its case is an error (Deferred: the Python agent decides), never a silent default.
// Internal to agents._rollouts; taktiker.cpp and valuation.cpp ask them.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "taktiker.hpp"

namespace cwenv::doctrine {

double Mind::TargetWeight(int ti) const {
  switch (cfg.kind) {
    case DoctrineKind::kTaktiker: {  // taktiker.py target_weight
      const Fighter& f = b.s.fighters[ti];
      const double lost = 1.0 - static_cast<double>(std::max(f.lp, 0)) / b.g.specs[ti].lp;
      return 1.0 + cfg.focus_weight * lost;
    }
    case DoctrineKind::kStuermer: return 1.0;
    case DoctrineKind::kSchuetze: {  // schuetze.py target_weight: (danger / mean) ** weight
      double sum = 0.0;
      for (int e : b.enemies) sum += Danger(e);
      const double mean = b.enemies.empty() ? 0.0 : sum / static_cast<double>(b.enemies.size());
      return mean > 0 ? std::pow(Danger(ti) / mean, cfg.danger_weight) : 1.0;
    }
  }
  throw Deferred{};  // a doctrine without a twin
}

double Mind::WeaponWeight(const kampf::Weapon& w) const {
  switch (cfg.kind) {
    case DoctrineKind::kTaktiker: return 1.0;
    case DoctrineKind::kSchuetze: return !w.ranged && Armed() ? cfg.melee_weight : 1.0;
    case DoctrineKind::kStuermer: return w.ranged ? cfg.ranged_weight : 1.0;
  }
  throw Deferred{};
}

double Mind::StuermerManeuver(int t, int m) {
  if (!kampf::ManeuverAllowed(b.g, b.s, b.me, t, m)) return 0.0;
  const double p = b.ManeuverChance(b.me, t, m);
  if (p < cfg.min_maneuver_chance) return 0.0;
  const double worth = ManeuverWorth(b.me, t, m);
  return p * worth * cfg.maneuver_weight;
}

bool Mind::Armed() const {
  if (armed) return *armed;
  armed = false;
  const kampf::Spec& spec = b.g.specs[b.me];
  for (int wi = 0; wi < spec.n_weapons; ++wi) {
    const kampf::Weapon& w = spec.weapons[wi];
    if (w.ranged && !(b.mf.dropped >> wi & 1) && !(b.mf.jammed >> wi & 1) &&
        (b.mf.ammo[wi] > 0 || b.mf.reloads[wi] != 0 || !w.uses_ammo()))
      armed = true;
  }
  return *armed;
}

bool Mind::Retreating() const {  // taktiker.py retreating: angeschlagen (Z01), outnumbered
  if (!retreat)
    retreat = b.mf.Has(kampf::kAngeschlagen) && b.enemies.size() > static_cast<std::size_t>(b.allies);
  return *retreat;
}

double Mind::Risk() const {
  switch (cfg.kind) {
    case DoctrineKind::kTaktiker: return Retreating() ? cfg.retreat_risk : cfg.risk_weight;
    case DoctrineKind::kSchuetze:
    case DoctrineKind::kStuermer: return cfg.risk_weight;  // Doctrine.risk
  }
  throw Deferred{};
}

double Mind::CellBonus(int cell) const {
  switch (cfg.kind) {
    case DoctrineKind::kTaktiker:  // falling back: distance
      return Retreating() ? cfg.retreat_weight * std::min(b.NearestEnemyDistance(cell), 12) : 0.0;
    case DoctrineKind::kSchuetze:  // its distance from the nearest enemy, while it has a gun
      if (!Armed()) return 0.0;
      return -cfg.distance_weight * std::max(0, cfg.keep_distance - b.NearestEnemyDistance(cell));
    case DoctrineKind::kStuermer:  // ending the move in melee reach of an enemy
      return InReach(cell) ? cfg.melee_bonus : 0.0;
  }
  throw Deferred{};
}

double Mind::CandidateKey(int cell, bool covered) const {
  switch (cfg.kind) {
    case DoctrineKind::kTaktiker: {  // cover, then nearest the enemy (falling back: farthest)
      const double base = covered ? 0.0 : 3.0;
      const int near = b.NearestEnemyDistance(cell);
      return Retreating() ? base - near : base + near;
    }
    case DoctrineKind::kSchuetze:  // cover, then nearest twice the distance it keeps
      return (covered ? 0.0 : 100.0) +
             std::abs(b.NearestEnemyDistance(cell) - 2 * cfg.keep_distance);
    case DoctrineKind::kStuermer:  // Doctrine.candidate_key: the walk toward the enemy
      return static_cast<double>(b.WalkDistance(cell));
  }
  throw Deferred{};
}

bool Mind::InReach(int cell) const {
  const int reach = std::max(kampf::MeleeReach(b.g.specs[b.me], b.mf), 1);
  for (int e : b.enemies)
    if (b.Dist(cell, b.s.fighters[e].pos) <= reach) return true;
  return false;
}

}  // namespace cwenv::doctrine
