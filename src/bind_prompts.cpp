// The Python face of the prompts' legality (prompts.hpp): _core.Prompts, built once per
// game beside its _core.Kampf (cwenv/engine/prompts_core.py). Each call reads only the
// fighters and the CheckFrame the prompt is about, not the whole combat; only
// conversions live here, the rules are in prompts.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "kampf.hpp"
#include "prompts.hpp"

namespace nb = nanobind;
using namespace cwenv::kampf;

const GameDesc& KampfDesc(nb::handle kampf);  // bind_kampf.cpp

namespace {

struct Names {
  nb::object fighters, pos, side, dead, down, fled, conditions, mumm, mumm_max, zehrend,
      reactions, actionbonus_used, turn_fighter, turn_benommen, fighter, about, purpose,
      improved, rerolls, parts, own, result, patzer, success, volltreffer, drawn, dropped,
      jammed, ammo;
};

const Names& N() {
  static const Names* names = [] {
    auto s = [](const char* n) { return nb::steal(PyUnicode_InternFromString(n)); };
    return new Names{s("fighters"), s("pos"), s("side"), s("dead"), s("down"), s("fled"),
                     s("conditions"), s("mumm"), s("mumm_max"), s("zehrend"), s("reactions"),
                     s("actionbonus_used"), s("turn_fighter"), s("turn_benommen"),
                     s("fighter"), s("about"), s("purpose"), s("improved"), s("rerolls"),
                     s("parts"), s("own"), s("result"), s("patzer"), s("success"),
                     s("volltreffer"), s("drawn"), s("dropped"), s("jammed"), s("ammo")};
  }();
  return *names;
}

nb::object Get(nb::handle o, const nb::object& name) {
  PyObject* v = PyObject_GetAttr(o.ptr(), name.ptr());
  if (!v) throw nb::python_error();
  return nb::steal(v);
}

int Int(nb::handle o) {
  const long v = PyLong_AsLong(o.ptr());
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return static_cast<int>(v);
}

int Int(nb::handle o, const nb::object& name) { return Int(Get(o, name)); }
bool Bool(nb::handle o, const nb::object& name) { return Get(o, name).ptr() == Py_True; }

constexpr int kRulesFields = 22;  // prompts_core.py rules_row

class Prompts {
 public:
  Prompts(nb::object kampf, const std::vector<int>& rules, int part_condition,
          int part_actionbonus, nb::object action, const nb::list& kinds, nb::object fire)
      : kampf_(std::move(kampf)), g_(&KampfDesc(kampf_)), part_condition_(part_condition),
        part_actionbonus_(part_actionbonus), action_(std::move(action)), fire_(std::move(fire)) {
    if (rules.size() != kRulesFields) throw std::invalid_argument("22 prompt rule fields");
    const int* v = rules.data();
    r_ = {v[0],  v[1],  v[2],  v[3],  v[4],  v[5],  v[6] != 0,  v[7] != 0,  v[8] != 0,
          v[9] != 0, v[10] != 0, v[11], v[12] != 0, v[13] != 0, v[14] != 0, v[15] != 0,
          v[16] != 0, v[17], v[18], v[19], static_cast<std::uint32_t>(v[20]),
          static_cast<std::uint32_t>(v[21])};
    for (nb::handle h : kinds) kinds_.push_back(nb::borrow(h));
  }

  // conditions.py prompt_shakes: the MUMM_SHAKE choices at a prompt of ``fighter``.
  nb::list Shakes(nb::handle combat, bool order, int fighter) {
    nb::list out;
    if (order || !r_.shake_any_decision) return out;
    Load(combat, fighter);
    PromptShakes(*g_, r_, f_, fighter, false, TurnBenommen(combat, fighter), acts_);
    for (const PromptAct& a : acts_) out.append(ActionOf(a));
    return out;
  }

  // prompts.py check_spends (before and after the roll) and keep_choices for a CheckFrame.
  nb::tuple PreCheck(nb::handle combat, nb::handle frame) {
    const int fi = Int(frame, N().fighter);
    Load(combat, fi);
    const CheckAt at = CheckOf(frame, false);
    PreCheckChoices(*g_, r_, f_, fi, x_, at, at.own_malus && TurnBenommen(combat, fi), acts_);
    return Answer();
  }

  nb::tuple PostCheck(nb::handle combat, nb::handle frame) {
    const int fi = Int(frame, N().fighter);
    Load(combat, fi);
    PostCheckChoices(*g_, r_, f_, fi, CheckOf(frame, true), acts_);
    return Answer();
  }

  nb::tuple Keep(nb::handle frame) {
    KeepChoices(r_, Int(frame, N().fighter), Bool(Get(frame, N().result), N().patzer), acts_);
    return Answer();
  }

  // prompts.py niederwerfen_choices / defence_choices: empty when the target is not asked.
  nb::tuple Niederwerfen(nb::handle combat, int target, int attacker) {
    Load(combat, target);
    NiederwerfenChoices(*g_, r_, f_, target, x_, Checked(attacker), acts_);
    return Answer();
  }

