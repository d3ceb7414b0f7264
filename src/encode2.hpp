// Encoding 2's encoder in C++ (issue #16, docs/native.md "The native encoder"): the entity
// rows, the global row, the coarse map's moving channels and the candidates' standpoints,
// computed from the Kampfrunde state (kampf.hpp) that bind_kampf.cpp imports.
//
// The Python encoder stays the statement of the encoding: cwenv/envs/entities.py and
// cwenv/envs/candidates.py (tests/test_native_encoder.py checks both write the same bytes).
// Every number is computed in double from the same operands in the same order as the
// Python expression, then stored as float32 and clipped, as numpy does on assignment.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "kampf.hpp"

namespace cwenv::encode2 {

using kampf::Fighter;
using kampf::GameDesc;
using kampf::State;

// Test only (tests/test_native_encoder.py): a planted deviation, off unless a test sets it.
enum class EncodeFault { kNone, kThreatEdge, kVsDistance, kPreviewRange };
inline EncodeFault g_encode_fault = EncodeFault::kNone;

struct WeaponRow {  // tables.py weapon_rows and weapon_static, one weapon slot
  bool melee;
  double reach;   // range, plus Bewegung for melee (the threat's reach)
  double damage;  // average damage of one QS (A06)
  double range30, damage20;
};

// What tables.py GameTables and the capacities hold that the Kampfrunde state lacks.
struct Tables {
  double scale_map = 63.0;
  int max_weapons = 8;
  int n_conditions = 16;
  int n_decisions = 0;
  int round_limit = 0;
  std::uint64_t handlung_kinds = 0;  // bit set over ActionKind values
  std::vector<double> exit_distance;  // per cell, metres (0 without exits)
  bool has_exits = false;
  std::vector<int> doors;  // cells that are doors, in order
  std::vector<double> lp_max;
  std::vector<std::array<double, 5>> other_static;  // best_range/30 … size/4
  std::vector<std::vector<WeaponRow>> weapons;      // per fighter, per weapon slot
};

// Per fighter, the FighterState fields encoding 2 reads beyond kampf::Fighter.
struct Extra {
  int reactions;
  int zehrend;  // len(zehrend)
  int mumm_max;
};

// What a decision is, as the Python side reads it off the prompt (entities.py _global).
struct Decision {
  int kind = -1;          // DecisionKind value, -1: the combat is over
  bool has_total = false;  // an attack prompt with a rolled attack
  int total = 0;
  int context = -1;  // observe.py _context_fighter
  int turn_fighter = -1;
  int round = 0;
};

// One legal action's numbers (actions.py Action[:6]).
struct ActRow {
  int kind, actor, target, cell, arg, mumm;
};

struct Sight {
  bool sight;
  double theirs, mine;
};

// observe.py Observer._cover_cache: sight and cover per (viewer, fighter) pair, kept while
// where everyone is, who is down or prone and which doors are shut stay the same (the
// Python encoder's key, so both reuse an answer in the same cases).
class SightMemo {
 public:
  void Refresh(const State& s);  // forget everything if the world changed
  Sight* Find(int me, int j) { return known_[me * n_ + j] ? &seen_[me * n_ + j] : nullptr; }
  void Put(int me, int j, Sight x) { known_[me * n_ + j] = 1, seen_[me * n_ + j] = x; }

 private:
  std::vector<std::uint8_t> opaque_;
  std::vector<int> fighters_;
  std::vector<std::uint8_t> known_;
  std::vector<Sight> seen_;
  int n_ = 0;
};

// The inputs of one encoding call.
struct View {
  const GameDesc& g;
  const Lines& lines;
  const State& s;
  const Tables& t;
  std::span<const Extra> extra;
  SightMemo& memo;
};

// entities.py EntityEncoder._row for fighter ``j`` seen by ``me`` (C01-C04 sight and cover,
// A01 threat), ``ents`` features wide.
void EntityRow(const View& v, const Decision& d, int me, int j, std::span<float> row);

// entities.py EntityEncoder._global (``n_legal`` actions of ``legal``, K candidates).
void GlobalRow(const View& v, const Decision& d, int me, std::span<const int> rows, int n_allies,
               std::span<const ActRow> legal, int k, std::span<float> out);

// entities.py EntityEncoder._map without its static blocks: the door and fighter channels
// counted per block, the terrain channels copied from ``terrain``, all clipped.
void MapRows(const View& v, int me, std::span<const float> terrain, std::span<float> out);

// observe.py _sight_and_cover: line of sight, ``j``'s cover against ``me``, ``me``'s
// against ``j`` (C01-C04 via legality.cpp's RangedCover).
Sight SightAndCover(const View& v, int me, int j);

// candidates.py's terrain cover per firing cell (C01, C02), kept while no door moves.
class CoverCache {
 public:
  void Refresh(const State& s);  // forget everything if the opacity changed
  int Level(const View& v, int src, int cell);

