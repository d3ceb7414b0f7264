// The Kampfrunde's frames in C++ (issue #16; docs/native.md "The native combat"): a combat
// that runs the rules itself from its own state, dice and frame stack, the native twin of
// cwenv/engine/state.py Combat and the frames of cwenv/engine/roundflow.py, turn.py and
// movement.py, which stay the readable reference.
//
// Ported so far (docs/native.md "The native combat"): the round flow (I01-I04, I10-I13,
// X16, R01, X01), the turn (H00; END_TURN, movement, M07, M08, ATTACK, ZIELEN, AUFSTEHEN,
// drawing), movement with its Blockadeangriffe (B01, R04), the Probe with its Mumm prompts
// (combat_check.cpp), weapon attacks and Blockadeangriffe (combat_attack.cpp), damage,
// conditions, dying and death (combat_damage.cpp), the victory checks after a change and
// at the round's end, and the decision cap. Whatever else the rules reach raises Unported
// naming the rule, before anything of it is applied: the caller (cwenv/engine/native/combat.py)
// knows the native combat has stopped there. tests/test_native_combat.py plays it in
// lockstep with the reference and compares every legal list, event and outcome.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "attack_plan.hpp"
#include "combat_events.hpp"
#include "combat_rules.hpp"
#include "kampf.hpp"
#include "paths.hpp"
#include "probe.hpp"
#include "prompts.hpp"
#include "rollout.hpp"
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
enum class Asked : std::uint8_t {
  kTurn = 0, kOrder = 1, kPreCheck = 2, kPostCheck = 3, kKeep = 4, kDefend = 5,
  kNiederwerfen = 6, kBlockade = 7, kSturz = 8, kDamage = 9, kDeath = 10, kDrag = 11,
};
inline constexpr int kChooseActor = 24;  // ActionKind.CHOOSE_ACTOR

// One fighter's step tables (turn.py move_search): free and eingeschränkt.
struct FighterMoves {
  const Moves* free;
  int free_slow;
  const Moves* limited;
  int limited_slow;
};

