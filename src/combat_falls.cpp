// The native combat's forced movement, falls and escapes (combat.hpp): effects.py
// slide_path (A08 Fehltritt), falls.py ForcedMoveFrame and FallFrame (B05, B06, R05, X18,
// X43), movement.py _maybe_escape (REACH_EXIT).
#include <algorithm>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

int Sign(int v) { return (v > 0) - (v < 0); }

// FallStage, ForcedStage
constexpr int kFallStart = 0, kFallAnswered = 1, kFallCaught = 2, kFallFalling = 3,
              kFallFinished = 4;
constexpr int kForcedMove = 0, kForcedLanded = 1, kForcedFinished = 2;

}  // namespace

// effects.py slide_path (A08 Fehltritt): 2 m onward past the opponent, veering round
// anything in the way; a step more than a metre up bars it, a drop ends it.
std::vector<int> NativeCombat::SlidePath(int fi, int toward) const {
  const int w = g_.width, pos = s_.fighters[fi].pos;
  int dx = Sign(toward % w - pos % w), dy = Sign(toward / w - pos / w);
  if (dx == 0 && dy == 0) dx = 1;
  const int options[3][2] = {{dx, dy}, {Sign(dx - dy), Sign(dx + dy)}, {Sign(dx + dy), Sign(dy - dx)}};
  int x = pos % w, y = pos / w, elev = g_.elevation[pos];
  std::vector<int> path;
  for (int step = 0; step < strike_.push_metres; ++step) {
    bool moved = false;
    for (const auto& o : options) {
      const int nx = x + o[0], ny = y + o[1];
      if (nx < 0 || nx >= w || ny < 0 || ny >= g_.height) continue;
      const int cell = ny * w + nx;
      if (s_.solid[cell] || s_.occupant[cell] >= 0 ||
          std::find(path.begin(), path.end(), cell) != path.end() ||
          g_.elevation[cell] - elev > 1)
        continue;
      path.push_back(cell);
      x = nx, y = ny, moved = true;
      break;
    }
    if (!moved || g_.elevation[path.back()] < elev - 1) break;
    elev = g_.elevation[path.back()];
  }
  return path;
}

// ForcedMoveFrame: the path walked (a MoveFrame that provokes only under X43), then a fall
// if it went over an edge.
NativeCombat::Result NativeCombat::Step(ForcedMoveF& m, Value) {
  const Fighter& f = s_.fighters[m.fighter];
  if (m.stage == kForcedMove) {
    m.stage = kForcedLanded;
    if (m.path.empty()) return Result::kDone;
    m.start_elev = g_.elevation[f.pos];
    events_.push_back(ForcedMove{m.fighter, m.path, m.cause});
    MoveF walk;
    walk.fighter = m.fighter, walk.path = m.path, walk.how = m.cause, walk.provoke = m.provoke;
    for (std::size_t i = 1; i <= m.path.size(); ++i) walk.spent.push_back(static_cast<int>(i));
    return Push(std::move(walk));
  }
  if (m.stage == kForcedLanded) {
    m.stage = kForcedFinished;
    const int depth = m.start_elev - g_.elevation[f.pos];
    if (depth > 0 && f.on_map() && !f.dead) {
      FallF fall;
      fall.fighter = m.fighter, fall.metres = depth, fall.outside_turn = turn_fighter_ != m.fighter;
      return Push(fall);
    }
  }
  return Result::kDone;
}

// FallFrame (B05, B06, R05, X18): absorbed up to the free drop; outside the faller's turn
// a reaction may catch it with Infiltration, whose QS removes damage dice.
NativeCombat::Result NativeCombat::Step(FallF& fall, Value v) {
  const int fi = fall.fighter;
  const Fighter& f = s_.fighters[fi];
  if (fall.stage == kFallStart) {
    if (fall.metres <= strike_.specs[fi].free_drop[f.Has(kEingeschraenkt)]) return Result::kDone;
    fall.stage = kFallAnswered;
    if (fall.outside_turn) {
      CatchFallChoices(g_, prompts_, f, fi, ReactingOf(fi), asked_acts_);
      if (!asked_acts_.empty()) return Ask(Asked::kSturz, fi, asked_acts_);
    }
    if (!fall.outside_turn && !fall.checked && strike_.own_turn_fall_roll) {  // X18: B05's roll
      fall.stage = kFallCaught;
      return Push(Check(fi, strike_.infiltration_check, Purpose::kCatchFall, false, false));
    }
    v = {};
  }
  if (fall.stage == kFallAnswered) {
    fall.stage = kFallFalling;
    if (v.prompted && v.answer.kind == PromptKind::kCatchFall) {
      PayReaction(fi, v.answer.mumm, Reaction::kCatchFall);
      fall.stage = kFallCaught;
      return Push(Check(fi, strike_.infiltration_check, Purpose::kCatchFall, true, false));
    }
  }
  if (fall.stage == kFallCaught) {
    if (v.probe.success) fall.reduce += v.probe.qs;
    fall.stage = kFallFalling;
  }
  if (fall.stage == kFallFalling) {
    const int per = strike_.fall_metres_per_die;  // movement.py fall_dice (B05, X18)
    const int dice = std::max(
        0, (strike_.fall_dice_up ? (fall.metres + per - 1) / per : fall.metres / per) - fall.reduce);
    events_.push_back(Fell{fi, fall.metres, dice});
    fall.stage = kFallFinished;
    if (dice) {
      DamageF d;
      d.target = fi, d.dice = dice, d.mode = strike_.fall_armour_mode;
      d.forms = strike_.sturz_form, d.cause = {CauseKind::kSturz};
      return Push(d);
    }
  }
  return Result::kDone;
}

// movement.py _maybe_escape: a fighter on an exit cell whose side must reach it leaves.
void NativeCombat::MaybeEscape(int fi) {
  Fighter& f = s_.fighters[fi];
  if (!rules_.exits[f.pos] || !(strike_.escape_sides >> f.side & 1)) return;
  f.fled = true;
  if (s_.occupant[f.pos] == fi) s_.occupant[f.pos] = -1;
  events_.push_back(StatusChanged{fi, Status::kEscaped, {}});
  dirty_ = true;
}

}  // namespace cwenv::kampf
