// The Python face of the native combat (combat.hpp): _core.Combat, which
// cwenv/engine/native/combat.py wraps. Only conversions live here; the rules are in combat.cpp
// and combat_turn.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <array>
#include <memory>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bind_mirror.hpp"
#include "bind_strike.hpp"
#include "combat.hpp"

namespace nb = nanobind;
using namespace cwenv::kampf;

bool LoadKampf(nb::handle kampf, nb::handle combat, KampfView& out);  // bind_kampf.cpp
const PromptRules& PromptRulesOf(nb::handle prompts);  // bind_prompts.cpp
nb::object KampfAction(nb::handle kampf, const Act& a);  // bind_kampf.cpp
nb::object PromptAction(nb::handle prompts, const PromptAct& a);  // bind_prompts.cpp
nb::tuple EventTuple(const cwenv::kampf::Event& e);  // bind_events.cpp

namespace {

using SetupRow = std::tuple<int, int, int>;
using MovesRow = std::tuple<nb::object, int, nb::object, int>;
// (passes, tie_order, reactions_basis, passes_count_initiative_bonus,
//  prone_bonus_to_own_turn, zielen_lost_on_move, zielen_lost_at_round_end, geometry,
//  round_limit, decision_cap, exits_matter, ambush)
using RulesRow = std::tuple<bool, int, int, bool, bool, bool, bool, int, int, int, bool, bool>;


const cwenv::Moves* MovesOf(const nb::object& o, int cells) {
  if (!nb::isinstance<cwenv::Moves>(o)) throw std::invalid_argument("moves must be _core.Moves");
  const cwenv::Moves* m = nb::inst_ptr<cwenv::Moves>(o);
  if (m->size() != cells) throw std::invalid_argument("the moves are not the map's");
  return m;
}

class PyCombat {
 public:
  PyCombat(nb::object kampf, nb::object prompts, nb::handle start, const std::vector<SetupRow>& setup,
           const std::vector<MovesRow>& moves, const RulesRow& rules,
           const std::vector<std::tuple<int, int>>& survive, const nb::bytes& exits,
           const std::map<std::string, int>& strike, const std::vector<int>& substitute,
           const std::vector<int>& on_gain, const std::vector<CritRow>& crits,
           const std::vector<int>& fumbles, const std::vector<SpecRow>& specs,
           const std::vector<VictoryRowT>& victory, const std::vector<ZehrendRow>& zehrend,
           const std::vector<std::tuple<int, int>>& maneuvers, std::uint64_t state,
           std::uint64_t inc)
      : kampf_(std::move(kampf)), prompts_(std::move(prompts)) {
    KampfView v;
    if (!LoadKampf(kampf_, start, v)) throw std::invalid_argument("the combat is not the game's");
    const int cells = static_cast<int>(v.g->terrain.size());
    std::vector<FighterSetup> fs;
    for (const auto& [grundwert, reflexe, bonus] : setup) fs.push_back({grundwert, reflexe, bonus});
    std::vector<FighterMoves> fm;
    for (const auto& [free, free_slow, limited, limited_slow] : moves) {
      keep_.push_back(free), keep_.push_back(limited);
      if (free_slow < 1 || limited_slow < 1) throw std::invalid_argument("a slow cost below 1");
      fm.push_back({MovesOf(free, cells), free_slow, MovesOf(limited, cells), limited_slow});
    }
    CombatRules r;
    std::tie(r.passes, r.tie_order, r.reactions_basis, r.passes_count_initiative_bonus,
             r.prone_bonus_to_own_turn, r.zielen_lost_on_move, r.zielen_lost_at_round_end,
             r.geometry, r.round_limit, r.decision_cap, r.exits_matter, r.ambush) = rules;
    if (r.tie_order < 0 || r.tie_order > 2 || r.reactions_basis < 0 || r.reactions_basis > 2 ||
        r.geometry < 0 || r.geometry > 2 || r.decision_cap < 1)
      throw std::invalid_argument("unknown tie order, reactions basis or geometry");
    for (const auto& [side, rounds] : survive) r.survive.push_back({side, rounds});
    if (static_cast<int>(exits.size()) != cells) throw std::invalid_argument("one exit byte per cell");
    const auto* e = static_cast<const std::uint8_t*>(exits.data());
    r.exits.assign(e, e + cells);
    StrikeRules sr =
        StrikeOf(strike, substitute, on_gain, crits, fumbles, specs, victory, zehrend, maneuvers);
    for (const StrikeSpec& spec : sr.specs)
      if (spec.weapons.size() > kMaxWeapons) throw std::invalid_argument("too many weapons");
    if (sr.specs.size() != v.g->specs.size())
      throw std::invalid_argument("one strike spec per fighter");
    for (std::size_t i = 0; i < sr.specs.size(); ++i)
      if (static_cast<int>(sr.specs[i].weapons.size()) != v.g->specs[i].n_weapons)
        throw std::invalid_argument("one strike weapon per weapon");
    combat_ = std::make_unique<NativeCombat>(*v.g, *v.lines, PromptRulesOf(prompts_), *v.s,
                                             std::move(fs), std::move(fm), std::move(r),
                                             std::move(sr), cwenv::Pcg32::FromState(state, inc));
  }