// The frames (frames.py), one struct per frame class, with the same stages.
struct CombatF { int stage = 0; };
struct RoundF {
  int stage = 0;
  std::vector<int> ambush;     // X45: who rolls Reflexe in round 1
  int si = 0;
  std::uint64_t surprised = 0;  // who lost the round to the ambush, a bit set
};
// handlungen.py CheckedHandlung: a Handlung decided by a check, then its outcome.
struct CheckedF { int stage = 0, fighter = 0; Act act{}; };
struct EndRoundF {  // roundflow.py EndOfRoundFrame: Zehrend and dying in its order (X31)
  int stage = 0, pos = 0, phase = 0;
  std::vector<int> order;
  std::uint64_t done = 0;  // the fighter's Zehrend kinds dealt with this round, a bit set
  int current = -1;        // the kind whose damage was dealt, whose check comes next
};
struct Hold { int fighter, ledge, climbed, start; };  // climbing.py Hold (B03, X40)
struct TurnF {
  int stage = 0, fighter = 0, slot = 0;
  int handlungen = 1, grants = 1, sprint_bonus = 0, moved = 0, parity = 0;
  bool benommen = false;
  // the current TURN decision's searches (H07): shared, a clone copies no search tables
  std::shared_ptr<const Routes> routes, hard;
  std::vector<Act> legal;
  std::vector<Hold> holds;  // the climbers at a wall at the last look
};
struct MoveF {
  int stage = 0;  // movement.py MoveStage: walking, a guard answered, back from its attack
  int reactor = -1;
  std::uint64_t asked = 0;  // the guards asked in this move (R04), a bit set
  int fighter = 0;
  std::vector<int> path, spent, done;  // spent: the metres spent reaching each cell
  How how = How::kGeht;
  bool provoke = true;  // forced movement provokes Blockadeangriffe only under X43
  int i = 0, start = -1;
};
// falls.py ForcedMoveFrame and FallFrame (A08, B05, B06, R05, X18).
struct ForcedMoveF {
  int stage = 0, fighter = 0;
  std::vector<int> path;
  How cause = How::kFehltritt;
  bool provoke = false;
  int start_elev = 0;
};
struct FallF {
  int stage = 0, fighter = 0, metres = 0;
  bool outside_turn = false;
  int reduce = 0;
  bool checked = false;  // a deliberate drop whose Schwierige Bewegung was the roll
};
// climbing.py ClimbStep and ClimbFrame (B03, X40, X62), falls.py SchwierigFrame (H07).
struct ClimbStep { int ledge, metres, gained, height, done; bool down; };
struct ClimbF { int stage = 0, fighter = 0; ClimbStep plan{}; };
struct SchwierigF {
  int stage = 0, fighter = 0;
  Route route;
  Probe result;
};
// effects.py DragFrame (K03 Mitzerren): the attacker moves, the target follows.
struct DragF {
  int stage = 0, attacker = 0, target = 0, mover = -1;  // mover: the step a guard was asked about
  std::vector<int> path, spent, a_done, t_done;
  int i = 0, reactor = -1;
  std::uint64_t asked = 0;
};
// hits.py ZehrendLater (Z08): a Zehrend starts after the hit's damage.
struct ZehrendF { int stage = 0, fighter = 0, kind = 0; };
// checks.py CheckFrame: before the roll, the roll, after it, which of two stands (M03).
struct CheckF {
  int stage = 0, fighter = 0, own = 0;
  Purpose purpose = Purpose::kAttack;
  int attacker = -1, target = -1, mode = -1, index = -1;  // the attack it is about
  bool about_attack = false;  // payloads.py CheckInfo.attack: an AttackRef, with ...
  bool about_roll = false;    // ... the attack roll (a defence's), and Zielen's QS
  Probe about;
  int aim_qs = 0;
  Parts parts;
  int improved = 0, rerolls = 0;
  int helped = 0;  // helping.py: 0 unasked, 1 its helpers rolling, 2 helped
  Probe result, first;
};
// helping.py HelpersFrame (P08): each helper's check, the best QS back.
struct HelpersF {
  int ally = 0, skill = 0, next = 0, best = 0;
  std::vector<int> helpers;
  Parts modifiers;
};
// attack.py AttackFrame, its stages numbered as AttackStage.
struct AttackF {
  int stage = 0, attacker = 0, target = 0, index = 0;
  Mode mode = Mode::kWeapon;
  std::vector<int> targets;
  int ti = 0;
  Probe attack;
  CoverAnswer cover{};
  int no_cover_pw = 0, aim_qs = 0;
};
// damage.py DamageFrame and LoseLPFrame.
struct DamageF {
  int stage = 0, target = 0, source = -1, dice = 0, bonus = 0, mode = 0;
  std::uint64_t forms = 0;
  bool non_lethal = false, ongoing = false;  // ongoing: a Zehrend's tick (D08)
  Cause cause;
  int bare = 0, direct_tail = 0, flat = 0, total = 0;
};
struct LoseLPF {
  int stage = 0, fighter = 0, amount = 0;
  Cause cause;
  bool damage = true, non_lethal = false, die = false, ongoing = false;
};
// damage.py SequenceFrame as hits.py and effects.py fill it: its frames, in turn.
struct SeqF {
  std::vector<std::variant<DamageF, ZehrendF, ForcedMoveF, DragF>> frames;
  int i = 0;
};
using Frame = std::variant<CombatF, RoundF, EndRoundF, TurnF, MoveF, CheckF, AttackF, DamageF,
                           LoseLPF, SeqF, ZehrendF, ForcedMoveF, FallF, CheckedF, HelpersF,
                           DragF, ClimbF, SchwierigF>;

struct Outcome { int winner, reason, rounds, about; };  // about: CombatEnded's

// climb.cpp: turn.py TurnFrame.move_left (B01, H05, M07); whether ``routes`` reach
// ``cell``; climbing.py climb_step (B03, X40, X62): what SCHWIERIG to ``ledge`` climbs now
// when it is a partial climb.
int MoveLeft(const GameDesc& g, const State& s, const TurnF& t);
bool Reaches(const Routes& routes, int cell);
std::optional<ClimbStep> ClimbStepOf(const GameDesc& g, const State& s, const FighterMoves& m,
                                     int fi, int ledge, int move_left, const Routes& hard);

class NativeCombat {
  friend struct MirrorAccess;  // bind_mirror.cpp: the Python mirror reads and writes the state

 public:
  NativeCombat(const GameDesc& g, const Lines& lines, const PromptRules& prompts, State start,
               std::vector<FighterSetup> setup, std::vector<FighterMoves> moves,
               CombatRules rules, StrikeRules strike, Pcg32 dice);

