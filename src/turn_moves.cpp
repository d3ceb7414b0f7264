// The inputs of a fighter's movement search (B01, R04, R01, X24): the native twin of
// cwenv/engine/turn.py move_search with movement.py blocked_for and threat_of and
// fighter.py melee_reach. The search itself is paths.cpp's; tests/test_native_legality.py
// checks that both engines' inputs give the same routes.
#include <algorithm>
#include <cstdlib>

#include "faults.hpp"
#include "kampf.hpp"

namespace cwenv::kampf {

// fighter.py melee_reach (R04): the longest reach among usable melee weapons.
int MeleeReach(const Spec& spec, const Fighter& f) {
  int best = 0;
  for (int wi = 0; wi < spec.n_weapons; ++wi) {
    const Weapon& w = spec.weapons[wi];
    if (!w.ranged && w.reach > best && WeaponUsable(spec, f, wi)) best = w.reach;
  }
  return best;
}

namespace {

// conditions.py can_use_reaction (R01, X24): standing, and not benommen unless X24
// keeps its reactions.
bool CanReact(const Options& o, const Fighter& f) {
  return f.standing() && (!f.Has(kBenommen) || o.benommen_reactions_kept);
}

}  // namespace

void MoveInputsOf(const GameDesc& g, const State& s, int fi, MoveInputs& out) {
  const Fighter& f = s.fighters[fi];
  out.blocked = s.solid;  // blocked_for: terrain and closed doors, then standing non-allies
  out.occupied.clear();
  out.passable.clear();
  out.guards.clear();
  for (std::size_t c = 0; c < s.occupant.size(); ++c)
    if (s.occupant[c] >= 0) out.occupied.push_back(static_cast<int>(c));
  for (std::size_t gi = 0; gi < s.fighters.size(); ++gi) {
    const Fighter& o = s.fighters[gi];
    const bool ally = o.side == f.side;
    if (!ally && o.on_map() && !o.down) out.blocked[o.pos] = 1;
    // move_search: allies and the fallen may be passed through (B01).
    if (o.on_map() && (ally || o.down)) out.passable.push_back(o.pos);
    if (ally || !CanReact(g.options, o)) continue;  // threat_of (R04)
    int reach = MeleeReach(g.specs[gi], o);
    // Test-only fault (faults.hpp): every guard reaches one metre further.
    if (reach > 0 && g_fault == Fault::kGuardReach) ++reach;
    if (reach > 0) out.guards.push_back({o.pos % g.width, o.pos / g.width, reach});
  }
}

void ClimbActions(const GameDesc& g, const State& s, const Moves& moves, int slow_cost, int fi,
                  int move_left, const Routes& hard, std::vector<Act>& out) {
  if (!g.options.climb_over_actions || move_left < 1) return;
  const Fighter& f = s.fighters[fi];
  const std::vector<int>& dests = hard.dests();
  auto offered = [&](int c) { return std::binary_search(dests.begin(), dests.end(), c); };
  for (const Edge& e : moves.EdgesOf(f.pos)) {
    const int ledge = e.to;
    if (e.kind != StepKind::kClimb || offered(ledge)) continue;
    // climb_step: a free climbable ledge next to the fighter, a climb that is partial.
    if (s.occupant[ledge] >= 0) continue;
    const int height = std::abs(g.elevation[ledge] - g.elevation[f.pos]);  // X62: or down
    const int done = f.climb_cell == ledge ? f.climb_height : 0;
    const int remaining = height - done;
    const int gained = std::min(remaining, std::max(1, move_left / slow_cost));
    if (!done && gained == remaining) continue;  // climbed whole now: not partial
    out.push_back({Kind::kSchwierig, fi, -1, ledge, -1});
  }
}

}  // namespace cwenv::kampf
