// What a turn has left to move and what a SCHWIERIG climb would do (combat.hpp): the twins
// of turn.py TurnFrame.move_left and climbing.py climb_step, free functions of the state
// so that the native combat and the doctrines' twins (agents/native/) share them.
#include <algorithm>
#include <cstdlib>

#include "combat.hpp"

namespace cwenv::kampf {

bool Reaches(const Routes& routes, int cell) {
  const std::vector<int>& dests = routes.dests();
  return std::binary_search(dests.begin(), dests.end(), cell);
}

int MoveLeft(const GameDesc& g, const State& s, const TurnF& t) {
  if (t.benommen) return 0;
  const Fighter& f = s.fighters[t.fighter];
  return std::max(
      0, t.grants * MovementAllowance(g.options, g.specs[t.fighter], f) + t.sprint_bonus - t.moved);
}

std::optional<ClimbStep> ClimbStepOf(const GameDesc& g, const State& s, const FighterMoves& m,
                                     int fi, int ledge, int move_left, const Routes& hard) {
  if (!g.options.climb_over_actions || move_left < 1 || s.occupant[ledge] >= 0)
    return std::nullopt;
  const Fighter& f = s.fighters[fi];
  const bool limited = f.Has(kEingeschraenkt);
  const Moves& moves = limited ? *m.limited : *m.free;
  const int slow = limited ? m.limited_slow : m.free_slow;
  const auto edges = moves.EdgesOf(f.pos);
  if (std::none_of(edges.begin(), edges.end(), [&](const Edge& e) {
        return e.to == ledge && e.kind == StepKind::kClimb;
      }))
    return std::nullopt;
  const int rise = g.elevation[ledge] - g.elevation[f.pos];  // below 0: down (X62)
  const int height = std::abs(rise);
  const int done = f.climb_cell == ledge ? f.climb_height : 0;
  const int remaining = height - done;
  const int gained = std::min(remaining, std::max(1, move_left / slow));
  if (!done && (gained == remaining || Reaches(hard, ledge))) return std::nullopt;
  return ClimbStep{ledge, std::min(move_left, gained * slow), gained, height, done, rise < 0};
}

std::optional<ClimbStep> NativeCombat::PlannedClimb(const TurnF& t, int ledge) const {
  return kampf::ClimbStepOf(g_, s_, moves_[t.fighter], t.fighter, ledge, kampf::MoveLeft(g_, s_, t),
                            *t.hard);
}

}  // namespace cwenv::kampf