  // The one legality function: every legal choice of the current decider. A TURN or
  // ORDER decision's are Acts (Legal), a prompt's PromptActs (Prompted: the M08 shakes,
  // then the frame's choices, as state.py _compute_legal lists them).
  bool prompt() const { return asked_ && *asked_ != Asked::kTurn && *asked_ != Asked::kOrder; }
  const std::vector<Act>& Legal() const { return legal_; }
  const std::vector<PromptAct>& Prompted() const { return plegal_; }
  std::optional<Asked> decision() const { return asked_; }
  int decider() const { return decider_; }
  int width() const { return g_.width; }  // the map's, for policies measuring distances
  int slot() const { return slot_; }  // TURN: the step or pass; ORDER: the step
  // Validate, then run the rules to the next decision (Illegal, Unported).
  void Apply(const Act& a);
  void Answer(const PromptAct& a);

  const EventLog& events() const { return events_; }
  // state.py history: the choices made (not those the rules took alone), in order.
  const SharedLog<Choice>& choices() const { return history_log_; }
  // Play on with ``policies`` (by side; each chooses where there are two or more legal
  // choices) to the horizon (agents/search.py rollout); the decisions played. A policy's
  // own random choices draw from a stream derived from the dice (no rules draw: the dice
  // stay the combat's one generator).
  int Rollout(const std::array<const RolloutPolicy*, 3>& policies, const Horizon& horizon);
  // The last exact rollout stopped before a choice left to the caller.
  bool deferred() const { return deferred_; }
  long long turns() const;  // state.py counters["turns"]
  // state.py counters, in the order first counted (a dict's order).
  const std::vector<Counter>& counters() const { return counters_; }
  // The frames running now, outermost first (the payloads and the turns read them).
  const std::vector<Frame>& stack() const { return stack_; }
  // The pending prompt's own choices (Decision.actions): its frame's, unrestricted, no shakes.
  const std::vector<PromptAct>& Choices() const { return choices_; }
  // Restricted play (state.py restrict): what is left of a fighter's legal choices; a
  // decision left with one choice takes it at once, as the reference's does.
  using TurnFilter = std::function<void(int fighter, std::vector<Act>& acts)>;
  using PromptFilter = std::function<void(int fighter, std::vector<PromptAct>& acts)>;
  void Restrict(TurnFilter turn, PromptFilter prompt) {
    restrict_turn_ = std::move(turn), restrict_prompt_ = std::move(prompt);
  }
  const std::vector<std::pair<int, int>>& queue() const { return queue_; }
  int turn_fighter() const { return turn_fighter_; }
  // Another stream of dice from here on (state.py reseed_dice: search samples a future).
  void Reseed(const Pcg32& dice) { dice_ = dice; }
  // state.py refresh_legal: the state changed under the pending decision (its mirror was
  // edited and read back): its legal choices again, TURN's searched anew, a prompt's shakes.
  void Refresh();
  // state.py mark_dirty: something that can decide the fight changed (an edit).
  void MarkDirty() { dirty_ = true; }
  const std::optional<Outcome>& outcome() const { return outcome_; }
  const State& state() const { return s_; }
  int round() const { return round_; }
  long long history() const { return history_; }
  long long forced() const { return forced_; }
  const Pcg32& dice() const { return dice_; }
  // What a rollout policy reads beyond the state (agents/native/): the game, its lines
  // of fire, its rules, and a fighter's reactions left this round.
  const GameDesc& game() const { return g_; }
  const Lines& lines() const { return lines_; }
  const PromptRules& prompt_rules() const { return prompts_; }
  const CombatRules& combat_rules() const { return rules_; }
  const StrikeRules& strike_rules() const { return strike_; }
  Reacting reacting(int fi) const { return ReactingOf(fi); }
  int actions(int fi) const { return actions_[fi]; }  // FighterState.actions (I03)
  // The ids (StrikeSpec::catalogue) of a fighter's items at hand and packed (H04, H06).
  const std::vector<int>& item_ids(int fi) const { return items_[fi]; }
  const std::vector<int>& backpack_ids(int fi) const { return backpack_[fi]; }
  // The Zehrend kinds a fighter holds, by slot (StrikeRules::zehrend_kinds; Z08).
  const std::vector<int>& zehrend(int fi) const { return zehrend_[fi]; }
  // turn.py planned_climb at the TURN decision ``t``: what SCHWIERIG to ``ledge`` would
  // climb now, if it is a partial climb (B03, X40).
  std::optional<ClimbStep> PlannedClimb(const TurnF& t, int ledge) const;