  // A twin that plays on independently (state.py clone): the state, frames, dice and events
  // copied; the game's descriptions and the mirror's objects shared.
  PyCombat(const PyCombat& other)
      : kampf_(other.kampf_), prompts_(other.prompts_), keep_(other.keep_),
        combat_(std::make_unique<NativeCombat>(*other.combat_)), mirror_(other.mirror_) {}

  // What the Python mirror shows beyond the fighters: the names of the Zehrend kinds and
  // each fighter's items (bind_mirror.hpp).
  void Mirrored(const nb::list& kinds, const nb::list& catalogues) {
    mirror_.kinds.clear(), mirror_.catalogue.clear();
    for (nb::handle k : kinds) mirror_.kinds.push_back(nb::borrow(k));
    for (nb::handle items : catalogues) {
      std::vector<nb::object> row;
      for (nb::handle item : items) row.push_back(nb::borrow(item));
      mirror_.catalogue.push_back(std::move(row));
    }
    mirror_.fresh = true;
  }
  void Sync(nb::handle mirror) { SyncMirror(*combat_, mirror_, mirror); }
  void Refresh() { combat_->Refresh(); }
  void MarkDirty() { combat_->MarkDirty(); }
  bool Reimport(nb::handle mirror) {
    const bool changed = ReimportMirror(*combat_, mirror_, mirror);
    if (changed) combat_->Refresh();
    return changed;
  }

  // The pending decision's payload (payloads.py), as plain values: (tag, fields...).
  nb::object Payload() const {
    const auto asked = combat_->decision();
    if (!asked) return nb::none();
    const NativeCombat& c = *combat_;
    const Frame& top = c.stack().back();
    const auto probe = [](const Probe& p) {
      return nb::make_tuple(p.probenwert, p.d1, p.d2, p.success, p.qs, p.volltreffer, p.patzer);
    };
    const auto ref = [&](int attacker, int target, int mode, int index, const Probe* roll,
                         int aim) {
      return nb::make_tuple(attacker, target, mode, index,
                            roll ? nb::object(probe(*roll)) : nb::none(), aim);
    };
    switch (*asked) {
      case Asked::kTurn: return nb::make_tuple("turn", c.slot());
      case Asked::kOrder: return nb::make_tuple("order", c.slot());
      case Asked::kPreCheck:
      case Asked::kPostCheck:
      case Asked::kKeep: {
        const CheckF& k = std::get<CheckF>(top);
        const nb::object about =
            k.about_attack ? nb::object(ref(k.attacker, k.target, k.mode, k.index,
                                            k.about_roll ? &k.about : nullptr, k.aim_qs))
                           : nb::none();
        const auto info = nb::make_tuple(static_cast<int>(k.purpose), about);
        if (*asked == Asked::kPreCheck)
          return nb::make_tuple("pre", info, k.parts.Total() + 2 * k.improved);
        if (*asked == Asked::kPostCheck) return nb::make_tuple("post", info, probe(k.result));
        return nb::make_tuple("keep", info, probe(k.first), probe(k.result));
      }
      case Asked::kNiederwerfen:
      case Asked::kDefend: {
        const AttackF& a = std::get<AttackF>(top);
        const Probe* roll = *asked == Asked::kDefend ? &a.attack : nullptr;
        return nb::make_tuple("attack", ref(a.attacker, c.decider(), static_cast<int>(a.mode),
                                            a.index, roll, a.aim_qs));
      }
      case Asked::kBlockade: {
        if (const auto* m = std::get_if<MoveF>(&top))
          return nb::make_tuple("blockade", m->fighter, c.state().fighters[m->fighter].pos,
                                m->path[m->i]);
        const DragF& d = std::get<DragF>(top);
        const int a = c.state().fighters[d.attacker].pos;
        const bool attacker = d.mover == d.attacker;
        return nb::make_tuple("blockade", d.mover,
                              attacker ? a : c.state().fighters[d.target].pos,
                              attacker ? d.path[d.i] : a);
      }
      case Asked::kSturz: return nb::make_tuple("fall", std::get<FallF>(top).metres);
      case Asked::kDamage: {
        const DamageF& d = std::get<DamageF>(top);
        return nb::make_tuple("damage", d.total, d.source);
      }
      case Asked::kDeath: return nb::make_tuple("death", c.state().fighters[c.decider()].lp);
      case Asked::kDrag: return nb::make_tuple("drag", std::get<DragF>(top).target);
    }
    throw std::logic_error("a decision kind without its payload");
  }

