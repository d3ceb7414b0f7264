#include "paths.hpp"

#include "faults.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace cwenv {

namespace {

int Chebyshev(int dx, int dy) { return std::max(std::abs(dx), std::abs(dy)); }

// Python's a % b for b > 0 (the reference takes the start parity modulo the parities).
int Mod(int a, int b) { return ((a % b) + b) % b; }

}  // namespace

// R04, X43 (blockade.py passes): PASSING, the default, is a step that starts inside reach
// and keeps the distance or runs at right angles to the line to the guard;
// STAY_IN_REACH keeps the distance inside reach; ENTER_REACH is any step ending inside
// reach that does not move away.
bool Passes(Geometry geometry, int rx, int ry, int sx, int sy, int reach) {
  const int da = Chebyshev(rx, ry), db = Chebyshev(rx + sx, ry + sy);
  if (geometry == Geometry::kEnterReach) return db <= reach && db <= da;
  if (da > reach) return false;
  if (da == db) return true;
  return geometry == Geometry::kPassing && rx * sx + ry * sy == 0;
}

Moves::Moves(int width, int height, std::vector<int> offsets, std::vector<Edge> edges,
             bool alternate)
    : width_(width),
      height_(height),
      offsets_(std::move(offsets)),
      edges_(std::move(edges)),
      alternate_(alternate) {}

// R04, X43 (blockade.py Threat.masks): whether some guard's reach, one metre wider under
// ENTER_REACH, covers cell a, so that a step out of it may provoke.
bool Moves::Near(const Query& q, int ax, int ay) const {
  if (!q.threat) return false;
  const int extra = q.geometry == Geometry::kEnterReach ? 1 : 0;
  for (const Guard& g : q.guards)
    if (Chebyshev(ax - g.x, ay - g.y) <= g.reach + extra) return true;
  return false;
}

// R04, X43 (blockade.py Threat.count): how many guards the step a → b moves past.
int Moves::Provocations(const Query& q, int ax, int ay, int b) const {
  const int extra = q.geometry == Geometry::kEnterReach ? 1 : 0;
  const int sx = b % width_ - ax, sy = b / width_ - ay;
  int n = 0;
  for (const Guard& g : q.guards) {
    const int rx = ax - g.x, ry = ay - g.y;
    if (Chebyshev(rx, ry) <= g.reach + extra && Passes(q.geometry, rx, ry, sx, sy, g.reach)) ++n;
  }
  return n;
}

// Search's expansion (Dial's algorithm) for Par parities and Mult kinds per cell.
template <int Par, int Mult>
void Moves::Expand(const Query& q, Routes& r, Scratch& scratch) const {
  // Raw pointers held in locals: a byte store (reached) may alias anything, and the
  // compiler would reload every vector's data pointer after it.
  int* const best = r.best_.data();
  int* const prov = r.prov_.data();
  int* const pred = r.pred_.data();
  int* const drop = r.drop_.data();
  const std::uint8_t* const wall = scratch.blocked.data();
  std::uint8_t* const seen = scratch.reached.data();
  auto& buckets = scratch.buckets;
  const int* const offsets = offsets_.data();
  const Edge* const edges = edges_.data();
  const int budget = q.budget;
  const bool difficult = q.difficult;
  for (int metres = 0; metres <= budget; ++metres) {
    // Indexed: a step never costs nothing, so no bucket grows while it is read.
    for (std::size_t i = 0; i < buckets[metres].size(); ++i) {
      const int key = buckets[metres][i];
      if (best[key] != metres) continue;
      const int parity = key % Par, state = key / Par;
      const int cell = state / Mult, kind = state % Mult;
      const int p0 = prov[key];
      const int cx = cell % width_, cy = cell / width_;
      const bool near = Near(q, cx, cy);
      for (int e = offsets[cell]; e < offsets[cell + 1]; ++e) {
        const Edge& edge = edges[e];
        int cost = edge.metres, after = parity;
        if constexpr (Par == 2) {  // X49: every second diagonal metre costs 2
          cost += edge.extra[parity];
          after = edge.after[parity];
        }
        int nm = metres + cost;
        if (nm > budget) {
          // B04 '(min. 1 Meter)': a fighter too slow for half speed still swims 1 m.
          if (!(metres == 0 && edge.kind == StepKind::kSwim && budget >= 1)) continue;
          nm = budget;
        }
        if (wall[edge.to]) continue;
        int new_key, new_kind;
        if (edge.kind != StepKind::kNormal) {
          // H07: a Schwierige Bewegung uses one kind of difficult step.
          const int step_kind = static_cast<int>(edge.kind);
          if (!difficult || (kind && kind != step_kind)) continue;
          new_kind = step_kind;
        } else {
          new_kind = kind;
        }
        new_key = (edge.to * Mult + new_kind) * Par + after;
        const int np = near ? p0 + Provocations(q, cx, cy, edge.to) : p0;
        const int b = best[new_key];
        if (b < 0 || nm < b) {
          best[new_key] = nm;
          prov[new_key] = np;
          pred[new_key] = key;
          // The deepest drop on the way; like the reference it is written only when
          // non-zero and only with a shorter way, never on a tie.
          const int d = std::max(drop[key], edge.drop);
          if (d) drop[new_key] = d;
          buckets[nm].push_back(new_key);
          // A destination: free movement's cells, or those reached by a difficult step.
          if (!difficult || new_kind) seen[edge.to] = 1;
        } else if (nm == b && np < prov[new_key]) {
          prov[new_key] = np;
          pred[new_key] = key;
        }
      }
    }
  }
}