  // prompts.py blockade_attack_choices / catch_fall_choices: empty when not asked.
  nb::tuple Blockade(nb::handle combat, int guard, int mover, int a, int b) {
    Load(combat, guard, true);
    const int cells = static_cast<int>(g_->terrain.size());
    if (a < 0 || a >= cells || b < 0 || b >= cells) throw std::out_of_range("a step off the map");
    BlockadeChoices(*g_, r_, f_, guard, x_, Checked(mover), a, b, acts_);
    return Answer();
  }

  nb::tuple CatchFall(nb::handle combat, int fighter) {
    Load(combat, fighter);
    CatchFallChoices(*g_, r_, f_, fighter, x_, acts_);
    return Answer();
  }

  nb::tuple Defence(nb::handle combat, int target, int attacker, int mode, int index) {
    Load(combat, target);
    const int a = Checked(attacker);
    if (mode < 0 || mode > 3) throw std::invalid_argument("unknown attack mode");
    const Spec& spec = g_->specs[a];
    if ((mode == 0 || mode == 3) && (index < 0 || index >= spec.n_weapons))
      throw std::out_of_range("no weapon " + std::to_string(index));
    DefenceChoices(*g_, r_, f_, target, x_, a, static_cast<Mode>(mode), index, acts_);
    return Answer();
  }

 private:
  int Checked(int fi) const {
    if (fi < 0 || fi >= static_cast<int>(g_->specs.size()))
      throw std::out_of_range("no fighter " + std::to_string(fi));
    return fi;
  }

  // The fields of one FighterState the prompts read (kampf::Fighter's and Reacting's);
  // ``arms``: its weapons' state too (drawn, dropped, jammed, ammunition).
  void Load(nb::handle combat, int fi, bool arms = false) {
    const Names& n = N();
    const nb::object fighters = Get(combat, n.fighters);
    if (!PyList_Check(fighters.ptr()) ||
        PyList_GET_SIZE(fighters.ptr()) != static_cast<Py_ssize_t>(g_->specs.size()))
      throw std::invalid_argument("the combat is not this game's");
    nb::handle h = PyList_GET_ITEM(fighters.ptr(), Checked(fi));
    f_.pos = Int(h, n.pos), f_.side = Int(h, n.side);
    f_.dead = Bool(h, n.dead), f_.down = Bool(h, n.down), f_.fled = Bool(h, n.fled);
    f_.conditions = static_cast<std::uint32_t>(Int(h, n.conditions));
    f_.mumm = Int(h, n.mumm), f_.mumm_max = Int(h, n.mumm_max);
    const nb::object zehrend = Get(h, n.zehrend);
    if (!PyTuple_Check(zehrend.ptr())) throw std::invalid_argument("zehrend must be a tuple");
    f_.n_zehrend = static_cast<int>(PyTuple_GET_SIZE(zehrend.ptr()));
    f_.zehrend_fire = 0;
    for (int k = 0; k < std::min(f_.n_zehrend, kZehrendSlots); ++k) {
      const int fire = PyObject_RichCompareBool(PyTuple_GET_ITEM(zehrend.ptr(), k), fire_.ptr(), Py_EQ);
      if (fire < 0) throw nb::python_error();
      if (fire) f_.zehrend_fire |= 1u << k;
    }
    if (f_.pos < 0 || f_.pos >= static_cast<int>(g_->terrain.size()))
      throw std::out_of_range("a position off the map");
    x_ = {Int(h, n.reactions), Bool(h, n.actionbonus_used)};
    if (!arms) return;
    f_.drawn = Int(h, n.drawn);
    f_.dropped = static_cast<std::uint32_t>(Int(h, n.dropped));
    f_.jammed = static_cast<std::uint32_t>(Int(h, n.jammed));
    const nb::object ammo = Get(h, n.ammo);
    const int weapons = g_->specs[fi].n_weapons;
    if (!PyList_Check(ammo.ptr()) || PyList_GET_SIZE(ammo.ptr()) != weapons)
      throw std::invalid_argument("one ammunition count per weapon");
    for (int k = 0; k < weapons; ++k) f_.ammo[k] = Int(PyList_GET_ITEM(ammo.ptr(), k));
  }

  // Z02: the fighter's own turn began benommen (Combat.turn_benommen).
  bool TurnBenommen(nb::handle combat, int fi) {
    if (!f_.Has(kBenommen) || Int(combat, N().turn_fighter) != fi) return false;
    return Get(combat, N().turn_benommen)().ptr() == Py_True;
  }

