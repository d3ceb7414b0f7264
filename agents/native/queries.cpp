// What search asks of a state besides its rollouts (agents/search.py), answered in C++ on
// the native combat (issue #16, "MCTS ≥ 1,000 iterations/s"): the state value with the
// conditions' costs (search.py state_value, worth.py condition_cost) and the MOVE cells a
// TURN decision keeps as candidates (search.py move_candidates, its draw left to Python).
// Each keeps its Python twin's order of operations, so the same doubles come out;
// tests/test_native_queries.py holds them to it. Built into agents._rollouts and handed to
// the core as kampf::CombatQuery capsules; the engine knows neither.
#include "doctrine.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "board.hpp"

namespace cwenv::doctrine {

namespace {

using kampf::NativeCombat;

// The caches a Board reads, shared by every question of one kind (a state value is asked
// once per search iteration, on the same map).
struct Caches {
  std::mutex mutex;
  Exact exact;
  Walks walks;
};

// search.py state_value for a fight not yet decided. args: side, lp_weight,
// standing_weight, condition_weight, mumm_value; the answer: the value.
class StateValue final : public kampf::CombatQuery {
 public:
  std::vector<double> Ask(const NativeCombat& c, std::span<const double> args) const override {
    if (args.size() != 5) throw std::invalid_argument("state_value: 5 arguments");
    const int side = static_cast<int>(args[0]);
    const double lp_weight = args[1], standing_weight = args[2];
    const double condition_weight = args[3], mumm_value = args[4];
    const std::lock_guard<std::mutex> lock(caches_.mutex);
    std::optional<Board> board;
    if (condition_weight > 0 && c.decision()) board.emplace(c, caches_.exact, caches_.walks);
    const auto& fighters = c.state().fighters;
    const int foe = side == kampf::kRunner ? kampf::kGegner
                    : side == kampf::kGegner ? kampf::kRunner : -1;  // hostile_sides
    // search.py effective: LP lowered by what the conditions cost over one turn
    const auto effective = [&](int i) {
      const Fighter& f = fighters[i];
      const double lp = static_cast<double>(std::max(f.lp, 0));
      if (!board || f.conditions == 0 || !f.standing()) return lp;
      double cost = 0.0;
      for (int cond = 0; cond < 32; ++cond)  // the Condition enum's order
        if (f.Has(cond) && cond != kampf::kSterbend)
          cost += board->ConditionCost(i, cond, 1.0, mumm_value);
      return std::max(0.0, lp - condition_weight * cost);
    };
    // search.py shares: (LP share, standing share) of the fighters of ``of``
    const auto shares = [&](int of) {
      double lp = 0.0;
      int total_lp = 0, up = 0, n = 0;
      for (std::size_t i = 0; i < fighters.size(); ++i) {
        const Fighter& f = fighters[i];
        if (f.side != of) continue;
        ++n;
        if (!f.dead) lp += effective(static_cast<int>(i));
        total_lp += c.game().specs[i].lp;
        up += f.standing() || f.fled;
      }
      if (n == 0) return std::pair<double, double>{0.0, 0.0};
      return std::pair<double, double>{lp / total_lp, static_cast<double>(up) / n};
    };
    const auto [lp_m, up_m] = shares(side);
    const auto [lp_t, up_t] = foe < 0 ? std::pair<double, double>{0.0, 0.0} : shares(foe);
    const double total = lp_weight + standing_weight;
    if (total <= 0) return {0.0};
    return {0.9 * (lp_weight * (lp_m - lp_t) + standing_weight * (up_m - up_t)) / total};
  }

 private:
  mutable Caches caches_;
};

// search.py move_candidates without its draw: the MOVE cells kept as candidates of a TURN
// decision (nearest to each enemy, best cover, farthest back, nearest exit), at most
// ``limit``. args: limit, then the MOVE cells offered, ascending (the caller's legal list,
// which may be narrower than the core's); the answer: the cells, in the order picked.
class MoveCandidates final : public kampf::CombatQuery {
 public:
  std::vector<double> Ask(const NativeCombat& c, std::span<const double> args) const override {
    if (args.empty()) throw std::invalid_argument("move_candidates: a limit, then the cells");
    const auto limit = static_cast<std::size_t>(std::max(args[0], 0.0));
    if (!c.decision() || c.prompt()) throw std::invalid_argument("not a TURN decision");
    const int size = c.game().width * c.game().height;
    std::vector<int> cells;
    for (std::size_t k = 1; k < args.size(); ++k) {
      const int cell = static_cast<int>(args[k]);
      if (cell < 0 || cell >= size || (!cells.empty() && cell <= cells.back()))
        throw std::invalid_argument("move_candidates: cells on the map, ascending");
      cells.push_back(cell);
    }
    std::vector<double> picked;
    if (cells.empty() || limit == 0) return picked;
    const std::lock_guard<std::mutex> lock(caches_.mutex);
    Board b(c, caches_.exact, caches_.walks);
    const auto add = [&](int cell) {
      if (picked.size() < limit && std::find(picked.begin(), picked.end(), cell) == picked.end())
        picked.push_back(cell);
    };
    // the first cell with the least (or most) key: the keys end in the cell, so none tie
    const auto least = [&](const std::vector<int>& among, auto key) {
      return *std::min_element(among.begin(), among.end(),
                               [&](int x, int y) { return key(x) < key(y); });
    };
    for (int e : b.enemies) {
      const int at = b.s.fighters[e].pos;
      add(least(cells, [&](int x) { return std::make_pair(b.Dist(x, at), x); }));
    }
    const std::vector<std::uint8_t>& cover = b.CoverCells();
    std::vector<int> covered;
    for (int x : cells)
      if (cover[x]) covered.push_back(x);
    if (!covered.empty() && !b.enemies.empty()) {
      const auto protection = [&](int x) {  // enemies it has at least half cover against
        int n = 0;
        for (int e : b.enemies) n += b.TerrainCover(b.s.fighters[e].pos, x) >= Cover::kHalf;
        return n;
      };
      add(least(covered, [&](int x) {  // max of (protection, -nearest enemy, -cell)
        return std::make_tuple(-protection(x), b.NearestEnemyDistance(x), x);
      }));
    }
    if (!b.enemies.empty())
      add(least(cells, [&](int x) { return std::make_pair(-b.NearestEnemyDistance(x), x); }));
    if (b.exits_goal)
      add(least(cells, [&](int x) { return std::make_pair(b.ExitDistance(x), x); }));
    return picked;
  }

 private:
  mutable Caches caches_;
};

}  // namespace

kampf::CombatQuery* MakeStateValue() { return new StateValue(); }
kampf::CombatQuery* MakeMoveCandidates() { return new MoveCandidates(); }

}  // namespace cwenv::doctrine