  // The pending prompt's own choices (Decision.actions): the legal ones less the shakes.
  nb::list Choices() const {
    nb::list out;
    for (const PromptAct& a : combat_->Choices()) out.append(PromptAction(prompts_, a));
    return out;
  }

  // The frames running now, outermost first: (Python class name, fields...) — a turn's
  // numbers (turn.py TurnFrame), a check's and an attack's what (their describe()).
  nb::list Frames() const {
    static const char* kNames[] = {
        "CombatFrame", "RoundFrame", "EndOfRoundFrame", "TurnFrame", "MoveFrame", "CheckFrame",
        "AttackFrame", "DamageFrame", "LoseLPFrame", "SequenceFrame", "ZehrendLater",
        "ForcedMoveFrame", "FallFrame", "CheckedHandlung", "HelpersFrame", "DragFrame",
        "ClimbFrame", "SchwierigFrame"};
    static_assert(std::size(kNames) == std::variant_size_v<Frame>, "a frame without its name");
    nb::list out;
    for (const Frame& f : combat_->stack()) {
      const char* name = kNames[f.index()];
      if (const auto* t = std::get_if<TurnF>(&f)) {  // with its searches (paths.py Reach)
        const auto routes = [](const std::shared_ptr<const cwenv::Routes>& r) {
          return r ? nb::cast(*r, nb::rv_policy::copy) : nb::none();
        };
        out.append(nb::make_tuple(name, t->fighter, t->slot, t->handlungen, t->grants,
                                  t->sprint_bonus, t->moved, t->parity, t->benommen,
                                  routes(t->routes), routes(t->hard)));
      } else if (const auto* k = std::get_if<CheckF>(&f)) {
        out.append(nb::make_tuple(name, k->fighter, static_cast<int>(k->purpose), k->attacker,
                                  k->target, k->mode, k->index));
      } else if (const auto* a = std::get_if<AttackF>(&f)) {
        out.append(nb::make_tuple(name, a->attacker, a->target));
      } else {
        out.append(nb::make_tuple(name));
      }
    }
    return out;
  }

  nb::list Counters() const {
    nb::list out;
    for (const Counter& k : combat_->counters())
      out.append(nb::make_tuple(static_cast<int>(k.tally), k.detail, k.n));
    return out;
  }

  nb::list Queue() const {
    nb::list out;
    for (const auto& [step, fighter] : combat_->queue()) out.append(nb::make_tuple(step, fighter));
    return out;
  }

