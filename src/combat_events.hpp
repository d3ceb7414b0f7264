// The events the native combat emits (combat.hpp), by value: the twins of the frozen
// events of cwenv/engine/events.py. They carry ids, never German text: cwenv/engine/native/
// events.py turns each into its Python event (names, labels and causes from the game) at
// the boundary, so the narration stays in Python.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "attack_plan.hpp"

namespace cwenv::kampf {

// cwenv.model.types.MummSpend values.
enum class Spend : std::uint8_t {
  kPatzerAbwenden = 1, kProbeVerbessern = 2, kProbeWiederholen = 3, kTodAbwenden = 4,
  kZusaetzlicheReaktion = 5, kTrefferWegstecken = 6, kZusaetzlicheAktion = 7,
  kZustandAbschuetteln = 8, kGrosserWurf = 9,
};

// What a check is for (payloads.py CheckPurpose), as far as the native frames roll one.
enum class Purpose : std::uint8_t {
  kAttack = 0, kDefence = 1, kDying = 2, kBenommen = 3, kShake = 4, kZehrend = 5,
  kCatchFall = 6, kMove = 7, kAmbush = 8, kStabilise = 9, kHelp = 10, kFreeWeapon = 11,
  kRucksack = 12,
};

// Why LP go or a fighter dies (LPChanged.cause, StatusChanged.cause): a weapon's name, or
// one of the fixed texts of damage.py, roundflow.py and effects.py.
enum class CauseKind : std::uint8_t {
  kNone = 0, kWeapon, kDying, kDyingPatzer, kMuskelriss, kUeberdehnt, kAvertedDeath,
  kZehrendAgain, kZehrendTick, kSturz, kHeilung, kFirstAidFailed, kHack,
};
struct Cause {
  CauseKind kind = CauseKind::kNone;
  int fighter = -1, index = -1;  // kWeapon, kHack: whose and which; kZehrendTick: the kind
};

// events.ReactionKind, events.Status and events.TableKind values.
enum class Reaction : std::uint8_t { kDefence = 0, kDropProne = 1, kBlockade = 2, kCatchFall = 3 };
enum class Status : std::uint8_t {
  kDead = 0, kKampfunfaehig = 1, kUnconscious = 2, kNonLethal = 3, kAwake = 4, kStabilised = 5,
  kEscaped = 6, kSurprised = 7,
};
enum class Table : std::uint8_t { kVolltreffer = 0, kPatzer = 1 };
// ConditionLost's causes: a Handlung, M08 and M04's "Mumm", D08's self-stabilising.
enum class LostBy : std::uint8_t {
  kMumm = 0, kSelfStabilised = 1, kStandsUp = 2, kProbe = 3, kStimulans = 4, kStabilisedBy = 5,
};
// Why a Zehrend ends (ZehrendLost): out of its danger zone (D03), its check (Z08), M08.
enum class ZehrendEnd : std::uint8_t { kZoneLeft = 0, kCheck = 1, kMumm = 2 };
// How a Moved event moves (its ``how``) or why a ForcedMove: walking, sprinting, a
// Fehltritt (A08), K05's push, K03's drag by the attacker and of the target, a difficult
// step of each kind (H07), a failed jump's fall into the gap, a climber letting go.
enum class How : std::uint8_t {
  kGeht = 0, kSprintet = 1, kFehltritt = 2, kWegstossen = 3, kZerrt = 4, kMitzerren = 5,
  kKlettert = 6, kSchwimmt = 7, kSpringt = 8, kSpringtHinab = 9, kIntoTheGap = 10,
  kLetsGo = 11,
};
// DamageRolled.factor (damage.py resistance_factor, D04).
enum class Factor : std::uint8_t { kNone = 0, kResistent, kVerwundbar, kImmun };
// events.Act values of the Handlungen the native turn carries out.
enum class ActKind : std::uint8_t {
  kSprint = 0, kAim = 1, kUpload = 2, kOpenDoor = 3, kCloseDoor = 4, kDraw = 5, kPickUp = 6,
  kUseItem = 7, kReload = 8, kCyberware = 9, kAnnounceHelp = 10, kHelp = 11, kFreeWeapon = 12,
  kFromBackpack = 13, kLoseItem = 14, kJammed = 15, kLoseWeapon = 16, kDisarmed = 17,
  kFailed = 18,
};

struct RoundStarted { int round; };
struct InitiativeRolled {
  int fighter, grundwert;
  std::vector<int> dice;
  int initiative, reactions, actions;
  std::vector<int> steps;
};
struct TurnStarted { int fighter, step; bool passes; };
struct TurnEnded { int fighter; };
struct Moved {
  int fighter;
  std::vector<int> path;  // cells
  int metres;
  How how;
};
struct ForcedMove { int fighter; std::vector<int> path; How cause; };
struct Fell { int fighter, metres, dice; };
struct ClimbedPart { int fighter, ledge, climbed, height; bool down; };
struct RoundEnded { int round; };
struct CheckRolled {
  int fighter;
  Purpose purpose;
  int attacker, target, mode, index;  // kAttack: the attack, for "<means> gegen <target>"
  Parts parts;
  int own;  // the roller's own parts; kHelp: the rest are the helped ally's (X59)
  int probenwert, d1, d2;
  bool success;
  int qs;
  bool volltreffer, patzer, forced;
};
struct MummSpent { int fighter; Spend spend; int cost, left; };
struct ResultKept { int fighter, total; bool second; };
struct ReactionUsed { int fighter; Reaction kind; int left; bool extra; };
struct AttackDeclared { int attacker, target, mode, index; };
struct AttackFailed { int attacker, target; bool full_cover; };  // else "verfehlt"
struct AttackRedirected { int attacker, original, new_target, d10; };
struct DefenceDeclined { int defender; };
struct AttackDefended { int attacker, defender, attack_roll, defence_roll; };
struct Hit { int attacker, target, qs; bool weakened; int aim_bonus; };
struct TableRolled { int fighter; Table table; int d1, d2, minus, row; };  // row: the enum's
struct DamageRolled {
  int target;
  std::vector<int> rolls;
  int bonus, armour, mode, subtotal;  // mode: ArmourMode's position
  Factor factor;
  int total, bare, direct, flat;
};
struct DamageHalved { int fighter, before, after; };
struct LPChanged { int fighter, before, after; Cause cause; };
struct ConditionGained { int fighter, condition, instead_of; };  // instead_of -1: none
struct SterbendAgain { int fighter, d10; };  // Z06's ConditionGained("1W10 direkter ...")
struct ConditionLost { int fighter, condition; LostBy cause; int by = -1; };  // by: a medic
struct ZehrendGained { int fighter, kind; bool again; };  // Z08: again deals 1W10 at once
struct ZehrendLost { int fighter, kind; ZehrendEnd cause; };
struct StatusChanged { int fighter; Status status; Cause cause; };
// what: the item (its place in the fighter's catalogue, strike.py), else -1
struct Acted { int fighter; ActKind act; int target = -1, index = -1, value = 0, what = -1; };
struct CombatEnded {
  int winner;  // a Side, -1 for a draw
  int reason;  // CombatReason
  int rounds;
  int about;   // kSurvived: the rounds; kVipFallen: the VIP
};
using Event =
    std::variant<RoundStarted, InitiativeRolled, TurnStarted, TurnEnded, Moved, RoundEnded,
                 CombatEnded, CheckRolled, MummSpent, ResultKept, ReactionUsed, AttackDeclared,
                 AttackFailed, AttackRedirected, DefenceDeclined, AttackDefended, Hit,
                 TableRolled, DamageRolled, DamageHalved, LPChanged, ConditionGained,
                 SterbendAgain, ConditionLost, StatusChanged, Acted, ZehrendGained,
                 ZehrendLost, ForcedMove, Fell, ClimbedPart>;

// A log appended to and read in order (the events, the choices made); a copy (a clone)
// shares what was written before it, so cloning a long fight copies none of it (the log
// is copy-on-write by chunk).
template <typename T>
class SharedLog {
 public:
  SharedLog() = default;
  SharedLog(const SharedLog& other)
      : chunks_((other.Freeze(), other.chunks_)), frozen_(other.frozen_) {}
  SharedLog(SharedLog&&) = default;
  SharedLog& operator=(const SharedLog& other) {
    other.Freeze();
    chunks_ = other.chunks_, frozen_ = other.frozen_, tail_.clear();
    return *this;
  }
  SharedLog& operator=(SharedLog&&) = default;

