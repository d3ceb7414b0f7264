// The native combat's Python mirror (bind_mirror.cpp): the reference's Combat state —
// every FighterState, the occupants, the doors — kept equal to the core's, so agents,
// encoders and the engine's helpers read a native combat as they read a reference one
// (cwenv/engine/native/combat.py). After every decision the core writes the fields that changed
// since it last wrote them; after an edit of the mirror (Combat.refresh_legal) it reads
// the whole mirror back.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <vector>

#include "combat.hpp"

namespace cwenv::kampf {

namespace nb = nanobind;

// One fighter as the mirror last showed it.
struct Image {
  Fighter f{};
  int reactions = 0, initiative = 0, actions = 0;
  bool actionbonus_used = false, stabilised = false;
  std::vector<int> zehrend, zone, items, backpack, helpers, reloading;
};

// What the mirror holds besides the combat: the last images, the occupants and doors last
// written, the Zehrend kinds' names and each fighter's items (its spec.items, then its
// spec.backpack: an item's id is its place there).
struct MirrorState {
  bool fresh = true;  // nothing written yet: every field is
  std::vector<Image> last;
  std::vector<std::int16_t> occupant;
  std::vector<std::uint8_t> opaque, solid;
  std::vector<nb::object> kinds;
  std::vector<std::vector<nb::object>> catalogue;
};

// Write what changed into ``mirror`` (a cwenv.engine.state.Combat).
void SyncMirror(const NativeCombat& c, MirrorState& m, nb::handle mirror);
// Read the whole of ``mirror`` back into the core (Unported for a state it cannot hold);
// whether anything differed from the core's.
bool ReimportMirror(NativeCombat& c, MirrorState& m, nb::handle mirror);

}  // namespace cwenv::kampf