  // Restricted play: the mirror's restrict() (state.py Combat.restrict) filters every legal
  // list from now on; the mirror is held weakly (it holds this combat).
  void Restrict(nb::handle mirror) {
    nb::weakref ref(mirror);
    const nb::object kampf = kampf_, prompts = prompts_;
    auto filter = [ref](int fighter, auto& acts, auto to_object) {
      nb::object m = ref();
      if (m.is_none()) return;
      nb::list objects;
      for (const auto& a : acts) objects.append(to_object(a));
      nb::object kept = m.attr("restrict")(fighter, objects);
      std::remove_reference_t<decltype(acts)> out;
      for (nb::handle k : kept)
        for (std::size_t i = 0; i < acts.size(); ++i)
          if (objects[i].ptr() == k.ptr()) {
            out.push_back(acts[i]);
            break;
          }
      acts = std::move(out);
    };
    combat_->Restrict(
        [filter, kampf](int fighter, std::vector<Act>& acts) {
          filter(fighter, acts, [&](const Act& a) { return KampfAction(kampf, a); });
        },
        [filter, prompts](int fighter, std::vector<PromptAct>& acts) {
          filter(fighter, acts, [&](const PromptAct& a) { return PromptAction(prompts, a); });
        });
    combat_->Refresh();
  }

  // The choices made so far from ``start`` on (state.py history), as Action fields.
  nb::list HistoryFrom(std::size_t start) const {
    nb::list out;
    if (start < combat_->choices().size())
      combat_->choices().From(start, [&](const Choice& h) {
        out.append(nb::make_tuple(h.kind, h.actor, h.target, h.cell, h.arg, h.mumm));
      });
    return out;
  }

  // agents/search.py rollout in C++: a policy capsule per side (agents._rollouts), the
  // horizon; the decisions played. ``exact``: stop, deferred, before a decision of a side
  // with no policy or a choice a policy would draw at random (rollout.hpp Horizon).
  int Rollout(const nb::list& policies, int stop_round, long long stop_turns, int max_steps,
              bool exact) {
    if (policies.size() != 3) throw std::invalid_argument("a rollout policy per side (3)");
    std::array<const RolloutPolicy*, 3> by_side{};
    for (std::size_t i = 0; i < 3; ++i) {
      nb::handle p = policies[i];
      if (p.is_none()) continue;
      void* ptr = PyCapsule_GetPointer(p.ptr(), kRolloutCapsule);
      if (!ptr) throw nb::python_error();
      by_side[i] = static_cast<const RolloutPolicy*>(ptr);
    }
    const auto& s = combat_->state();
    if (combat_->decision() && !exact)
      for (const Fighter& f : s.fighters)
        if (f.side >= 0 && f.side < 3 && !by_side[f.side])
          throw std::invalid_argument("no rollout policy for a side that decides");
    return combat_->Rollout(by_side, {stop_round, stop_turns, max_steps, exact});
  }

  // What a native policy would choose now: its index into the legal list. ``exact``: as
  // in an exact play-on, None where it leaves the choice to its agent (kDeferChoice).
  nb::object Choose(nb::handle policy, bool exact) const {
    void* ptr = PyCapsule_GetPointer(policy.ptr(), kRolloutCapsule);
    if (!ptr) throw nb::python_error();
    if (!combat_->decision()) throw std::invalid_argument("the combat is over");
    cwenv::Pcg32 rng = combat_->dice();
    const std::size_t i =
        static_cast<const RolloutPolicy*>(ptr)->Choose(*combat_, exact ? nullptr : &rng);
    if (i == kDeferChoice) return nb::none();
    return nb::int_(i);
  }

  // A native query's answer about the combat where it stands (rollout.hpp CombatQuery).
  std::vector<double> Ask(nb::handle query, const std::vector<double>& args) const {
    void* ptr = PyCapsule_GetPointer(query.ptr(), kQueryCapsule);
    if (!ptr) throw nb::python_error();
    return static_cast<const CombatQuery*>(ptr)->Ask(*combat_, args);
  }

  void Reseed(std::uint64_t state, std::uint64_t inc) {
    combat_->Reseed(cwenv::Pcg32::FromState(state, inc));
  }

  // The legal choices as the Kampf's and Prompts' Action objects (the same objects for
  // the same choice).
  nb::list Legal() const {
    nb::list out;
    if (combat_->prompt()) {
      for (const PromptAct& a : combat_->Prompted()) out.append(PromptAction(prompts_, a));
    } else {
      for (const Act& a : combat_->Legal()) out.append(KampfAction(kampf_, a));
    }
    return out;
  }

