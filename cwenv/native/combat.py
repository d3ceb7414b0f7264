"""The native combat (issue #16, src/combat.hpp): a combat the core runs itself
(``_core.CoreCombat``).

:class:`NativeCombat` is the seed of the native engine's ``Combat``: the core holds the
state, the dice (the same PCG32 stream as ``SeededDice``), the frame stack and the events,
and a decision costs one call into C++. The frames ported so far are the round flow, the
turn with movement, M07, M08 and the Handlungen of :data:`TURN_CHOICES`, the
Blockadeangriffe on the way, the Probe with its Mumm prompts, weapon attacks, damage,
conditions, dying and death, and the victory checks (docs/native.md "The native
combat"). Where the rules reach anything else the core raises :class:`Unported` naming
the rule, and this combat stops there (:attr:`stopped`), its events so far the
reference's. ``tests/test_native_combat.py`` plays it in lockstep with the reference.

The same face as the reference's where it goes: :meth:`legal_actions`, :meth:`apply`,
:attr:`events` (the frozen events of :mod:`cwenv.engine.events`), :attr:`outcome`,
:attr:`decision` (kind and fighter).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

from cwenv.battlemap import los
from cwenv.battlemap.paths_core import GEOMETRIES
from cwenv.engine import events as ev
from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind, DecisionKind
from cwenv.engine.game import VictoryKind
from cwenv.engine.offers_core import kampf_of, step_table
from cwenv.engine.prompts_core import prompts_of
from cwenv.engine.state import Combat, IllegalActionError, Outcome
from cwenv.model.types import Side, Skill
from cwenv.native.events import EventMaker, reason_text
from cwenv.native.strike import UnportedStrike, strike_args
from cwenv.rules.dice import SeededDice, seeded
from cwenv.rules.readings import (
    InitiativeSystem,
    ProneBonusUntil,
    ReactionBasis,
    Surprise,
    TieOrder,
)

if TYPE_CHECKING:
    from cwenv.engine.game import Game

TURN_CHOICES = HANDLUNG_KINDS | {
    ActionKind.MOVE,
    ActionKind.END_TURN,
    ActionKind.CHOOSE_ACTOR,
    ActionKind.MUMM_EXTRA_ACTION,
    ActionKind.MUMM_SHAKE,
}
"""The TURN and ORDER choices the native frames carry out."""
PROMPTS = frozenset(
    {
        DecisionKind.PRE_CHECK,
        DecisionKind.POST_CHECK,
        DecisionKind.KEEP,
        DecisionKind.DEFEND,
        DecisionKind.NIEDERWERFEN,
        DecisionKind.BLOCKADE,
        DecisionKind.DAMAGE,
        DecisionKind.DEATH,
        DecisionKind.STURZ,
        DecisionKind.DRAG,
    }
)
"""The prompts the native frames ask; every choice there is carried out, M08 included."""


def playable(kind: DecisionKind, legal: list[Action]) -> list[Action]:
    """The choices of a decision of ``kind`` the native combat carries out (the lockstep
    test's and the benchmark's random play)."""
    if kind in (DecisionKind.TURN, DecisionKind.ORDER):
        return [a for a in legal if a.kind in TURN_CHOICES]
    return legal


TIE_ORDERS = {TieOrder.ROSTER: 0, TieOrder.RANDOM: 1, TieOrder.SIDE_CHOOSES: 2}
"""X16's readings as src/combat.hpp numbers them."""
REACTION_BASES = {
    ReactionBasis.ROLLED_INITIATIVE: 0,
    ReactionBasis.GRUNDWERT: 1,
    ReactionBasis.REFLEXE: 2,
}
"""X01's readings as src/combat.hpp numbers them."""


class Unported(NotImplementedError):
    """The combat reached a rule the native frames do not run yet (the core's
    ``_core.Unported``, or a game this combat cannot start)."""


class Asked(NamedTuple):
    """The pending decision: its kind, who decides, and its step or pass."""

    kind: DecisionKind
    fighter: int
    slot: int


def _core() -> ModuleType:
    core = los._core
    if core is None:
        raise Unported("the native combat needs the native engine (CWENV_ENGINE=native)")
    return core


