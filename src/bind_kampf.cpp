// The Python face of the Kampfrunde state (kampf.hpp): _core.Kampf, a compiled game
// description with one combat's state, imported from a Python Combat once and kept up to
// date from its events (sync.hpp) before each native call. Only conversions live here; the rules are in legality.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "kampf.hpp"
#include "los.hpp"
#include "paths.hpp"
#include "sync.hpp"

namespace nb = nanobind;
using namespace cwenv::kampf;

namespace {

// The attribute names Import reads, interned once (cheaper to look up than a C string).
struct Names {
  nb::object fighters, occupant, opaque, solid, spec, pos, side, lp, conditions, dead, down,
      fled, disarmed, extra_action_used, drawn, dropped, jammed, aim_target, aim_stacks, mumm,
      ammo, reloads, upload_progress, cyber_uses, items, backpack, helpers, kind, condition,
      handlungen, grants, sprint_bonus, moved, parity, benommen, climb_cell, climb_height,
      mumm_max, zehrend, focus_bonus, armour_bonus, prone_bonus;
};

const Names& N() {
  static const Names* names = [] {
    auto s = [](const char* n) { return nb::steal(PyUnicode_InternFromString(n)); };
    return new Names{s("fighters"), s("occupant"), s("opaque"), s("solid"), s("spec"), s("pos"),
                     s("side"), s("lp"), s("conditions"), s("dead"), s("down"), s("fled"),
                     s("disarmed"), s("extra_action_used"), s("drawn"), s("dropped"), s("jammed"),
                     s("aim_target"), s("aim_stacks"), s("mumm"), s("ammo"), s("reloads"),
                     s("upload_progress"), s("cyber_uses"), s("items"), s("backpack"),
                     s("helpers"), s("kind"), s("condition"), s("handlungen"), s("grants"),
                     s("sprint_bonus"), s("moved"), s("parity"), s("benommen"),
                     s("climb_cell"), s("climb_height"), s("mumm_max"), s("zehrend"),
                     s("focus_bonus"), s("armour_bonus"), s("prone_bonus")};
  }();
  return *names;
}

nb::object Get(nb::handle o, const nb::object& name) {
  PyObject* v = PyObject_GetAttr(o.ptr(), name.ptr());
  if (!v) throw nb::python_error();
  return nb::steal(v);
}

long long Int(nb::handle o) {
  const long long v = PyLong_AsLongLong(o.ptr());
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

long long Int(nb::handle o, const nb::object& name) { return Int(Get(o, name)); }
bool Bool(nb::handle o, const nb::object& name) { return Get(o, name).ptr() == Py_True; }

// A list of ints into a fixed array; false when it does not fit.
template <std::size_t K>
bool Ints(nb::handle list, std::array<int, K>& out, int expected) {
  PyObject* l = list.ptr();
  if (!PyList_Check(l) || PyList_GET_SIZE(l) != expected || expected > static_cast<int>(K))
    return false;
  for (int i = 0; i < expected; ++i) out[i] = static_cast<int>(Int(PyList_GET_ITEM(l, i)));
  return true;
}

using WeaponRow = std::tuple<bool, int, std::vector<std::tuple<int, int>>, int, int, int>;
using HackRow = std::tuple<int, int, int>;
using SpecRow = std::tuple<int, int, bool, int, int, std::vector<WeaponRow>, std::vector<HackRow>,
                           std::vector<bool>>;
using OptionsRow = std::tuple<bool, int, bool, bool, bool, bool, int, bool, bool, bool, bool,
                              bool, bool, bool, bool, bool, int, bool>;
using TurnRow = std::tuple<int, int, std::uint32_t, bool>;

Spec MakeSpec(const SpecRow& row) {
  const auto& [lp, size, humanoid, movement, carried, weapons, hacks, cyber] = row;
  if (weapons.size() > kMaxWeapons || hacks.size() > kMaxHacks || cyber.size() > kMaxCyber ||
      carried < 0 || carried > static_cast<int>(weapons.size()))
    throw std::invalid_argument("a stat block beyond the core's capacities");
  Spec s{};
  s.lp = lp, s.size = size, s.humanoid = humanoid, s.movement = movement, s.carried = carried;
  s.n_weapons = static_cast<int>(weapons.size());
  for (std::size_t i = 0; i < weapons.size(); ++i) {
    const auto& [ranged, reach, bands, area, magazine, nachladen] = weapons[i];
    if (bands.size() > kMaxBands) throw std::invalid_argument("too many range bands");
    Weapon& w = s.weapons[i];
    w = {ranged, reach, static_cast<int>(bands.size()), {}, area, magazine, nachladen};
    for (std::size_t b = 0; b < bands.size(); ++b)
      w.ranges[b] = {std::get<0>(bands[b]), std::get<1>(bands[b])};
  }
  s.n_hacks = static_cast<int>(hacks.size());
  for (std::size_t i = 0; i < hacks.size(); ++i)
    s.hacks[i] = {std::get<0>(hacks[i]), std::get<1>(hacks[i]), std::get<2>(hacks[i])};
  s.n_cyber = static_cast<int>(cyber.size());
  for (std::size_t i = 0; i < cyber.size(); ++i) s.cyber_ability[i] = cyber[i];
  return s;
}

// One game's description, the state of the combat last imported, and the Action objects
// handed out so far (immutable values, shared like turn.py's move_actions).
class Kampf final : public StateSource {
 public:
  Kampf(nb::object lines, int width, int height, const nb::bytes& terrain,
        const std::vector<int>& elevation, const std::vector<SpecRow>& specs, const OptionsRow& options,
        const std::vector<int>& maneuvers, const std::vector<std::tuple<int, int>>& shakeable,
        const TurnRow& turn_rules, const nb::list& spec_objects, nb::object action,
        const nb::list& kinds, nb::object heal, nb::object fire)
      : lines_owner_(std::move(lines)), action_(std::move(action)), heal_(std::move(heal)),
        fire_(std::move(fire)) {
    if (!nb::isinstance<cwenv::Lines>(lines_owner_))
      throw std::invalid_argument("lines must be the map's _core.Lines");
    lines_ = nb::inst_ptr<cwenv::Lines>(lines_owner_);
    if (width < 1 || height < 1 || static_cast<int>(terrain.size()) != width * height ||
        lines_->size() != width * height)
      throw std::invalid_argument("the terrain and lines must be the map's");
    if (specs.size() != nb::len(spec_objects) || specs.size() > kMaxFighters)
      throw std::invalid_argument("one stat block per fighter, at most 64");
    if (elevation.size() != terrain.size())
      throw std::invalid_argument("one elevation per cell");
    g_.width = width, g_.height = height, g_.elevation = elevation;
    const auto* t = static_cast<const std::uint8_t*>(terrain.data());
    for (std::size_t i = 0; i < terrain.size(); ++i) g_.terrain.push_back(static_cast<cwenv::Terrain>(t[i]));
    for (const SpecRow& row : specs) g_.specs.push_back(MakeSpec(row));
    const auto& [ff, zms, sna, hic, nmh, lcpc, lcn, lcsb, p34f, asbh, pmn, brk, coa, nm, mv, mwf,
                 zs, lcm] = options;
    if (zs < 0 || zs > 2) throw std::invalid_argument("unknown zehrend_mumm_shake");
    g_.options = {ff,  zms, sna, hic, nmh, lcpc, lcn, lcsb, p34f,
                  asbh, pmn, brk, coa, nm,  mv,   mwf, zs,  lcm};
    const auto& [shake_cost, extra_cost, shakeable_bits, difficult] = turn_rules;
    g_.turn = {shake_cost, extra_cost, shakeable_bits, difficult};
    for (int m : maneuvers) {
      if (m < 0 || m > 2) throw std::invalid_argument("unknown manoeuvre limit");
      g_.maneuvers.push_back(static_cast<ManeuverLimit>(m));
    }
    for (const auto& [cond, limit] : shakeable) {
      if (cond < 0 || cond >= kConditions || limit < 0 || limit > 1)
        throw std::invalid_argument("unknown shakeable condition or limit");
      g_.shakeable.push_back({cond, static_cast<ShakeLimit>(limit)});
    }
    for (nb::handle h : spec_objects) specs_.push_back(nb::borrow(h));
    for (nb::handle h : kinds) kinds_.push_back(nb::borrow(h));
  }

  // Fills the state from a Python Combat (and, given, its turn frame's numbers): brought up
  // to date from the events since the last call on the same combat (sync.hpp), else
  // imported whole; false when the combat is not this game's (another stat block, too
  // many items), so the caller asks the reference instead.
  bool Import(nb::handle combat, nb::handle turn) {
    if (!(sync_on && sync.configured() ? sync.Sync(combat, *this, g_, s_)
                                        : ImportAll(combat)))
      return false;
    if (!turn.is_none()) {
      const Names& n = N();
      TurnNumbers& t = s_.turn;
      t.handlungen = static_cast<int>(Int(turn, n.handlungen));
      t.grants = static_cast<int>(Int(turn, n.grants));
      t.sprint_bonus = static_cast<int>(Int(turn, n.sprint_bonus));
      t.moved = static_cast<int>(Int(turn, n.moved));
      t.parity = static_cast<int>(Int(turn, n.parity));
      t.benommen = Bool(turn, n.benommen);
    }
    return true;
  }

  bool ImportAll(nb::handle combat) override {
    const nb::object fighters = Get(combat, N().fighters);
    PyObject* fl = fighters.ptr();
    if (!PyList_Check(fl) || PyList_GET_SIZE(fl) != static_cast<Py_ssize_t>(specs_.size()))
      return false;
    s_.fighters.resize(specs_.size());
    for (std::size_t i = 0; i < specs_.size(); ++i)
      if (!ImportFighter(PyList_GET_ITEM(fl, i), i)) return false;
    return ImportOccupant(combat) && ImportDoors(combat);
  }

  bool ImportOccupant(nb::handle combat) override {
    return ReadOccupant(Get(combat, N().occupant), g_.terrain.size(), specs_.size(), s_,
                        filled_);
  }
  bool ImportDoors(nb::handle combat) override {
    const std::size_t cells = g_.terrain.size();
    return ReadCells(Get(combat, N().opaque), s_.opaque, cells) &&
           ReadCells(Get(combat, N().solid), s_.solid, cells);
  }
  void Swapped() override { FilledOf(s_, filled_); }
  nb::object SyncCheck(nb::handle combat) {  // the equality gate (sync.hpp CheckKept)
    return CheckKept(combat, Import(combat, nb::none()), *this, g_, s_);
  }

  EventSync sync;  // the events applied so far (sync.hpp)
  bool sync_on = true;  // false: every call imports the whole combat (the benchmarks' twin)

  // offers.py handlung_actions natively: the Action list, or None when Import refused.
  nb::object HandlungActions(nb::handle combat, int fighter) {
    if (!Import(combat, nb::none())) return nb::none();
    if (fighter < 0 || fighter >= static_cast<int>(specs_.size()))
      throw std::out_of_range("no fighter " + std::to_string(fighter));
    cwenv::kampf::HandlungActions(g_, *lines_, s_, fighter, acts_);
    nb::list out;
    for (const Act& a : acts_) out.append(ActionOf(a));
    return out;
  }

  // cover.py cover_against natively (C01-C04, R06, X23, X25, X26): (level, living, coverer,
  // terrain) as ints and a bool; None when Import refused.
  nb::object CoverAgainst(nb::handle combat, int attacker, int target, bool ranged, bool area) {
    if (!Import(combat, nb::none())) return nb::none();
    const int n = static_cast<int>(specs_.size());
    if (attacker < 0 || attacker >= n || target < 0 || target >= n)
      throw std::out_of_range("no fighter " + std::to_string(attacker < 0 || attacker >= n ? attacker : target));
    const cwenv::kampf::CoverAnswer c =
        cwenv::kampf::CoverAgainst(g_, *lines_, s_, attacker, target, ranged, area);
    return nb::make_tuple(static_cast<int>(c.level), c.living, c.coverer,
                          static_cast<int>(c.terrain));
  }

  // turn.py turn_actions natively: (the legal TURN choices, the free search or None, the
  // difficult search or None); None when Import refused. ``moves`` and ``slow_cost``: the
  // fighter's step table now (offers_core.py picks it).
  nb::object TurnActions(nb::handle combat, nb::handle turn, int fighter,
                         const cwenv::Moves& moves, int slow_cost, int geometry) {
    if (turn.is_none()) throw std::invalid_argument("turn_actions needs the turn frame");
    if (!Import(combat, turn)) return nb::none();
    if (fighter < 0 || fighter >= static_cast<int>(specs_.size()))
      throw std::out_of_range("no fighter " + std::to_string(fighter));
    if (moves.size() != lines_->size()) throw std::invalid_argument("the moves are not the map's");
    if (geometry < 0 || geometry > 2 || slow_cost < 1)
      throw std::invalid_argument("a slow cost below 1 or an unknown blockade geometry");
    cwenv::kampf::TurnActions(g_, *lines_, s_, moves, slow_cost, geometry, fighter, inputs_,
                              answer_);
    nb::list acts;
    for (const Act& a : answer_.acts) acts.append(ActionOf(a));
    auto routes = [](const std::shared_ptr<const cwenv::Routes>& r) {
      return r ? nb::cast(cwenv::Routes(*r)) : nb::none();
    };
    return nb::make_tuple(acts, routes(answer_.free), routes(answer_.hard));
  }

  KampfView view() const { return {&g_, lines_, &s_}; }
  GameDesc& desc() { return g_; }  // the attack tables are handed over later (bind_plan.cpp)
  nb::object Action(const Act& a) { return ActionOf(a); }  // the native combat's (shared)
  std::size_t state_bytes() const {
    return sizeof(State) + s_.fighters.size() * sizeof(Fighter) +
           s_.occupant.size() * sizeof(std::int16_t) + s_.opaque.size() + s_.solid.size();
  }

 private:
  bool ImportFighter(nb::handle h, std::size_t i) override {
    const Names& n = N();
    if (Get(h, n.spec).ptr() != specs_[i].ptr()) return false;
    const Spec& spec = g_.specs[i];
    Fighter& f = s_.fighters[i];
    f.pos = static_cast<int>(Int(h, n.pos));
    f.side = static_cast<int>(Int(h, n.side));
    f.lp = static_cast<int>(Int(h, n.lp));
    f.dead = Bool(h, n.dead), f.down = Bool(h, n.down), f.fled = Bool(h, n.fled);
    f.disarmed = Bool(h, n.disarmed), f.extra_action_used = Bool(h, n.extra_action_used);
    f.drawn = static_cast<int>(Int(h, n.drawn));
    const long long conditions = Int(h, n.conditions), dropped = Int(h, n.dropped),
                    jammed = Int(h, n.jammed);
    if (conditions < 0 || conditions >> kConditions || dropped < 0 || dropped >> kMaxWeapons ||
        jammed < 0 || jammed >> kMaxWeapons)
      return false;
    f.conditions = static_cast<std::uint32_t>(conditions);
    f.dropped = static_cast<std::uint32_t>(dropped), f.jammed = static_cast<std::uint32_t>(jammed);
    f.aim_target = static_cast<int>(Int(h, n.aim_target));
    f.aim_stacks = static_cast<int>(Int(h, n.aim_stacks));
    f.mumm = static_cast<int>(Int(h, n.mumm));
    f.climb_cell = static_cast<int>(Int(h, n.climb_cell));
    f.climb_height = static_cast<int>(Int(h, n.climb_height));
    f.mumm_max = static_cast<int>(Int(h, n.mumm_max));
    f.focus_bonus = static_cast<int>(Int(h, n.focus_bonus));
    f.armour_bonus = static_cast<int>(Int(h, n.armour_bonus));
    f.prone_bonus = Bool(h, n.prone_bonus);
    const nb::object zehrend = Get(h, n.zehrend);
    if (!PyTuple_Check(zehrend.ptr())) return false;
    f.n_zehrend = static_cast<int>(PyTuple_GET_SIZE(zehrend.ptr()));
    f.zehrend_fire = 0;
    for (int k = 0; k < std::min(f.n_zehrend, kZehrendSlots); ++k) {
      const int fire = PyObject_RichCompareBool(PyTuple_GET_ITEM(zehrend.ptr(), k), fire_.ptr(), Py_EQ);
      if (fire < 0) throw nb::python_error();
      if (fire) f.zehrend_fire |= 1u << k;
    }
    if (f.climb_cell >= static_cast<int>(g_.terrain.size())) return false;
    if (!Ints(Get(h, n.ammo), f.ammo, spec.n_weapons) ||
        !Ints(Get(h, n.reloads), f.reloads, spec.n_weapons) ||
        !Ints(Get(h, n.upload_progress), f.upload_progress, spec.n_hacks) ||
        !Ints(Get(h, n.cyber_uses), f.cyber_uses, spec.n_cyber))
      return false;
    const nb::object items = Get(h, n.items);
    PyObject* il = items.ptr();
    if (!PyList_Check(il) || PyList_GET_SIZE(il) > kMaxItems) return false;
    f.n_items = static_cast<int>(PyList_GET_SIZE(il));
    for (int k = 0; k < f.n_items; ++k) {
      nb::handle item = PyList_GET_ITEM(il, k);
      const nb::object cond = Get(item, n.condition);
      f.items[k] = {Get(item, n.kind).ptr() == heal_.ptr(),
                    cond.is_none() ? -1 : static_cast<int>(Int(cond))};
    }
    const Py_ssize_t backpack = PyObject_Length(Get(h, n.backpack).ptr());
    if (backpack < 0) throw nb::python_error();
    f.backpack = static_cast<int>(backpack);
    f.helpers = 0;
    const nb::object helpers = Get(h, n.helpers);
    for (nb::handle x : helpers) {
      const long long idx = Int(x);
      if (idx < 0 || idx >= kMaxFighters) return false;
      f.helpers |= std::uint64_t{1} << idx;
    }
    return true;
  }

  nb::object ActionOf(const Act& a) {
    const std::uint64_t key = static_cast<std::uint64_t>(a.kind) |
                              static_cast<std::uint64_t>(a.actor) << 6 |
                              static_cast<std::uint64_t>(a.target + 1) << 13 |
                              static_cast<std::uint64_t>(a.arg + 1) << 20 |
                              static_cast<std::uint64_t>(a.cell + 1) << 32;
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    nb::object made = action_(kinds_.at(static_cast<std::size_t>(a.kind)), a.actor, a.target,
                              a.cell, a.arg);
    cache_.emplace(key, made);
    return made;
  }

  nb::object lines_owner_;  // the map's _core.Lines, kept alive
  const cwenv::Lines* lines_;
  nb::object action_, heal_, fire_;
  std::vector<nb::object> specs_, kinds_;
  GameDesc g_;
  State s_;
  std::vector<int> filled_;  // the cells ImportOccupant gave an occupant
  MoveInputs inputs_;
  TurnAnswer answer_;
  std::vector<Act> acts_;
  std::unordered_map<std::uint64_t, nb::object> cache_;
};

}  // namespace

// For the native encoder (bind_encode2.cpp): ``combat`` loaded into ``kampf``, and what it
// holds then; false when the combat is not its game's.
const State* NativeStateOf(nb::handle kampf, nb::handle combat);  // bind_combat.cpp

bool LoadKampf(nb::handle kampf, nb::handle combat, KampfView& out) {
  if (!nb::isinstance<Kampf>(kampf)) throw nb::type_error("kampf must be a _core.Kampf");
  Kampf* k = nb::inst_ptr<Kampf>(kampf);
  if (const State* native = NativeStateOf(kampf, combat)) {
    out = k->view();
    out.s = native;  // the native combat's own state, which its mirror copies
    return true;
  }
  if (!k->Import(combat, nb::none())) return false;
  out = k->view();
  return true;
}

// The compiled game description ``kampf`` holds: for the prompts (bind_prompts.cpp), and
// for the attack plan's tables, handed over once per game (bind_plan.cpp).
GameDesc& KampfDescToFill(nb::handle kampf) {
  if (!nb::isinstance<Kampf>(kampf)) throw nb::type_error("kampf must be a _core.Kampf");
  return nb::inst_ptr<Kampf>(kampf)->desc();
}
const GameDesc& KampfDesc(nb::handle kampf) { return KampfDescToFill(kampf); }
// For the native combat (bind_combat.cpp): the Action objects the Kampf hands out.
nb::object KampfAction(nb::handle kampf, const Act& a) {
  return nb::inst_ptr<Kampf>(kampf)->Action(a);
}

void BindKampf(nb::module_& m) {
  auto kampf = nb::class_<Kampf>(m, "Kampf",
                    "A compiled game description and one combat's state (src/kampf.hpp); "
                    "cwenv/engine/offers_core.py builds it once per Game.")
      .def(nb::init<nb::object, int, int, const nb::bytes&, const std::vector<int>&,
                    const std::vector<SpecRow>&, const OptionsRow&, const std::vector<int>&,
                    const std::vector<std::tuple<int, int>>&, const TurnRow&, const nb::list&,
                    nb::object, const nb::list&, nb::object, nb::object>(),
           nb::arg("lines"), nb::arg("width"), nb::arg("height"),
           nb::arg("terrain"), nb::arg("elevation"), nb::arg("specs"), nb::arg("options"), nb::arg("maneuvers"),
           nb::arg("shakeable"), nb::arg("turn_rules"), nb::arg("spec_objects"),
           nb::arg("action"), nb::arg("kinds"), nb::arg("heal"), nb::arg("fire"))
      .def("load", &Kampf::Import, nb::arg("combat"), nb::arg("turn").none(),
           "Fill the state from a Python Combat (and its TurnFrame); False when the combat "
           "is not this game's.")
      .def("handlung_actions", &Kampf::HandlungActions, nb::arg("combat"), nb::arg("fighter"),
           "offers.py handlung_actions natively; None when the combat is not this game's.")
      .def("turn_actions", &Kampf::TurnActions, nb::arg("combat"), nb::arg("turn"),
           nb::arg("fighter"), nb::arg("moves"), nb::arg("slow_cost"), nb::arg("geometry"),
           "turn.py turn_actions natively: (actions, free Routes or None, difficult Routes or "
           "None); None when the combat is not this game's.")
      .def("cover_against", &Kampf::CoverAgainst, nb::arg("combat"), nb::arg("attacker"),
           nb::arg("target"), nb::arg("ranged"), nb::arg("area"),
           "cover.py cover_against natively: (level, living, coverer, terrain); None when the "
           "combat is not this game's.")
      .def_prop_ro("state_bytes", &Kampf::state_bytes,
                   "Bytes of the combat state last loaded (event log and frames excluded).");
  BindSync(m, kampf);
}
