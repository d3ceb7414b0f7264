// An Acted event applied to the kept state from its fields (sync.hpp ActKind): each
// Handlung's own change, the same as the Python rule that emitted the event.
#include "faults.hpp"
#include "sync.hpp"

namespace cwenv::kampf {

namespace {

using sync_detail::Get;
using sync_detail::Int;

struct ActedNames {
  nb::object fighter, act, index, value, target;
};

const ActedNames& N() {
  static const ActedNames* names = [] {
    auto s = [](const char* n) { return nb::steal(PyUnicode_InternFromString(n)); };
    return new ActedNames{s("fighter"), s("act"), s("index"), s("value"), s("target")};
  }();
  return *names;
}

}  // namespace

// An Acted event's change, from its act, index and value (events.py Acted; the rules that
// emit it: handlungen.py, helping.py, effects.py A08, tables/maneuvers.py K01, falls.py).
bool EventSync::ApplyActed(nb::handle e, const GameDesc& g, State& s) {
  const ActedNames& n = N();
  const long long i = Int(e, n.fighter), act = Int(e, n.act);
  if (i < 0 || i >= static_cast<long long>(s.fighters.size()) || act < 0 ||
      act >= static_cast<long long>(ActKind::kCount))
    return false;
  const Spec& spec = g.specs[i];
  Fighter& f = s.fighters[i];
  const long long index = Int(e, n.index);
  const int value = static_cast<int>(Int(e, n.value));
  const bool weapon = index >= 0 && index < spec.n_weapons;
  const std::uint32_t bit = weapon ? std::uint32_t{1} << index : 0;
  switch (static_cast<ActKind>(act)) {
    case ActKind::kSprint:  // H08: the turn's allowance, read from the TurnFrame
    case ActKind::kHelp:  // P08: the helped check's parts, not the state
    case ActKind::kFailed:  // B02-B04: what the failed step did comes as its own events
      return true;
    case ActKind::kAim: {  // H11, X03
      const long long target = Int(e, n.target);
      if (target < 0 || target >= static_cast<long long>(s.fighters.size())) return false;
      f.aim_target = static_cast<int>(target);
      f.aim_stacks = g_fault == Fault::kSyncAim ? value - 1 : value;
      return true;
    }
    case ActKind::kUpload:  // H03
      if (index < 0 || index >= spec.n_hacks) return false;
      f.upload_progress[index] = value;
      return true;
    case ActKind::kOpenDoor:  // H04: the door's cell opaque and solid or not
    case ActKind::kCloseDoor:
      doors_dirty_ = true;
      return true;
    case ActKind::kDraw:  // H04
      if (!weapon) return false;
      f.drawn = static_cast<int>(index);
      return true;
    case ActKind::kPickUp:  // H04, K01: picked up and drawn
      if (!weapon) return false;
      f.dropped &= ~bit, f.drawn = static_cast<int>(index);
      return true;
    case ActKind::kUseItem:  // H04: the item leaves the hand; its healing comes as LPChanged
      if (index < 0 || index >= f.n_items) return false;
      for (int k = static_cast<int>(index); k + 1 < f.n_items; ++k) f.items[k] = f.items[k + 1];
      --f.n_items;
      return true;
    case ActKind::kReload:  // H05: the magazine full after nachladen Handlungen
      if (!weapon) return false;
      if (value) {
        f.ammo[index] = spec.weapons[index].magazine;
        if (f.reloads[index] > 0) --f.reloads[index];
      }
      return true;
    case ActKind::kCyberware: {  // H09: a use spent; armour and focus here, the rest as events
      if (index < 0 || index >= spec.n_cyber) return false;
      --f.cyber_uses[index];
      if (!g.attack.ready) {  // what the ability does is in the attack tables
        Dirty(i, s);
        return true;
      }
      const AttackSpec& own = g.attack.specs[i];
      if (own.cyber_kind[index] == kCyberArmour) f.armour_bonus += own.cyber_amount[index];
      if (own.cyber_kind[index] == kCyberFocus) f.focus_bonus += own.cyber_amount[index];
      return true;
    }
    case ActKind::kAnnounceHelp: {  // P08: the ally's helpers (polled until its check)
      const long long ally = Int(e, n.target);
      if (ally < 0 || ally >= static_cast<long long>(s.fighters.size())) return false;
      s.fighters[ally].helpers |= std::uint64_t{1} << i;
      return true;
    }
    case ActKind::kFreeWeapon:  // A08
      if (!weapon) return false;
      f.jammed &= ~bit;
      return true;
    case ActKind::kJammed:  // A08 Waffe blockiert
      if (!weapon) return false;
      f.jammed |= bit;
      return true;
    case ActKind::kFromBackpack:  // H06: what the item is, the core reads
      Dirty(i, s);
      return true;
    case ActKind::kLoseItem:  // H06, X46
      if (f.backpack <= 0) return false;
      --f.backpack;
      return true;
    case ActKind::kLoseWeapon:  // K01: a Runner drops the drawn weapon
      if (!weapon) return false;
      f.dropped |= bit, f.drawn = -1;
      return true;
    case ActKind::kDisarmed:  // K01, X22
      f.disarmed = true;
      return true;
    case ActKind::kCount:
      break;
  }
  return false;
}

}  // namespace cwenv::kampf
