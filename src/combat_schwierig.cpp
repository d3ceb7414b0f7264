// The native combat's Schwierige Bewegung and climbing (combat.hpp): handlungen.py
// schwierig, falls.py SchwierigFrame and difficult_check, climbing.py climb_step,
// ClimbFrame, holds and lost_holds (H07, B02-B06, X17, X18, X40, X48, X49, X62).
#include <algorithm>
#include <cstdlib>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

How Verb(StepKind kind) {  // falls.py DIFFICULT_VERBS
  switch (kind) {
    case StepKind::kClimb: return How::kKlettert;
    case StepKind::kSwim: return How::kSchwimmt;
    case StepKind::kJump: return How::kSpringt;
    case StepKind::kDrop: return How::kSpringtHinab;
    default: return How::kGeht;
  }
}

MoveF Walk(int fi, const std::vector<int>& cells, const std::vector<int>& spent, std::size_t n,
           How how) {
  MoveF m;
  m.fighter = fi, m.how = how;
  m.path.assign(cells.begin(), cells.begin() + static_cast<std::ptrdiff_t>(n));
  m.spent.assign(spent.begin(), spent.begin() + static_cast<std::ptrdiff_t>(n));
  return m;
}

}  // namespace

// turn.py TurnFrame.move_left (H00, B01, X40): nothing while benommen.
int NativeCombat::MoveLeft(const TurnF& t) const { return kampf::MoveLeft(g_, s_, t); }

// handlungen.py schwierig (H07): a partial climb of a high ledge, or the difficult route.
NativeCombat::Result NativeCombat::Schwierig(TurnF& t, const Act& a) {
  if (t.hard && Reaches(*t.hard, a.cell)) t.parity = t.hard->Get(a.cell).parity;  // X49
  if (t.hard) {
    const std::optional<ClimbStep> climb = ClimbStepOf(t.fighter, a.cell, MoveLeft(t), *t.hard);
    if (climb) {
      t.moved += climb->metres;
      return Push(ClimbF{0, t.fighter, *climb});
    }
  }
  if (!t.hard) throw std::logic_error("a SCHWIERIG without its search");
  SchwierigF hard;
  hard.fighter = t.fighter, hard.route = t.hard->Get(a.cell);
  t.moved += hard.route.metres;
  return Push(std::move(hard));
}

// climbing.py climb_step (B03, X40, X62): the part of a climbable ledge next to the
// fighter this Schwierige Bewegung climbs, unless the ledge is climbed whole now or reached
// by a whole difficult route.
std::optional<ClimbStep> NativeCombat::ClimbStepOf(int fi, int ledge, int move_left,
                                                   const Routes& hard) const {
  return kampf::ClimbStepOf(g_, s_, moves_[fi], fi, ledge, move_left, hard);
}

// falls.py difficult_check (H07, B02-B04, B06, X17): climbing and swimming on their
// readings' check, jumps and deep drops on Infiltration.
CheckF NativeCombat::DifficultCheck(int fi, StepKind kind) {
  Count(Tally::kMove, static_cast<int>(kind));
  const int check = kind == StepKind::kClimb  ? strike_.climb_check
                    : kind == StepKind::kSwim ? strike_.swim_check
                                              : strike_.infiltration_check;
  CheckF c = Check(fi, check, Purpose::kMove, false, false);
  c.index = static_cast<int>(kind);
  return c;
}

// ClimbFrame (B03, X40): the check, then the top or more metres climbed; a failure makes no
// headway and keeps what was climbed.
NativeCombat::Result NativeCombat::Step(ClimbF& c, Value v) {
  const ClimbStep& plan = c.plan;
  if (c.stage == 0) {
    c.stage = 1;
    return Push(DifficultCheck(c.fighter, StepKind::kClimb));
  }
  if (c.stage == 1) {
    c.stage = 2;
    if (!v.probe.success) {
      events_.push_back(Acted{c.fighter, ActKind::kFailed, -1, static_cast<int>(StepKind::kClimb)});
      return Result::kDone;
    }
    const int climbed = plan.done + plan.gained;
    if (climbed >= plan.height)  // the last part, told in the metres it cost (B03)
      return Push(Walk(c.fighter, {plan.ledge}, {plan.metres}, 1, How::kKlettert));
    Fighter& f = s_.fighters[c.fighter];
    f.climb_cell = plan.ledge, f.climb_height = climbed;
    events_.push_back(ClimbedPart{c.fighter, plan.ledge, climbed, plan.height, plan.down});
  }
  return Result::kDone;
}

