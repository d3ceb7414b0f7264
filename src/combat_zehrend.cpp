// The native combat's Zehrend, danger zones and end of the round (combat.hpp): damage.py
// gain_zehrend and zehrend_damage, hits.py ZehrendLater, movement.py's danger zone,
// conditions.py reapply_zone_zehrend, and roundflow.py EndOfRoundFrame (Z08, D03, D08,
// X20, X31, X55).
#include <algorithm>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

// EndOfRoundFrame's stages and phases (roundflow.py EndStage, EndPhase)
constexpr int kEndZehrend = 1, kEndDying = 2;
constexpr int kZehrendDamage = 0, kZehrendCheck = 1, kDyingCheck = 2, kDyingResult = 3,
              kPhaseFinished = 4;

bool Contains(const std::vector<int>& kinds, int kind) {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

void Drop(std::vector<int>& kinds, int kind) {
  kinds.erase(std::remove(kinds.begin(), kinds.end(), kind), kinds.end());
}

}  // namespace

bool NativeCombat::HasZehrend(int fi, int kind) const { return Contains(zehrend_[fi], kind); }
bool NativeCombat::HasZone(int fi, int kind) const { return Contains(zone_[fi], kind); }

void NativeCombat::DropZehrend(int fi, int kind) {
  Drop(zehrend_[fi], kind);
  SyncZehrend(fi);
}

void NativeCombat::DropZone(int fi, int kind) { Drop(zone_[fi], kind); }

// What TURN legality reads of the Zehrend held (kampf.hpp Fighter): how many, which of
// the first kZehrendSlots are fire's (X55 refused_in_zone).
void NativeCombat::SyncZehrend(int fi) {
  Fighter& f = s_.fighters[fi];
  const std::vector<int>& kinds = zehrend_[fi];
  f.n_zehrend = static_cast<int>(kinds.size());
  f.zehrend_fire = 0;
  for (std::size_t i = 0; i < kinds.size() && i < kZehrendSlots; ++i)
    if (strike_.zehrend_kinds[kinds[i]].fire) f.zehrend_fire |= 1u << i;
}

// movement.py in_danger_zone (D03): fire's Zehrend on a burning cell.
bool NativeCombat::InDangerZone(int fi, int kind) const {
  const Fighter& f = s_.fighters[fi];
  return kind == strike_.fire_kind && f.on_map() && g_.terrain[f.pos] == Terrain::kFire;
}

// damage.py zehrend_damage (Z08, X20): 1W10 of the kind's form; fire's is brechend (D01).
DamageF NativeCombat::ZehrendDamage(int fi, int kind, Cause cause, bool ongoing) const {
  const ZehrendKind& z = strike_.zehrend_kinds[kind];
  DamageF d;
  d.target = fi, d.dice = 1, d.mode = z.armour_mode, d.forms = z.form;
  d.cause = cause, d.ongoing = ongoing;
  return d;
}

// damage.py gain_zehrend (Z08): start it; the same kind again deals 1W10 at once instead.
std::optional<DamageF> NativeCombat::GainZehrend(int fi, int kind) {
  if (s_.fighters[fi].dead) return std::nullopt;
  if (HasZehrend(fi, kind)) {
    events_.push_back(ZehrendGained{fi, kind, true});
    return ZehrendDamage(fi, kind, {CauseKind::kZehrendAgain}, false);
  }
  zehrend_[fi].push_back(kind);
  SyncZehrend(fi);
  Count(Tally::kCondition, -1);  // "condition:ZEHREND"
  events_.push_back(ZehrendGained{fi, kind, false});
  return std::nullopt;
}

NativeCombat::Result NativeCombat::Step(ZehrendF& z, Value) {  // hits.py ZehrendLater
  if (z.stage != 0) return Result::kDone;
  z.stage = 1;
  std::optional<DamageF> d = GainZehrend(z.fighter, z.kind);
  return d ? Push(std::move(*d)) : Result::kDone;
}

// conditions.py reapply_zone_zehrend (D03, X55 reapplied): a Zehrend shaken off in its
// zone starts again while the fighter stands there; one who left is free of it.
void NativeCombat::ReapplyZoneZehrend() {
  for (std::size_t i = 0; i < s_.fighters.size(); ++i) {
    const int fi = static_cast<int>(i);
    const std::vector<int> kinds = zone_[fi];  // the loop changes it
    for (int kind : kinds) {
      if (HasZehrend(fi, kind)) continue;
      if (!s_.fighters[fi].dead && InDangerZone(fi, kind)) {
        GainZehrend(fi, kind);  // not held: starts it, deals nothing
      } else {
        DropZone(fi, kind);
      }
    }
  }
}

