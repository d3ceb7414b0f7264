// The native combat's turn and movement (combat.hpp): turn.py TurnFrame and movement.py
// MoveFrame, as far as combat.hpp says they are ported.
#include <algorithm>
#include <string>
#include <utility>

#include "combat.hpp"

namespace cwenv::kampf {

// turn.py TurnFrame.step (H00, Z02, B03): the turn begins, then TURN decisions until the
// fighter ends it; a single legal choice is taken without asking.
NativeCombat::Result NativeCombat::Step(TurnF& t, Value v) {
  Fighter& f = s_.fighters[t.fighter];
  if (t.stage == 0) {
    t.stage = 1;
    turn_fighter_ = t.fighter;
    if (rules_.prone_bonus_to_own_turn) f.prone_bonus = false;  // R06, X23
    if (!f.standing()) return Result::kDone;
    events_.push_back(TurnStarted{t.fighter, t.slot, rules_.passes});
    Count(Tally::kTurns);
    t.benommen = f.Has(kBenommen);
    t.holds = Holds();
    v = {};
  }
  if (v.set) {
    const Result r = Do(t, v.act);
    if (r != Result::kDecision) return r;  // kDecision: go on asking
  }
  for (;;) {
    // X40: whoever let go of a wall since the last look (moved, knocked down) falls
    std::optional<FallF> fall = LostHolds(t.holds);
    if (fall) return Push(*fall);
    if (!f.standing() || (!t.benommen && f.Has(kBenommen))) return EndTurn(t.fighter);
    TurnChoices(t);
    if (answer_.acts.size() > 1) {
      t.legal = answer_.acts;
      legal_ = answer_.acts;
      Pose(Asked::kTurn, t.fighter, t.slot);
      return Result::kDecision;
    }
    if (TakeForced()) return Result::kDone;
    const Act only = answer_.acts.front();
    const Result r = Do(t, only);
    if (r != Result::kDecision) return r;
  }
}

// turn.py turn_actions, restricted (state.py restrict): the TURN choices into answer_.acts,
// the searches onto the turn's frame.
void NativeCombat::TurnChoices(TurnF& t) {
  const Fighter& f = s_.fighters[t.fighter];
  const FighterMoves& m = moves_[t.fighter];
  const bool limited = f.Has(kEingeschraenkt);
  s_.turn = {t.handlungen, t.grants, t.sprint_bonus, t.moved, t.parity, t.benommen};
  TurnActions(g_, lines_, s_, limited ? *m.limited : *m.free,
              limited ? m.limited_slow : m.free_slow, rules_.geometry, t.fighter, scratch_,
              answer_);
  t.routes = answer_.free, t.hard = answer_.hard;
  if (restrict_turn_) restrict_turn_(t.fighter, answer_.acts);  // restricted play
}

void NativeCombat::Refresh() {
  if (!asked_) return;
  if (*asked_ == Asked::kTurn) {  // the turn's fighter's choices, searched anew
    TurnF& t = std::get<TurnF>(stack_.back());
    TurnChoices(t);
    legal_ = t.legal = answer_.acts;
  } else if (prompt()) {  // the decision's choices stand; the shakes are the fighter's now
    const std::vector<PromptAct> choices = choices_;
    Ask(*asked_, decider_, choices);
  }
}

// TurnFrame._do; kDecision means "nothing pushed, ask again" (turn.py returns None).
NativeCombat::Result NativeCombat::Do(TurnF& t, const Act& a) {
  Count(Tally::kAction, static_cast<int>(a.kind));
  switch (a.kind) {
    case Kind::kEndTurn:
      return EndTurn(t.fighter);
    case Kind::kMove: {  // B01: one leg of movement
      if (!t.routes) throw std::logic_error("a MOVE without its search");
      const Route route = t.routes->Get(a.cell);
      t.moved += route.metres;
      t.parity = route.parity;
      MoveF m;
      m.fighter = t.fighter, m.path = route.cells, m.spent = route.spent;
      m.how = t.sprint_bonus != 0 ? How::kSprintet : How::kGeht;
      push_ = std::move(m);
      return Result::kPushed;
    }
    case Kind::kMummExtraAction: {  // M07
      SpendMumm(t.fighter, Spend::kZusaetzlicheAktion);
      s_.fighters[t.fighter].extra_action_used = true;
      ++t.handlungen;
      if (t.benommen) t.benommen = false, t.grants = 0;  // after Z02: the movement stays lost
      if (strike_.extra_action_moves) ++t.grants;
      return Result::kDecision;
    }
    case Kind::kMummShake:  // M08
      if (ShakeWithMumm(t.fighter, a.arg) == kBenommen && t.benommen) t.benommen = false;
      return Result::kDecision;
    default:
      break;
  }
  --t.handlungen;  // H00: one Handlung; tables/handlungen.py's entry carries it out
  return a.kind == Kind::kSchwierig ? Schwierig(t, a) : Handlung(t, a);
}

NativeCombat::Result NativeCombat::EndTurn(int fighter) {  // TurnFrame._end
  events_.push_back(TurnEnded{fighter});
  turn_fighter_ = -1;
  return Result::kDone;
}

// state.py Combat.move_fighter (B01, B03): passing an ally's cell leaves the ally its cell.
void NativeCombat::MoveFighter(int fi, int cell) {
  Fighter& f = s_.fighters[fi];
  if (s_.occupant[f.pos] == fi) s_.occupant[f.pos] = -1;
  f.pos = cell;
  f.climb_cell = -1, f.climb_height = 0;  // X40: a climber who moves lets go
  if (s_.occupant[cell] < 0) s_.occupant[cell] = static_cast<std::int16_t>(fi);
  if (rules_.exits[cell]) dirty_ = true;
}

// movement.py MoveFrame.step (B01, R04): walk the path cell by cell; each step may
// provoke a Blockadeangriff of every guard it passes, once per guard and move.
NativeCombat::Result NativeCombat::Step(MoveF& m, Value v) {
  constexpr int kWalking = 0, kReactorAnswered = 1, kResumed = 2;  // MoveStage
  Fighter& f = s_.fighters[m.fighter];
  if (m.start < 0) m.start = f.pos;
  if (m.stage == kReactorAnswered) {
    m.stage = kWalking;
    if (v.prompted && v.answer.kind == PromptKind::kBlockadeAttack) {
      PayReaction(m.reactor, v.answer.mumm, Reaction::kBlockade);
      m.stage = kResumed;
      AttackF attack;
      attack.attacker = m.reactor, attack.target = m.fighter, attack.index = v.answer.arg;
      attack.mode = Mode::kBlockade;
      return Push(std::move(attack));
    }
  }
  if (m.stage == kResumed) {  // back from a Blockadeangriff
    m.stage = kWalking;
    if (!f.standing() || f.Has(kBenommen)) return Finish(m);
  }
  while (m.i < static_cast<int>(m.path.size())) {
    const int a = f.pos, b = m.path[m.i];
    if (m.provoke) {  // R04 (blockade_prompt): the first guard not yet asked asks
      const int guard = BlockadeGuard(m.fighter, a, b, m.asked);
      if (guard >= 0) {
        m.asked |= std::uint64_t{1} << guard;
        m.reactor = guard;
        m.stage = kReactorAnswered;
        return Ask(Asked::kBlockade, guard, asked_acts_);
      }
    }
    const int other = s_.occupant[b] >= 0 ? s_.occupant[b] : m.fighter;
    const bool last = m.i == static_cast<int>(m.path.size()) - 1;
    if (other != m.fighter && !s_.fighters[other].down &&
        (s_.fighters[other].side != f.side || last))
      break;  // B01: an enemy in the way, or anyone on the destination, ends the move here
    const bool entered_fire = g_.terrain[b] == Terrain::kFire && g_.terrain[a] != Terrain::kFire;
    MoveFighter(m.fighter, b);
    m.done.push_back(b);
    ++m.i;
    if (entered_fire) {  // D03 (movement.py enter_danger_zone): its Zehrend starts
      const int fire = strike_.fire_kind;
      if (!HasZone(m.fighter, fire)) zone_[m.fighter].push_back(fire);
      std::optional<DamageF> burn = GainZehrend(m.fighter, fire);
      if (burn) {
        m.stage = kResumed;
        return Push(std::move(*burn));
      }
    }
  }
  return Finish(m);
}

// movement.py blockade_prompt (R04, X43): the first enemy not in ``asked`` whom the step
// a->b of ``mover`` passes within melee reach and who is asked (its choices in
// asked_acts_); -1 for none.
int NativeCombat::BlockadeGuard(int mover, int a, int b, std::uint64_t asked) {
  const Fighter& f = s_.fighters[mover];
  for (std::size_t gi = 0; gi < s_.fighters.size(); ++gi) {
    const Fighter& g = s_.fighters[gi];
    if (asked >> gi & 1 || g.side == f.side || !g.standing()) continue;
    const int reach = MeleeReach(g_.specs[gi], g);
    if (reach <= 0) continue;
    const int rx = a % g_.width - g.pos % g_.width, ry = a / g_.width - g.pos / g_.width;
    const int sx = b % g_.width - a % g_.width, sy = b / g_.width - a / g_.width;
    if (!Passes(static_cast<Geometry>(rules_.geometry), rx, ry, sx, sy, reach)) continue;
    BlockadeChoices(g_, prompts_, g, static_cast<int>(gi), ReactingOf(static_cast<int>(gi)),
                    mover, a, b, asked_acts_);
    if (!asked_acts_.empty()) return static_cast<int>(gi);
  }
  return -1;
}

// MoveFrame._finish: back off an ally's cell to the last free one, then Moved (X03).
NativeCombat::Result NativeCombat::Finish(MoveF& m) {
  Fighter& f = s_.fighters[m.fighter];
  if (s_.occupant[f.pos] != m.fighter && f.on_map()) {
    std::vector<int> back(m.done.begin(), m.done.end() - (m.done.empty() ? 0 : 1));
    std::reverse(back.begin(), back.end());
    back.push_back(m.start);
    for (int cell : back)
      if (s_.occupant[cell] < 0 || s_.occupant[cell] == m.fighter) {
        MoveFighter(m.fighter, cell);
        break;
      }
    const auto at = std::find(m.done.begin(), m.done.end(), f.pos);
    if (at != m.done.end()) {
      m.done.erase(at + 1, m.done.end());
    } else {
      m.done.clear();
    }
  }
  if (!m.done.empty()) {
    events_.push_back(Moved{m.fighter, m.done, m.spent[m.done.size() - 1], m.how});
    if (rules_.zielen_lost_on_move && f.aim_stacks) f.aim_stacks = 0, f.aim_target = -1;
    MaybeEscape(m.fighter);
  }
  return Result::kDone;
}

}  // namespace cwenv::kampf
