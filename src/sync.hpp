// The Kampfrunde state kept across decisions (docs/native.md "The state kept in C++"):
// a _core.Kampf imports a combat whole once, then brings its State up to date from the
// frozen events each Python ``apply`` appended (cwenv/engine/events.py), one table entry
// per event kind (sync.cpp Apply), instead of importing every fighter before every call.
//
// What the events do not carry is named, not guessed: an event whose effect on the state
// is not in its fields (Acted's Handlungen, a StatusChanged's side effects, an attack's
// ammunition, a fall, a climb) marks the fighters it names for a re-read; a position
// changes mid-move before its Moved event (a Blockadeangriff prompt on the way), so the
// positions and the occupants are polled on every sync; an event kind not in the table,
// another combat, a rewritten event log or a direct edit (Combat.refresh_legal drops the
// combat's token) imports the whole state again, and is counted.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "kampf.hpp"
#include "py_read.hpp"

namespace cwenv::kampf {

namespace nb = nanobind;

// What the sync reads back from the Python Combat (bind_kampf.cpp Kampf implements it).
class StateSource {
 public:
  virtual bool ImportAll(nb::handle combat) = 0;  // fighters, occupants, doors
  virtual bool ImportFighter(nb::handle fighter, std::size_t i) = 0;
  virtual bool ImportOccupant(nb::handle combat) = 0;
  virtual bool ImportDoors(nb::handle combat) = 0;  // opaque and solid
  virtual void Swapped() = 0;  // the state is another combat's now

 protected:
  ~StateSource() = default;
};

// The event kinds the table knows, in the order cwenv/engine/sync_core.py SYNC_EVENTS
// hands their classes over.
enum class EventKind : std::uint8_t {
  kRoundStarted, kInitiativeRolled, kTurnStarted, kTurnEnded, kMoved, kCheckRolled,
  kMummSpent, kResultKept, kReactionUsed, kAttackDeclared, kAttackFailed, kAttackRedirected,
  kDefenceDeclined, kAttackDefended, kHit, kTableRolled, kDamageRolled, kDamageHalved,
  kLPChanged, kConditionGained, kConditionLost, kStatusChanged, kActed, kForcedMove,
  kClimbedPart, kFell, kRoundEnded, kCombatEnded, kCount,
};

// What an Acted event records (cwenv.engine.events.Act, in its order; Configure refuses
// another order): each is applied from the event's index and value (sync.cpp ApplyActed).
enum class ActKind : std::uint8_t {
  kSprint, kAim, kUpload, kOpenDoor, kCloseDoor, kDraw, kPickUp, kUseItem, kReload,
  kCyberware, kAnnounceHelp, kHelp, kFreeWeapon, kFromBackpack, kLoseItem, kJammed,
  kLoseWeapon, kDisarmed, kFailed, kCount,
};
inline constexpr const char* kActNames[] = {
    "SPRINT", "AIM", "UPLOAD", "OPEN_DOOR", "CLOSE_DOOR", "DRAW", "PICK_UP", "USE_ITEM",
    "RELOAD", "CYBERWARE", "ANNOUNCE_HELP", "HELP", "FREE_WEAPON", "FROM_BACKPACK",
    "LOSE_ITEM", "JAMMED", "LOSE_WEAPON", "DISARMED", "FAILED"};
static_assert(std::size(kActNames) == static_cast<std::size_t>(ActKind::kCount));

// A StatusChanged's status (cwenv.engine.events.Status, in its order; Configure refuses
// another order): applied from the event (sync.cpp).
enum class StatusKind : std::uint8_t {
  kDead, kKampfunfaehig, kUnconscious, kUnconsciousNonLethal, kAwake, kStabilised,
  kEscaped, kSurprised, kCount,
};
inline constexpr const char* kStatusNames[] = {
    "DEAD", "KAMPFUNFAEHIG", "UNCONSCIOUS", "UNCONSCIOUS_NON_LETHAL", "AWAKE", "STABILISED",
    "ESCAPED", "SURPRISED"};
static_assert(std::size(kStatusNames) == static_cast<std::size_t>(StatusKind::kCount));

// The data the table reads beyond the event (sync_core.py sync_tables).
struct SyncRules {
  bool zielen_lost_on_move = false;      // X03
  bool zielen_lost_on_hit = false;       // X03
  bool zielen_lost_at_round_end = false;  // X03
  std::uint32_t lets_go = 0;  // conditions whose on_gain only lets a climber go (B03, X40)
  std::uint32_t reread_on_gain = 0;  // conditions whose on_gain does more: re-read
  bool kampfunfaehig_prone = false;  // X44: the kampfunfähig fall prone
  bool prone_bonus_to_own_turn = false;  // X23 niederwerfen_penalty_until (R06)
};

// Why a sync imported everything (the counts the benchmarks and tests read).
struct SyncCounts {
  long long syncs = 0, events = 0, rereads = 0, full = 0, unknown = 0, swaps = 0;
};

class EventSync;

// An event's field: sync_detail's readers (py_read.hpp).

// One combat's kept state, held by the combat as its ``_core_token`` (a _core.KampfState):
// a Kampf serves several combats of its game in turn (a vector env, two fights played
// alternately) by swapping states instead of importing. clone() gives the clone a copy of
// its original's (EventSync::CloneHeld), no two combats share one.
struct Held {
  const EventSync* owner = nullptr;
  long long generation = 0;  // EventSync::Forget makes every held state stale
  State state;  // the combat's state while another combat's is the Kampf's
  std::size_t consumed = 0;  // events applied
  nb::object last;  // the last event applied
  std::uint64_t attacking = 0;  // declared an attack whose roll has not come yet
};

class EventSync {
 public:
  // The event classes in EventKind order, a condition label -> Condition dict, the rules,
  // MummSpend.ZUSAETZLICHE_AKTION (M07 sets extra_action_used) and the names of the Act
  // and Status members in their order (std::invalid_argument when they are not kActNames
  // and kStatusNames).
  void Configure(const nb::list& classes, nb::dict labels, const SyncRules& rules,
                 nb::object extra_action_spend, const std::vector<std::string>& acts,
                 const std::vector<std::string>& statuses);
  bool configured() const { return configured_; }