 private:
  std::vector<std::uint8_t> opaque_;
  std::vector<std::vector<std::int8_t>> by_src_;  // per firing cell: level per cell, -1 unknown
};

// candidates.py CandidateEncoder._standpoints for candidate standpoints ``stand`` (one per
// legal action): the vs rows (``vs``: entities × 2 per candidate) and the standpoint summary
// over the standing enemies (``summary``: 7 columns from ``col0`` of ``width``-wide rows).
void Standpoints(const View& v, int me, std::span<const int> rows,
                 std::span<const std::int64_t> stand, CoverCache& covers, int entities,
                 std::span<float> vs, int width, int col0, std::span<float> summary);

// What candidates.py reads per action kind: its kind sets as bit sets over ActionKind
// values, and the Mumm price of every (kind, pays Mumm) (M01-M09; -1 where unknown).
struct CandidateTables {
  std::uint64_t cell_move = 0, odds = 0, weapon_arg = 0;
  std::vector<int> prices;  // kind * 2 + pays Mumm
};

// candidates.py CandidateEncoder.encode without the odds: the kind and target-row columns,
// the standpoints and _what's columns but the previews, for ``acts`` (the legal actions,
// at most K); ``odds`` gets the candidates whose previews Python adds. False (nothing
// written) where an action's kind or price is unknown to the core.
bool CandidateRows(const View& v, const CandidateTables& ct, int me, std::span<const int> rows,
                   std::span<const ActRow> acts, CoverCache& covers, int entities,
                   std::span<float> feats, std::span<float> kind, std::span<float> target,
                   std::span<float> vs, std::vector<int>& odds);

// One attack candidate's preview inputs that Python works out per game and per decision
// (cwenv/envs/previews_core.py): what the check parts, the defence and the armour are.
struct PreviewIn {
  int row, actor, target;
  int base;         // the attacker's own parts plus the weapon's, hack's or manoeuvre's modifier
  bool ranged;      // attack_plan.py attack_is_ranged
  bool area;        // area_radius > 0
  bool ignores;     // an area attack that ignores half and three-quarter cover (C03, X26)
  int band_weapon;  // the weapon slot whose range modifier applies, -1 for none
  bool aim_mode;    // AttackMode.WEAPON: Zielen counts (H11)
  bool has_defence;
  int defence;      // the best defence value (A03), where the target may defend
  bool damage;      // a weapon attack: its damage is estimated (A06)
  int bonus, armour;  // the weapon's damage bonus, the target's armour per roll after mode
  bool prone_bonus;   // FighterState.prone_bonus (R06)
};

// The rule numbers the preview reads (cwenv.rules.options).
struct PreviewRules {
  bool niederwerfen_vs_melee;  // X23
  int zielen_bonus, zielen_qs_bonus;  // H11, X03
  int entwaffnen_penalty;  // K01
  bool armour_floor_zero;  // D01
};

struct Chances {
  double success, hit, expected_qs;
};

// attack_plan.py plan_attack's Probenwert and cover for a candidate, and Zielen's QS.
struct PreviewPlan {
  int probenwert;
  int cover;
  int aim_qs;
};
PreviewPlan PlanPreview(const GameDesc& g, const Lines& lines, const State& s,
                        const PreviewRules& r, const PreviewIn& in);

// candidates.py _previews' eight columns from ``row`` on (A01-A06, D01, D02).
void WritePreview(const State& s, const PreviewRules& r, const PreviewIn& in,
                  const PreviewPlan& plan, const Chances& ch, std::span<float> row);

}  // namespace cwenv::encode2
