// The Kampfrunde state brought up to date from the events (sync.hpp): one table entry per
// event kind, the same state changes as the Python rule that emitted it.
#include "sync.hpp"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <string>

#include "faults.hpp"

namespace cwenv::kampf {

namespace sync_detail {

nb::object Get(nb::handle o, const nb::object& name) {
  PyObject* v = PyObject_GetAttr(o.ptr(), name.ptr());
  if (!v) throw nb::python_error();
  return nb::steal(v);
}

long long Int(PyObject* o) {
  const long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

long long Int(nb::handle o, const nb::object& name) { return Int(Get(o, name).ptr()); }

}  // namespace sync_detail

namespace {

using sync_detail::Get;
using sync_detail::Int;

struct Names {
  nb::object token, events, fighters, pos, fighter, after, before, condition, path, target,
      attacker, spend, cost, left, name, history, index, mode, status, ledge, climbed, kind,
      parts;
};

const Names& N() {
  static const Names* names = [] {
    auto s = [](const char* n) { return nb::steal(PyUnicode_InternFromString(n)); };
    return new Names{s("_core_token"), s("events"), s("fighters"), s("pos"), s("fighter"),
                     s("after"), s("before"), s("condition"), s("path"), s("target"),
                     s("attacker"), s("spend"), s("cost"), s("left"), s("__name__"),
                     s("history"), s("index"), s("mode"), s("status"), s("ledge"),
                     s("climbed"), s("kind"), s("parts")};
  }();
  return *names;
}

void ResetAim(Fighter& f) { f.aim_stacks = 0, f.aim_target = -1; }

constexpr long long kModeWeapon = 0, kModeHack = 1;  // cwenv.model.types.AttackMode
constexpr long long kDropProne = 1;  // events.ReactionKind.DROP_PRONE (R06)
constexpr long long kFocusPart = 3;  // parts.PartKind.FOCUS (H09)

// checks.py CheckFrame._roll: a check whose parts hold the focus spends it (H09).
bool SpendsFocus(nb::handle parts) {
  PyObject* p = parts.ptr();
  if (!PyTuple_Check(p)) return false;
  for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(p); ++k) {
    PyObject* part = PyTuple_GET_ITEM(p, k);
    if (!PyTuple_Check(part) || PyTuple_GET_SIZE(part) < 1) continue;
    PyObject* source = PyTuple_GET_ITEM(part, 0);
    if (PyTuple_Check(source) && PyTuple_GET_SIZE(source) >= 1 &&
        Int(PyTuple_GET_ITEM(source, 0)) == kFocusPart)
      return true;
  }
  return false;
}

}  // namespace

void EventSync::Configure(const nb::list& classes, nb::dict labels, const SyncRules& rules,
                          nb::object extra_action_spend, const std::vector<std::string>& acts,
                          const std::vector<std::string>& statuses) {
  if (nb::len(classes) != static_cast<std::size_t>(EventKind::kCount))
    throw std::invalid_argument("one class per event kind of src/sync.hpp, in its order");
  if (!std::equal(acts.begin(), acts.end(), std::begin(kActNames), std::end(kActNames)))
    throw std::invalid_argument("the Act members are not src/sync.hpp kActNames, in order");
  if (!std::equal(statuses.begin(), statuses.end(), std::begin(kStatusNames),
                  std::end(kStatusNames)))
    throw std::invalid_argument(
        "the Status members are not src/sync.hpp kStatusNames, in order");
  classes_owner_ = classes;
  classes_.clear();
  for (nb::handle h : classes) classes_.push_back(h.ptr());
  labels_ = std::move(labels), rules_ = rules, extra_action_ = std::move(extra_action_spend);
  configured_ = true;
  Forget();
}

void EventSync::Dirty(long long fighter, const State& s) {
  if (fighter >= 0 && fighter < static_cast<long long>(s.fighters.size()))
    dirty_ |= std::uint64_t{1} << fighter;
}

bool EventSync::SyncOnce(nb::handle combat, StateSource& src, const GameDesc& g, State& s) {
  const Names& n = N();
  ++counts.syncs;
  PyObject* tok = nullptr;  // absent on a combat not imported yet: no AttributeError raised
  if (_PyObject_LookupAttr(combat.ptr(), n.token.ptr(), &tok) < 0) throw nb::python_error();
  const nb::object token = nb::steal(tok);
  const nb::object events = Get(combat, n.events);
  PyObject* el = events.ptr();
  const bool list = PyList_Check(el);
  const std::size_t len = list ? static_cast<std::size_t>(PyList_GET_SIZE(el)) : 0;
  // A combat not played yet (no action applied) is being set up (tests, a GM's situation
  // edit change fighters directly): imported whole until its first apply.
  const nb::object history = Get(combat, n.history);
  const bool played = !PyList_Check(history.ptr()) || PyList_GET_SIZE(history.ptr()) > 0;
  Held* held = configured_ && list && played && token.is_valid() && nb::isinstance<Held>(token)
                   ? nb::inst_ptr<Held>(token)
                   : nullptr;
  if (held && (held->owner != this || held->generation != generation_)) held = nullptr;
  if (held && held != cur_) {  // another combat of this game, kept: its state back
    if (cur_) cur_->state = s;
    s = held->state;
    cur_ = held, cur_obj_ = token;
    src.Swapped();
    ++counts.swaps;
  }
  bool ours = held && len >= held->consumed &&
              (held->consumed == 0 || PyList_GET_ITEM(el, held->consumed - 1) == held->last.ptr());
  dirty_ = 0, occupant_dirty_ = doors_dirty_ = false;
  for (std::size_t i = ours ? held->consumed : len; ours && i < len; ++i) {
    PyObject* e = PyList_GET_ITEM(el, i);
    std::size_t kind = 0;
    while (kind < classes_.size() && classes_[kind] != reinterpret_cast<PyObject*>(Py_TYPE(e)))
      ++kind;
    if (kind == classes_.size()) {  // a kind the table lacks: never a stale state
      ++counts.unknown;
      last_unknown = nb::cast<std::string>(Get(reinterpret_cast<PyObject*>(Py_TYPE(e)), n.name));
      ours = false;
    } else {
      ours = Apply(e, static_cast<EventKind>(kind), g, s);
    }
  }
  if (!ours) {  // the whole state again, this combat's token on it
    ++counts.full;
    if (cur_) cur_->state = s;  // the combat it was stays kept
    cur_ = nullptr, cur_obj_ = nb::object();
    if (!src.ImportAll(combat)) return false;
    if (!configured_ || !list || !played) return true;
    cur_obj_ = nb::type<Held>()();
    cur_ = nb::inst_ptr<Held>(cur_obj_);
    cur_->owner = this, cur_->generation = generation_;
    if (PyObject_SetAttr(combat.ptr(), n.token.ptr(), cur_obj_.ptr()) < 0)
      throw nb::python_error();
  } else {
    counts.events += static_cast<long long>(len - cur_->consumed);
    const nb::object fighters = Get(combat, n.fighters);
    PyObject* fl = fighters.ptr();
    if (!PyList_Check(fl) || PyList_GET_SIZE(fl) != static_cast<Py_ssize_t>(s.fighters.size()))
      return Abandon();
    for (std::size_t i = 0; i < s.fighters.size(); ++i) {
      PyObject* h = PyList_GET_ITEM(fl, i);
      // Not event-carried: announced help is used up when the helped check begins
      // (helping.py help_frame), and the aim when a shot is planned (attack.py, X03), a
      // decision or more before an event says so (a prompt to the target, a Mumm spend).
      const Fighter& was = s.fighters[i];
      if (dirty_ >> i & 1 || was.helpers || (cur_->attacking >> i & 1 && was.aim_stacks)) {
        ++counts.rereads;
        if (!src.ImportFighter(h, i)) return Abandon();
        occupant_dirty_ = true;
        continue;
      }
      // Not event-carried: a mover's cells before its Moved event (MoveFrame stops for a
      // Blockadeangriff prompt on the way); every move lets a climber go (move_fighter).
      Fighter& f = s.fighters[i];
      const int pos = static_cast<int>(Int(h, n.pos));
      if (pos != f.pos) f.pos = pos, LetGo(f), occupant_dirty_ = true;
    }
    if (occupant_dirty_ && !src.ImportOccupant(combat)) return Abandon();
    if (doors_dirty_ && !src.ImportDoors(combat)) return Abandon();
  }
  cur_->consumed = len;
  cur_->last = len ? nb::borrow(PyList_GET_ITEM(el, len - 1)) : nb::none();
  return true;
}

// One event's change of the state (the rule that emitted it named); false when the event
// does not fit the state (the caller imports it whole).
bool EventSync::Apply(nb::handle e, EventKind kind, const GameDesc& g, State& s) {
  const Names& n = N();
  const long long count = static_cast<long long>(s.fighters.size());
  auto fighter = [&](const nb::object& name) -> Fighter* {
    const long long i = Int(e, name);
    return i >= 0 && i < count ? &s.fighters[i] : nullptr;
  };
  switch (kind) {
    case EventKind::kLPChanged: {  // damage.py LoseLPFrame, heal (D05-D08)
      Fighter* f = fighter(n.fighter);
      if (!f) return false;
      f->lp = static_cast<int>(Int(e, g_fault == Fault::kSyncLp ? n.before : n.after));
      // At 0 LP LoseLPFrame marks the fighter down, lets a climber go and (X44) knocks it
      // prone before any event says so: an NSC's DEATH prompt (nsc_at_zero: dead,
      // nsc_mumm) may be asked first (D05, D07, X11). Only a loss takes anyone to 0 LP.
      if (f->lp <= 0 && !f->down) {
        f->down = true;
        LetGo(*f);
        if (rules_.kampfunfaehig_prone) f->conditions |= 1u << kNiedergeworfen;
      }
      return true;
    }
    case EventKind::kConditionGained:  // conditions.py gain_condition and its on_gain
    case EventKind::kConditionLost: {  // conditions.py lose_condition
      Fighter* f = fighter(n.fighter);
      if (!f) return false;
      PyObject* cond = PyDict_GetItemWithError(labels_.ptr(), Get(e, n.condition).ptr());
      if (!cond) {  // Zehrend, or a narrated effect: re-read what it changed
        if (PyErr_Occurred()) throw nb::python_error();
        Dirty(Int(e, n.fighter), s);
        return true;
      }
      const long long c = Int(cond);
      if (kind == EventKind::kConditionLost) {
        f->conditions &= ~(1u << c);
        return true;
      }
      f->conditions |= 1u << c;
      if (rules_.lets_go >> c & 1) LetGo(*f);
      if (rules_.reread_on_gain >> c & 1) Dirty(Int(e, n.fighter), s);
      return true;
    }
    case EventKind::kMoved: {  // movement.py MoveFrame._finish, a manoeuvre's drag (B01)
      Fighter* f = fighter(n.fighter);
      const nb::object path = Get(e, n.path);
      if (!f || !PyTuple_Check(path.ptr()) || PyTuple_GET_SIZE(path.ptr()) == 0) return false;
      PyObject* cell = PyTuple_GET_ITEM(path.ptr(), PyTuple_GET_SIZE(path.ptr()) - 1);
      if (!PyTuple_Check(cell) || PyTuple_GET_SIZE(cell) != 2) return false;
      const long long x = Int(PyTuple_GET_ITEM(cell, 0)), y = Int(PyTuple_GET_ITEM(cell, 1));
      f->pos = static_cast<int>(y * g.width + x);
      LetGo(*f);
      occupant_dirty_ = true;
      // X03 zielen_lost_on_move ends the aim of a MoveFrame's walk, not of a drag (K04)
      if (rules_.zielen_lost_on_move && f->aim_stacks) Dirty(Int(e, n.fighter), s);
      return true;
    }
    case EventKind::kInitiativeRolled: {  // roundflow.py: a new round's Mumm action (M07)
      Fighter* f = fighter(n.fighter);
      if (!f) return false;
      f->extra_action_used = false;
      if (!rules_.prone_bonus_to_own_turn) f->prone_bonus = false;  // R06, X23 next_round
      return true;
    }
    case EventKind::kTurnStarted: {  // turn.py: R06, X23 'bis zum Beginn ihrer nächsten Runde'
      Fighter* f = fighter(n.fighter);
      if (!f) return false;
      if (rules_.prone_bonus_to_own_turn) f->prone_bonus = false;
      return true;
    }
    case EventKind::kReactionUsed: {  // attack.py: dropped prone against the attack (R06)
      Fighter* f = fighter(n.fighter);
      if (!f) return false;
      if (Int(e, n.kind) == kDropProne) f->prone_bonus = true;
      return true;
    }
    case EventKind::kMummSpent: {  // checks.py spend_mumm (X10), turn.py M07
      Fighter* f = fighter(n.fighter);
      if (!f) return false;
      f->mumm = static_cast<int>(Int(e, n.left));
      if (f->Has(kEntmutigt)) f->mumm_max -= static_cast<int>(Int(e, n.cost));
      if (Get(e, n.spend).ptr() == extra_action_.ptr()) f->extra_action_used = true;
      return true;
    }
    case EventKind::kCheckRolled: {  // attack.py: the attack roll, the aim spent (X03)
      Fighter* f = fighter(n.fighter);
      if (!f) return false;
      const long long i = Int(e, n.fighter);
      if (i < 0 || i >= count) return false;
      if (cur_->attacking >> i & 1 && s.fighters[i].aim_stacks) Dirty(i, s);
      cur_->attacking &= ~(std::uint64_t{1} << i);
      if (f->focus_bonus && SpendsFocus(Get(e, n.parts))) f->focus_bonus = 0;  // H09
      return true;
    }
    case EventKind::kHit: {  // attack.py: X03 zielen_lost_on_hit
      Fighter* t = fighter(n.target);
      if (!t) return false;
      if (rules_.zielen_lost_on_hit && t->aim_stacks) ResetAim(*t);
      return true;
    }
    case EventKind::kRoundEnded:  // roundflow.py _cleanup (P08, X03, H09)
      for (Fighter& f : s.fighters) {
        f.helpers = 0;
        f.armour_bonus = 0, f.focus_bonus = 0;
        if (rules_.zielen_lost_at_round_end) ResetAim(f);
      }
      return true;
    case EventKind::kAttackDeclared: {  // attack.py _declare: a shot's round, a hack's upload
      const long long i = Int(e, n.attacker), index = Int(e, n.index);
      const long long mode = Int(e, n.mode);
      if (i < 0 || i >= count) return false;
      const Spec& spec = g.specs[i];
      Fighter& a = s.fighters[i];
      if (mode == kModeWeapon && index >= 0 && index < spec.n_weapons) {
        if (spec.weapons[index].uses_ammo()) --a.ammo[index];
      } else if (mode == kModeHack && index >= 0 && index < spec.n_hacks) {
        a.upload_progress[index] = 0;
      } else if (mode == kModeWeapon || mode == kModeHack) {
        return false;
      }
      cur_->attacking |= std::uint64_t{1} << i;  // its aim is polled until the roll (X03)
      return true;
    }
    case EventKind::kStatusChanged: {  // damage.py, movement.py, roundflow.py (D05-D09)
      Fighter* f = fighter(n.fighter);
      const long long status = Int(e, n.status);
      if (!f || status < 0 || status >= static_cast<long long>(StatusKind::kCount)) return false;
      switch (static_cast<StatusKind>(status)) {
        case StatusKind::kDead:  // damage.py kill (D07)
          f->dead = true;
          [[fallthrough]];
        case StatusKind::kKampfunfaehig:  // down already at its LPChanged (D05)
        case StatusKind::kUnconscious:    // M04: saved at 0 LP
        case StatusKind::kUnconsciousNonLethal:
          f->down = true;
          LetGo(*f);
          return true;
        case StatusKind::kAwake:  // damage.py heal: back to 1 LP or more
          f->down = false;
          return true;
        case StatusKind::kEscaped:  // movement.py _maybe_escape: off the map by an exit
          f->fled = true;
          occupant_dirty_ = true;  // its position is read at the end of the sync
          return true;
        case StatusKind::kStabilised:  // no state the core holds (D08, D09)
        case StatusKind::kSurprised:   // X45: its reactions, which the core does not hold
          return true;
        case StatusKind::kCount:
          break;
      }
      return false;
    }
    case EventKind::kClimbedPart: {  // climbing.py ClimbFrame: hangs at the ledge (B03, X40)
      Fighter* f = fighter(n.fighter);
      const nb::object ledge = Get(e, n.ledge);
      if (!f || !PyTuple_Check(ledge.ptr()) || PyTuple_GET_SIZE(ledge.ptr()) != 2) return false;
      const long long x = Int(PyTuple_GET_ITEM(ledge.ptr(), 0));
      const long long y = Int(PyTuple_GET_ITEM(ledge.ptr(), 1));
      if (x < 0 || x >= g.width || y < 0 || y >= g.height) return false;
      f->climb_cell = static_cast<int>(y * g.width + x);
      f->climb_height = static_cast<int>(Int(e, n.climbed));
      return true;
    }
    // Nothing of their own: a table's row (A07, A08) and a fall (B05) change the state by
    // the events that follow (conditions, LP, a forced move, a jammed weapon); a forced
    // move's cells are read as every position is, at the end of the sync.
    case EventKind::kTableRolled:
    case EventKind::kFell:
    case EventKind::kForcedMove:
      return true;
    case EventKind::kActed:
      return ApplyActed(e, g, s);
    // No state the core holds: reactions, initiative, rolls, narration.
    case EventKind::kRoundStarted:
    case EventKind::kTurnEnded:
    case EventKind::kResultKept:
    case EventKind::kAttackFailed:
    case EventKind::kAttackRedirected:
    case EventKind::kDefenceDeclined:
    case EventKind::kAttackDefended:
    case EventKind::kDamageRolled:
    case EventKind::kDamageHalved:
    case EventKind::kCombatEnded:
      return true;
    case EventKind::kCount:
      break;
  }
  return false;
}

void FilledOf(const State& s, std::vector<int>& filled) {
  filled.clear();
  for (std::size_t c = 0; c < s.occupant.size(); ++c)
    if (s.occupant[c] >= 0) filled.push_back(static_cast<int>(c));
}

bool ReadOccupant(nb::handle occupant, std::size_t cells, std::size_t fighters, State& s,
                  std::vector<int>& filled) {
  if (s.occupant.size() != cells) s.occupant.assign(cells, -1), filled.clear();
  for (int cell : filled) s.occupant[cell] = -1;
  filled.clear();
  if (!PyDict_Check(occupant.ptr())) return false;
  PyObject *key, *value;
  Py_ssize_t at = 0;
  while (PyDict_Next(occupant.ptr(), &at, &key, &value)) {
    const long long cell = Int(key), idx = Int(value);
    if (cell < 0 || cell >= static_cast<long long>(cells) || idx < 0 ||
        idx >= static_cast<long long>(fighters))
      return false;
    s.occupant[cell] = static_cast<std::int16_t>(idx);
    filled.push_back(static_cast<int>(cell));
  }
  s.any_occupant = PyDict_GET_SIZE(occupant.ptr()) > 0;
  return true;
}

bool ReadCells(nb::handle buffer, std::vector<std::uint8_t>& out, std::size_t size) {
  PyObject* b = buffer.ptr();
  if (!PyByteArray_Check(b) || static_cast<std::size_t>(PyByteArray_GET_SIZE(b)) != size)
    return false;
  out.resize(size);
  std::memcpy(out.data(), PyByteArray_AS_STRING(b), size);
  return true;
}

}  // namespace cwenv::kampf
