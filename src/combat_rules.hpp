// What the native combat reads of the game beyond the legality's GameDesc (combat.hpp):
// the round flow's rules (cwenv/engine/native/combat.py) and the attacks', damage's, dying's,
// falls' and Handlungen's (cwenv/engine/native/strike.py, bind_strike.cpp), as plain values
// and tables evaluated in Python, so the rules' tables stay there.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kampf.hpp"
#include "probe.hpp"

namespace cwenv::kampf {

inline constexpr int kSpends = 10;  // indexable by MummSpend (combat_events.hpp Spend)

// What the native combat reads of the game beyond GameDesc (cwenv/engine/native/combat.py).
struct FighterSetup {
  int grundwert;  // FighterState.grundwert (I01)
  int reflexe;    // spec.skill(REFLEXE) (I11, I13, R01)
  int initiative_bonus;  // spec.initiative_bonus_total (X36)
};
struct Survive { int side, rounds; };  // a SURVIVE victory condition
struct CombatRules {
  bool passes;            // options.initiative is PASSES (I10-I13)
  int tie_order;          // 0 fixed, 1 random, 2 side_chooses (X16)
  int reactions_basis;    // 0 rolled initiative, 1 Grundwert, 2 Reflexe (X01)
  bool passes_count_initiative_bonus;  // X36
  bool prone_bonus_to_own_turn;        // X23 niederwerfen_penalty_until
  bool zielen_lost_on_move, zielen_lost_at_round_end;  // X03
  int geometry;           // X43 blockade_geometry as paths.py numbers it
  int round_limit;        // -1: none
  int decision_cap;
  std::vector<Survive> survive;
  bool exits_matter;      // some victory condition reads the exits (REACH_EXIT)
  std::vector<std::uint8_t> exits;  // per cell: an exit (BattleMap.exits)
  bool ambush;            // X45: a side is ambushed and surprise is on
};

// What an attack, its damage and a fighter's fall read (checks.py, attack.py, hits.py,
// damage.py, effects.py, victory.py), handed over evaluated by cwenv/engine/native/strike.py, so
// the rules' tables stay in Python: the Volltreffer and Patzer tables (A07, A08) as rows
// per 2W10 - QS, the conditions' substitutes and what gaining one does (Z01-Z07), the
// weapons' damage as hits.py damage_bonus gives it.
struct StrikeWeapon {
  int bonus;            // hits.py damage_bonus (A06, X12)
  int armour_mode;      // ArmourMode's position: 0 normal, 1 brechend, 2 direkt
  std::uint64_t forms;  // the damage forms, a bit set over the game's forms (D04)
  bool non_lethal;
  int zehrend;          // the Zehrend kind it causes (Z08), -1: none
  bool unarmed;
};
// An item (ItemSpec: heal amount W10, or end a condition; H04, H06) and a cyberware's
// ability (CyberAbility, H09) as the Handlungen read them.
struct ItemDef { bool heal; int amount, condition; };  // condition -1: none
inline constexpr int kAbilityNone = 0, kAbilityArmour = 1, kAbilityFocus = 2,
                     kAbilityHeal = 3, kAbilityShake = 4;
struct CyberDef { int kind, amount, condition; };
struct StrikeHack {  // HackSpec's damage and what its hit inflicts (H10)
  int bonus, armour_mode;
  std::uint64_t forms;
  bool deals_damage;
  int condition, zehrend;  // -1: none
};
struct StrikeSpec {
  int armour, unbeugsamkeit;
  std::uint64_t immune, resist, vuln;  // D04, over the game's forms
  std::vector<StrikeWeapon> weapons;   // spec.all_weapons
  std::array<int, 2> free_drop;        // MoveProfile.free_drop, free and eingeschränkt (B06)
  std::vector<ItemDef> catalogue;      // spec.items, then spec.backpack (an item's id)
  int carried;                         // len(spec.items)
  std::vector<CyberDef> cyber;         // spec.cyberware
  std::vector<StrikeHack> hacks;       // spec.hacks
};
// tables/maneuvers.py: what each Kampfmanöver's hit does (K01-K05), by its effect function.
enum class ManeuverEffect : std::uint8_t { kEntwaffnen = 1, kInflict = 2, kWegstossen = 3, kMitzerren = 4 };
struct ManeuverDef { ManeuverEffect effect; int condition; };  // kInflict's condition
struct TableRow { int row, extra; bool direct; int condition, zehrend; };  // A07, A08; -1: none
// One kind of Zehrend the game knows (Z08, X20, D03): its danger zone is fire, the check
// that ends it (CheckValue), how its 1W10 meets armour, its damage form (a bit).
struct ZehrendKind { bool fire; int check, armour_mode; std::uint64_t form; };
inline constexpr int kArmourNormal = 0, kArmourBrechend = 1, kArmourDirekt = 2;
// rules/tables.py FumbleRow's positions (A08), what patzer_effects does per row.
enum class Fumble : std::uint8_t {
  kMuskelriss, kUeberdehnt, kOffeneDeckung, kFehltritt, kWaffeBlockiert, kEntmutigt, kUnsauber,
};
struct VictoryRow { int kind, side, vip, count; };  // game.victory's, checked after a change
inline constexpr int kVictoryEliminate = 0, kVictoryExit = 2, kVictoryVip = 3;  // VictoryKind
inline constexpr int kOnGainLetGo = 1, kOnGainReactionsLost = 2;  // StrikeRules::on_gain
struct StrikeRules {
  ProbeRules probe;
  std::array<int, kSpends> cost{};  // MummSpend.cost
  bool volltreffer_defendable;      // A02
  bool patzer_defence_roll;         // X09 patzer_defender_qs: defence_roll
  bool defence_patzer_niedergeworfen;  // X09
  bool zielen_qs_on_weakened_hit, zielen_lost_on_hit;  // H11, X03
  int table_low;                    // the lowest 2W10 - QS both tables list; lower reads it
  std::vector<TableRow> crits;      // tables.py volltreffer_effect from table_low on
  std::vector<int> fumbles;         // tables.py patzer_row from table_low on (Fumble)
  bool zerschmettert_all_direct, crit_bare_die, disarmed_per_die;  // X33, X22
  int entwaffnen_nsc_penalty;       // K01
  bool brechend_up, armour_floor_zero, resistance_up;  // D01, X08, D04, X32
  bool angeschlagen_every_hit, kampfunfaehig_prone, nsc_at_zero_dead;  // D06, X28, X44, X34
  bool sterbend_damage_reinflicts, non_lethal_floor_zero, death_at_or_below;  // Z06, X05
  bool tod_abwenden_ends_sterbend;  // M04
  bool round_end_phased;            // X31
  bool extra_action_moves;          // X38 mumm_extra_action_moves (M07)
  int escalation_steps;             // X19
  int unbeugsamkeit_check;          // CheckValue.UNBEUGSAMKEIT (D08)
  std::array<int, kConditions> substitute{};  // tables/conditions.py, -1: none
  std::array<int, kConditions> on_gain{};     // 0 nothing, kOnGainLetGo, kOnGainReactionsLost
  std::vector<StrikeSpec> specs;    // one per fighter
  std::vector<VictoryRow> victory;  // the listed after-change conditions, then ELIMINATE
  std::uint32_t escape_sides;       // victory.py escapes: the sides leaving by an exit
  std::vector<ZehrendKind> zehrend_kinds;
  int fire_kind;                    // movement.py FIRE_ZEHREND's kind (D03)
  // falls and forced movement (falls.py, effects.py; B05, B06, R05, X18, X43)
  int push_metres;                  // movement.py PUSH_METRES (A08 Fehltritt)
  bool forced_provoke;              // X43 forced_movement_blockade is not never
  bool own_turn_fall_roll, fall_dice_up;  // X18
  int fall_metres_per_die, fall_armour_mode;
  std::uint64_t sturz_form;         // the fall's damage form
  int infiltration_check;           // CheckValue.INFILTRATION (R05)
  int benommen_check;               // X02 benommen_check (Z02's Mumm-Probe)
  std::array<int, kConditions> shake_check{};  // H12: the condition's check, -1: none
  int technik_check, operations_check;         // D09, A08; H06
  int sprint_multiplier;                       // X15 sprint_total_multiplier
  bool help_attacks_only, help_modifier_none;  // X60 help_scope, X59 help_modifier
  bool stabilise_victim_patient;               // X35
  bool rucksack_item_lost;                     // X46
  std::vector<ManeuverDef> maneuvers;          // per Maneuver
  bool maneuver_damage;                        // X22
  int maneuver_rows;                           // X33 maneuver_volltreffer_rows: 0 none, 1 conditions, 2 all
  bool forced_all;                             // X43 forced_movement_blockade: all_forced
  int climb_check, swim_check;                 // X17 climb_skill, swim_skill (B03, B04)
  bool climb_let_go_falls;                     // X40
  std::uint32_t standable;                     // Terrain.standable, a bit set over Terrain
  std::array<int, 64> price{};                 // tables/mumm.py: the Mumm of a choice by its kind
  std::uint32_t ambushed_sides;     // X45: the ambushed sides where surprise is on
  int reflexe_check;                // CheckValue.REFLEXE (X45)
};

// damage.py armour_after_mode (D01, D02, X08): brechend halves the armour per roll,
// direkt ignores it.
inline int ArmourAfterMode(const StrikeRules& r, int armour, int mode) {
  if (mode == kArmourDirekt) return 0;
  if (mode == kArmourBrechend) return r.brechend_up ? (armour + 1) / 2 : armour / 2;
  return armour;
}

}  // namespace cwenv::kampf
