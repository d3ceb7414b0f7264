// The native combat's driver, round flow and end of round (combat.hpp): state.py Combat's
// apply/_run/_pose/_finish and roundflow.py's CombatFrame, RoundFrame, EndOfRoundFrame.
// The turn and movement frames are in combat_turn.cpp.
#include <algorithm>
#include <array>
#include <stdexcept>
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
                           std::vector<FighterMoves> moves, CombatRules rules,
                           StrikeRules strike, Pcg32 dice)
    : fixed_(std::make_shared<const Fixed>(
          Fixed{std::move(setup), std::move(moves), std::move(rules), std::move(strike)})),
      g_(g), lines_(lines), prompts_(prompts), setup_(fixed_->setup), moves_(fixed_->moves),
      rules_(fixed_->rules), strike_(fixed_->strike), s_(std::move(start)), dice_(dice) {
  const std::size_t n = s_.fighters.size();
  if (setup_.size() != n || moves_.size() != n || g_.specs.size() != n ||
      strike_.specs.size() != n || !g_.attack.ready)
    throw std::invalid_argument("one setup, step table and strike spec per fighter");
  initiative_.assign(n, 0), actions_.assign(n, 0), reactions_.assign(n, 0);
  actionbonus_used_.assign(n, 0), stabilised_.assign(n, 0);
  zehrend_.assign(n, {}), zone_.assign(n, {}), helpers_.assign(n, {});
  items_.resize(n), backpack_.resize(n), reloading_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {  // the stat block's items; nothing reloaded yet
    const StrikeSpec& spec = strike_.specs[i];
    for (int k = 0; k < static_cast<int>(spec.catalogue.size()); ++k)
      (k < spec.carried ? items_[i] : backpack_[i]).push_back(k);
    reloading_[i].assign(spec.weapons.size(), 0);
  }
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
  if (prompt() || std::none_of(legal_.begin(), legal_.end(), same))
    throw Illegal("illegal action for fighter " + std::to_string(decider_));
  ++history_;
  history_log_.push_back(Choice{static_cast<int>(a.kind), a.actor, a.target, a.cell, a.arg, 0});
  asked_.reset(), legal_.clear();
  Value v;
  v.set = true, v.act = a;
  Run(v);
  if (!outcome_ && history_ + forced_ >= rules_.decision_cap)
    Finish(-1, CombatReason::kDecisionCap);
}

void NativeCombat::Answer(const PromptAct& a) {
  if (outcome_) throw Illegal("the combat is over");
  const auto same = [&](const PromptAct& b) {
    return b.kind == a.kind && b.actor == a.actor && b.target == a.target && b.arg == a.arg &&
           b.mumm == a.mumm && b.cell == a.cell;
  };
  if (!prompt() || std::none_of(plegal_.begin(), plegal_.end(), same))
    throw Illegal("illegal action for fighter " + std::to_string(decider_));
  ++history_;
  history_log_.push_back(
      Choice{static_cast<int>(a.kind), a.actor, a.target, a.cell, a.arg, a.mumm});
  if (a.kind == PromptKind::kMummShake) {
    ShakeAtPrompt(a);
  } else {
    asked_.reset(), plegal_.clear();
    Value v;
    v.prompted = true, v.answer = a;
    Run(v);
  }
  if (!outcome_ && history_ + forced_ >= rules_.decision_cap)
    Finish(-1, CombatReason::kDecisionCap);
}

long long NativeCombat::turns() const {
  for (const Counter& c : counters_)
    if (c.tally == Tally::kTurns) return c.n;
  return 0;
}

int NativeCombat::Rollout(const std::array<const RolloutPolicy*, 3>& policies,
                          const Horizon& horizon) {
  constexpr std::uint64_t kPolicyStream = 0x9E3779B97F4A7C15ULL;  // apart from the dice's
  Pcg32 rng = Pcg32::FromState(dice_.state() ^ kPolicyStream, dice_.inc());
  Pcg32* draws = horizon.exact ? nullptr : &rng;
  int steps = 0;
  deferred_ = false;
  while (!outcome_ && round_ <= horizon.stop_round && steps < horizon.max_steps &&
         !(horizon.stop_turns >= 0 && turns() > horizon.stop_turns)) {
    const RolloutPolicy* policy = policies[s_.fighters[decider_].side];
    const std::size_t n = prompt() ? plegal_.size() : legal_.size();
    std::size_t i = 0;
    // an exact play-on asks even a lone choice: the Python agent is asked at every
    // decision, and may draw for it (greedy's last resort does)
    if (n > 1 || horizon.exact) i = policy ? policy->Choose(*this, draws) : kDeferChoice;
    if (i == kDeferChoice) {
      if (!horizon.exact) throw std::logic_error("a rollout policy deferred a choice");
      deferred_ = true;  // the caller's agent decides this one
      break;
    }
    if (prompt()) Answer(plegal_.at(i));
    else Apply(legal_.at(i));
    ++steps;
  }
  return steps;
}

// state.py Combat.count.
void NativeCombat::Count(Tally tally, int detail, long long n) {
  for (Counter& c : counters_)
    if (c.tally == tally && c.detail == detail) {
      c.n += n;
      return;
    }
  counters_.push_back({tally, detail, n});
}

bool NativeCombat::TakeForced() {
  ++forced_;
  if (history_ + forced_ < rules_.decision_cap) return false;
  Finish(-1, CombatReason::kDecisionCap);
  return true;
}

