// Line of fire, line of sight and directional cover (C01, C02): the native twin of
// cwenv/battlemap/los.py, which stays the readable reference. Both must give the same
// answer for every pair of cells (tests/test_native_los.py checks it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cwenv {

// The values of cwenv.battlemap.grid.Terrain and cwenv.model.types.CoverLevel.
enum class Terrain : std::uint8_t {
  kFloor = 0, kWall = 1, kCoverHalf = 2, kCoverThreeQuarter = 3, kWater = 4,
  kClimb = 5, kDoorClosed = 6, kDoorOpen = 7, kFire = 8,
};
enum class Cover : std::int8_t { kNone = 0, kHalf = 1, kThreeQuarter = 2, kFull = 3 };

// One step of a supercover line: one cell, or two when the line passes exactly through
// a corner (a "corner pair": sight is blocked only when both cells are opaque).
struct Step {
  int first;
  int second;  // -1 for a one-cell step
};

// The steps from the centre of cell a to the centre of cell b, without a's and b's own
// cells, in order from a; the same walk as los.py's _supercover.
std::vector<Step> Supercover(int width, int a, int b);

// The static map (terrain never changes in a fight; opacity does, through doors, so it
// is passed with every query).
class Lines {
 public:
  Lines(int width, int height, std::vector<Terrain> terrain);

  int size() const { return width_ * height_; }
  int width() const { return width_; }
  // True when some step of the line from a to b is wholly opaque.
  bool Blocked(std::span<const std::uint8_t> opaque, int a, int b) const;
  // The cover the target at b has from terrain against an attack from a: FULL when
  // sight is blocked, else the best cover object on the line within one metre of b.
  Cover TerrainCover(std::span<const std::uint8_t> opaque, int a, int b) const;

 private:
  int width_;
  int height_;
  std::vector<Terrain> terrain_;
};

}  // namespace cwenv
