// The native combat's rules from cwenv/engine/native/strike.py (combat.hpp StrikeRules): the
// named numbers, the tables and the stat blocks, each checked. Only conversions live here.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bind_strike.hpp"

namespace cwenv::kampf {


// cwenv/engine/native/strike.py strike_rules: the named numbers, the tables and the stat blocks.
namespace {

class Named {
 public:
  explicit Named(const std::map<std::string, int>& m) : m_(m) {}
  int operator()(const char* name) {
    const auto it = m_.find(name);
    if (it == m_.end()) throw std::invalid_argument(std::string("strike rules lack ") + name);
    ++used_;
    return it->second;
  }
  // Every name "<prefix><n>", as (n, value); counted as used.
  std::vector<std::pair<int, int>> Prefixed(const std::string& prefix) {
    std::vector<std::pair<int, int>> out;
    for (const auto& [name, value] : m_)
      if (name.rfind(prefix, 0) == 0) out.emplace_back(std::stoi(name.substr(prefix.size())), value);
    used_ += out.size();
    return out;
  }
  void Done() const {
    if (used_ != m_.size()) throw std::invalid_argument("strike rules with unknown names");
  }

 private:
  const std::map<std::string, int>& m_;
  std::size_t used_ = 0;
};

}  // namespace

StrikeRules StrikeOf(const std::map<std::string, int>& named, const std::vector<int>& substitute,
                     const std::vector<int>& on_gain, const std::vector<CritRow>& crits,
                     const std::vector<int>& fumbles, const std::vector<SpecRow>& specs,
                     const std::vector<VictoryRowT>& victory,
                     const std::vector<ZehrendRow>& zehrend,
                     const std::vector<std::tuple<int, int>>& maneuvers) {
  StrikeRules r;
  Named n(named);
  r.probe = {n("volltreffer_qs"), n("grosser_wurf_highest_roll") != 0, n("difference_raw") != 0,
             n("volltreffer_wins_contest") != 0, n("lone_winner_difference") != 0,
             n("tie_own_roll") != 0};
  const char* costs[kSpends] = {nullptr, "cost_patzer_abwenden", "cost_probe_verbessern",
                                "cost_probe_wiederholen", "cost_tod_abwenden",
                                "cost_zusaetzliche_reaktion", "cost_treffer_wegstecken",
                                "cost_zusaetzliche_aktion", "cost_zustand_abschuetteln",
                                "cost_grosser_wurf"};
  for (int i = 1; i < kSpends; ++i) r.cost[i] = n(costs[i]);
  r.volltreffer_defendable = n("volltreffer_defendable");
  r.patzer_defence_roll = n("patzer_defence_roll");
  r.defence_patzer_niedergeworfen = n("defence_patzer_niedergeworfen");
  r.zielen_qs_on_weakened_hit = n("zielen_qs_on_weakened_hit");
  r.zielen_lost_on_hit = n("zielen_lost_on_hit");
  r.table_low = n("table_low");
  r.zerschmettert_all_direct = n("zerschmettert_all_direct");
  r.crit_bare_die = n("crit_bare_die");
  r.disarmed_per_die = n("disarmed_per_die");
  r.entwaffnen_nsc_penalty = n("entwaffnen_nsc_penalty");
  r.brechend_up = n("brechend_up");
  r.armour_floor_zero = n("armour_floor_zero");
  r.resistance_up = n("resistance_up");
  r.angeschlagen_every_hit = n("angeschlagen_every_hit");
  r.kampfunfaehig_prone = n("kampfunfaehig_prone");
  r.nsc_at_zero_dead = n("nsc_at_zero_dead");
  r.sterbend_damage_reinflicts = n("sterbend_damage_reinflicts");
  r.non_lethal_floor_zero = n("non_lethal_floor_zero");
  r.death_at_or_below = n("death_at_or_below");
  r.tod_abwenden_ends_sterbend = n("tod_abwenden_ends_sterbend");
  r.round_end_phased = n("round_end_phased");
  r.extra_action_moves = n("extra_action_moves");
  r.escalation_steps = n("escalation_steps");
  r.unbeugsamkeit_check = n("unbeugsamkeit_check");
  r.escape_sides = static_cast<std::uint32_t>(n("escape_sides"));
  r.fire_kind = n("fire_kind");
  r.push_metres = n("push_metres");
  r.forced_provoke = n("forced_provoke");
  r.own_turn_fall_roll = n("own_turn_fall_roll");
  r.fall_dice_up = n("fall_dice_up");
  r.fall_metres_per_die = n("fall_metres_per_die");
  r.fall_armour_mode = n("fall_armour_mode");
  const int sturz = n("sturz_form_bit");
  r.infiltration_check = n("infiltration_check");
  r.benommen_check = n("benommen_check");
  r.ambushed_sides = static_cast<std::uint32_t>(n("ambushed_sides"));
  r.reflexe_check = n("reflexe_check");
  for (int c = 0; c < kConditions; ++c) r.shake_check[c] = n(("shake_check_" + std::to_string(c)).c_str());
  r.technik_check = n("technik_check");
  r.operations_check = n("operations_check");
  r.sprint_multiplier = n("sprint_multiplier");
  r.help_attacks_only = n("help_attacks_only");
  r.help_modifier_none = n("help_modifier_none");
  r.stabilise_victim_patient = n("stabilise_victim_patient");
  r.rucksack_item_lost = n("rucksack_item_lost");
  r.maneuver_damage = n("maneuver_damage");
  r.maneuver_rows = n("maneuver_rows");
  r.forced_all = n("forced_all");
  r.climb_check = n("climb_check");
  r.swim_check = n("swim_check");
  r.climb_let_go_falls = n("climb_let_go_falls");
  r.standable = static_cast<std::uint32_t>(n("standable"));
  for (const auto& [kind, price] : n.Prefixed("price_")) {
    if (kind < 0 || kind >= static_cast<int>(r.price.size())) throw std::invalid_argument("a price's kind");
    r.price[kind] = price;
  }
  if (r.maneuver_rows < 0 || r.maneuver_rows > 2) throw std::invalid_argument("maneuver_rows");
  n.Done();
  for (int check : r.shake_check)
    if (check < -1 || check >= kCheckValues) throw std::invalid_argument("a shake check value");
  for (int check : {r.technik_check, r.operations_check, r.climb_check, r.swim_check})
    if (check < 0 || check >= kCheckValues) throw std::invalid_argument("a check value");
  for (int check : {r.benommen_check, r.reflexe_check})
    if (check < 0 || check >= kCheckValues) throw std::invalid_argument("a check value");
  if (sturz < 0 || sturz > 63 || r.fall_metres_per_die < 1 || r.fall_armour_mode < 0 ||
      r.fall_armour_mode > kArmourDirekt || r.infiltration_check < 0 ||
      r.infiltration_check >= kCheckValues)
    throw std::invalid_argument("a fall rule out of range");
  r.sturz_form = std::uint64_t{1} << sturz;
  for (const auto& [fire, check, mode, bit] : zehrend) {
    if (check < 0 || check >= kCheckValues || mode < 0 || mode > kArmourDirekt || bit < 0 ||
        bit > 63)
      throw std::invalid_argument("a Zehrend kind out of range");
    r.zehrend_kinds.push_back({fire, check, mode, std::uint64_t{1} << bit});
  }
  const int kinds = static_cast<int>(r.zehrend_kinds.size());
  if (kinds > 64 || r.fire_kind < 0 || r.fire_kind >= kinds)
    throw std::invalid_argument("up to 64 Zehrend kinds, fire's among them");
  if (r.probe.volltreffer_qs < 0 || r.probe.volltreffer_qs > 2 ||
      r.unbeugsamkeit_check < 0 || r.unbeugsamkeit_check >= kCheckValues)
    throw std::invalid_argument("unknown volltreffer_qs or check value");
  if (substitute.size() != kConditions || on_gain.size() != kConditions)
    throw std::invalid_argument("one substitute and on_gain per condition");
  for (int i = 0; i < kConditions; ++i) {
    if (substitute[i] < -1 || substitute[i] >= kConditions || on_gain[i] < 0 || on_gain[i] > 2)
      throw std::invalid_argument("a substitute or on_gain out of range");
    r.substitute[i] = substitute[i], r.on_gain[i] = on_gain[i];
  }
  for (const auto& [row, extra, direct, condition, kind] : crits) {
    if (condition < -1 || condition >= kConditions || kind < -1 || kind >= kinds)
      throw std::invalid_argument("a crit's condition or Zehrend");
    r.crits.push_back({row, extra, direct, condition, kind});
  }
  for (int row : fumbles) {
    if (row < 0 || row > static_cast<int>(Fumble::kUnsauber)) throw std::invalid_argument("a fumble row");
    r.fumbles.push_back(row);
  }
  if (r.crits.empty() || r.fumbles.empty()) throw std::invalid_argument("empty tables");
  for (const auto& [armour, unbeugsamkeit, immune, resist, vuln, weapons, drop, drop_limited,
                    catalogue, carried, cyber, hacks] : specs) {
    StrikeSpec spec{armour, unbeugsamkeit, immune, resist, vuln, {}, {drop, drop_limited},
                    {}, carried, {}};
    if (carried < 0 || carried > static_cast<int>(catalogue.size()))
      throw std::invalid_argument("more items at hand than in the catalogue");
    if (catalogue.size() > kMaxItems)  // every item may end up at hand (H06)
      throw Unported("more items and backpack than the core holds at hand (kMaxItems)");
    for (const auto& [heal, amount, condition] : catalogue) {
      if (condition < -1 || condition >= kConditions) throw std::invalid_argument("an item's condition");
      spec.catalogue.push_back({heal, amount, condition});
    }
    for (const auto& [kind, amount, condition] : cyber) {
      if (kind < kAbilityNone || kind > kAbilityShake || condition < -1 || condition >= kConditions)
        throw std::invalid_argument("a cyberware ability out of range");
      spec.cyber.push_back({kind, amount, condition});
    }
    for (const auto& [bonus, mode, forms, deals, condition, zehrend] : hacks) {
      if (mode < 0 || mode > kArmourDirekt || condition < -1 || condition >= kConditions ||
          zehrend < -1 || zehrend >= kinds)
        throw std::invalid_argument("a hack's armour mode, condition or Zehrend");
      spec.hacks.push_back({bonus, mode, forms, deals, condition, zehrend});
    }
    for (const auto& [bonus, mode, forms, non_lethal, kind, unarmed] : weapons) {
      if (mode < 0 || mode > kArmourDirekt || kind < -1 || kind >= kinds)
        throw std::invalid_argument("an armour mode or Zehrend out of range");
      spec.weapons.push_back({bonus, mode, forms, non_lethal, kind, unarmed});
    }
    r.specs.push_back(std::move(spec));
  }
  for (const auto& [effect, condition] : maneuvers) {
    if (effect < 1 || effect > static_cast<int>(ManeuverEffect::kMitzerren) || condition < -1 ||
        condition >= kConditions)
      throw std::invalid_argument("a Kampfmanöver's effect out of range");
    r.maneuvers.push_back({static_cast<ManeuverEffect>(effect), condition});
  }
  for (const auto& [kind, side, vip, count] : victory) {
    if (kind != kVictoryEliminate && kind != kVictoryExit && kind != kVictoryVip)
      throw std::invalid_argument("a victory kind without an after-change check");
    if (vip >= static_cast<int>(specs.size())) throw std::invalid_argument("a VIP out of range");
    r.victory.push_back({kind, side, vip, count});
  }
  return r;
}

}  // namespace cwenv::kampf
