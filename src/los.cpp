#include "los.hpp"

#include "faults.hpp"

#include <cstdlib>
#include <utility>

namespace cwenv {

namespace {

// Walks the supercover line from (x0, y0) to (x1, y1) and calls visit(step) for every
// step up to the target, whose own cell is not a step; visit returns false to stop.
// Written once for both major axes by swapping the roles of x and y, as the reference
// does with its two mirrored branches.
template <typename Visit>
void Walk(int width, int x0, int y0, int x1, int y1, Visit visit) {
  const int dx = std::abs(x1 - x0), dy = std::abs(y1 - y0);
  const int sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  const bool x_major = dx >= dy;
  const int along = x_major ? dx : dy, across = x_major ? dy : dx;
  const int s_along = x_major ? sx : sy, s_across = x_major ? sy : sx;
  // u runs along the major axis, v across it; cell() maps them back to an index.
  int u = x_major ? x0 : y0, v = x_major ? y0 : x0;
  auto cell = [&](int uu, int vv) { return x_major ? vv * width + uu : uu * width + vv; };
  const int d_along = 2 * along, d_across = 2 * across;
  int error = along, previous = along;
  for (int i = 0; i < along; ++i) {
    u += s_along;
    error += d_across;
    if (error > d_along) {
      v += s_across;
      error -= d_along;
      // Where the line crosses into the next row (or column) decides which side cell
      // it clips; exactly through the corner it touches both (the reference's order).
      const int behind = cell(u, v - s_across), beside = cell(u - s_along, v);
      const Step extra = error + previous < d_along   ? Step{behind, -1}
                         : error + previous > d_along ? Step{beside, -1}
                                                      : Step{behind, beside};
      if (!visit(extra)) return;
    }
    if (i + 1 == along) return;  // the target's own cell
    if (!visit(Step{cell(u, v), -1})) return;
    previous = error;
  }
}

bool Opaque(std::span<const std::uint8_t> opaque, const Step& s) {
  return s.second < 0 ? opaque[s.first] != 0 : opaque[s.first] && opaque[s.second];
}

}  // namespace

std::vector<Step> Supercover(int width, int a, int b) {
  std::vector<Step> out;
  Walk(width, a % width, a / width, b % width, b / width, [&](const Step& s) {
    out.push_back(s);
    return true;
  });
  return out;
}

Lines::Lines(int width, int height, std::vector<Terrain> terrain)
    : width_(width), height_(height), terrain_(std::move(terrain)) {}

bool Lines::Blocked(std::span<const std::uint8_t> opaque, int a, int b) const {
  bool blocked = false;
  Walk(width_, a % width_, a / width_, b % width_, b / width_, [&](const Step& s) {
    blocked = Opaque(opaque, s);
    return !blocked;
  });
  return blocked;
}

Cover Lines::TerrainCover(std::span<const std::uint8_t> opaque, int a, int b) const {
  const int bx = b % width_, by = b / width_;
  Cover best = Cover::kNone;
  bool blocked = false;
  auto consider = [&](int c) {
    const Terrain t = terrain_[c];
    if (t != Terrain::kCoverHalf && t != Terrain::kCoverThreeQuarter) return;
    // C02: cover protects only within one metre of the target.
    if (std::abs(c % width_ - bx) > 1 || std::abs(c / width_ - by) > 1) return;
    const Cover level = t == Terrain::kCoverHalf ? Cover::kHalf : Cover::kThreeQuarter;
    if (level > best) best = level;
  };
  Walk(width_, a % width_, a / width_, bx, by, [&](const Step& s) {
    if (Opaque(opaque, s)) {
      blocked = true;
      return false;
    }
    consider(s.first);
    if (s.second >= 0) consider(s.second);
    return true;
  });
  if (g_fault == Fault::kCoverLevel && best == Cover::kThreeQuarter) best = Cover::kHalf;
  return blocked ? Cover::kFull : best;
}

}  // namespace cwenv
