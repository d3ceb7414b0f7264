// The native combat's driver, round flow and end of round (combat.hpp): state.py Combat's
// apply/_run/_pose/_finish and roundflow.py's CombatFrame, RoundFrame, EndOfRoundFrame.
// The turn and movement frames are in combat_turn.cpp.
#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

constexpr int kStepInterval = 10;       // roundflow.py STEP_INTERVAL (I03)
constexpr int kDicePerGrundwert = 5;    // DICE_PER_GRUNDWERT (I02)
constexpr int kReactionDivisor = 4;     // REACTION_DIVISOR (R01)
constexpr int kReflexePerAction = 8;    // REFLEXE_PER_ACTION (I11)
constexpr int kTieRandom = 1, kTieSideChooses = 2;  // X16 tie_order
constexpr int kBasisGrundwert = 1, kBasisReflexe = 2;  // X01 reactions_basis

// Python's -(-a // b) for b > 0: a / b rounded up.
int CeilDiv(int a, int b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }

}  // namespace

NativeCombat::NativeCombat(const GameDesc& g, const Lines& lines, const PromptRules& prompts,
                           State start, std::vector<FighterSetup> setup,
                           std::vector<FighterMoves> moves, CombatRules rules, Pcg32 dice)
    : g_(g), lines_(lines), prompts_(prompts), s_(std::move(start)), setup_(std::move(setup)),
      moves_(std::move(moves)), rules_(std::move(rules)), dice_(dice) {
  const std::size_t n = s_.fighters.size();
  if (setup_.size() != n || moves_.size() != n || g_.specs.size() != n)
    throw std::invalid_argument("one setup and one step table per fighter");
  initiative_.assign(n, 0), actions_.assign(n, 0), reactions_.assign(n, 0);
  stack_.emplace_back(CombatF{});
  Run({});
}

// -- the driver (state.py) ------------------------------------------------------------------
void NativeCombat::Apply(const Act& a) {
  if (outcome_) throw Illegal("the combat is over");
  const auto same = [&](const Act& b) {
    return b.kind == a.kind && b.actor == a.actor && b.target == a.target && b.cell == a.cell &&
           b.arg == a.arg;
  };
  if (std::none_of(legal_.begin(), legal_.end(), same))
    throw Illegal("illegal action for fighter " + std::to_string(decider_));
  if (static_cast<int>(a.kind) == static_cast<int>(Kind::kMummShake) && asked_ != Asked::kTurn)
    throw Unported("M08 at a prompt (X38)");
  ++history_;
  asked_.reset(), legal_.clear();
  Run({true, a});
  if (!outcome_ && history_ + forced_ >= rules_.decision_cap)
    Finish(-1, CombatReason::kDecisionCap);
}

bool NativeCombat::TakeForced() {
  ++forced_;
  if (history_ + forced_ < rules_.decision_cap) return false;
  Finish(-1, CombatReason::kDecisionCap);
  return true;
}

void NativeCombat::Run(Value v) {
  while (!stack_.empty()) {
    Frame& top = stack_.back();
    push_.reset();
    const Result r = std::visit([&](auto& f) { return Step(f, v); }, top);
    if (outcome_) return;
    // state.py checks decide_after_change when something marked the combat dirty: no
    // ported step does (an exit, an LP change or a status raise Unported first).
    if (r == Result::kDecision) return;  // TURN and ORDER: never a single forced choice here
    v = {};
    if (r == Result::kDone) {
      stack_.pop_back();
    } else {
      stack_.push_back(std::move(*push_));
    }
  }
  Finish(-1, CombatReason::kRoundLimit);
}

void NativeCombat::Pose(Asked kind, int fighter, int slot) {
  asked_ = kind, decider_ = fighter, slot_ = slot;
}

void NativeCombat::Finish(int winner, CombatReason reason, int survived) {
  outcome_ = Outcome{winner, static_cast<int>(reason), round_, survived};
  stack_.clear();
  asked_.reset(), legal_.clear();
  events_.push_back(CombatEnded{winner, static_cast<int>(reason), round_, survived});
}

// -- the round (roundflow.py) -----------------------------------------------------------------
NativeCombat::Result NativeCombat::Step(CombatF& f, Value) {
  if (f.stage == 1) {  // victory.py decide_at_round_end: the listed SURVIVE, the round limit
    for (const Survive& v : rules_.survive)
      if (round_ >= v.rounds) {
        Finish(v.side, CombatReason::kSurvived, v.rounds);
        return Result::kDone;
      }
    if (rules_.round_limit >= 0 && round_ >= rules_.round_limit) {
      Finish(-1, CombatReason::kRoundLimit);
      return Result::kDone;
    }
  }
  f.stage = 1;
  push_ = RoundF{};
  return Result::kPushed;
}

