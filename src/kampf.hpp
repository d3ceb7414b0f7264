// The Kampfrunde's state in C++ (docs/native.md "The Kampfrunde state"): the seed of the
// native Kampfrunde. Two parts:
//
// * GameDesc, the compiled game description: what the rules read of every fighter's stat
//   block, the rule options and the rule tables' data, built once per Game
//   (cwenv/engine/offers_core.py compiles it from the pydantic content).
// * State, one combat: every FighterState field legality reads, as a flat array of
//   trivially copyable structs (fixed capacities, no pointers), plus the cells' occupant,
//   opacity and solidity. Today cwenv/engine/offers_core.py fills it from a Python Combat
//   before every native legality call (bind_kampf.cpp, Import); a later piece makes C++
//   own it, and a clone becomes a copy of these structs.
//
// The Python reference stays the statement of the rules: cwenv/engine/fighter.py,
// cwenv/engine/offers.py, cwenv/engine/cover.py (tests/test_native_legality.py checks that
// both give the same legal lists, order included).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "los.hpp"
#include "paths.hpp"

namespace cwenv::kampf {

inline constexpr int kMaxWeapons = 16;  // carried, built-in and the unarmed strike
inline constexpr int kMaxHacks = 8;
inline constexpr int kMaxCyber = 8;
inline constexpr int kMaxItems = 8;
inline constexpr int kMaxBands = 6;
inline constexpr int kMaxFighters = 64;  // helpers are a bit set over fighter indices
inline constexpr int kConditions = 7;    // cwenv.model.types.Condition

// cwenv.model.types.Condition values.
enum Condition : int {
  kAngeschlagen = 0, kBenommen = 1, kEingeschraenkt = 2, kEntmutigt = 3,
  kNiedergeworfen = 4, kSterbend = 5, kVerwirrt = 6,
};
enum Side : int { kRunner = 0, kGegner = 1, kNeutral = 2 };

// cwenv.engine.actions.ActionKind values of the turn's choices (B01, H01-H12, K01-K05, P08,
// D09).
enum class Kind : std::uint8_t {
  kEndTurn = 0, kMove = 1, kAttack = 2, kManeuver = 3, kZielen = 4, kSprint = 5,
  kAufstehen = 6, kUpload = 7, kHack = 8, kDoor = 9, kDraw = 10, kPickUp = 11, kUseItem = 12,
  kReload = 13, kRucksack = 14, kSchwierig = 15, kCyberware = 16, kShake = 17,
  kStabilise = 18, kHelfen = 19, kFreeWeapon = 20, kMummProbe = 21, kMummExtraAction = 22,
  kMummShake = 23,
};

struct Band {
  int max_m;
  int modifier;
};

// model/specs.py WeaponSpec, what legality reads of it.
struct Weapon {
  bool ranged;
  int reach;
  int bands;
  std::array<Band, kMaxBands> ranges;
  int area_radius;
  int magazine;
  int nachladen;

