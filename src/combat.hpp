// The Kampfrunde's frames in C++ (issue #16; docs/native.md "The native combat"): a combat
// that runs the rules itself from its own state, dice and frame stack, the native twin of
// cwenv/engine/state.py Combat and the frames of cwenv/engine/roundflow.py, turn.py and
// movement.py, which stay the readable reference.
//
// Ported so far: the round flow (initiative by steps or passes, I01-I04, I10-I13; the tie
// orders and the side's choice of who acts, X16; reactions, R01, X01), the turn (H00:
// END_TURN and movement legs, B01; the legal list is legality.cpp's), movement up to a
// guard who would be asked for a Blockadeangriff (R04, prompts.cpp's choices), the end of the round without Zehrend or the dying
// (cleanup, X03), and the victory checks at the round's end (SURVIVE, the round limit)
// and the decision cap. Whatever else the rules reach raises Unported naming the rule,
// before anything of it is applied: the caller (cwenv/native/combat.py) knows the native
// combat has stopped there. tests/test_native_combat.py plays it in lockstep with the
// reference and compares every legal list, event and outcome.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "kampf.hpp"
#include "paths.hpp"
#include "prompts.hpp"
#include "stream.hpp"

namespace cwenv::kampf {

// A rule the native frames do not run yet; nothing of it has been applied.
class Unported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An action that is not among the legal ones (state.py IllegalActionError).
class Illegal : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// cwenv.engine.actions.DecisionKind values the native frames pose so far.
enum class Asked : std::uint8_t { kTurn = 0, kOrder = 1 };
inline constexpr int kChooseActor = 24;  // ActionKind.CHOOSE_ACTOR

// The events the native frames emit so far (cwenv/engine/events.py), by value.
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
  bool sprint;  // "sprintet", else "geht"
};
struct RoundEnded { int round; };
struct CombatEnded {
  int winner;  // a Side, -1 for a draw
  int reason;  // CombatReason
  int rounds;
  int survived;  // SURVIVE's rounds, for its reason text
};
using Event =
    std::variant<RoundStarted, InitiativeRolled, TurnStarted, TurnEnded, Moved, RoundEnded,
                 CombatEnded>;
enum class CombatReason : std::uint8_t { kRoundLimit, kDecisionCap, kSurvived };

// What the native combat reads of the game beyond GameDesc (cwenv/native/combat.py).
struct FighterSetup {
  int grundwert;  // FighterState.grundwert (I01)
  int reflexe;    // spec.skill(REFLEXE) (I11, I13, R01)
  int initiative_bonus;  // spec.initiative_bonus_total (X36)
};
struct Survive { int side, rounds; };  // a SURVIVE victory condition
struct CombatRules {
  bool passes;            // options.initiative is PASSES (I10-I13)
  int tie_order;          // 0 fixed, 1 random, 2 side_chooses (X16)
  int reactions_basis;    // 0 rolled initiative, 1 Grundwert, 2 Reflexe (X01)
  bool passes_count_initiative_bonus;  // X36
  bool prone_bonus_to_own_turn;        // X23 niederwerfen_penalty_until
  bool zielen_lost_on_move, zielen_lost_at_round_end;  // X03
  int geometry;           // X43 blockade_geometry as paths.py numbers it
  int round_limit;        // -1: none
  int decision_cap;
  std::vector<Survive> survive;
  bool exits_matter;      // some victory condition reads the exits (REACH_EXIT)
  std::vector<std::uint8_t> exits;  // per cell: an exit (BattleMap.exits)
  bool ambush;            // X45: a side is ambushed and surprise is on
};

// One fighter's step tables (turn.py move_search): free and eingeschränkt.
struct FighterMoves {
  const Moves* free;
  int free_slow;
  const Moves* limited;
  int limited_slow;
};

// The frames (frames.py), one struct per frame class, with the same stages.
struct CombatF { int stage = 0; };
struct RoundF { int stage = 0; };
struct EndRoundF { int stage = 0; };
struct TurnF {
  int stage = 0, fighter = 0, slot = 0;
  int handlungen = 1, grants = 1, sprint_bonus = 0, moved = 0, parity = 0;
  bool benommen = false;
  std::optional<Routes> routes;  // the current TURN decision's movement search
  std::vector<Act> legal;
};
struct MoveF {
  int fighter = 0;
  std::vector<int> path, spent, done;
  bool sprint = false;
  int i = 0, start = -1;
};
using Frame = std::variant<CombatF, RoundF, EndRoundF, TurnF, MoveF>;

struct Outcome { int winner, reason, rounds, survived; };

class NativeCombat {
 public:
  NativeCombat(const GameDesc& g, const Lines& lines, const PromptRules& prompts, State start,
               std::vector<FighterSetup> setup, std::vector<FighterMoves> moves,
               CombatRules rules, Pcg32 dice);

  // The one legality function: every legal choice of the current decider.
  const std::vector<Act>& Legal() const { return legal_; }
  std::optional<Asked> decision() const { return asked_; }
  int decider() const { return decider_; }
  int slot() const { return slot_; }  // TURN: the step or pass; ORDER: the step
  // Validate, then run the rules to the next decision (Illegal, Unported).
  void Apply(const Act& a);

  const std::vector<Event>& events() const { return events_; }
  const std::optional<Outcome>& outcome() const { return outcome_; }
  const State& state() const { return s_; }
  int round() const { return round_; }
  long long history() const { return history_; }
  long long forced() const { return forced_; }
  const Pcg32& dice() const { return dice_; }

 private:
  // Each returns what frames.py's step does: a decision posed (true), or the frame done
  // (Return) or another pushed, as the driver (Run) reads from the stack.
  enum class Result : std::uint8_t { kDecision, kPushed, kDone };
  struct Value {
    bool set = false;
    Act act{};
  };
  void Run(Value v);
  Result Step(CombatF& f, Value v);
  Result Step(RoundF& f, Value v);
  Result Step(EndRoundF& f, Value v);
  Result Step(TurnF& f, Value v);
  Result Step(MoveF& f, Value v);
  void StartRound();
  Result NextTurn();
  Result Turn(int fighter);
  Result Do(TurnF& t, const Act& a);
  Result EndTurn(int fighter);
  bool TakeForced();
  void Finish(int winner, CombatReason reason, int survived = 0);
  void Pose(Asked kind, int fighter, int slot);
  void MoveFighter(int fi, int cell);
  Result Finish(MoveF& m);

  const GameDesc& g_;
  const Lines& lines_;
  const PromptRules& prompts_;
  State s_;
  std::vector<FighterSetup> setup_;
  std::vector<FighterMoves> moves_;
  CombatRules rules_;
  Pcg32 dice_;
  // FighterState fields the legality's Fighter does not hold
  std::vector<int> initiative_, actions_, reactions_;
  std::vector<std::pair<int, int>> queue_;  // (step or pass, fighter) still to act
  std::vector<Frame> stack_;
  std::optional<Frame> push_;  // what a Step pushes (after it returns: the stack may move)
  std::vector<Event> events_;
  std::optional<Outcome> outcome_;
  std::optional<Asked> asked_;
  int decider_ = -1, slot_ = 0;
  std::vector<Act> legal_;
  std::vector<PromptAct> asked_acts_;  // a guard's Blockadeangriffe (R04)
  int round_ = 0, turn_fighter_ = -1;
  long long history_ = 0, forced_ = 0;
  MoveInputs scratch_;
  TurnAnswer answer_;
};

}  // namespace cwenv::kampf