// B01–B06, H07, R04, X49 (paths.py reachable): Dial's algorithm over metres, layer by
// layer, each layer in the order its states were reached and each state's steps in
// steps.py's order, so that among equally long ways the one with fewer provocations
// wins, and among those the first found, exactly as in the reference.
Routes Moves::Search(const Query& q) const {
  const int n = size();
  Routes r;
  r.par_ = alternate_ ? 2 : 1;
  r.mult_ = q.difficult ? kKinds : 1;
  r.difficult_ = q.difficult;
  const int par = r.par_, mult = r.mult_;
  const std::size_t states = static_cast<std::size_t>(n) * mult * par;
  r.best_.assign(states, -1);
  r.prov_.assign(states, 0);
  r.pred_.assign(states, -1);
  r.drop_.assign(states, 0);

  // Occupied cells may be passed through when passable (allies, the fallen), never ended in.
  // The scratch is kept per thread: a search runs at every turn decision of a rollout, and
  // allocating it each time cost as much as the search over a small map.
  thread_local Scratch scratch;
  auto& blocked = scratch.blocked;
  auto& occupied = scratch.occupied;
  auto& reached = scratch.reached;
  blocked.assign(q.blocked.begin(), q.blocked.end());
  occupied.assign(n, 0);
  reached.assign(n, 0);
  scratch.passable.assign(n, 0);
  for (int c : q.passable) scratch.passable[c] = 1;
  for (int c : q.occupied) {
    occupied[c] = 1;
    if (!scratch.passable[c]) blocked[c] = 1;
  }

  r.start_key_ = q.start * mult * par + Mod(q.parity, par);
  auto& buckets = scratch.buckets;
  if (buckets.size() < static_cast<std::size_t>(q.budget) + 1) buckets.resize(q.budget + 1);
  for (int m = 0; m <= q.budget; ++m) buckets[m].clear();
  r.best_[r.start_key_] = 0;
  buckets[0].push_back(r.start_key_);
  // The state's parts as compile-time strides: the divisions by them vanish where they are 1.
  if (par == 1 && mult == 1) Expand<1, 1>(q, r, scratch);
  else if (par == 2 && mult == 1) Expand<2, 1>(q, r, scratch);
  else if (par == 1) Expand<1, kKinds>(q, r, scratch);
  else Expand<2, kKinds>(q, r, scratch);

  for (int c = 0; c < n; ++c)
    if (reached[c] && c != q.start && !occupied[c]) r.dests_.push_back(c);
  return r;
}

