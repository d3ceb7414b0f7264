// The native combat's Handlungen (combat.hpp): handlungen.py, one case per entry of
// tables/handlungen.py HANDLUNGEN that the native frames run (H01-H12, D09, P08, A08,
// Z02), and CheckedHandlung for those decided by a check. The Schwierige Bewegung raises
// Unported in the turn before anything of it is applied.
#include <algorithm>
#include <string>

#include "combat.hpp"

namespace cwenv::kampf {

// What TURN legality reads of the items and helpers (kampf.hpp Fighter).
void NativeCombat::SyncItems(int fi) {
  Fighter& f = s_.fighters[fi];
  const std::vector<ItemDef>& cat = strike_.specs[fi].catalogue;
  f.n_items = static_cast<int>(items_[fi].size());
  for (int k = 0; k < f.n_items && k < kMaxItems; ++k) {
    const ItemDef& item = cat[items_[fi][k]];
    f.items[k] = {item.heal, item.condition};
  }
  f.backpack = static_cast<int>(backpack_[fi].size());
}

void NativeCombat::SyncHelpers(int fi) {
  std::uint64_t bits = 0;
  for (int h : helpers_[fi]) bits |= std::uint64_t{1} << h;
  s_.fighters[fi].helpers = bits;
}

// damage.py heal (D08, X29): up to the maximum; the unconscious wakes at 1 LP or more unless
// still sterbend.
void NativeCombat::Heal(int fi, int amount) {
  Fighter& f = s_.fighters[fi];
  if (f.dead || amount <= 0) return;
  const int before = f.lp;
  f.lp = std::min(g_.specs[fi].lp, f.lp + amount);
  events_.push_back(LPChanged{fi, before, f.lp, {CauseKind::kHeilung}});
  if (f.down && f.lp >= 1 && !f.Has(kSterbend)) {
    f.down = false;
    stabilised_[fi] = 0;
    events_.push_back(StatusChanged{fi, Status::kAwake, {}});
  }
  dirty_ = true;
}

// handlungen.py _item_effect (H04, H09): heal amount W10 (at least one), or end a condition.
void NativeCombat::ItemEffect(int fi, bool heal, int amount, int condition) {
  if (heal) {
    int total = 0;
    for (int k = 0; k < std::max(amount, 1); ++k) total += dice_.D10();
    Heal(fi, total);
  } else if (condition >= 0) {
    LoseCondition(fi, condition, LostBy::kStimulans);
  }
}

// HandlungRule.begin: the Handlung carried out (its Handlung already spent by the turn).
NativeCombat::Result NativeCombat::Handlung(TurnF& t, const Act& a) {
  const int fi = t.fighter;
  Fighter& f = s_.fighters[fi];
  const Spec& spec = g_.specs[fi];
  switch (a.kind) {
    case Kind::kAttack:    // H01
    case Kind::kManeuver:  // K01-K05: a Kampfmanöver is an attack
    case Kind::kHack: {    // H10: an uploaded hack
      AttackF attack;
      attack.attacker = fi, attack.target = a.target, attack.index = a.arg;
      attack.mode = a.kind == Kind::kAttack ? Mode::kWeapon
                    : a.kind == Kind::kHack ? Mode::kHack
                                            : Mode::kManeuver;
      return Push(std::move(attack));
    }
    case Kind::kZielen:  // H11, X03: aiming again at the same target stacks
      if (f.aim_target == a.target) {
        f.aim_stacks = std::min(f.aim_stacks + 1, g_.options.zielen_max_stacks);
      } else {
        f.aim_target = a.target, f.aim_stacks = 1;
      }
      events_.push_back(Acted{fi, ActKind::kAim, a.target, -1, f.aim_stacks});
      return Result::kDecision;
    case Kind::kSprint:  // H08, X15
      t.sprint_bonus += MovementAllowance(g_.options, spec, f) * (strike_.sprint_multiplier - 1);
      events_.push_back(Acted{fi, ActKind::kSprint});
      return Result::kDecision;
    case Kind::kAufstehen:  // H02
      LoseCondition(fi, kNiedergeworfen, LostBy::kStandsUp);
      return Result::kDecision;
    case Kind::kUpload:  // H03
      ++f.upload_progress[a.arg];
      events_.push_back(Acted{fi, ActKind::kUpload, -1, a.arg, f.upload_progress[a.arg]});
      return Result::kDecision;
    case Kind::kDoor: {  // H04: open or close an adjacent door
      const Terrain door = g_.terrain[a.cell];
      const bool was_open =
          (door == Terrain::kDoorClosed || door == Terrain::kDoorOpen) && !s_.solid[a.cell];
      s_.solid[a.cell] = s_.opaque[a.cell] = was_open ? 1 : 0;
      events_.push_back(Acted{fi, was_open ? ActKind::kCloseDoor : ActKind::kOpenDoor, -1, a.cell});
      return Result::kDecision;
    }
    case Kind::kDraw:  // H04
      f.drawn = a.arg;
      events_.push_back(Acted{fi, ActKind::kDraw, -1, a.arg});
      return Result::kDecision;
    case Kind::kPickUp:  // H04, K01: a dropped weapon, drawn at once
      f.dropped &= ~(1u << a.arg);
      f.drawn = a.arg;
      events_.push_back(Acted{fi, ActKind::kPickUp, -1, a.arg});
      return Result::kDecision;
    case Kind::kUseItem: {  // H04 'Medikament einnehmen'
      const int id = items_[fi][a.arg];
      items_[fi].erase(items_[fi].begin() + a.arg);
      SyncItems(fi);
      const ItemDef& item = strike_.specs[fi].catalogue[id];
      events_.push_back(Acted{fi, ActKind::kUseItem, -1, a.arg, item.amount, id});
      ItemEffect(fi, item.heal, item.amount, item.condition);
      return Result::kDecision;
    }
    case Kind::kReload: {  // H05: full after nachladen Handlungen
      const Weapon& w = spec.weapons[a.arg];
      const bool done = ++reloading_[fi][a.arg] >= w.nachladen;
      if (done) {
        f.ammo[a.arg] = w.magazine;
        reloading_[fi][a.arg] = 0;
        if (f.reloads[a.arg] > 0) --f.reloads[a.arg];
      }
      events_.push_back(Acted{fi, ActKind::kReload, -1, a.arg, done ? 1 : 0});
      return Result::kDecision;
    }
    case Kind::kCyberware: {  // H09
      const CyberDef& ware = strike_.specs[fi].cyber[a.arg];
      --f.cyber_uses[a.arg];
      events_.push_back(Acted{fi, ActKind::kCyberware, -1, a.arg});
      if (ware.kind == kAbilityArmour) {
        f.armour_bonus += ware.amount;
      } else if (ware.kind == kAbilityFocus) {
        f.focus_bonus += ware.amount;
      } else if (ware.kind == kAbilityHeal) {
        ItemEffect(fi, true, ware.amount, -1);
      } else {
        ItemEffect(fi, false, 0, ware.condition);
      }
      return Result::kDecision;
    }
    case Kind::kHelfen:  // P08, X41, X60: announced; the helper rolls before the ally's check
      helpers_[a.target].push_back(fi);
      SyncHelpers(a.target);
      events_.push_back(Acted{fi, ActKind::kAnnounceHelp, a.target});
      return Result::kDecision;
    case Kind::kMummProbe:  // Z02, X02: the turn stays benommen whatever happens
      t.benommen = true;
      [[fallthrough]];
    case Kind::kShake:
    case Kind::kStabilise:
    case Kind::kFreeWeapon:
    case Kind::kRucksack: {
      CheckedF checked;
      checked.fighter = fi, checked.act = a;
      return Push(checked);
    }
    default:
      throw std::logic_error("a Handlung without its entry: " +
                             std::to_string(static_cast<int>(a.kind)));
  }
}

// handlungen.py CheckedHandlung: the Handlung's check (its check function), then what the
// result does (its outcome function).
NativeCombat::Result NativeCombat::Step(CheckedF& h, Value v) {
  constexpr int kCheck = 0, kOutcome = 1, kFinished = 2;  // HandlungStage
  const int fi = h.fighter;
  const Act& a = h.act;
  if (h.stage == kCheck) {
    h.stage = kOutcome;
    CheckF c;
    switch (a.kind) {
      case Kind::kMummProbe:  // mumm_probe_check (Z02, X02)
        c = Check(fi, strike_.benommen_check, Purpose::kBenommen, false, false);
        break;
      case Kind::kShake:  // shake_check (H12): the condition's own check
        c = Check(fi, strike_.shake_check[a.arg], Purpose::kShake, false, false);
        c.index = a.arg;
        break;
      case Kind::kStabilise:  // stabilise_check (D09)
        c = Check(fi, strike_.technik_check, Purpose::kStabilise, false, false);
        c.target = a.target;
        break;
      case Kind::kFreeWeapon:  // free_weapon_check (A08): Technik ranged, else Unbeugsamkeit
        c = Check(fi,
                  g_.specs[fi].weapons[a.arg].ranged ? strike_.technik_check
                                                     : strike_.unbeugsamkeit_check,
                  Purpose::kFreeWeapon, false, false);
        c.index = a.arg;
        break;
      case Kind::kRucksack:  // rucksack_check (H06)
        c = Check(fi, strike_.operations_check, Purpose::kRucksack, false, false);
        break;
      default:
        throw std::logic_error("a checked Handlung without its check");
    }
    return Push(std::move(c));
  }
  if (h.stage == kFinished) return Result::kDone;
  h.stage = kFinished;
  const Probe& r = v.probe;
  Fighter& f = s_.fighters[fi];
  switch (a.kind) {
    case Kind::kMummProbe:
    case Kind::kShake:
      if (r.success) LoseCondition(fi, a.kind == Kind::kShake ? a.arg : kBenommen, LostBy::kProbe);
      return Result::kDone;
    case Kind::kStabilise:  // D09, X35
      if (r.success) {
        const int patient = a.target;
        LoseCondition(patient, kSterbend, LostBy::kStabilisedBy, fi);
        stabilised_[patient] = 1;
        events_.push_back(StatusChanged{patient, Status::kStabilised, {}});
      } else if (r.patzer) {
        DamageF d;
        d.target = strike_.stabilise_victim_patient ? a.target : fi;
        d.dice = 1, d.mode = kArmourDirekt, d.cause = {CauseKind::kFirstAidFailed};
        return Push(d);
      }
      return Result::kDone;
    case Kind::kFreeWeapon:
      if (r.success) {
        f.jammed &= ~(1u << a.arg);
        events_.push_back(Acted{fi, ActKind::kFreeWeapon, -1, a.arg});
      }
      return Result::kDone;
    case Kind::kRucksack: {  // H06, X46: found, it is in hand; a failure may lose it
      if (!r.success && !strike_.rucksack_item_lost) return Result::kDone;
      const int id = backpack_[fi][a.arg];
      backpack_[fi].erase(backpack_[fi].begin() + a.arg);
      if (r.success) items_[fi].push_back(id);
      SyncItems(fi);
      events_.push_back(
          Acted{fi, r.success ? ActKind::kFromBackpack : ActKind::kLoseItem, -1, a.arg, 0, id});
      return Result::kDone;
    }
    default:
      throw std::logic_error("a checked Handlung without its outcome");
  }
}

}  // namespace cwenv::kampf