  // Brings ``s`` up to ``combat``'s state; false when the combat is not the game's.
  // An exception part-way leaves the held state stale (Abandon): its events are not all
  // applied, and some are not idempotent (a round of ammunition, a Mumm spend), so the next
  // call imports whole instead of applying them again.
  bool Sync(nb::handle combat, StateSource& src, const GameDesc& g, State& s) {
    try {
      return SyncOnce(combat, src, g, s);
    } catch (...) {
      Abandon();
      throw;
    }
  }
  // A copy of the kept state ``token`` holds, for a clone of its combat (Combat.clone,
  // cwenv/engine/clone_core.py), so the clone need not import whole: the Kampf's ``live``
  // state when the token is the current combat's (its Held::state is stale then), the held
  // one otherwise, and the events applied and the last one as they are (the clone's event
  // list holds the same event objects, so its next sync applies what the original's
  // would). None, the clone importing on first use, where the token is not one this sync
  // keeps: another Kampf's, or stale (Forget) or abandoned (an exception part-way).
  nb::object CloneHeld(nb::handle token, const State& live) const;
  // Every held state stale (a fresh generation, unique across Kampfs).
  void Forget() {
    static long long generations = 0;
    cur_ = nullptr, cur_obj_ = nb::object(), generation_ = ++generations;
  }

  SyncCounts counts;
  std::string last_unknown;  // the class of the last event the table did not know

 private:
  bool Apply(nb::handle e, EventKind kind, const GameDesc& g, State& s);
  bool ApplyActed(nb::handle e, const GameDesc& g, State& s);
  // The current combat's held state no longer its state (a failed re-read).
  bool SyncOnce(nb::handle combat, StateSource& src, const GameDesc& g, State& s);
  bool Abandon() {
    if (cur_) cur_->generation = -1;
    cur_ = nullptr, cur_obj_ = nb::object();
    return false;
  }
  void Dirty(long long fighter, const State& s);
  static void LetGo(Fighter& f) { f.climb_cell = -1, f.climb_height = 0; }