  bool uses_ammo() const { return ranged && magazine > 0; }
  // range_modifier(distance) is not None (A01; melee: within reach).
  bool InRange(int distance) const;
};

struct Hack {  // HackSpec (H03, H10)
  int range_m;
  int area_radius;
  int upload;
};

// FighterSpec, what legality reads of it; ``weapons`` is spec.all_weapons.
struct Spec {
  int lp;
  int size;  // Size (X13): only the order matters
  bool humanoid;
  int movement;  // spec.movement, cyberware bonuses included
  int carried;   // len(spec.weapons)
  int n_weapons;
  std::array<Weapon, kMaxWeapons> weapons;
  int n_hacks;
  std::array<Hack, kMaxHacks> hacks;
  int n_cyber;
  std::array<bool, kMaxCyber> cyber_ability;  // the cyberware has an active ability (H09)
};

// The rule options legality reads (cwenv/rules/options), as plain values.
struct Options {
  bool friendly_fire;
  int zielen_max_stacks;  // X03
  bool stabilise_needs_adjacent;  // X35
  bool helfen_in_combat;  // X41
  bool nsc_may_help;
  bool living_cover_prone_counts;  // X25
  int living_cover_neutral;  // a Cover value (X25)
  bool living_cover_stronger_by_one;  // X25 living_cover_stacking
  bool prone_three_quarter_to_full;  // X23
  bool angeschlagen_shake_below_half;  // Z01
  bool prone_movement_none;  // X40
  bool benommen_reactions_kept;  // X24: a benommen fighter keeps its reactions
  bool climb_over_actions;  // X40: a high ledge is climbed over several actions
  bool nsc_mumm;  // M11, X11: NSCs spend Mumm
  bool mumm_verbrennen;  // X10: entmutigt burns maximum Mumm
  bool move_with_forfeited_handlung;  // X40
  int zehrend_shake;  // X55 zehrend_mumm_shake: 0 reapplied, 1 refused_in_zone, 2 never
  bool living_cover_melee;  // X25: living cover applies to melee attacks too
};

// What TURN legality reads beyond the options: the Mumm costs (M07, M08), which
// conditions Mumm may end (tables/conditions.py mumm_shake), whether the map has
// difficult terrain for the game's X48 reading (steps.py has_difficult_terrain).
struct TurnRules {
  int shake_cost = 2;
  int extra_action_cost = 2;
  std::uint32_t mumm_shakeable = 0;  // bit set over Condition
  bool difficult_terrain = false;
};

// The size limits of tables/maneuvers.py, one per limit function there (K01-K05).
enum class ManeuverLimit : std::uint8_t { kArmedHumanoid, kOneSizeLarger, kUpToOwnSize };
// The shake limits of tables/conditions.py (H12): none, or Z01's "more than half the LP".
enum class ShakeLimit : std::uint8_t { kNone, kAboveHalfLp };

struct Shakeable {  // one entry of conditions.py SHAKEABLE, in its order
  int condition;
  ShakeLimit limit;
};

inline constexpr int kCheckValues = 14;  // cwenv.model.types.CheckValue

// What check_parts and plan_attack read beyond the rest of GameDesc (src/attack_plan.hpp;
// cwenv/engine/plan_core.py hands it over once per game, Kampf.attack_tables).
struct CheckSortRow {  // one (check, attack, reaction, defence): tables/conditions.py CheckSort
  std::uint32_t malus = 0;  // bit i: MALUS_ORDER[i]'s malus applies (Z01-Z07)
  bool behinderung = false;  // Behinderung applies (A01, X42)
};
struct AttackWeapon {  // WeaponSpec: its check, modifier and Durchdringung (A01, C03)
  int skill = 0, modifier = 0;
  bool durchdringung = false;
};
struct AttackSpec {  // FighterSpec: every check value, Behinderung, weapons, hacks, cyberware
  std::array<int, kCheckValues> values{};
  int behinderung = 0;
  std::array<AttackWeapon, kMaxWeapons> weapons{};
  std::array<AttackWeapon, kMaxHacks> hacks{};  // skill unused (Hacking)
  std::array<int, kMaxCyber> cyber_kind{}, cyber_amount{};  // CyberAbility (H09)
};
inline constexpr int kCyberArmour = 1, kCyberFocus = 2;  // AttackSpec::cyber_kind
struct AttackTables {
  bool ready = false;
  std::vector<int> malus_order;  // the conditions of tables/conditions.py MALUS_ORDER
  int condition_penalty = -2;    // CONDITION_PENALTY
  std::array<std::array<CheckSortRow, 8>, kCheckValues> sorts{};  // [check][a | r<<1 | d<<2]
  std::vector<AttackSpec> specs;  // one per fighter
  AttackWeapon unarmed;  // model/specs.py UNARMED, a manoeuvre's (K01-K05)
  std::vector<int> maneuver_modifier;  // tables/maneuvers.py MANEUVERS, per Maneuver
  bool niederwerfen_vs_melee = false, area_cover_all = false;  // X23, X26
  int zielen_bonus = 0, zielen_qs_bonus = 0, entwaffnen_nsc_penalty = 0;  // H11, X03, K01
  int prone_malus = 2;  // attack_plan.py PRONE_TARGET_MALUS (R06)
};

struct GameDesc {
  int width = 0;
  int height = 0;
  std::vector<Terrain> terrain;
  std::vector<int> elevation;  // metres, per cell
  std::vector<Spec> specs;  // one per roster entry (fighter index)
  Options options{};
  TurnRules turn;
  std::vector<ManeuverLimit> maneuvers;  // per Maneuver, in enum order
  std::vector<Shakeable> shakeable;
  AttackTables attack;