// H07 (paths.py reachable with difficult=True) after the free search ``free`` of the same
// query. The difficult search's kind-0 states are the free search's, state for state: kind
// 0 is left only by a difficult step and never re-entered, and each layer holds its kind-0
// states in the free search's order. So where no difficult step leaves a free state within
// the budget, no other state is reached and the answer is the free search's tables laid
// out with kinds, exactly what the search would return; otherwise it searches.
Routes Moves::SearchDifficult(const Query& q, const Routes& free) const {
  if (!q.difficult || free.difficult_) throw std::logic_error("SearchDifficult needs a free search");
  const int n = size(), par = free.par_;
  thread_local std::vector<std::uint8_t> blocked, passable;
  blocked.assign(q.blocked.begin(), q.blocked.end());
  passable.assign(n, 0);
  for (int c : q.passable) passable[c] = 1;
  for (int c : q.occupied)
    if (!passable[c]) blocked[c] = 1;
  for (int key = 0; key < n * par; ++key) {
    const int metres = free.best_[key];
    if (metres < 0) continue;
    const int parity = key % par;
    for (const Edge& edge : EdgesOf(key / par)) {
      if (edge.kind == StepKind::kNormal || blocked[edge.to]) continue;
      const int cost = edge.metres + (par == 2 ? edge.extra[parity] : 0);
      if (metres + cost <= q.budget ||
          (metres == 0 && edge.kind == StepKind::kSwim && q.budget >= 1))
        return Search(q);
    }
  }
  Routes r;
  r.par_ = par;
  r.mult_ = kKinds;
  r.difficult_ = true;
  const auto with_kinds = [par](int key) { return key < 0 ? key : key / par * kKinds * par + key % par; };
  const std::size_t states = static_cast<std::size_t>(n) * kKinds * par;
  r.best_.assign(states, -1);
  r.prov_.assign(states, 0);
  r.pred_.assign(states, -1);
  r.drop_.assign(states, 0);
  for (int key = 0; key < n * par; ++key) {
    const int to = with_kinds(key);
    r.best_[to] = free.best_[key];
    r.prov_[to] = free.prov_[key];
    r.pred_[to] = with_kinds(free.pred_[key]);
    r.drop_[to] = free.drop_[key];
  }
  r.start_key_ = with_kinds(free.start_key_);
  return r;
}

// paths.py Reach._key: the cell's state with the fewest metres, then fewest
// provocations; on a full tie the first in kind, then parity, order.
int Routes::Key(int cell) const {
  if (!difficult_ && par_ == 1) return cell;
  int best_key = -1;
  for (int kind = difficult_ ? 1 : 0; kind < (difficult_ ? kKinds : 1); ++kind) {
    for (int p = 0; p < par_; ++p) {
      const int key = (cell * mult_ + kind) * par_ + p;
      if (best_[key] < 0) continue;
      // The planted fault (faults.hpp) counts provocations negatively: more win a tie.
      const int sign = g_fault == Fault::kProvocationTie ? -1 : 1;
      if (best_key < 0 || std::pair(best_[key], sign * prov_[key]) <
                              std::pair(best_[best_key], sign * prov_[best_key]))
        best_key = key;
    }
  }
  return best_key;
}

// paths.py Reach.route: the predecessor chain back to the start state.
Route Routes::Get(int cell) const {
  const int key = Key(cell);
  std::vector<int> path{cell};
  std::vector<int> spent{best_[key]};
  int first_hard_from_end = -1;
  for (int k = key; k != start_key_;) {
    const int before = pred_[k];
    if ((before / par_) % mult_ == 0 && (k / par_) % mult_ != 0)
      first_hard_from_end = static_cast<int>(path.size()) - 1;
    k = before;
    if (k != start_key_) {
      path.push_back(k / (mult_ * par_));
      spent.push_back(best_[k]);
    }
  }
  std::reverse(path.begin(), path.end());
  std::reverse(spent.begin(), spent.end());
  const int last = static_cast<int>(path.size()) - 1;
  return Route{
      .cells = std::move(path),
      .metres = best_[key],
      .kind = (key / par_) % mult_,
      .provocations = prov_[key],
      .drop = drop_[key],
      .first_hard = first_hard_from_end >= 0 ? last - first_hard_from_end : -1,
      .parity = key % par_,
      .spent = std::move(spent),
  };
}

Routes::State Routes::Save() const {
  return {start_key_, mult_, par_, difficult_, best_, prov_, pred_, drop_, dests_};
}

Routes Routes::Load(State s) {
  Routes r;
  r.start_key_ = s.start_key;
  r.mult_ = s.mult;
  r.par_ = s.par;
  r.difficult_ = s.difficult;
  r.best_ = std::move(s.best);
  r.prov_ = std::move(s.prov);
  r.pred_ = std::move(s.pred);
  r.drop_ = std::move(s.drop);
  r.dests_ = std::move(s.dests);
  return r;
}

}  // namespace cwenv
