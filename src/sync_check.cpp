// The equality gate's comparison (sync.hpp FirstDifference, CheckKept): the state kept
// from the events against a fresh import, field by field, tests/test_native_state_sync.py.
#include <array>
#include <string>
#include <vector>

#include "sync.hpp"

namespace cwenv::kampf {

namespace {

template <typename T>
std::string Differ(const std::string& what, const T& a, const T& b) {
  return a == b ? "" : what + ": " + std::to_string(a) + " != " + std::to_string(b);
}

template <std::size_t K>
std::string DifferN(const std::string& what, const std::array<int, K>& a,
                    const std::array<int, K>& b, int n) {
  for (int i = 0; i < n; ++i)
    if (a[i] != b[i]) return Differ(what + "[" + std::to_string(i) + "]", a[i], b[i]);
  return "";
}

std::string FighterDifference(const Spec& spec, const Fighter& a, const Fighter& b) {
  const std::string fields[] = {
      Differ("pos", a.pos, b.pos), Differ("side", a.side, b.side), Differ("lp", a.lp, b.lp),
      Differ("conditions", a.conditions, b.conditions), Differ("dead", a.dead, b.dead),
      Differ("down", a.down, b.down), Differ("fled", a.fled, b.fled),
      Differ("disarmed", a.disarmed, b.disarmed),
      Differ("extra_action_used", a.extra_action_used, b.extra_action_used),
      Differ("drawn", a.drawn, b.drawn), Differ("dropped", a.dropped, b.dropped),
      Differ("jammed", a.jammed, b.jammed), Differ("aim_target", a.aim_target, b.aim_target),
      Differ("aim_stacks", a.aim_stacks, b.aim_stacks), Differ("mumm", a.mumm, b.mumm),
      DifferN("ammo", a.ammo, b.ammo, spec.n_weapons),
      DifferN("reloads", a.reloads, b.reloads, spec.n_weapons),
      DifferN("upload_progress", a.upload_progress, b.upload_progress, spec.n_hacks),
      DifferN("cyber_uses", a.cyber_uses, b.cyber_uses, spec.n_cyber),
      Differ("n_items", a.n_items, b.n_items), Differ("backpack", a.backpack, b.backpack),
      Differ("helpers", a.helpers, b.helpers), Differ("climb_cell", a.climb_cell, b.climb_cell),
      Differ("climb_height", a.climb_height, b.climb_height),
      Differ("mumm_max", a.mumm_max, b.mumm_max), Differ("n_zehrend", a.n_zehrend, b.n_zehrend),
      Differ("zehrend_fire", a.zehrend_fire, b.zehrend_fire),
      Differ("focus_bonus", a.focus_bonus, b.focus_bonus),
      Differ("armour_bonus", a.armour_bonus, b.armour_bonus),
      Differ("prone_bonus", a.prone_bonus, b.prone_bonus),
  };
  for (const std::string& d : fields)
    if (!d.empty()) return d;
  for (int k = 0; k < a.n_items; ++k) {
    const std::string item = "items[" + std::to_string(k) + "]";
    if (std::string d = Differ(item + ".heal", a.items[k].heal, b.items[k].heal); !d.empty())
      return d;
    if (std::string d = Differ(item + ".condition", a.items[k].condition, b.items[k].condition);
        !d.empty())
      return d;
  }
  return "";
}

template <typename T>
std::string CellsDifference(const std::string& what, const std::vector<T>& a,
                            const std::vector<T>& b) {
  if (a.size() != b.size()) return Differ(what + " cells", a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return Differ(what + "[" + std::to_string(i) + "]", +a[i], +b[i]);
  return "";
}

}  // namespace

std::string FirstDifference(const GameDesc& g, const State& a, const State& b) {
  if (a.fighters.size() != b.fighters.size())
    return Differ("fighters", a.fighters.size(), b.fighters.size());
  for (std::size_t i = 0; i < a.fighters.size(); ++i)
    if (std::string d = FighterDifference(g.specs[i], a.fighters[i], b.fighters[i]); !d.empty())
      return "fighter " + std::to_string(i) + " " + d;
  for (const std::string& d :
       {CellsDifference("occupant", a.occupant, b.occupant),
        Differ("any_occupant", a.any_occupant, b.any_occupant),
        CellsDifference("opaque", a.opaque, b.opaque), CellsDifference("solid", a.solid, b.solid)})
    if (!d.empty()) return d;
  return "";
}

nb::object CheckKept(nb::handle combat, bool kept, StateSource& src, const GameDesc& g, State& s) {
  if (!kept) return nb::none();
  const State was = s;
  if (!src.ImportAll(combat)) return nb::none();
  return nb::str(FirstDifference(g, was, s).c_str());
}

}  // namespace cwenv::kampf