void NativeCombat::StartRound() {  // RoundFrame._start (I01-I04, I10-I13, R01, X01, X16)
  ++round_;
  events_.push_back(RoundStarted{round_});
  struct Slot {
    std::array<int, 5> key;
    int step, fighter;
  };
  std::vector<Slot> slots;
  for (std::size_t i = 0; i < s_.fighters.size(); ++i) {
    Fighter& f = s_.fighters[i];
    if (f.dead || f.fled) continue;
    const int idx = static_cast<int>(i);
    const FighterSetup& fs = setup_[i];
    std::vector<int> dice, steps;
    if (!rules_.passes) {
      const int n = std::max(1, CeilDiv(fs.grundwert, kDicePerGrundwert));  // I02
      int sum = 0;
      for (int k = 0; k < n; ++k) dice.push_back(dice_.D10()), sum += dice.back();
      initiative_[i] = fs.grundwert + sum;
      for (int st = initiative_[i]; st > 0; st -= kStepInterval) steps.push_back(st);  // I03
      actions_[i] = static_cast<int>(steps.size());
    } else {
      dice.push_back(dice_.D10());
      initiative_[i] = dice[0];
      const int reflexe =
          fs.reflexe + (rules_.passes_count_initiative_bonus ? fs.initiative_bonus : 0);
      actions_[i] = std::max(1, CeilDiv(reflexe, kReflexePerAction));  // I11, X36
      for (int k = 1; k <= actions_[i]; ++k) steps.push_back(k);
    }
    int tiebreak = idx;
    if (rules_.tie_order == kTieRandom) {
      const int d1 = dice_.D10(), d2 = dice_.D10();
      tiebreak = d1 * 100 + d2 * 10 + idx % 10 + idx / 10 * 1000;
    }
    int reactions = 0;
    if (!f.down && !f.Has(kBenommen)) {  // R01, X01: Initiative / 4, none for the benommen
      const int basis = rules_.reactions_basis == kBasisGrundwert ? fs.grundwert
                        : rules_.reactions_basis == kBasisReflexe ? fs.reflexe
                                                                  : initiative_[i];
      reactions = basis >= 0 ? basis / kReactionDivisor : -((-basis + 3) / kReactionDivisor);
    }
    reactions_[i] = reactions;
    f.extra_action_used = false;
    if (!rules_.prone_bonus_to_own_turn) f.prone_bonus = false;  // X23 next_round
    events_.push_back(InitiativeRolled{idx, fs.grundwert, dice, initiative_[i], reactions,
                                       actions_[i], steps});
    for (int st : steps) {
      const std::array<int, 5> key =
          rules_.passes ? std::array<int, 5>{st, -initiative_[i], -fs.reflexe, f.side, tiebreak}
                        : std::array<int, 5>{-st, -fs.grundwert, f.side, tiebreak, 0};
      slots.push_back({key, st, idx});
    }
  }
  // slots.sort(): the key first, then the step and the fighter (a tuple's order)
  std::sort(slots.begin(), slots.end(), [](const Slot& a, const Slot& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.step != b.step) return a.step < b.step;
    return a.fighter < b.fighter;
  });
  queue_.clear();
  for (const Slot& sl : slots) queue_.emplace_back(sl.step, sl.fighter);
}

NativeCombat::Result NativeCombat::Step(RoundF& f, Value v) {
  if (f.stage == 0) {
    StartRound();
    if (rules_.ambush && round_ == 1) throw Unported("the ambush's Reflexe checks (X45)");
    f.stage = 2;
  }
  if (f.stage == 2) {
    if (v.set && static_cast<int>(v.act.kind) == kChooseActor) return Turn(v.act.target);
    const Result r = NextTurn();
    if (r != Result::kDone) return r;
    f.stage = 3;
    push_ = EndRoundF{};
    return Result::kPushed;
  }
  events_.push_back(RoundEnded{round_});
  return Result::kDone;
}

// RoundFrame's TURNS stage: the front of the queue acts, or its side picks among the tied
// (I04, I13, X16); kDone when the queue is empty.
NativeCombat::Result NativeCombat::NextTurn() {
  while (!queue_.empty()) {
    const auto [step, idx] = queue_.front();
    const Fighter& f = s_.fighters[idx];
    if (!f.standing()) {  // (surprised fighters come with the ambush, not ported)
      queue_.erase(queue_.begin());
      continue;
    }
    std::vector<int> tied{idx};
    if (rules_.tie_order == kTieSideChooses) {
      const auto key = [&](int i) {
        return rules_.passes ? std::pair<int, int>{initiative_[i], setup_[i].reflexe}
                             : std::pair<int, int>{setup_[i].grundwert, 0};
      };
      for (std::size_t k = 1; k < queue_.size(); ++k) {
        const auto [s2, i2] = queue_[k];
        if (s2 != step) break;
        const Fighter& g = s_.fighters[i2];
        if (g.side != f.side || key(i2) != key(idx)) break;
        if (g.standing() && std::find(tied.begin(), tied.end(), i2) == tied.end())
          tied.push_back(i2);
      }
    }
    if (tied.size() > 1) {
      legal_.clear();
      for (int t : tied) legal_.push_back({static_cast<Kind>(kChooseActor), tied[0], t, -1, -1});
      Pose(Asked::kOrder, tied[0], step);
      return Result::kDecision;
    }
    return Turn(idx);
  }
  return Result::kDone;
}

NativeCombat::Result NativeCombat::Turn(int fighter) {  // RoundFrame._turn
  for (std::size_t i = 0; i < queue_.size(); ++i)
    if (queue_[i].second == fighter) {
      TurnF t;
      t.fighter = fighter, t.slot = queue_[i].first;
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
      push_ = std::move(t);
      return Result::kPushed;
    }
  throw std::logic_error("chosen actor not in the queue");
}

NativeCombat::Result NativeCombat::Step(EndRoundF& f, Value) {  // EndOfRoundFrame, _cleanup
  if (f.stage == 0)
    for (const Fighter& x : s_.fighters)
      if (!x.dead && !x.fled && (x.n_zehrend || x.Has(kSterbend)))
        throw Unported("Zehrend and the dying at the round's end (D03, D08, Z08, X31)");
  for (Fighter& x : s_.fighters) {
    x.armour_bonus = 0, x.focus_bonus = 0, x.helpers = 0;
    if (rules_.zielen_lost_at_round_end) x.aim_stacks = 0, x.aim_target = -1;
  }
  return Result::kDone;
}

}  // namespace cwenv::kampf
