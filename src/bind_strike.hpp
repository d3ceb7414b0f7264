// The rows cwenv/engine/native/strike.py hands the native combat (bind_combat.cpp), and the
// StrikeRules made of them (bind_strike.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "combat.hpp"

namespace cwenv::kampf {

// (bonus, armour mode, forms, non_lethal, Zehrend kind, unarmed): spec.all_weapons'
using WeaponRow = std::tuple<int, int, std::uint64_t, bool, int, bool>;
using ItemRow = std::tuple<bool, int, int>;  // (heal, amount, condition)
using CyberRow = std::tuple<int, int, int>;  // (ability kind, amount, condition)
// (bonus, armour mode, forms, deals damage, condition, Zehrend kind): spec.hacks'
using HackRow = std::tuple<int, int, std::uint64_t, bool, int, int>;
// (armour, Unbeugsamkeit, immune, resist, vuln, weapons, free drop, eingeschränkt's, the
// items then the backpack, how many items, cyberware, hacks)
using SpecRow = std::tuple<int, int, std::uint64_t, std::uint64_t, std::uint64_t,
                           std::vector<WeaponRow>, int, int, std::vector<ItemRow>, int,
                           std::vector<CyberRow>, std::vector<HackRow>>;
using CritRow = std::tuple<int, int, bool, int, int>;  // (row, extra, direct, condition, Zehrend)
using ZehrendRow = std::tuple<bool, int, int, int>;  // (fire, check, armour mode, form bit)
using VictoryRowT = std::tuple<int, int, int, int>;  // (kind, side, vip, count)

// strike.py strike_args as StrikeRules, every number checked (std::invalid_argument).
StrikeRules StrikeOf(const std::map<std::string, int>& named, const std::vector<int>& substitute,
                     const std::vector<int>& on_gain, const std::vector<CritRow>& crits,
                     const std::vector<int>& fumbles, const std::vector<SpecRow>& specs,
                     const std::vector<VictoryRowT>& victory,
                     const std::vector<ZehrendRow>& zehrend,
                     const std::vector<std::tuple<int, int>>& maneuvers);

}  // namespace cwenv::kampf