  void Apply(int kind, int actor, int target, int cell, int arg, int mumm) {
    if (kind < 0 || kind > 255) throw Illegal("unknown action kind");
    if (combat_->prompt()) {
      combat_->Answer({static_cast<PromptKind>(kind), actor, target, arg, mumm, cell});
    } else {
      if (mumm != 0) throw Illegal("a turn's choice pays no Mumm");
      combat_->Apply({static_cast<Kind>(kind), actor, target, cell, arg});
    }
  }

  nb::object Decision() const {
    const auto asked = combat_->decision();
    if (!asked) return nb::none();
    return nb::make_tuple(static_cast<int>(*asked), combat_->decider(), combat_->slot());
  }

  // The events from ``start`` on as (class name, fields...).
  nb::list EventsFrom(std::size_t start) const {
    nb::list out;
    if (start < combat_->events().size())
      combat_->events().From(start, [&](const Event& e) { out.append(EventTuple(e)); });
    return out;
  }

  nb::object Outcome() const {
    const auto& o = combat_->outcome();
    if (!o) return nb::none();
    return nb::make_tuple(o->winner, o->reason, o->rounds, o->about);
  }

  const NativeCombat& combat() const { return *combat_; }
  bool Of(nb::handle kampf) const { return kampf_.is(kampf); }

 private:
  nb::object kampf_;  // its GameDesc and Lines are the combat's
  nb::object prompts_;  // the game's _core.Prompts: its rules are the combat's
  std::vector<nb::object> keep_;  // the step tables
  std::unique_ptr<NativeCombat> combat_;
  MirrorState mirror_;
};

}  // namespace

// The state of a native combat built on ``kampf`` (its ``_core`` a CoreCombat of that
// Kampf), for LoadKampf to read in place: the core's own state, which the mirror only
// copies, so the encoder and the attack plan read no events and import nothing. nullptr
// for any other combat (the reference's, another game's, one still being built).
const State* NativeStateOf(nb::handle kampf, nb::handle combat) {
  static PyObject* const name = PyUnicode_InternFromString("_core");
  PyObject* got = nullptr;
  if (_PyObject_LookupAttr(combat.ptr(), name, &got) < 0) throw nb::python_error();
  const nb::object core = nb::steal(got);
  if (!got || !nb::isinstance<PyCombat>(core)) return nullptr;
  const PyCombat* native = nb::inst_ptr<PyCombat>(core);
  return native->Of(kampf) ? &native->combat().state() : nullptr;
}