  CheckAt CheckOf(nb::handle frame, bool rolled) {
    const Names& n = N();
    CheckAt at{};
    at.purpose = Int(Get(frame, n.about), n.purpose);
    at.improved = Int(frame, n.improved), at.rerolls = Int(frame, n.rerolls);
    if (at.purpose < 0 || at.purpose >= 32) throw std::invalid_argument("unknown check purpose");
    const nb::object parts = Get(frame, n.parts);
    const int own = Int(frame, n.own);
    PyObject* p = parts.ptr();
    if (!PyTuple_Check(p)) throw std::invalid_argument("parts must be a tuple");
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p); ++i) {
      PyObject* source = PyTuple_GET_ITEM(PyTuple_GET_ITEM(p, i), 0);  // (Source, value)
      const int kind = Int(PyTuple_GET_ITEM(source, 0));
      if (kind == part_actionbonus_) at.has_actionbonus = true;
      if (kind == part_condition_ && i >= 1 && i < own) {
        const int ref = Int(PyTuple_GET_ITEM(source, 1));
        if (ref >= 0 && ref < kConditions) at.own_malus |= 1u << ref;
      }
    }
    if (rolled) {
      const nb::object result = Get(frame, n.result);
      at.patzer = Bool(result, n.patzer), at.success = Bool(result, n.success);
      at.volltreffer = Bool(result, n.volltreffer);
    }
    return at;
  }

  nb::tuple Answer() {
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(acts_.size()));
    if (!t) throw nb::python_error();
    nb::tuple out = nb::steal<nb::tuple>(t);
    for (std::size_t i = 0; i < acts_.size(); ++i)
      PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), ActionOf(acts_[i]).release().ptr());
    return out;
  }

public:
  nb::object ActionOf(const PromptAct& a) {
    const std::uint64_t key = static_cast<std::uint64_t>(a.kind) |
                              static_cast<std::uint64_t>(a.actor) << 8 |
                              static_cast<std::uint64_t>(a.target + 1) << 16 |
                              static_cast<std::uint64_t>(a.arg + 1) << 24 |
                              static_cast<std::uint64_t>(a.mumm) << 40 |
                              static_cast<std::uint64_t>(a.cell + 1) << 42;
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    nb::object made = action_(kinds_.at(static_cast<std::size_t>(a.kind)), a.actor, a.target,
                              a.cell, a.arg, a.mumm);
    cache_.emplace(key, made);
    return made;
  }

 public:
  const PromptRules& rules() const { return r_; }

 private:
  nb::object kampf_;  // the game's _core.Kampf, kept alive for its GameDesc
  const GameDesc* g_;
  PromptRules r_{};
  int part_condition_, part_actionbonus_;
  nb::object action_, fire_;
  std::vector<nb::object> kinds_;
  Fighter f_{};
  Reacting x_{};
  std::vector<PromptAct> acts_;
  std::unordered_map<std::uint64_t, nb::object> cache_;
};

}  // namespace

// For the native combat (bind_combat.cpp): a prompt choice as its Action object.
nb::object PromptAction(nb::handle prompts, const PromptAct& a) {
  return nb::inst_ptr<Prompts>(prompts)->ActionOf(a);
}

// For the native combat (bind_combat.cpp): the prompts' rules a _core.Prompts holds.
const PromptRules& PromptRulesOf(nb::handle prompts) {
  if (!nb::isinstance<Prompts>(prompts)) throw nb::type_error("prompts must be a _core.Prompts");
  return nb::inst_ptr<Prompts>(prompts)->rules();
}

void BindPrompts(nb::module_& m) {
  nb::class_<Prompts>(m, "Prompts",
                      "The prompts' legality (src/prompts.hpp); cwenv/engine/prompts_core.py "
                      "builds it once per Game beside its Kampf.")
      .def(nb::init<nb::object, const std::vector<int>&, int, int, nb::object, const nb::list&,
                    nb::object>(),
           nb::arg("kampf"), nb::arg("rules"), nb::arg("part_condition"),
           nb::arg("part_actionbonus"), nb::arg("action"), nb::arg("kinds"), nb::arg("fire"))
      .def("shakes", &Prompts::Shakes, nb::arg("combat"), nb::arg("order"), nb::arg("fighter"),
           "conditions.py prompt_shakes natively.")
      .def("pre_check", &Prompts::PreCheck, nb::arg("combat"), nb::arg("frame"),
           "prompts.py check_spends before the roll natively.")
      .def("post_check", &Prompts::PostCheck, nb::arg("combat"), nb::arg("frame"),
           "prompts.py check_spends after the roll natively.")
      .def("keep", &Prompts::Keep, nb::arg("frame"), "prompts.py keep_choices natively.")
      .def("niederwerfen", &Prompts::Niederwerfen, nb::arg("combat"), nb::arg("target"),
           nb::arg("attacker"), "prompts.py niederwerfen_choices natively.")
      .def("blockade", &Prompts::Blockade, nb::arg("combat"), nb::arg("guard"), nb::arg("mover"),
           nb::arg("start"), nb::arg("end"), "prompts.py blockade_attack_choices natively.")
      .def("catch_fall", &Prompts::CatchFall, nb::arg("combat"), nb::arg("fighter"),
           "prompts.py catch_fall_choices natively.")
      .def("defence", &Prompts::Defence, nb::arg("combat"), nb::arg("target"),
           nb::arg("attacker"), nb::arg("mode"), nb::arg("index"),
           "prompts.py defence_choices natively.");
}