void NativeCombat::Run(Value v) {
  while (!stack_.empty()) {
    push_.reset(), ret_ = {};
    const Result r = std::visit([&](auto& f) { return Step(f, v); }, stack_.back());
    if (outcome_) return;
    if (dirty_ && r != Result::kDecision) {  // a pending decision (M04) is settled first
      dirty_ = false;
      if (DecideAfterChange()) return;
    }
    if (r == Result::kDecision) {
      // state.py _pose: a prompt left with a single legal choice is no decision
      if (!prompt() || plegal_.size() != 1) return;
      const PromptAct only = plegal_.front();
      asked_.reset(), plegal_.clear();
      if (TakeForced()) return;
      v = {};
      v.prompted = true, v.answer = only;
      continue;
    }
    if (r == Result::kDone) {
      stack_.pop_back();
      v = ret_;
    } else {
      stack_.push_back(std::move(*push_));
      v = {};
    }
  }
  Finish(-1, CombatReason::kRoundLimit);
}

void NativeCombat::Pose(Asked kind, int fighter, int slot) {
  asked_ = kind, decider_ = fighter, slot_ = slot;
}

// state.py _compute_legal for a prompt: the M08 shakes first (X38), then the choices.
NativeCombat::Result NativeCombat::Ask(Asked kind, int fighter,
                                       const std::vector<PromptAct>& choices) {
  choices_ = choices;
  PromptShakes(g_, prompts_, s_.fighters[fighter], fighter, false,
               turn_fighter_ == fighter && TurnBenommen(), plegal_);
  plegal_.insert(plegal_.end(), choices.begin(), choices.end());
  if (restrict_prompt_) restrict_prompt_(fighter, plegal_);  // restricted play
  Pose(kind, fighter, 0);
  return Result::kDecision;
}

bool NativeCombat::TurnBenommen() const {  // state.py turn_benommen: the innermost turn's
  for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
    if (const auto* t = std::get_if<TurnF>(&*it)) return t->benommen;
  return false;
}

void NativeCombat::Finish(int winner, CombatReason reason, int about) {
  outcome_ = Outcome{winner, static_cast<int>(reason), round_, about};
  stack_.clear();
  asked_.reset(), legal_.clear(), plegal_.clear();
  events_.push_back(CombatEnded{winner, static_cast<int>(reason), round_, about});
}

// victory.py decide_after_change: the listed conditions in their order, then ELIMINATE.
bool NativeCombat::DecideAfterChange() {
  for (const VictoryRow& v : strike_.victory) {
    if (v.kind == kVictoryEliminate) {
      bool runners = false, gegner = false;
      for (const Fighter& f : s_.fighters) {
        if (!f.standing()) continue;
        runners |= f.side == kRunner, gegner |= f.side == kGegner;
      }
      if (!runners && !gegner) Finish(-1, CombatReason::kBothOut);
      else if (!runners) Finish(kGegner, CombatReason::kRunnersOut);
      else if (!gegner) Finish(kRunner, CombatReason::kGegnerOut);
    } else if (v.kind == kVictoryExit) {
      int fled = 0;
      for (const Fighter& f : s_.fighters) fled += f.side == v.side && f.fled;
      if (v.vip >= 0 ? s_.fighters[v.vip].fled : fled >= v.count)
        Finish(v.side, CombatReason::kExit);
    } else if (v.kind == kVictoryVip) {
      const Fighter& vip = s_.fighters[v.vip];
      if (vip.dead || vip.down)
        Finish(v.side == kRunner ? kGegner : kRunner, CombatReason::kVipFallen, v.vip);
    } else {
      throw std::logic_error("a victory kind without its check");
    }
    if (outcome_) return true;
  }
  return false;
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
    actionbonus_used_[i] = 0;  // P03, X14: once per round
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
  constexpr int kAmbush = 1, kTurns = 2, kOver = 3;  // RoundStage
  if (f.stage == 0) {
    StartRound();
    if (round_ == 1 && strike_.ambushed_sides)  // X45 (RoundFrame._ambushed)
      for (std::size_t i = 0; i < s_.fighters.size(); ++i) {
        const Fighter& x = s_.fighters[i];
        if (strike_.ambushed_sides >> x.side & 1 && x.standing())
          f.ambush.push_back(static_cast<int>(i));
      }
    f.stage = kAmbush;
  }
  if (f.stage == kAmbush) {  // the ambushed roll Reflexe; a failure loses the round
    if (v.probed && !v.probe.success) {
      const int fi = f.ambush[f.si - 1];
      f.surprised |= std::uint64_t{1} << fi;
      reactions_[fi] = 0;
      events_.push_back(StatusChanged{fi, Status::kSurprised, {}});
    }
    if (f.si < static_cast<int>(f.ambush.size()))
      return Push(Check(f.ambush[f.si++], strike_.reflexe_check, Purpose::kAmbush, false, false));
    f.stage = kTurns;
    v = {};
  }
  if (f.stage == kTurns) {
    if (v.set && static_cast<int>(v.act.kind) == kChooseActor) return Turn(v.act.target);
    const Result r = NextTurn(f.surprised);
    if (r != Result::kDone) return r;
    f.stage = kOver;
    push_ = EndRoundF{};
    return Result::kPushed;
  }
  events_.push_back(RoundEnded{round_});
  return Result::kDone;
}

// RoundFrame's TURNS stage: the front of the queue acts, or its side picks among the tied
// (I04, I13, X16); kDone when the queue is empty.
NativeCombat::Result NativeCombat::NextTurn(std::uint64_t surprised) {
  while (!queue_.empty()) {
    const auto [step, idx] = queue_.front();
    const Fighter& f = s_.fighters[idx];
    if (!f.standing() || surprised >> idx & 1) {
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

}  // namespace cwenv::kampf
