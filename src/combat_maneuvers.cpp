// The native combat's Kampfmanöver effects (combat.hpp): tables/maneuvers.py's effect per
// entry (K01-K05), falls.py push_path (K05) and effects.py DragFrame (K03, R04, X43).
#include <algorithm>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

int Sign(int v) { return (v > 0) - (v < 0); }

}  // namespace

// tables/maneuvers.py: what the manoeuvre's hit does to ``target`` at once, and the frames
// it starts (a push, a drag) ahead of the hit's damage.
void NativeCombat::ManeuverEffects(AttackF& a, int target, SeqF& seq) {
  const ManeuverDef& m = strike_.maneuvers[a.index];
  Fighter& t = s_.fighters[target];
  switch (m.effect) {
    case ManeuverEffect::kEntwaffnen:  // K01: a Runner drops the weapon, an NSC fights on -2
      if (t.side == kRunner) {
        if (t.drawn >= 0 && t.drawn < g_.specs[target].carried) {
          t.dropped |= 1u << t.drawn;
          events_.push_back(Acted{target, ActKind::kLoseWeapon, -1, t.drawn});
          t.drawn = -1;
        }
      } else {
        t.disarmed = true;
        events_.push_back(Acted{target, ActKind::kDisarmed});
      }
      return;
    case ManeuverEffect::kInflict:  // K02 Benommen, K04 Niedergeworfen
      GainCondition(target, m.condition);
      return;
    case ManeuverEffect::kWegstossen: {  // K05: 2 m straight back; X43 all_forced provokes
      const Fighter& f = s_.fighters[a.attacker];
      const int w = g_.width;
      ForcedMoveF push;
      push.fighter = target, push.cause = How::kWegstossen, push.provoke = strike_.forced_all;
      push.path = PushPath(target, Sign(t.pos % w - f.pos % w), Sign(t.pos / w - f.pos / w),
                           strike_.push_metres);
      seq.frames.emplace_back(std::move(push));
      return;
    }
    case ManeuverEffect::kMitzerren: {  // K03: the attacker drags the target (DRAG)
      DragF drag;
      drag.attacker = a.attacker, drag.target = target;
      seq.frames.emplace_back(std::move(drag));
      return;
    }
  }
  throw std::logic_error("a Kampfmanöver without its effect");
}

// falls.py push_path (K05): straight on, stopped by walls, cover objects and fighters; a
// step more than a metre up bars it, a drop ends it there.
std::vector<int> NativeCombat::PushPath(int fi, int dx, int dy, int metres) const {
  const int w = g_.width, pos = s_.fighters[fi].pos;
  int x = pos % w, y = pos / w, elev = g_.elevation[pos];
  std::vector<int> cells;
  for (int step = 0; step < metres; ++step) {
    x += dx, y += dy;
    if (x < 0 || x >= w || y < 0 || y >= g_.height) break;
    const int cell = y * w + x;
    if (s_.solid[cell] || s_.occupant[cell] >= 0) break;
    if (g_.elevation[cell] - elev > 1) break;
    cells.push_back(cell);
    if (g_.elevation[cell] < elev - 1) break;  // over the edge
    elev = g_.elevation[cell];
  }
  return cells;
}

// DragFrame._reach: half the attacker's Bewegung (eingeschränkt halves it first), around
// walls and standing enemies, ending on no occupied cell.
std::optional<Routes> NativeCombat::DragReach(int fi) {
  const Fighter& a = s_.fighters[fi];
  const bool limited = a.Has(kEingeschraenkt);
  const int movement = g_.specs[fi].movement;
  const int base = limited ? std::max(1, movement / 2) : movement;  // movement_allowance_base
  std::vector<std::uint8_t> blocked(s_.solid);  // movement.py blocked_for
  std::vector<int> occupied;
  for (const Fighter& g : s_.fighters)
    if (g.side != a.side && g.on_map() && !g.down) blocked[g.pos] = 1;
  for (int cell = 0; cell < static_cast<int>(s_.occupant.size()); ++cell)
    if (s_.occupant[cell] >= 0) occupied.push_back(cell);
  const FighterMoves& m = moves_[fi];
  return (limited ? *m.limited : *m.free)
      .Search({.blocked = blocked,
               .start = a.pos,
               .budget = std::max(1, base / 2),
               .occupied = occupied,
               .passable = {},
               .guards = {},
               .geometry = static_cast<Geometry>(rules_.geometry),
               .threat = false,
               .difficult = false,
               .parity = 0});
}

// DragFrame (K03): where to drag (DRAG), then step by step the attacker moves and the target
// follows into the cell it left; the attacker's steps may provoke Blockadeangriffe (R04),
// the target's only under X43 all_forced.
NativeCombat::Result NativeCombat::Step(DragF& d, Value v) {
  constexpr int kPrompt = 0, kAnswered = 1, kDragging = 2, kReactorAnswered = 3;  // DragStage
  const Fighter& a = s_.fighters[d.attacker];
  const Fighter& t = s_.fighters[d.target];
  if (d.stage == kPrompt) {
    d.stage = kAnswered;
    if (!a.standing() || t.dead) return Result::kDone;
    const std::optional<Routes> reach = DragReach(d.attacker);
    if (reach->dests().empty()) return Result::kDone;
    asked_acts_.clear();
    for (int cell : reach->dests())
      asked_acts_.push_back({PromptKind::kDragTo, d.attacker, d.target, -1, 0, cell});
    asked_acts_.push_back({PromptKind::kDragStop, d.attacker, d.target, -1, 0});
    return Ask(Asked::kDrag, d.attacker, asked_acts_);
  }
  if (d.stage == kAnswered) {
    if (v.answer.kind == PromptKind::kDragStop) return Result::kDone;
    const Route route = DragReach(d.attacker)->Get(v.answer.cell);
    d.path = route.cells, d.spent = route.spent;
    d.stage = kDragging;
    v = {};
  }
  if (d.stage == kReactorAnswered) {
    d.stage = kDragging;
    if (v.prompted && v.answer.kind == PromptKind::kBlockadeAttack) {
      PayReaction(d.reactor, v.answer.mumm, Reaction::kBlockade);
      AttackF strike;
      strike.attacker = d.reactor, strike.target = v.answer.target, strike.index = v.answer.arg;
      strike.mode = Mode::kBlockade;
      return Push(std::move(strike));
    }
  }
  while (d.i < static_cast<int>(d.path.size()) && a.standing()) {
    const int cell = d.path[d.i];
    const auto bit = [](int i) { return std::uint64_t{1} << i; };
    d.mover = d.attacker;
    int guard = BlockadeGuard(d.attacker, a.pos, cell, d.asked | bit(d.target));
    if (guard < 0 && strike_.forced_all && t.on_map()) {
      d.mover = d.target;
      guard = BlockadeGuard(d.target, t.pos, a.pos, d.asked | bit(d.attacker));
    }
    if (guard >= 0) {
      d.asked |= bit(guard);
      d.reactor = guard;
      d.stage = kReactorAnswered;
      return Ask(Asked::kBlockade, guard, asked_acts_);
    }
    const int prev = a.pos;
    MoveFighter(d.attacker, cell);
    MoveFighter(d.target, prev);
    d.a_done.push_back(cell), d.t_done.push_back(prev);
    ++d.i;
  }
  if (!d.a_done.empty()) {
    events_.push_back(Moved{d.attacker, d.a_done, d.spent[d.a_done.size() - 1], How::kZerrt});
    events_.push_back(ForcedMove{d.target, d.t_done, How::kMitzerren});
  }
  return Result::kDone;
}

}  // namespace cwenv::kampf