void BindCombat(nb::module_& m) {
  nb::exception<Unported>(m, "Unported", PyExc_NotImplementedError);
  nb::class_<PyCombat>(m, "CoreCombat",
                       "A combat the core runs itself (src/combat.hpp); cwenv/engine/native/combat.py "
                       "builds and wraps it.")
      .def(nb::init<nb::object, nb::object, nb::handle, const std::vector<SetupRow>&,
                    const std::vector<MovesRow>&, const RulesRow&,
                    const std::vector<std::tuple<int, int>>&, const nb::bytes&,
                    const std::map<std::string, int>&, const std::vector<int>&,
                    const std::vector<int>&, const std::vector<CritRow>&, const std::vector<int>&,
                    const std::vector<SpecRow>&, const std::vector<VictoryRowT>&,
                    const std::vector<ZehrendRow>&, const std::vector<std::tuple<int, int>>&,
                    std::uint64_t, std::uint64_t>(),
           nb::arg("kampf"), nb::arg("prompts"), nb::arg("start"), nb::arg("setup"), nb::arg("moves"),
           nb::arg("rules"), nb::arg("survive"), nb::arg("exits"), nb::arg("strike"),
           nb::arg("substitute"), nb::arg("on_gain"), nb::arg("crits"), nb::arg("fumbles"),
           nb::arg("specs"), nb::arg("victory"), nb::arg("zehrend"), nb::arg("maneuvers"),
           nb::arg("state"), nb::arg("inc"))
      .def("legal", &PyCombat::Legal, "The legal choices (cwenv.engine.actions.Action).")
      .def("apply", &PyCombat::Apply, nb::arg("kind"), nb::arg("actor"), nb::arg("target"),
           nb::arg("cell"), nb::arg("arg"), nb::arg("mumm"),
           "Validate and carry out a choice (ValueError; Unported where the rules reach what "
           "is not ported).")
      .def_prop_ro("decision", &PyCombat::Decision, "(DecisionKind, fighter, slot) or None.")
      .def("events_from", &PyCombat::EventsFrom, nb::arg("start"),
           "The events from index ``start`` on, as (class name, fields...).")
      .def_prop_ro("outcome", &PyCombat::Outcome, "(winner, reason, rounds, survived) or None.")
      .def_prop_ro("round", [](const PyCombat& c) { return c.combat().round(); })
      .def_prop_ro("history", [](const PyCombat& c) { return c.combat().history(); })
      .def_prop_ro("forced", [](const PyCombat& c) { return c.combat().forced(); })
      .def_prop_ro("dice_state", [](const PyCombat& c) {
        return nb::make_tuple(c.combat().dice().state(), c.combat().dice().inc());
      })
      .def("clone", [](const PyCombat& c) { return PyCombat(c); },
           "An independent twin (state, frames, dice, events and the mirror's bookkeeping).")
      .def("mirrored", &PyCombat::Mirrored, nb::arg("kinds"), nb::arg("catalogues"),
           "The Zehrend kinds' names and each fighter's items (spec.items + spec.backpack).")
      .def("sync", &PyCombat::Sync, nb::arg("mirror"),
           "Write what changed since the last sync into the mirror (a Combat).")
      .def("reimport", &PyCombat::Reimport, nb::arg("mirror"),
           "Read the edited mirror back; the pending decision's choices again. Whether it "
           "differed from the core's state.")
      .def("mark_dirty", [](PyCombat& c) { c.MarkDirty(); },
           "state.py mark_dirty: check the victory conditions at the next step.")
      .def("payload", &PyCombat::Payload, "The pending decision's payload as (tag, fields...).")
      .def("choices", &PyCombat::Choices, "The pending prompt's own choices (no M08 shakes).")
      .def("frames", &PyCombat::Frames, "The running frames as (class name, fields...).")
      .def("counters", &PyCombat::Counters, "state.py counters as (tally, detail, n).")
      .def_prop_ro("queue", &PyCombat::Queue, "The (step, fighter) still to act this round.")
      .def_prop_ro("turn_fighter", [](const PyCombat& c) { return c.combat().turn_fighter(); })
      .def("history_from", &PyCombat::HistoryFrom, nb::arg("start"),
           "The choices made from index ``start`` on, as (kind, actor, target, cell, arg, "
           "mumm).")
      .def("rollout", &PyCombat::Rollout, nb::arg("policies"), nb::arg("stop_round"),
           nb::arg("stop_turns"), nb::arg("max_steps"), nb::arg("exact") = false,
           "Play on with a native policy per side (capsules) to the horizon; the decisions. "
           "exact: stop before a choice left to the caller (``deferred``).")
      .def_prop_ro("deferred", [](const PyCombat& c) { return c.combat().deferred(); },
                   "The last exact rollout stopped before a choice left to the caller.")
      .def("choose", &PyCombat::Choose, nb::arg("policy"), nb::arg("exact") = false,
           "The index of the legal choice a native policy would take now, None where it "
           "leaves it to its agent.")
      .def("ask", &PyCombat::Ask, nb::arg("query"), nb::arg("args"),
           "A native query's answer (a capsule of agents._rollouts) about the combat where "
           "it stands: numbers in, numbers out.")
      .def("restrict", &PyCombat::Restrict, nb::arg("mirror"),
           "Restricted play: mirror.restrict(fighter, actions) filters every legal list.")
      .def("refresh", [](PyCombat& c) { c.Refresh(); },
           "The pending decision's legal choices again (a restriction changed).")
      .def("reseed", &PyCombat::Reseed, nb::arg("state"), nb::arg("inc"),
           "Draw from another PCG32 stream from here on.");
}