// SchwierigFrame (H07, B02-B06, X18, X48): one check for the route's difficult steps.
// Success: the whole route (a deep drop's fall loses QS dice); failure: the free steps
// before the first difficult one are walked, then a climb or swim makes no headway, a long
// jump falls into the gap, a deep drop falls with every die.
NativeCombat::Result NativeCombat::Step(SchwierigF& h, Value v) {
  constexpr int kCheck = 0, kResult = 1, kMoved = 2, kFinished = 3;  // SchwierigStage
  const Route& route = h.route;
  const StepKind kind = static_cast<StepKind>(route.kind);
  const int fi = h.fighter;
  if (h.stage == kCheck) {
    h.stage = kResult;
    return Push(DifficultCheck(fi, kind));
  }
  const std::size_t free = static_cast<std::size_t>(std::max(route.first_hard, 0));
  if (h.stage == kResult) {
    h.result = v.probe;
    h.stage = kMoved;
    if (v.probe.success) return Push(Walk(fi, route.cells, route.spent, route.cells.size(), Verb(kind)));
    if (kind == StepKind::kClimb || kind == StepKind::kSwim) {
      events_.push_back(Acted{fi, ActKind::kFailed, -1, route.kind});
      h.stage = kFinished;
      return Push(Walk(fi, route.cells, route.spent, free, How::kGeht));
    }
    if (kind == StepKind::kJump) return Push(Walk(fi, route.cells, route.spent, free, Verb(kind)));
    return Push(Walk(fi, route.cells, route.spent, route.cells.size(), Verb(kind)));
  }
  if (h.stage == kMoved) {
    h.stage = kFinished;
    Fighter& f = s_.fighters[fi];
    if (kind == StepKind::kJump && !h.result.success) {
      const int w = g_.width, landing = route.cells[route.first_hard];
      const int x0 = f.pos % w, y0 = f.pos / w;
      const int dx = (landing % w > x0) - (landing % w < x0);
      const int dy = (landing / w > y0) - (landing / w < y0);
      const int gap = (y0 + dy) * w + x0 + dx;
      const int depth = g_.elevation[f.pos] - g_.elevation[gap];
      if (depth < 2 || !(strike_.standable >> static_cast<int>(g_.terrain[gap]) & 1)) {
        // X48: a failed jump over a low wall or up a step makes no headway
        events_.push_back(Acted{fi, ActKind::kFailed, -1, route.kind});
        return Result::kDone;
      }
      if (s_.occupant[gap] >= 0) return Result::kDone;
      MoveFighter(fi, gap);
      events_.push_back(ForcedMove{fi, {gap}, How::kIntoTheGap});
      return Push(FallF{0, fi, depth, false, 0, false});
    }
    if (kind == StepKind::kDrop && route.drop)
      return Push(FallF{0, fi, route.drop, false, h.result.success ? h.result.qs : 0, true});
  }
  return Result::kDone;
}

// climbing.py holds: every climber hanging at a wall now.
std::vector<Hold> NativeCombat::Holds() const {
  std::vector<Hold> out;
  for (std::size_t i = 0; i < s_.fighters.size(); ++i) {
    const Fighter& f = s_.fighters[i];
    if (f.climb_cell >= 0) out.push_back({static_cast<int>(i), f.climb_cell, f.climb_height, f.pos});
  }
  return out;
}

// climbing.py lost_holds (B03, B05, X40, X62): the first hold let go of since the last look
// (not by reaching the top) falls the height climbed, or, climbing down, the rest of the
// way into the cell below; ``holds`` becomes those to look at next time.
std::optional<FallF> NativeCombat::LostHolds(std::vector<Hold>& holds) {
  std::vector<Hold> now = Holds();
  if (!strike_.climb_let_go_falls) {
    holds = std::move(now);
    return std::nullopt;
  }
  std::vector<Hold> lost;
  for (const Hold& h : holds) {
    const Fighter& f = s_.fighters[h.fighter];
    if (f.climb_cell != h.ledge && f.pos != h.ledge && f.on_map() && !f.dead) lost.push_back(h);
  }
  for (std::size_t k = 0; k < lost.size(); ++k) {
    const Hold& h = lost[k];
    const Fighter& f = s_.fighters[h.fighter];
    const bool outside = turn_fighter_ != h.fighter;
    const int depth = g_.elevation[h.start] - g_.elevation[h.ledge];
    if (depth <= 0) {  // up: from where it hangs to the foot it stands at
      now.insert(now.end(), lost.begin() + static_cast<std::ptrdiff_t>(k) + 1, lost.end());
      holds = std::move(now);
      return FallF{0, h.fighter, h.climbed, outside, 0, false};
    }
    if (f.pos == h.start && s_.occupant[h.ledge] < 0) {  // X62, down: the rest of the way
      MoveFighter(h.fighter, h.ledge);
      events_.push_back(ForcedMove{h.fighter, {h.ledge}, How::kLetsGo});
      holds = Holds();
      holds.insert(holds.end(), lost.begin() + static_cast<std::ptrdiff_t>(k) + 1, lost.end());
      return FallF{0, h.fighter, depth - h.climbed, outside, 0, false};
    }
  }
  holds = std::move(now);
  return std::nullopt;
}

}  // namespace cwenv::kampf
