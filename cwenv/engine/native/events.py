"""The native combat's events as the reference's frozen events (issue #16,
src/combat_events.hpp).

The core's event records carry ids; :class:`EventMaker` turns each into its event of
:mod:`cwenv.engine.events`, with the names, labels and fixed causes the reference's
frames write (a weapon's name, ``"Verteidigung"``, ``"Sterben"`` …), so the narration
and every comparison by value see the same event under both engines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cwenv.battlemap.steps import DIFFICULT_KINDS, StepKind
from cwenv.engine import events as ev
from cwenv.engine.falls import DIFFICULT_SKILL_NAMES, DIFFICULT_VERBS
from cwenv.engine.native.strike import ARMOUR_MODES, CRIT_ROWS, FUMBLE_ROWS, zehrend_kinds
from cwenv.engine.parts import Part
from cwenv.engine.payloads import CheckPurpose
from cwenv.engine.plan_core import typed_parts
from cwenv.engine.tables.checks import check_text
from cwenv.model.types import AttackMode, Cell, Condition, Maneuver, MummSpend, Side

if TYPE_CHECKING:
    from cwenv.engine.game import Game

CAUSES = (
    "",
    None,
    "Sterben",
    "Patzer beim Sterben",
    "Muskelriss",
    "Überdehnt",
    "dem Tod von der Schippe gesprungen",
    "Zehrend erneut",
    None,
    "Sturz",
    "Heilung",
    "missglückte Erste Hilfe",
    None,
)
"""src/combat_events.hpp CauseKind's texts (None: a weapon's name, a Zehrend's kind)."""
WEAPON_CAUSE, ZEHREND_TICK, HACK_CAUSE = 1, 8, 12
"""The CauseKinds named by the content."""
ZEHREND_ENDS = ("Gefahrenbereich verlassen", "Probe", "mit Mumm aufgehoben")
"""src/combat_events.hpp ZehrendEnd's texts."""
HOW = (
    "geht",
    "sprintet",
    "Fehltritt",
    Maneuver.WEGSTOSSEN.label,
    "zerrt",
    "Mitzerren",
    *(DIFFICULT_VERBS[kind] for kind in DIFFICULT_KINDS),
    "stürzt in die Lücke",
    "lässt los und stürzt",
)
"""src/combat_events.hpp How's texts (a Moved event's ``how``, a ForcedMove's cause)."""
LOST_BY = ("Mumm", "stabilisiert sich selbst", "steht auf", "Probe", "Stimulans", None)
"""src/combat_events.hpp LostBy's texts (None: "stabilisiert von <medic>")."""
FACTORS = ("", "resistent", "verwundbar", "immun")
"""damage.py resistance_factor's texts by src/combat_events.hpp Factor."""
DISARMED_TEXT = "−2 auf Angriff und Schaden"
"""Acted DISARMED's text (tables/maneuvers.py _entwaffnen, K01)."""


