// What one decision of a native doctrine sees (issue #16): the twin of agents/board.py's
// Board and of the exact attack values of agents/estimates.py and agents/cells.py that the
// Taktiker's turn reads, built on the core's own rule functions (CheckParts, PlanAttack,
// ReactionChoice, the lines of fire), as the Python Board uses the engine's. The Python
// modules stay the statement; each function names its twin.
#pragma once

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "combat.hpp"
#include "estimates.hpp"

namespace cwenv::doctrine {

using kampf::Fighter;
using kampf::GameDesc;
using kampf::NativeCombat;
using kampf::State;
using cwenv::Cover;

inline constexpr int kFar = 999;  // board.py FAR: a cell no walk reaches
inline constexpr std::size_t kCoverBytes = 8 << 20;  // a door state's terrain covers, at most
inline constexpr int kCoverPenalty[4] = {0, -2, -4, 0};  // types.py CoverLevel.penalty (C01)

// One map's walking fields toward single cells, per door state (board.py _Walks): kept
// across decisions while the map stays the same.
class Walks {
 public:
  // Binds the map (board.py _Walks.__init__ once per map, kept while it is the same) and
  // returns the terrain cover between two cells under ``opaque`` (Lines::TerrainCover,
  // C01, C02), filled row by row as asked (-1: not yet): a pure function of the map and
  // its opaque cells, which a doctrine asks for the same lines in every decision. Each
  // Board calls it first; the fields below are of the map bound last. One Board at a
  // time per Walks (each twin and query keeps its own, behind its mutex).
  struct CoverTable {
    std::vector<std::uint8_t> opaque;
    std::vector<std::vector<std::int8_t>> rows;  // per start cell, allocated as asked
    std::size_t filled = 0;                      // rows allocated
  };
  CoverTable& Covers(const GameDesc& g, const StrikeRules& strike,
                     const std::vector<std::uint8_t>& opaque);
  // The least walk from every cell to any of ``targets`` (board.py walk_field).
  const std::vector<int>& Field(const std::vector<int>& targets,
                                const std::vector<std::uint8_t>& opaque);
  // Cells next to a half or three-quarter cover object (board.py cover_cells).
  const std::vector<std::uint8_t>& CoverCells() const { return cover_; }

 private:
  // board.py _Walks.__init__ and cover_cells, once per map (kept while it is the same).
  void Use(const GameDesc& g, const StrikeRules& strike);
  const std::vector<int>& Single(int target, const std::vector<std::uint8_t>& doors);

  int width_ = -1, height_ = -1;
  std::vector<cwenv::Terrain> terrain_;
  std::vector<int> elevation_;
  std::vector<std::vector<int>> adjacent_;
  std::vector<int> cost_, doors_;
  std::vector<std::uint8_t> cover_;
  std::map<std::pair<int, std::vector<std::uint8_t>>, std::vector<int>> single_;
  std::pair<std::vector<int>, std::vector<std::uint8_t>> last_key_;
  std::vector<int> last_;
  std::vector<CoverTable> covers_;  // by opaque state, a few at a time
};

class Board {
 public:
  Board(const NativeCombat& c, Exact& exact, Walks& walks);

  const NativeCombat& c;
  const GameDesc& g;
  const State& s;
  const StrikeRules& strike;
  const kampf::AttackTables& at;
  const int me;
  const Fighter& mf;
  std::vector<int> enemies;  // standing fighters of the hostile side, in order
  int allies = 0;            // standing fighters of my side, me included
  bool is_protected = false;  // my fall loses the fight (protect_vip)
  bool exits_goal = false;    // my side wins by an exit, and the map has exits
  Exact& exact;

  bool Enemy(int fi) const;
  int Dist(int a, int b) const { return g.Distance(a, b); }
  bool Sight(int a, int b) const;
  Cover TerrainCover(int a, int b) const;
  // Board.check_value (check_parts).
  int CheckValue(int fi, int check, bool attack = false, bool reaction = false,
                 bool defence = false) const;
  int WalkDistance(int cell);
  int NearestEnemyDistance(int cell) const;
  int ExitDistance(int cell) const;
  const std::vector<std::uint8_t>& CoverCells() const { return walks_.CoverCells(); }

