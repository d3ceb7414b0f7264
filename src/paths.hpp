// The movement search (B01–B06, R04, X43, X48, X49): the native twin of
// cwenv/battlemap/paths.py, which stays the readable reference. Both must give the same
// destinations, costs, provocations and routes, tie-breaks included
// (tests/test_native_paths.py checks it).
//
// The terrain steps themselves (steps.py's _terrain_edges and, for X49, the diagonal
// surcharge of each step) stay in Python: they are computed there once per map and
// MoveProfile and handed over as a table, so a change to the step rules reaches both
// engines at once. Only the search over them is native.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cwenv {

// The values of cwenv.battlemap.steps.StepKind.
enum class StepKind : std::uint8_t { kNormal = 0, kClimb = 1, kSwim = 2, kJump = 3, kDrop = 4 };
inline constexpr int kKinds = 5;

// cwenv.rules.readings.BlockadeGeometry (X43), in the order paths.py hands it over.
enum class Geometry : std::uint8_t { kPassing = 0, kStayInReach = 1, kEnterReach = 2 };

// One step out of a cell, as steps.py lists it: (to, metres, kind, drop), and for X49
// the surcharge and the parity after the step when the move's diagonal metres so far are
// even (index 0) or odd (index 1) (steps.py diagonal_surcharge).
struct Edge {
  int to;
  int metres;
  StepKind kind;
  int drop;
  int extra[2];
  int after[2];
};

// An enemy who could make a Blockadeangriff (R04): its cell and best melee reach.
struct Guard {
  int x;
  int y;
  int reach;
};

// R04, X43: whether the step (sx, sy) from (rx, ry), the mover's offset from a guard of
// melee ``reach``, moves past the guard (blockade.py passes).
bool Passes(Geometry geometry, int rx, int ry, int sx, int sy, int reach);

// The chosen way to a destination (paths.py Route).
struct Route {
  std::vector<int> cells;  // after the start
  int metres;
  int kind;
  int provocations;
  int drop;
  int first_hard;
  int parity;
  std::vector<int> spent;  // the metres spent on reaching each of cells
};

// What one search starts from (paths.py reachable's arguments).
struct Query {
  std::span<const std::uint8_t> blocked;
  int start;
  int budget;
  std::span<const int> occupied;
  std::span<const int> passable;
  std::span<const Guard> guards;
  Geometry geometry;
  bool threat;  // false: no threat given, no step provokes
  bool difficult;
  int parity;
};

// The result of a search: its tables, indexed by search state
// (cell * kinds + kind) * parities + parity, and the destinations in cell order.
class Routes {
 public:
  const std::vector<int>& dests() const { return dests_; }
  // The route to a destination; the caller checks that ``cell`` is one.
  Route Get(int cell) const;

  // The tables as plain data and back, so that a combat holding a search can be pickled
  // and deep-copied (bind.cpp).
  struct State {
    int start_key, mult, par;
    bool difficult;
    std::vector<int> best, prov, pred, drop, dests;
  };
  State Save() const;
  static Routes Load(State state);

 private:
  friend class Moves;
  int Key(int cell) const;

  int start_key_ = 0;
  int mult_ = 1;  // kinds in a state: 1 for free movement, kKinds with difficult steps
  int par_ = 1;   // 2 with alternating diagonals (X49)
  bool difficult_ = false;
  std::vector<int> best_, prov_, pred_, drop_;
  std::vector<int> dests_;
};

// The terrain steps of one map for one MoveProfile, and the search over them.
class Moves {
 public:
  // ``offsets[c]..offsets[c + 1]`` index cell c's steps in ``edges``, in steps.py's order.
  Moves(int width, int height, std::vector<int> offsets, std::vector<Edge> edges,
        bool alternate);

  int size() const { return width_ * height_; }
  Routes Search(const Query& q) const;
  // The difficult search (q.difficult) after the free search ``free`` of the same query:
  // the same Routes as Search(q), cheaper where no difficult step is within reach.
  Routes SearchDifficult(const Query& q, const Routes& free) const;
  // Cell c's steps, in steps.py's order (climbing.py climb_actions reads its climbs).
  std::span<const Edge> EdgesOf(int c) const {
    return {edges_.data() + offsets_[c], edges_.data() + offsets_[c + 1]};
  }

 private:
  // A search's working buffers, kept between searches (Search).
  struct Scratch {
    std::vector<std::uint8_t> blocked, occupied, passable, reached;
    std::vector<std::vector<int>> buckets;
  };
  template <int Par, int Mult>
  void Expand(const Query& q, Routes& r, Scratch& scratch) const;
  // Guards about the cell (ax, ay); the steps from it to b that provoke them.
  int Provocations(const Query& q, int ax, int ay, int b) const;
  bool Near(const Query& q, int ax, int ay) const;

  int width_;
  int height_;
  std::vector<int> offsets_;
  std::vector<Edge> edges_;
  bool alternate_;
};

}  // namespace cwenv