// EndOfRoundFrame: per fighter in its order the Zehrend damage and checks (Z08), then the
// dying check (D08); X31 phased: every Zehrend first, then every dying check.
NativeCombat::Result NativeCombat::Step(EndRoundF& e, Value v) {
  if (e.stage == 0) {
    ReapplyZoneZehrend();
    for (std::size_t i = 0; i < s_.fighters.size(); ++i)
      if (!s_.fighters[i].dead && !s_.fighters[i].fled) e.order.push_back(static_cast<int>(i));
    std::stable_sort(e.order.begin(), e.order.end(), [&](int a, int b) {
      const auto key = [&](int i) {
        return std::array<int, 4>{-initiative_[i], -setup_[i].grundwert, s_.fighters[i].side, i};
      };
      return key(a) < key(b);
    });
    e.stage = kEndZehrend;
    v = {};
  }
  for (;;) {
    const Result r = EndOfRound(e, v, strike_.round_end_phased);
    if (r != Result::kDone) return r;
    if (!strike_.round_end_phased || e.stage != kEndZehrend) break;
    e.stage = kEndDying, e.pos = 0, e.phase = kZehrendDamage, e.done = 0;
    v = {};
  }
  for (std::vector<int>& announced : helpers_) announced.clear();
  for (Fighter& x : s_.fighters) {  // _cleanup: round-scoped effects end (X03, H09, P08)
    x.armour_bonus = 0, x.focus_bonus = 0, x.helpers = 0;
    if (rules_.zielen_lost_at_round_end) x.aim_stacks = 0, x.aim_target = -1;
  }
  return Result::kDone;
}

// EndOfRoundFrame's loop over the fighters and _advance, one fighter's items in turn;
// kDone when every fighter of the order is through.
NativeCombat::Result NativeCombat::EndOfRound(EndRoundF& e, Value v, bool phased) {
  const auto next = [&] { ++e.pos, e.phase = kZehrendDamage, e.done = 0; };
  while (e.pos < static_cast<int>(e.order.size())) {
    const int fi = e.order[e.pos];
    Fighter& f = s_.fighters[fi];
    if (f.dead) {
      next();
      continue;
    }
    const bool want_zehrend = !phased || e.stage == kEndZehrend;
    const bool want_dying = !phased || e.stage == kEndDying;
    if (e.phase == kZehrendDamage) {  // Z08: each kind's 1W10
      int kind = -1;
      for (int k : zehrend_[fi])
        if (!(e.done >> k & 1)) {
          kind = k;
          break;
        }
      if (want_zehrend && kind >= 0) {
        if (HasZone(fi, kind) && !InDangerZone(fi, kind)) {  // D03: the cause is gone
          DropZehrend(fi, kind);
          DropZone(fi, kind);
          events_.push_back(ZehrendLost{fi, kind, ZehrendEnd::kZoneLeft});
          continue;
        }
        e.phase = kZehrendCheck, e.current = kind;
        return Push(ZehrendDamage(fi, kind, {CauseKind::kZehrendTick, -1, kind}, true));
      }
      e.phase = kDyingCheck;
    }
    if (e.phase == kZehrendCheck) {  // the free 'passende Probe' (Z08, X20)
      const int kind = e.current;
      const Value got = v;
      v = {};
      if (!HasZehrend(fi, kind) || InDangerZone(fi, kind)) {  // M08 ended it, or D03
        e.done |= std::uint64_t{1} << kind, e.phase = kZehrendDamage;
        continue;
      }
      if (!got.probed) {
        CheckF c = Check(fi, strike_.zehrend_kinds[kind].check, Purpose::kZehrend, false, false);
        c.index = kind;
        return Push(std::move(c));
      }
      if (got.probe.success) {
        DropZehrend(fi, kind);
        events_.push_back(ZehrendLost{fi, kind, ZehrendEnd::kCheck});
      }
      e.done |= std::uint64_t{1} << kind, e.phase = kZehrendDamage;
      continue;
    }
    if (e.phase == kDyingCheck) {  // D08
      if (want_dying && f.Has(kSterbend)) {
        e.phase = kDyingResult;
        return Push(Check(fi, strike_.unbeugsamkeit_check, Purpose::kDying, false, false));
      }
      next();
      continue;
    }
    if (e.phase == kDyingResult) {  // a Volltreffer stabilises, a Patzer kills, a miss bleeds
      const Probe r = v.probe;
      v = {};
      e.phase = kPhaseFinished;
      if (r.volltreffer) {
        LoseCondition(fi, kSterbend, LostBy::kSelfStabilised);
        stabilised_[fi] = 1;
        events_.push_back(StatusChanged{fi, Status::kStabilised, {}});
      } else if (r.patzer) {
        LoseLPF l;
        l.fighter = fi, l.cause = {CauseKind::kDyingPatzer}, l.damage = false, l.die = true;
        return Push(l);
      } else if (!r.success) {
        LoseLPF l;
        l.fighter = fi, l.amount = dice_.D10(), l.cause = {CauseKind::kDying}, l.damage = false;
        return Push(l);
      }
      continue;
    }
    next();
  }
  return Result::kDone;
}

}  // namespace cwenv::kampf