  // estimates.py defence_value for a weapon attack (A02, A03, X21): Exact::kNoDefence
  // when ``t`` cannot react.
  int DefenceValue(int t, int a, int wi) const;
  // attack_plan.py defence_values: the best value ``t`` defends with (A03, X21, X22).
  int BestDefence(int t, kampf::Mode mode, int a, int index) const;
  // estimates.py shot_modifier: what range and terrain cover add to a shot (A01, C01, R06).
  int ShotModifier(int rm, Cover cover, bool prone_bonus) const;
  // estimates.py damage_profile and weapon_profile.
  Profile DamageProfile(int t, int bonus, int armour_mode, std::uint64_t forms, int flat) const;
  Profile WeaponProfile(int a, int t, int wi) const;
  // estimates.py shot_base, aim_kept, weapon_attack_value (``src`` < 0: where ``a`` stands).
  int ShotBase(int a, int t, int wi) const;
  std::pair<int, int> AimKept(int a, int t) const;
  std::optional<std::pair<int, int>> WeaponAttackValue(int a, int t, int wi, int src = -1) const;
  // estimates.py weapon_estimate (``defended`` left at its default).
  std::optional<Estimate> WeaponEstimate(int a, int t, int wi, int src = -1, bool aim = false,
                                         int pw_delta = 0);
  // estimates.py hack_estimate (H10).
  std::optional<Estimate> HackEstimate(int a, int t, int hi, int pw_delta = 0);
  // Board.cover_now: the cover ``t`` has against a ranged attack of ``a`` (C01-C05, X25).
  Cover CoverNow(int a, int t) const;
  // cells.py incoming and melee_incoming: what an enemy's attack on me is expected to do.
  double Incoming(int e, int wi, int modifier);
  double MeleeIncoming(int e);
  bool Ranged(int fi, int wi) const { return g.specs[fi].weapons[wi].ranged; }

  // agents/worth.py and the parts of agents/estimates.py it reads (agents/native/worth.cpp).
  // estimates.py defence_value for any attack mode (A02, A03, X21, X22).
  int DefenceValueOf(int t, kampf::Mode mode, int a, int index) const;
  // estimates.py offense: the best expected damage of one attack of ``f`` on its nearest foe.
  double Offense(int f);
  // worth.py attack_loss, defence_loss, condition_cost (Z01-Z07).
  double AttackLoss(int f, int delta = -2);
  double DefenceLoss(int f, int delta = -2);
  double ConditionCost(int f, int cond, double horizon, double mumm_value);
  // worth.py condition_gain (the Z substitution chain, X19).
  double ConditionGain(int t, int cond, double horizon, double mumm_value);
  // estimates.py maneuver_chance (K01-K05).
  double ManeuverChance(int a, int t, int m, int pw_delta = 0);
  std::vector<int> FoesOf(int f) const;

 private:
  Walks& walks_;
  // walks_.Covers for this state: valid while this Board lives, the only one on walks_
  Walks::CoverTable& covers_;
  const std::vector<int>* walk_ = nullptr;
  double BestAttack(int g, int t, int delta, int tdelta);
  int Nearest(int f, const std::vector<int>& foes) const;
  std::map<int, double> offense_;
  std::map<std::pair<int, int>, double> attack_loss_, defence_loss_;
};

// specs.py WeaponSpec.range_modifier: the modifier, or nullopt out of range (A01).
inline std::optional<int> RangeModifier(const kampf::Weapon& w, int distance) {
  if (!w.ranged) return distance <= w.reach ? std::optional<int>(0) : std::nullopt;
  for (int b = 0; b < w.bands; ++b)
    if (distance <= w.ranges[b].max_m) return w.ranges[b].modifier;
  return std::nullopt;
}

}  // namespace cwenv::doctrine