 private:
  // What frames.py's step returns: a decision posed, another frame pushed (push_), or the
  // frame done (Return; its value in ret_), as the driver (Run) reads from the stack.
  enum class Result : std::uint8_t { kDecision, kPushed, kDone };
  struct Value {  // what the driver hands the top frame: a choice, or a returned result
    bool set = false;
    Act act{};
    bool prompted = false;
    PromptAct answer{};
    bool probed = false;
    Probe probe{};
    bool valued = false;  // an int returned (HelpersFrame's best QS)
    int value = 0;
  };
  void Run(Value v);
  Result Step(CombatF& f, Value v);
  Result Step(RoundF& f, Value v);
  Result Step(EndRoundF& f, Value v);
  Result Step(TurnF& f, Value v);
  Result Step(MoveF& f, Value v);
  Result Step(CheckF& f, Value v);
  Result Step(AttackF& f, Value v);
  Result Step(DamageF& f, Value v);
  Result Step(LoseLPF& f, Value v);
  Result Step(SeqF& f, Value v);
  Result Step(ZehrendF& f, Value v);
  Result Step(ForcedMoveF& f, Value v);
  Result Step(FallF& f, Value v);
  Result Step(CheckedF& f, Value v);
  Result Step(HelpersF& f, Value v);
  Result Step(DragF& f, Value v);
  Result Step(ClimbF& f, Value v);
  Result Step(SchwierigF& f, Value v);
  Result Push(Frame f) { push_ = std::move(f); return Result::kPushed; }
  Result Return(const Probe& p) { ret_ = {}; ret_.probed = true, ret_.probe = p; return Result::kDone; }
  void StartRound();
  Result NextTurn(std::uint64_t surprised);
  Result Turn(int fighter);
  Result Do(TurnF& t, const Act& a);
  void TurnChoices(TurnF& t);
  Result EndTurn(int fighter);
  bool TakeForced();
  void Count(Tally tally, int detail = 0, long long n = 1);
  void Finish(int winner, CombatReason reason, int about = 0);
  bool DecideAfterChange();
  void Pose(Asked kind, int fighter, int slot);
  Result Ask(Asked kind, int fighter, const std::vector<PromptAct>& choices);
  bool TurnBenommen() const;
  void MoveFighter(int fi, int cell);
  Result Finish(MoveF& m);
  // the Handlungen (combat_handlungen.cpp)
  Result Handlung(TurnF& t, const Act& a);
  void Heal(int fi, int amount);
  void ItemEffect(int fi, bool heal, int amount, int condition);
  void SyncItems(int fi);
  void SyncHelpers(int fi);
  // the Probe (combat_check.cpp)
  CheckF Check(int fi, int check, Purpose purpose, bool reaction, bool defence);
  CheckAt At(const CheckF& c) const;
  bool Helpable(const CheckF& c) const;
  bool HelpFrame(const CheckF& c, HelpersF& out);
  Probe Roll(CheckF& c, bool forced);
  void SpendMumm(int fi, Spend spend);
  Reacting ReactingOf(int fi) const { return {reactions_[fi], actionbonus_used_[fi] != 0}; }
  bool CanReact(const Fighter& f) const;
  void PayReaction(int fi, int with_mumm, Reaction kind);
  // conditions, damage, dying and death (combat_damage.cpp)
  void GainCondition(int fi, int cond);
  void LoseCondition(int fi, int cond, LostBy cause, int by = -1);
  Result WouldDie(LoseLPF& l);
  void Kill(int fi, const Cause& cause);
  void LetGo(Fighter& f) { f.climb_cell = -1, f.climb_height = 0; }
  Result EndOfRound(EndRoundF& e, Value v, bool phased);
  // Zehrend and danger zones (combat_zehrend.cpp)
  std::optional<DamageF> GainZehrend(int fi, int kind);
  DamageF ZehrendDamage(int fi, int kind, Cause cause, bool ongoing) const;
  bool InDangerZone(int fi, int kind) const;
  bool HasZehrend(int fi, int kind) const;
  bool HasZone(int fi, int kind) const;
  void DropZehrend(int fi, int kind);
  void DropZone(int fi, int kind);
  void SyncZehrend(int fi);
  void ReapplyZoneZehrend();
  // falls and forced movement (combat_falls.cpp)
  std::vector<int> SlidePath(int fi, int toward) const;
  std::vector<int> PushPath(int fi, int dx, int dy, int metres) const;
  // M08 at a prompt (combat_reprompt.cpp)
  int ShakeWithMumm(int fi, int arg);
  void ShakeAtPrompt(const PromptAct& shake);
  bool Reprompt(Frame& top, Asked kind, int fi, int shaken, std::vector<PromptAct>& again);
  void Affordable(int fi, std::vector<PromptAct>& choices) const;
  // the Schwierige Bewegung and climbing (combat_schwierig.cpp)
  Result Schwierig(TurnF& t, const Act& a);
  int MoveLeft(const TurnF& t) const;
  std::optional<ClimbStep> ClimbStepOf(int fi, int ledge, int move_left, const Routes& hard) const;
  CheckF DifficultCheck(int fi, StepKind kind);
  std::vector<Hold> Holds() const;
  std::optional<FallF> LostHolds(std::vector<Hold>& holds);
  // the Kampfmanöver's effects and K03's drag (combat_maneuvers.cpp)
  void ManeuverEffects(AttackF& a, int target, SeqF& seq);
  std::optional<Routes> DragReach(int fi);
  int BlockadeGuard(int mover, int a, int b, std::uint64_t asked);
  void MaybeEscape(int fi);
  // the attack (combat_attack.cpp)
  Result Declare(AttackF& a);
  Result RollAttack(AttackF& a, const Value& v);
  Result Rolled(AttackF& a, const Probe& result);
  Result NextTarget(AttackF& a);
  Result HitTarget(AttackF& a, int weakened_qs);
  Result Defend(AttackF& a, const PromptAct& choice);
  Result Compared(AttackF& a, const Probe& result);
  Result PatzerEffects(AttackF& a, int qs);
  Result HitEffects(AttackF& a, int target, int qs, const TableRow* crit, bool crit_zehrend);
  std::size_t TableAt(std::size_t rows, int roll) const;