def _refuse(game: Game, start: Combat) -> str | None:
    """Why this combat cannot start natively, None when it can."""
    if game.carried:
        return "a later fight of a job (M10 carry)"
    if any(f.zehrend or f.zone_zehrend for f in start.fighters):
        return "a fighter starts with Zehrend"
    return None


class NativeCombat:
    """One fight run by the core, from ``seed`` (the dice of ``game.new_combat(seed)``)."""

    def __init__(self, game: Game, seed: int) -> None:
        core = _core()
        dice = seeded(seed)  # game.new_combat(seed)'s: drawn by the core from here
        if not isinstance(dice, SeededDice):
            raise Unported("dice other than SeededDice (the current stream is a legacy one)")
        start = Combat(game, dice, start=False)
        why = _refuse(game, start)
        if why is not None:
            raise Unported(why)
        compiled = kampf_of(core, start)
        prompts = prompts_of(start)
        if compiled is None or prompts is None:
            raise Unported("a game the core cannot take")
        try:
            strike = strike_args(game)
        except UnportedStrike as err:
            raise Unported(str(err)) from err
        o = game.options
        setup = [
            (f.grundwert, f.spec.skill(Skill.REFLEXE), f.spec.initiative_bonus_total)
            for f in start.fighters
        ]
        moves = []
        for f in start.fighters:
            free = step_table(core, compiled, start, f, False)
            limited = step_table(core, compiled, start, f, True)
            moves.append((free[0], free[1], limited[0], limited[1]))
        kinds = {v.kind for v in game.victory}
        rules = (
            o.initiative is InitiativeSystem.PASSES,
            TIE_ORDERS[o.tie_order],
            REACTION_BASES[o.reactions_basis],
            o.passes_count_initiative_bonus,
            o.niederwerfen_penalty_until is ProneBonusUntil.OWN_NEXT_TURN,
            o.zielen_lost_on_move,
            o.zielen_lost_at_round_end,
            GEOMETRIES[o.blockade_geometry],
            game.round_limit if game.round_limit is not None else -1,
            game.decision_cap,
            VictoryKind.REACH_EXIT in kinds,
            o.surprise is not Surprise.NONE and bool(game.ambushed),
        )
        survive = [(int(v.side), v.rounds) for v in game.victory if v.kind is VictoryKind.SURVIVE]
        bm = game.battlemap
        exits = bytes(1 if cell in bm.exits else 0 for cell in range(bm.size))
        self.game = game
        self.stopped: str | None = None
        """The rule the combat stopped at (:class:`Unported`), None while it runs."""
        self._events: list[ev.Event] = []
        self._maker = EventMaker(game)
        try:
            self._core = core.CoreCombat(
                compiled.kampf,
                prompts,
                start,
                setup,
                moves,
                rules,
                survive,
                exits,
                **strike,
                state=dice.state,
                inc=dice.inc,
            )
        except core.Unported as err:
            self.stopped = str(err)
            raise Unported(self.stopped) from err

    # -- the reference's face ----------------------------------------------------------------
    @property
    def decision(self) -> Asked | None:
        got = self._core.decision
        return None if got is None else Asked(DecisionKind(got[0]), got[1], got[2])

    def legal_actions(self) -> list[Action]:
        legal: list[Action] = self._core.legal()
        return legal

    def apply(self, action: Action) -> None:
        """Carry out ``action``; :class:`Unported` where the rules reach what is not
        ported (the combat stops), IllegalActionError where it is not legal."""
        if self.stopped is not None:
            raise Unported(f"the native combat stopped at {self.stopped}")
        a = action
        try:
            self._core.apply(int(a.kind), a.actor, a.target, a.cell, a.arg, a.mumm)
        except _core().Unported as err:
            self.stopped = str(err)
            raise Unported(self.stopped) from err
        except ValueError as err:
            raise IllegalActionError(str(err)) from err

    @property
    def events(self) -> list[ev.Event]:
        """Every event so far, as the reference's frozen events."""
        make = self._maker.event
        for row in self._core.events_from(len(self._events)):
            self._events.append(make(row))
        return self._events

    @property
    def outcome(self) -> Outcome | None:
        got = self._core.outcome
        if got is None:
            return None
        winner, reason, rounds, about = got
        text = reason_text(self.game, reason, about)
        return Outcome(None if winner < 0 else Side(winner), text, rounds)

    @property
    def round(self) -> int:
        return int(self._core.round)