class EventMaker:
    """Turns the core's event rows of one game into the reference's events."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.names = game.names
        self.cells = [game.battlemap.cell(x) for x in range(game.battlemap.size)]
        self.kinds = zehrend_kinds(game)
        self._parts: dict[tuple[int, tuple[Any, ...]], tuple[Part, ...]] = {}
        self._make: dict[str, Callable[..., ev.Event]] = {
            "Moved": self._moved,
            "CombatEnded": self._ended,
            "CheckRolled": self._check,
            "MummSpent": lambda f, s, cost, left: ev.MummSpent(f, MummSpend(s), cost, left),
            "ReactionUsed": lambda f, k, left, x: ev.ReactionUsed(f, ev.ReactionKind(k), left, x),
            "AttackDeclared": lambda a, t, m, i: ev.AttackDeclared(
                a, t, AttackMode(m), i, self._means(a, m, i)
            ),
            "AttackFailed": lambda a, t, full: ev.AttackFailed(
                a, t, "volle Deckung" if full else "verfehlt"
            ),
            "TableRolled": self._table,
            "DamageRolled": self._damage,
            "LPChanged": lambda f, b, a, cause: ev.LPChanged(f, b, a, self._cause(cause)),
            "ConditionGained": lambda f, c, was: ev.ConditionGained(
                f, Condition(c).label, "" if was < 0 else Condition(was).label
            ),
            "SterbendAgain": lambda f, d: ev.ConditionGained(
                f, f"1W10 direkter Schaden ({d})", "sterbend"
            ),
            "ConditionLost": lambda f, c, cause, by: ev.ConditionLost(
                f, Condition(c).label, LOST_BY[cause] or f"stabilisiert von {self.names[by]}"
            ),
            "StatusChanged": lambda f, s, cause: ev.StatusChanged(
                f, ev.Status(s), self._cause(cause)
            ),
            "Acted": self._acted,
            "ZehrendGained": self._zehrend_gained,
            "ZehrendLost": lambda f, k, end: ev.ConditionLost(
                f, f"zehrend ({self.kinds[k]})", ZEHREND_ENDS[end]
            ),
            "ForcedMove": lambda f, path, how: ev.ForcedMove(
                f, tuple(self.cells[x] for x in path), HOW[how]
            ),
            "ClimbedPart": lambda f, ledge, climbed, height, down: ev.ClimbedPart(
                f, self.cells[ledge], climbed, height, down
            ),
        }

    def event(self, row: tuple[Any, ...]) -> ev.Event:
        name, *fields = row
        make = self._make.get(name)
        if make is not None:
            return make(*fields)
        kind: type[ev.Event] = getattr(ev, name)
        return kind(*fields)

    # -- the ones that need the game --------------------------------------------------------
    def _weapon(self, fighter: int, index: int) -> str:
        return self.game.roster[fighter].all_weapons[index].name

    def _means(self, attacker: int, mode: int, index: int) -> str:
        """attack.py AttackFrame._means: the weapon's, hack's or manoeuvre's name."""
        if mode == AttackMode.HACK:
            return self.game.roster[attacker].hacks[index].name
        if mode == AttackMode.MANEUVER:
            return Maneuver(index).label
        return self._weapon(attacker, index)

    def _cause(self, cause: tuple[int, int, int]) -> str:
        kind, fighter, index = cause
        if kind == WEAPON_CAUSE:
            return self._weapon(fighter, index)
        if kind == ZEHREND_TICK:
            return f"Zehrend ({self.kinds[index]})"
        if kind == HACK_CAUSE:
            return self.game.roster[fighter].hacks[index].name
        return CAUSES[kind] or ""

    def _moved(self, fighter: int, path: tuple[int, ...], metres: int, how: int) -> ev.Event:
        cells: tuple[Cell, ...] = tuple(self.cells[x] for x in path)
        return ev.Moved(fighter, cells, metres, HOW[how])

    def _zehrend_gained(self, fighter: int, kind: int, again: bool) -> ev.Event:
        name = self.kinds[kind]
        if again:
            return ev.ConditionGained(fighter, f"Zehrend ({name}) erneut: 1W10 Schaden")
        return ev.ConditionGained(fighter, f"zehrend ({name})")

    def _ended(self, winner: int, reason: int, rounds: int, about: int) -> ev.Event:
        label = Side(winner).label if winner >= 0 else "Unentschieden"
        return ev.CombatEnded(label, reason_text(self.game, reason, about), rounds)

    def _check(
        self,
        fighter: int,
        purpose: int,
        attacker: int,
        target: int,
        mode: int,
        index: int,
        parts: tuple[tuple[int, int, int], ...],
        own: int,
        *rest: Any,
    ) -> ev.Event:
        if purpose == CheckPurpose.HELP:  # a helper shares the ally's main-check modifiers (X59)
            typed = self._typed(fighter, parts[:own]) + self._typed(target, parts[own:])
        else:
            typed = self._typed(fighter, parts)
        text = self.check_text(fighter, purpose, attacker, target, mode, index)
        return ev.CheckRolled(fighter, text, typed, *rest)

    def check_text(
        self, fighter: int, purpose: int, attacker: int, target: int, mode: int, index: int
    ) -> str:
        """What a check is for, as its frame names it (CheckRolled.purpose, describe()): the
        purpose's text (tables/checks.py check_text) with its subjects."""
        p = CheckPurpose(purpose)
        subjects: tuple[str, ...] = ()
        if p is CheckPurpose.ATTACK:
            subjects = (self._means(attacker, mode, index), self.names[target])
        elif p is CheckPurpose.ZEHREND:
            subjects = (self.kinds[index],)
        elif p is CheckPurpose.SHAKE:
            subjects = (Condition(index).label,)
        elif p in (CheckPurpose.STABILISE, CheckPurpose.HELP):
            subjects = (self.names[target],)
        elif p is CheckPurpose.FREE_WEAPON:
            subjects = (self._weapon(fighter, index),)
        elif p is CheckPurpose.MOVE:
            subjects = (DIFFICULT_SKILL_NAMES[StepKind(index)],)
        return check_text(p, *subjects)

    def _typed(self, fighter: int, triples: tuple[tuple[int, int, int], ...]) -> tuple[Part, ...]:
        key = (fighter, triples)
        hit = self._parts.get(key)
        if hit is None:
            hit = self._parts[key] = typed_parts(self.game.roster[fighter], triples)
        return hit

    def _table(self, fighter: int, table: int, d1: int, d2: int, minus: int, row: int) -> ev.Event:
        kind = ev.TableKind(table)
        rows = CRIT_ROWS if kind is ev.TableKind.VOLLTREFFER else FUMBLE_ROWS
        return ev.TableRolled(fighter, kind, d1, d2, minus, rows[row].value)

    def _damage(
        self,
        target: int,
        rolls: tuple[int, ...],
        bonus: int,
        armour: int,
        mode: int,
        subtotal: int,
        factor: int,
        total: int,
        bare: int,
        direct: int,
        flat: int,
    ) -> ev.Event:
        return ev.DamageRolled(
            target,
            rolls,
            bonus,
            armour,
            ARMOUR_MODES[mode],
            subtotal,
            FACTORS[factor],
            total,
            bare,
            direct,
            flat,
        )

    def _acted(
        self, fighter: int, act: int, target: int, index: int, value: int, what: int
    ) -> ev.Event:
        kind = ev.Act(act)
        return ev.Acted(
            fighter, kind, self._detail(fighter, kind, index, value, what), target, index, value
        )

    def _detail(self, fighter: int, kind: ev.Act, index: int, value: int, what: int) -> str:
        """The narration's text of an Acted, as handlungen.py and its callers write it."""
        spec = self.game.roster[fighter]
        A = ev.Act
        if kind in (A.SPRINT, A.ANNOUNCE_HELP):
            return ""
        if kind is A.AIM:
            return f"Stufe {value}"
        if kind is A.HELP:
            return f"+{value}"
        if kind is A.UPLOAD:
            hack = spec.hacks[index]
            return f"{hack.name} {value}/{hack.upload}"
        if kind in (A.OPEN_DOOR, A.CLOSE_DOOR):
            return str(tuple(self.cells[index]))
        if kind in (A.USE_ITEM, A.FROM_BACKPACK, A.LOSE_ITEM):
            return (*spec.items, *spec.backpack)[what].name
        if kind is A.CYBERWARE:
            return spec.cyberware[index].name
        if kind is A.DISARMED:
            return DISARMED_TEXT
        if kind is A.FAILED:
            return DIFFICULT_VERBS[StepKind(index)]
        name = spec.all_weapons[index].name
        return name + " (noch nicht fertig)" if kind is A.RELOAD and not value else name


def reason_text(game: Game, reason: int, about: int) -> str:
    """src/combat_events.hpp CombatReason as victory.py and state.py word it."""
    from cwenv.engine.state import DECISION_CAP_REASON
    from cwenv.engine.victory import (
        BOTH_OUT,
        EXIT_REACHED,
        GEGNER_OUT,
        ROUND_LIMIT_REASON,
        RUNNERS_OUT,
        fallen_reason,
        survived_reason,
    )

    texts = (
        ROUND_LIMIT_REASON,
        DECISION_CAP_REASON,
        survived_reason(about),
        BOTH_OUT,
        RUNNERS_OUT,
        GEGNER_OUT,
        fallen_reason(game.names[about]) if 0 <= about < len(game.names) else "",
        EXIT_REACHED,
    )
    return texts[reason]