  // What the game fixes, shared by every clone (held here, read through the references).
  struct Fixed {
    std::vector<FighterSetup> setup;
    std::vector<FighterMoves> moves;
    CombatRules rules;
    StrikeRules strike;
  };
  std::shared_ptr<const Fixed> fixed_;
  const GameDesc& g_;
  const Lines& lines_;
  const PromptRules& prompts_;
  const std::vector<FighterSetup>& setup_;
  const std::vector<FighterMoves>& moves_;
  const CombatRules& rules_;
  const StrikeRules& strike_;
  State s_;
  Pcg32 dice_;
  // FighterState fields the legality's Fighter does not hold
  std::vector<int> initiative_, actions_, reactions_;
  std::vector<std::uint8_t> actionbonus_used_, stabilised_;
  std::vector<std::vector<int>> zehrend_, zone_;  // the Zehrend kinds held, by a zone (D03)
  std::vector<std::vector<int>> items_, backpack_;  // the items at hand and packed, by id
  std::vector<std::vector<int>> helpers_;  // the announced helpers in their order (P08)
  std::vector<std::vector<int>> reloading_;  // per weapon: reload Handlungen done (H05)
  std::vector<std::pair<int, int>> queue_;  // (step or pass, fighter) still to act
  std::vector<Frame> stack_;
  std::optional<Frame> push_;  // what a Step pushes (after it returns: the stack may move)
  Value ret_;                  // what a Step that returns kDone hands its caller
  EventLog events_;
  SharedLog<Choice> history_log_;
  std::optional<Outcome> outcome_;
  std::optional<Asked> asked_;
  int decider_ = -1, slot_ = 0;
  std::vector<Act> legal_;
  std::vector<PromptAct> plegal_, choices_;  // a prompt's legal choices; its frame's
  TurnFilter restrict_turn_;
  PromptFilter restrict_prompt_;
  std::vector<PromptAct> asked_acts_;  // scratch for the prompts' choices
  std::vector<Counter> counters_;
  int round_ = 0, turn_fighter_ = -1;
  bool dirty_ = false;  // state.py mark_dirty: something that can decide the fight happened
  bool deferred_ = false;  // Rollout: stopped before a choice left to the caller
  long long history_ = 0, forced_ = 0;
  MoveInputs scratch_;
  TurnAnswer answer_;
  Plan plan_;
};

}  // namespace cwenv::kampf