  int Distance(int a, int b) const {  // Chebyshev metres (grid.py distance, B01)
    return std::max(std::abs(a % width - b % width), std::abs(a / width - b / width));
  }
};

struct Item {  // ItemSpec at hand: HEAL, or the condition it ends (-1: none)
  bool heal;
  int condition;
};

// FighterState, what legality reads of it.
struct Fighter {
  int pos;
  int side;
  int lp;
  std::uint32_t conditions;  // bit set over Condition
  bool dead, down, fled, disarmed, extra_action_used;
  int drawn;
  std::uint32_t dropped, jammed;  // bit sets over weapon indices (K01, A08)
  int aim_target, aim_stacks;
  int mumm;
  std::array<int, kMaxWeapons> ammo, reloads;
  std::array<int, kMaxHacks> upload_progress;
  std::array<int, kMaxCyber> cyber_uses;
  int n_items;
  std::array<Item, kMaxItems> items;
  int backpack;  // len(backpack)
  std::uint64_t helpers;  // bit set over the allies who announced help (P08)
  int climb_cell, climb_height;  // the ledge being climbed and the metres done (B03, X40)
  int mumm_max;
  int n_zehrend;  // len(zehrend), all of them
  std::uint32_t zehrend_fire;  // bit set over the first ZEHREND_SLOTS: the kind is fire (D03)
  int focus_bonus, armour_bonus;  // H09: a cyberware focus, armour until the round's end
  bool prone_bonus;  // R06, X23: dropped prone against an attack, until it wears off

