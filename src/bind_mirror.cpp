// The native combat's Python mirror (bind_mirror.hpp): conversions only, no rules.
#include "bind_mirror.hpp"
#include "py_read.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cwenv::kampf {

// The combat's per-fighter state beyond kampf::Fighter (combat.hpp's private vectors).
struct MirrorAccess {
  static Image ImageOf(const NativeCombat& c, int i) {
    Image m;
    m.f = c.s_.fighters[i];
    m.reactions = c.reactions_[i], m.initiative = c.initiative_[i], m.actions = c.actions_[i];
    m.actionbonus_used = c.actionbonus_used_[i] != 0, m.stabilised = c.stabilised_[i] != 0;
    m.zehrend = c.zehrend_[i], m.zone = c.zone_[i], m.items = c.items_[i];
    m.backpack = c.backpack_[i], m.helpers = c.helpers_[i], m.reloading = c.reloading_[i];
    return m;
  }
  static void Put(NativeCombat& c, int i, const Image& m) {
    c.s_.fighters[i] = m.f;
    c.reactions_[i] = m.reactions, c.initiative_[i] = m.initiative, c.actions_[i] = m.actions;
    c.actionbonus_used_[i] = m.actionbonus_used, c.stabilised_[i] = m.stabilised;
    c.zehrend_[i] = m.zehrend, c.zone_[i] = m.zone, c.items_[i] = m.items;
    c.backpack_[i] = m.backpack, c.helpers_[i] = m.helpers, c.reloading_[i] = m.reloading;
    c.SyncZehrend(i), c.SyncItems(i), c.SyncHelpers(i);
  }
  static State& StateOf(NativeCombat& c) { return c.s_; }
  static const StrikeSpec& Spec(const NativeCombat& c, int i) { return c.strike_.specs[i]; }
  static const GameDesc& Desc(const NativeCombat& c) { return c.g_; }
};