  template <typename E>
  void push_back(E&& e) { tail_.emplace_back(std::forward<E>(e)); }
  std::size_t size() const { return frozen_ + tail_.size(); }
  // Each entry from ``start`` on, in order.
  template <typename F>
  void From(std::size_t start, F&& f) const {
    std::size_t at = 0;
    for (const auto& chunk : chunks_) {
      const std::size_t n = chunk->size();
      for (std::size_t i = start > at ? start - at : 0; i < n; ++i) f((*chunk)[i]);
      at += n;
    }
    for (std::size_t i = start > at ? start - at : 0; i < tail_.size(); ++i) f(tail_[i]);
  }

 private:
  void Freeze() const {  // the tail becomes a shared chunk
    if (tail_.empty()) return;
    frozen_ += tail_.size();
    chunks_.push_back(std::make_shared<const std::vector<T>>(std::move(tail_)));
    tail_.clear();
  }
  mutable std::vector<std::shared_ptr<const std::vector<T>>> chunks_;
  mutable std::vector<T> tail_;
  mutable std::size_t frozen_ = 0;
};
using EventLog = SharedLog<Event>;

// One choice made (state.py history: an Action's fields), kept in the choices' log.
struct Choice { int kind, actor, target, cell, arg, mumm; };

// What Combat.count counts (state.py counters: "turns", "action:MOVE", ...), by key and
// its detail (an ActionKind, AttackMode, Side, Condition (-1: Zehrend), MummSpend,
// ReactionKind, FumbleRow or StepKind); cwenv/engine/native/events.py names them.
enum class Tally : std::uint8_t {
  kTurns, kAction, kAttack, kZielenUsed, kPatzer, kVolltreffer, kDefended, kHits,
  kDamageDealt, kDead, kDown, kCondition, kMumm, kReaction, kPatzerRow, kMove, kActionbonus,
};
struct Counter { Tally tally; int detail; long long n; };

// victory.py's verdicts and state.py's decision cap (CombatEnded, Outcome).
enum class CombatReason : std::uint8_t {
  kRoundLimit, kDecisionCap, kSurvived, kBothOut, kRunnersOut, kGegnerOut, kVipFallen, kExit,
};

}  // namespace cwenv::kampf