  bool Has(int condition) const { return conditions >> condition & 1; }
  bool standing() const { return !(dead || down || fled); }
  bool on_map() const { return !fled; }
  bool prone() const { return Has(kNiedergeworfen); }
};

// The numbers of the turn in progress that TURN legality reads (turn.py TurnFrame).
struct TurnNumbers {
  int handlungen = 0, grants = 0, sprint_bonus = 0, moved = 0, parity = 0;
  bool benommen = false;
};

struct State {
  std::vector<Fighter> fighters;
  std::vector<std::int16_t> occupant;  // per cell: the fighter index there, -1 for none
  bool any_occupant = false;
  std::vector<std::uint8_t> opaque;  // 1 = blocks sight (doors change it)
  std::vector<std::uint8_t> solid;   // 1 = cannot be entered
  TurnNumbers turn;
};

// One legal action, as cwenv.engine.actions.Action numbers it (-1: unused).
struct Act {
  Kind kind;
  int actor, target, cell, arg;
};

// What a _core.Kampf holds after an Import (bind_kampf.cpp LoadKampf; the native encoder).
struct KampfView {
  const GameDesc* g;
  const Lines* lines;
  const State* s;
};

// A fighter's weapon can strike (fighter.py weapon_usable).
bool WeaponUsable(const Spec& spec, const Fighter& f, int wi);

// movement.py movement_allowance (B01, Z03, X40): metres per Handlung (turn.cpp).
int MovementAllowance(const Options& o, const Spec& spec, const Fighter& f);

// tables/maneuvers.py's size limits (K01-K05; offers.py maneuver_allowed): whether a
// fighter of spec ``own`` may try a manoeuvre limited so on ``t`` (spec ``ts``), and
// whether ``fi`` may try manoeuvre ``m`` on ``ti`` (legality.cpp).
bool ManeuverLimitOk(ManeuverLimit limit, const Spec& own, const Fighter& t, const Spec& ts);
bool ManeuverAllowed(const GameDesc& g, const State& s, int fi, int ti, int m);

// fighter.py melee_reach (R04): the longest reach among usable melee weapons (turn_moves.cpp).
int MeleeReach(const Spec& spec, const Fighter& f);

// What a fighter's movement search starts from (turn.py move_search): the cells it cannot
// enter (movement.py blocked_for), the occupied cells and those it may pass through, and
// the enemies who could make a Blockadeangriff (movement.py threat_of, R04, R01, X24).
struct MoveInputs {
  std::vector<std::uint8_t> blocked;
  std::vector<int> occupied, passable;
  std::vector<Guard> guards;
};
void MoveInputsOf(const GameDesc& g, const State& s, int fi, MoveInputs& out);

// climbing.py climb_actions (B03, H07, X40): SCHWIERIG choices for the partial climbs
// from the fighter's cell, on the steps of ``moves`` (its MoveProfile's, whose
// ``slow_cost`` is given) with ``move_left`` metres; ``hard`` is the turn's difficult
// search, whose destinations are offered whole.
void ClimbActions(const GameDesc& g, const State& s, const Moves& moves, int slow_cost, int fi,
                  int move_left, const Routes& hard, std::vector<Act>& out);

inline constexpr int kZehrendArg = 8;    // actions.py ZEHREND_ARG
inline constexpr int kZehrendSlots = 8;  // actions.py ZEHREND_SLOTS

// One TURN decision's legality (turn.py turn_actions, H00-H12, B01-B06, M07, M08, Z02):
// the choices in its order, and the searches its MOVE and SCHWIERIG choices came from
// (none when not searched). ``moves`` and ``slow_cost``: the fighter's step table now.
// The last search of one kind (free or difficult) with what it searched from: the next
// turn decision with the same inputs (after an attack that moved no one, say) takes its
// routes instead of searching again, a search being a pure function of these.
struct SearchMemo {
  const Moves* moves = nullptr;
  int start = -1, budget = -1, parity = 0, geometry = 0;
  std::vector<std::uint8_t> blocked;
  std::vector<int> occupied, passable;
  std::vector<Guard> guards;
  std::shared_ptr<const Routes> routes;
};

struct TurnAnswer {
  std::vector<Act> acts;
  std::shared_ptr<const Routes> free, hard;
  SearchMemo memo[2];  // by difficult
};
void TurnActions(const GameDesc& g, const Lines& lines, const State& s, const Moves& moves,
                 int slow_cost, int geometry, int fi, MoveInputs& scratch, TurnAnswer& out);

// cover.py cover_against(c, attacker, target, ranged=True).level (C01-C04, R06, X23, X25):
// the cover the target has against a direct ranged attack (the native encoder's covers).
Cover RangedCover(const GameDesc& g, const Lines& lines, const State& s, int attacker, int target);

// cover.py Cover: the level, whether living cover set it, who gives it (-1: nobody), and
// the terrain's level.
struct CoverAnswer {
  Cover level;
  bool living;
  int coverer;
  Cover terrain;
};

// cover.py cover_against(c, attacker, target, ranged=, area=) (C01-C04, R06, X23, X25, X26).
CoverAnswer CoverAgainst(const GameDesc& g, const Lines& lines, const State& s, int attacker,
                         int target, bool ranged, bool area);

// offers.py handlung_actions: the Handlungen open to fighter ``fi`` now, in its order.
void HandlungActions(const GameDesc& g, const Lines& lines, const State& s, int fi,
                     std::vector<Act>& out);

}  // namespace cwenv::kampf