namespace {

// Whether two images of a fighter differ in anything the mirror shows.
bool Differ(const Image& x, const Image& y, const Spec& stat) {
  const Fighter &a = x.f, &b = y.f;
  const auto arrays = [](const auto& p, const auto& q, int k) {
    return !std::equal(p.begin(), p.begin() + k, q.begin());
  };
  return a.pos != b.pos || a.lp != b.lp || a.conditions != b.conditions || a.dead != b.dead ||
         a.down != b.down || a.fled != b.fled || a.disarmed != b.disarmed ||
         a.extra_action_used != b.extra_action_used || a.drawn != b.drawn ||
         a.dropped != b.dropped || a.jammed != b.jammed || a.aim_target != b.aim_target ||
         a.aim_stacks != b.aim_stacks || a.mumm != b.mumm || a.mumm_max != b.mumm_max ||
         a.climb_cell != b.climb_cell || a.climb_height != b.climb_height ||
         a.focus_bonus != b.focus_bonus || a.armour_bonus != b.armour_bonus ||
         a.prone_bonus != b.prone_bonus || arrays(a.ammo, b.ammo, stat.n_weapons) ||
         arrays(a.reloads, b.reloads, stat.n_weapons) ||
         arrays(a.upload_progress, b.upload_progress, stat.n_hacks) ||
         arrays(a.cyber_uses, b.cyber_uses, stat.n_cyber) || x.reactions != y.reactions ||
         x.initiative != y.initiative || x.actions != y.actions ||
         x.actionbonus_used != y.actionbonus_used || x.stabilised != y.stabilised ||
         x.zehrend != y.zehrend || x.zone != y.zone || x.items != y.items ||
         x.backpack != y.backpack || x.helpers != y.helpers || x.reloading != y.reloading;
}

struct Names {
  nb::object fighters, occupant, opaque, solid, pos, lp, conditions, dead, down, fled, disarmed,
      extra_action_used, drawn, dropped, jammed, aim_target, aim_stacks, mumm, mumm_max,
      climb_cell, climb_height, focus_bonus, armour_bonus, prone_bonus, ammo, reloads,
      upload_progress, cyber_uses, reload_progress, reactions, initiative, actions,
      actionbonus_used, stabilised, zehrend, zone_zehrend, items, backpack, helpers;
};

const Names& N() {
  static const Names* names = [] {
    auto s = [](const char* n) { return nb::steal(PyUnicode_InternFromString(n)); };
    return new Names{
        s("fighters"), s("occupant"), s("opaque"), s("solid"), s("pos"), s("lp"),
        s("conditions"), s("dead"), s("down"), s("fled"), s("disarmed"),
        s("extra_action_used"), s("drawn"), s("dropped"), s("jammed"), s("aim_target"),
        s("aim_stacks"), s("mumm"), s("mumm_max"), s("climb_cell"), s("climb_height"),
        s("focus_bonus"), s("armour_bonus"), s("prone_bonus"), s("ammo"), s("reloads"),
        s("upload_progress"), s("cyber_uses"), s("reload_progress"), s("reactions"),
        s("initiative"), s("actions"), s("actionbonus_used"), s("stabilised"), s("zehrend"),
        s("zone_zehrend"), s("items"), s("backpack"), s("helpers")};
  }();
  return *names;
}

void Set(nb::handle o, const nb::object& name, nb::handle value) {
  if (PyObject_SetAttr(o.ptr(), name.ptr(), value.ptr()) != 0) throw nb::python_error();
}
void SetInt(nb::handle o, const nb::object& name, long long v) {
  Set(o, name, nb::steal(PyLong_FromLongLong(v)));
}
void SetBool(nb::handle o, const nb::object& name, bool v) {
  Set(o, name, v ? Py_True : Py_False);
}
using sync_detail::Get;  // the event sync's readers (sync.cpp), Python's errors raised
using sync_detail::Int;
long long AsInt(nb::handle o) { return Int(o.ptr()); }
bool Bool(nb::handle o, const nb::object& name) { return Get(o, name).ptr() == Py_True; }

// A Python list of the first ``n`` values.
template <typename T>
nb::object ListOf(const T* values, int n) {
  nb::list out;
  for (int k = 0; k < n; ++k) out.append(static_cast<long long>(values[k]));
  return out;
}
nb::object ObjectsOf(const std::vector<int>& ids, const std::vector<nb::object>& table,
                     bool as_tuple) {
  nb::list out;
  for (int id : ids) out.append(table[static_cast<std::size_t>(id)]);
  return as_tuple ? nb::object(nb::tuple(out)) : nb::object(out);
}
// A Python sequence of ints into ``out``; its length must be ``n``.
template <typename T>
void IntsInto(nb::handle seq, T* out, int n, const char* what) {
  nb::object fast = nb::steal(PySequence_Fast(seq.ptr(), what));
  if (!fast.is_valid()) throw nb::python_error();
  if (PySequence_Fast_GET_SIZE(fast.ptr()) != n) throw Unported(std::string(what) + ": another length");
  for (int k = 0; k < n; ++k) out[k] = static_cast<T>(AsInt(PySequence_Fast_GET_ITEM(fast.ptr(), k)));
}
// Each object of ``seq`` by its place in ``table``: by identity, else by equality (a
// Zehrend kind's name); each place taken once where ``once``.
std::vector<int> IdsOf(nb::handle seq, const std::vector<nb::object>& table, bool once,
                       const char* what) {
  std::vector<int> ids;
  std::vector<bool> taken(table.size(), false);
  for (nb::handle o : nb::borrow(seq)) {
    int found = -1;
    for (std::size_t k = 0; k < table.size() && found < 0; ++k)
      if (table[k].ptr() == o.ptr() && !(once && taken[k])) found = static_cast<int>(k);
    for (std::size_t k = 0; k < table.size() && found < 0; ++k)
      if (!(once && taken[k]) && table[k].equal(o)) found = static_cast<int>(k);
    if (found < 0) throw Unported(std::string(what) + " the core does not know");
    if (once) taken[static_cast<std::size_t>(found)] = true;
    ids.push_back(found);
  }
  return ids;
}

}  // namespace