  bool configured_ = false;
  std::vector<PyObject*> classes_;  // borrowed from classes_owner_
  nb::list classes_owner_;
  nb::dict labels_;
  nb::object extra_action_;
  SyncRules rules_;
  Held* cur_ = nullptr;  // the combat whose state the Kampf holds now
  nb::object cur_obj_;  // its _core_token
  long long generation_ = 0;
  std::uint64_t dirty_ = 0;
  bool occupant_dirty_ = false, doors_dirty_ = false;
};

// The first field in which two states differ ("fighter 2 lp: 7 != 9"), "" when none
// (the equality gate, tests/test_native_state_sync.py).
std::string FirstDifference(const GameDesc& g, const State& a, const State& b);

// The equality gate (tests/test_native_state_sync.py): ``s``, brought up to date from the
// events (``kept``: Import succeeded), against a fresh import of the whole combat, which
// ``s`` keeps: the first differing field ("" when none), None when the combat is not the
// game's.
nb::object CheckKept(nb::handle combat, bool kept, StateSource& src, const GameDesc& g, State& s);

// The cells of ``s`` that have an occupant (what ReadOccupant clears first).
void FilledOf(const State& s, std::vector<int>& filled);

// The Combat's occupant dict into ``s`` (``filled``: the cells given an occupant, cleared
// first instead of every cell), and a per-cell bytearray (opacity, solidity); false when
// they are not the game's.
bool ReadOccupant(nb::handle occupant, std::size_t cells, std::size_t fighters, State& s,
                  std::vector<int>& filled);
bool ReadCells(nb::handle buffer, std::vector<std::uint8_t>& out, std::size_t size);

// The sync's Python face on _core.Kampf (bind_kampf.cpp): K has ``sync``, ``sync_on`` and
// ``SyncCheck``.
template <typename K>
void BindSync(nb::module_& m, nb::class_<K>& kampf) {
  using Rules = std::tuple<bool, bool, bool, std::uint32_t, std::uint32_t, bool, bool>;
  auto names_of = [](const auto& table) {
    nb::list names;
    for (const char* name : table) names.append(name);
    return nb::tuple(names);
  };
  m.attr("ACT_NAMES") = names_of(kActNames);
  m.attr("STATUS_NAMES") = names_of(kStatusNames);
  nb::class_<Held>(m, "KampfState",
                   "One combat's native state kept across decisions (src/sync.hpp Held), "
                   "the combat's _core_token.")
      .def(nb::init<>());
  kampf
      .def(
          "sync_tables",
          [](K& k, const nb::list& classes, nb::dict labels, const Rules& r,
             nb::object extra_action, const std::vector<std::string>& acts,
             const std::vector<std::string>& statuses) {
            const auto& [on_move, on_hit, at_round_end, lets_go, reread, prone, own_turn] = r;
            k.sync.Configure(classes, std::move(labels),
                             {on_move, on_hit, at_round_end, lets_go, reread, prone, own_turn},
                             std::move(extra_action), acts, statuses);
          },
          nb::arg("classes"), nb::arg("labels"), nb::arg("rules"), nb::arg("extra_action"),
          nb::arg("acts"), nb::arg("statuses"),
          "Keep the state across calls, brought up to date from the events (src/sync.hpp): "
          "the event classes in its order, condition labels, rules, M07's MummSpend, the "
          "Act and Status member names in order (ACT_NAMES, STATUS_NAMES).")
      .def("sync_check", &K::SyncCheck, nb::arg("combat"),
           "The first field where the event-kept state differs from a fresh import, '' "
           "when none; None when the combat is not this game's.")
      .def(
          "clone_state",
          [](const K& k, nb::handle token) { return k.sync.CloneHeld(token, *k.view().s); },
          nb::arg("token"),
          "A copy of a combat's _core_token for its clone (src/sync.hpp CloneHeld); None "
          "when the token is not this Kampf's kept state now (the clone imports whole).")
      .def_prop_rw(
          "sync_on", [](const K& k) { return k.sync_on; },
          [](K& k, bool on) { k.sync_on = on, k.sync.Forget(); },
          "Whether the state is kept across calls (False: imported whole every call).")
      .def_prop_ro(
          "sync_counts",
          [](const K& k) {
            const SyncCounts& c = k.sync.counts;
            return nb::make_tuple(c.syncs, c.events, c.rereads, c.full, c.unknown,
                                  k.sync.last_unknown, c.swaps);
          },
          "(syncs, events applied, fighters re-read, whole imports, unknown events, the "
          "last unknown event class, swaps to another combat's kept state).");
}

}  // namespace cwenv::kampf
