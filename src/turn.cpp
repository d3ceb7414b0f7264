// One TURN decision's legal choices (H00-H12, B01-B06, M07, M08, Z02): the native twin of
// cwenv/engine/turn.py turn_actions, with checks.py mumm_problem, conditions.py
// mumm_shakes and movement.py movement_allowance. tests/test_native_legality.py checks
// the same list, order included, and the same searches at every TURN decision.
#include <algorithm>

#include "faults.hpp"
#include "kampf.hpp"
#include "prompts.hpp"

namespace cwenv::kampf {

namespace {

bool SameGuards(const std::vector<Guard>& a, const std::vector<Guard>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Guard& x, const Guard& y) {
    return x.x == y.x && x.y == y.y && x.reach == y.reach;
  });
}

int FloorHalf(int m) { return m >= 0 ? m / 2 : -((-m + 1) / 2); }  // Python's m // 2

}  // namespace

// Outside the anonymous namespace: the prompts (prompts.hpp) ask them too.
// checks.py mumm_problem (M01-M09, M11, X10, X11): whether ``f`` may pay ``cost`` Mumm.
bool MummOk(const Options& o, const Fighter& f, int cost) {
  if (f.dead || f.mumm < cost) return false;
  if (f.side != kRunner && !o.nsc_mumm) return false;
  if (f.Has(kEntmutigt) && (!o.mumm_verbrennen || f.mumm_max < cost)) return false;
  return true;
}

// conditions.py mumm_shakes (M08, X55): one MUMM_SHAKE per condition held that its table
// entry lets Mumm end, then per Zehrend slot X55 lets it end, when 2 Mumm may be paid.
void MummShakes(const GameDesc& g, const Fighter& f, int fi, std::vector<Act>& out) {
  if (!(f.conditions || f.n_zehrend) || !MummOk(g.options, f, g.turn.shake_cost)) return;
  for (int cond = 0; cond < kConditions; ++cond)
    if (f.Has(cond) && g.turn.mumm_shakeable >> cond & 1)
      out.push_back({Kind::kMummShake, fi, -1, -1, cond});
  const int zehrend_shake = g.options.zehrend_shake;
  if (zehrend_shake == 2) return;  // never
  const bool in_fire = f.on_map() && g.terrain[f.pos] == Terrain::kFire;  // D03 danger zone
  for (int slot = 0; slot < std::min(f.n_zehrend, kZehrendSlots); ++slot) {
    if (zehrend_shake == 1 && (f.zehrend_fire >> slot & 1) && in_fire) continue;
    out.push_back({Kind::kMummShake, fi, -1, -1, kZehrendArg + slot});
  }
}

// movement.py movement_allowance (B01, Z03, X40); the native combat's sprint reads it too.
int MovementAllowance(const Options& o, const Spec& spec, const Fighter& f) {
  int metres = spec.movement;
  if (f.Has(kEingeschraenkt)) metres = std::max(1, FloorHalf(metres));
  if (f.prone()) {
    if (o.prone_movement_none) return 0;
    metres = std::max(1, FloorHalf(metres));
  }
  return metres;
}

void TurnActions(const GameDesc& g, const Lines& lines, const State& s, const Moves& moves,
                 int slow_cost, int geometry, int fi, MoveInputs& scratch, TurnAnswer& out) {
  const Fighter& f = s.fighters[fi];
  const TurnNumbers& t = s.turn;
  auto& acts = out.acts;
  acts.clear();
  out.free.reset();
  out.hard.reset();
  MummShakes(g, f, fi, acts);
  // M07: once per round, for its Mumm.
  // Test-only fault (faults.hpp): M07 offered again after it was taken this round.
  const bool used = f.extra_action_used && g_fault != Fault::kExtraActionTwice;
  const bool extra_open = !used && MummOk(g.options, f, g.turn.extra_action_cost);
  if (t.benommen) {  // Z02: the Handlung is the Mumm-Probe; after it, M07 or the end
    if (t.handlungen > 0) {
      acts.push_back({Kind::kMummProbe, fi, -1, -1, -1});
      return;
    }
    if (!f.Has(kBenommen) && extra_open) acts.push_back({Kind::kMummExtraAction, fi, -1, -1, -1});
    acts.push_back({Kind::kEndTurn, fi, -1, -1, -1});
    return;
  }
  // TurnFrame.move_left (H00, B01): every grant of movement, the sprint, less the metres moved.
  const int move_left = std::max(
      0, t.grants * MovementAllowance(g.options, g.specs[fi], f) + t.sprint_bonus - t.moved);
  if (move_left > 0) {
    MoveInputsOf(g, s, fi, scratch);
    auto search = [&](bool difficult) {
      SearchMemo& memo = out.memo[difficult];
      if (memo.routes && memo.moves == &moves && memo.start == f.pos &&
          memo.budget == move_left && memo.parity == t.parity && memo.geometry == geometry &&
          memo.blocked == scratch.blocked && memo.occupied == scratch.occupied &&
          memo.passable == scratch.passable && SameGuards(memo.guards, scratch.guards))
        return memo.routes;
      const Query q{
          .blocked = scratch.blocked,
          .start = f.pos,
          .budget = move_left,
          .occupied = scratch.occupied,
          .passable = scratch.passable,
          .guards = scratch.guards,
          .geometry = static_cast<Geometry>(geometry),
          .threat = true,
          .difficult = difficult,
          .parity = t.parity,
      };
      // the free search runs first, from the same inputs
      memo.routes = std::make_shared<const Routes>(
          difficult ? moves.SearchDifficult(q, *out.free) : moves.Search(q));
      memo.moves = &moves, memo.start = f.pos, memo.budget = move_left;
      memo.parity = t.parity, memo.geometry = geometry;
      memo.blocked = scratch.blocked, memo.occupied = scratch.occupied;
      memo.passable = scratch.passable, memo.guards = scratch.guards;
      return memo.routes;
    };
    out.free = search(false);
    for (int cell : out.free->dests()) acts.push_back({Kind::kMove, fi, -1, cell, -1});
    if (t.handlungen > 0 && g.turn.difficult_terrain) {  // H07
      out.hard = search(true);
      for (int cell : out.hard->dests()) acts.push_back({Kind::kSchwierig, fi, -1, cell, -1});
      ClimbActions(g, s, moves, slow_cost, fi, move_left, *out.hard, acts);
    }
  }
  bool committed = false;
  if (t.handlungen > 0) {
    std::vector<Act> handlungen;
    HandlungActions(g, lines, s, fi, handlungen);
    acts.insert(acts.end(), handlungen.begin(), handlungen.end());
    // X40 alternative: whoever moved must take the Handlung the movement belongs to.
    committed = !handlungen.empty() && t.moved > 0 && !g.options.move_with_forfeited_handlung;
  } else if (extra_open) {
    acts.push_back({Kind::kMummExtraAction, fi, -1, -1, -1});
  }
  if (!committed) acts.push_back({Kind::kEndTurn, fi, -1, -1, -1});
}

}  // namespace cwenv::kampf