void SyncMirror(const NativeCombat& c, MirrorState& m, nb::handle mirror) {
  const Names& n = N();
  const nb::object fighters = Get(mirror, n.fighters);
  const std::size_t count = c.state().fighters.size();
  if (m.last.size() != count) m.last.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const Image now = MirrorAccess::ImageOf(c, static_cast<int>(i));
    Image& was = m.last[i];
    const nb::handle o = PyList_GET_ITEM(fighters.ptr(), static_cast<Py_ssize_t>(i));
    const Fighter &a = now.f, &b = was.f;
    const bool all = m.fresh;
    const StrikeSpec& spec = MirrorAccess::Spec(c, static_cast<int>(i));
    const int weapons = static_cast<int>(spec.weapons.size());
    const Spec& stat = MirrorAccess::Desc(c).specs[i];
#define CW_INT(field) if (all || a.field != b.field) SetInt(o, n.field, a.field)
#define CW_BOOL(field) if (all || a.field != b.field) SetBool(o, n.field, a.field)
    CW_INT(pos); CW_INT(lp); CW_INT(conditions); CW_BOOL(dead); CW_BOOL(down); CW_BOOL(fled);
    CW_BOOL(disarmed); CW_BOOL(extra_action_used); CW_INT(drawn); CW_INT(dropped);
    CW_INT(jammed); CW_INT(aim_target); CW_INT(aim_stacks); CW_INT(mumm); CW_INT(mumm_max);
    CW_INT(climb_cell); CW_INT(climb_height); CW_INT(focus_bonus); CW_INT(armour_bonus);
    CW_BOOL(prone_bonus);
#undef CW_INT
#undef CW_BOOL
    const auto differs = [&](const auto& x, const auto& y, int k) {
      return all || !std::equal(x.begin(), x.begin() + k, y.begin());
    };
    if (differs(a.ammo, b.ammo, weapons)) Set(o, n.ammo, ListOf(a.ammo.data(), weapons));
    if (differs(a.reloads, b.reloads, weapons)) Set(o, n.reloads, ListOf(a.reloads.data(), weapons));
    if (differs(a.upload_progress, b.upload_progress, stat.n_hacks))
      Set(o, n.upload_progress, ListOf(a.upload_progress.data(), stat.n_hacks));
    if (differs(a.cyber_uses, b.cyber_uses, stat.n_cyber))
      Set(o, n.cyber_uses, ListOf(a.cyber_uses.data(), stat.n_cyber));
    if (all || now.reloading != was.reloading)
      Set(o, n.reload_progress, ListOf(now.reloading.data(), static_cast<int>(now.reloading.size())));
    if (all || now.reactions != was.reactions) SetInt(o, n.reactions, now.reactions);
    if (all || now.initiative != was.initiative) SetInt(o, n.initiative, now.initiative);
    if (all || now.actions != was.actions) SetInt(o, n.actions, now.actions);
    if (all || now.actionbonus_used != was.actionbonus_used)
      SetBool(o, n.actionbonus_used, now.actionbonus_used);
    if (all || now.stabilised != was.stabilised) SetBool(o, n.stabilised, now.stabilised);
    if (all || now.zehrend != was.zehrend) Set(o, n.zehrend, ObjectsOf(now.zehrend, m.kinds, true));
    if (all || now.zone != was.zone) Set(o, n.zone_zehrend, ObjectsOf(now.zone, m.kinds, true));
    if (all || now.items != was.items) Set(o, n.items, ObjectsOf(now.items, m.catalogue[i], false));
    if (all || now.backpack != was.backpack)
      Set(o, n.backpack, ObjectsOf(now.backpack, m.catalogue[i], false));
    if (all || now.helpers != was.helpers) {
      nb::list helpers;
      for (int h : now.helpers) helpers.append(h);
      Set(o, n.helpers, nb::tuple(helpers));
    }
    was = now;
  }
  const State& s = c.state();
  if (m.fresh || s.occupant != m.occupant) {  // Combat.occupant: cell -> fighter
    PyObject* occupant = Get(mirror, n.occupant).ptr();
    PyDict_Clear(occupant);
    for (std::size_t cell = 0; cell < s.occupant.size(); ++cell)
      if (s.occupant[cell] >= 0) {
        nb::object k = nb::steal(PyLong_FromSize_t(cell));
        nb::object v = nb::steal(PyLong_FromLong(s.occupant[cell]));
        if (PyDict_SetItem(occupant, k.ptr(), v.ptr()) != 0) throw nb::python_error();
      }
    m.occupant = s.occupant;
  }
  const auto doors = [&](const nb::object& name, const std::vector<std::uint8_t>& now,
                         std::vector<std::uint8_t>& was) {
    if (!m.fresh && now == was) return;
    nb::object buffer = Get(mirror, name);
    if (!PyByteArray_Check(buffer.ptr()) ||
        PyByteArray_GET_SIZE(buffer.ptr()) != static_cast<Py_ssize_t>(now.size()))
      throw std::invalid_argument("the mirror's doors are not the map's");
    std::copy(now.begin(), now.end(), PyByteArray_AS_STRING(buffer.ptr()));
    was = now;
  };
  doors(n.opaque, s.opaque, m.opaque);
  doors(n.solid, s.solid, m.solid);
  m.fresh = false;
}

bool ReimportMirror(NativeCombat& c, MirrorState& m, nb::handle mirror) {
  const Names& n = N();
  const nb::object fighters = Get(mirror, n.fighters);
  State& s = MirrorAccess::StateOf(c);
  const State before = s;
  bool changed = false;
  const std::size_t count = s.fighters.size();
  for (std::size_t i = 0; i < count; ++i) {
    const nb::handle o = PyList_GET_ITEM(fighters.ptr(), static_cast<Py_ssize_t>(i));
    const Image was = MirrorAccess::ImageOf(c, static_cast<int>(i));
    Image im = was;
    Fighter& f = im.f;
    const Spec& stat = MirrorAccess::Desc(c).specs[i];
    f.pos = static_cast<int>(Int(o, n.pos)), f.lp = static_cast<int>(Int(o, n.lp));
    f.conditions = static_cast<std::uint32_t>(Int(o, n.conditions));
    f.dead = Bool(o, n.dead), f.down = Bool(o, n.down), f.fled = Bool(o, n.fled);
    f.disarmed = Bool(o, n.disarmed), f.extra_action_used = Bool(o, n.extra_action_used);
    f.drawn = static_cast<int>(Int(o, n.drawn));
    f.dropped = static_cast<std::uint32_t>(Int(o, n.dropped));
    f.jammed = static_cast<std::uint32_t>(Int(o, n.jammed));
    f.aim_target = static_cast<int>(Int(o, n.aim_target));
    f.aim_stacks = static_cast<int>(Int(o, n.aim_stacks));
    f.mumm = static_cast<int>(Int(o, n.mumm)), f.mumm_max = static_cast<int>(Int(o, n.mumm_max));
    f.climb_cell = static_cast<int>(Int(o, n.climb_cell));
    f.climb_height = static_cast<int>(Int(o, n.climb_height));
    f.focus_bonus = static_cast<int>(Int(o, n.focus_bonus));
    f.armour_bonus = static_cast<int>(Int(o, n.armour_bonus));
    f.prone_bonus = Bool(o, n.prone_bonus);
    IntsInto(Get(o, n.ammo), f.ammo.data(), stat.n_weapons, "ammo");
    IntsInto(Get(o, n.reloads), f.reloads.data(), stat.n_weapons, "reloads");
    IntsInto(Get(o, n.upload_progress), f.upload_progress.data(), stat.n_hacks, "upload_progress");
    IntsInto(Get(o, n.cyber_uses), f.cyber_uses.data(), stat.n_cyber, "cyber_uses");
    IntsInto(Get(o, n.reload_progress), im.reloading.data(), stat.n_weapons, "reload_progress");
    im.reactions = static_cast<int>(Int(o, n.reactions));
    im.initiative = static_cast<int>(Int(o, n.initiative));
    im.actions = static_cast<int>(Int(o, n.actions));
    im.actionbonus_used = Bool(o, n.actionbonus_used), im.stabilised = Bool(o, n.stabilised);
    im.zehrend = IdsOf(Get(o, n.zehrend), m.kinds, false, "a Zehrend");
    im.zone = IdsOf(Get(o, n.zone_zehrend), m.kinds, false, "a Zehrend");
    im.items = IdsOf(Get(o, n.items), m.catalogue[i], true, "an item");
    im.backpack = IdsOf(Get(o, n.backpack), m.catalogue[i], true, "an item");
    if (im.items.size() > kMaxItems) throw Unported("more items at hand than the core holds");
    im.helpers.clear();
    for (nb::handle h : Get(o, n.helpers)) im.helpers.push_back(static_cast<int>(AsInt(h)));
    changed |= Differ(im, was, stat);
    MirrorAccess::Put(c, static_cast<int>(i), im);
  }
  std::fill(s.occupant.begin(), s.occupant.end(), static_cast<std::int16_t>(-1));
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  PyObject* occupant = Get(mirror, n.occupant).ptr();
  while (PyDict_Next(occupant, &pos, &key, &value))
    s.occupant[static_cast<std::size_t>(AsInt(key))] = static_cast<std::int16_t>(AsInt(value));
  s.any_occupant = std::any_of(s.occupant.begin(), s.occupant.end(), [](auto x) { return x >= 0; });
  const auto doors = [&](const nb::object& name, std::vector<std::uint8_t>& into) {
    nb::object buffer = Get(mirror, name);
    const auto* data = reinterpret_cast<const std::uint8_t*>(PyByteArray_AsString(buffer.ptr()));
    if (!data) throw nb::python_error();
    into.assign(data, data + PyByteArray_GET_SIZE(buffer.ptr()));
  };
  doors(n.opaque, s.opaque);
  doors(n.solid, s.solid);
  changed |= s.occupant != before.occupant || s.opaque != before.opaque || s.solid != before.solid;
  m.fresh = changed;  // write it all back after an edit: the reads may have normalised values
  return changed;
}

}  // namespace cwenv::kampf
