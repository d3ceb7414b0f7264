"""Helfen (P08, X41, X59, X60): announced help is rolled right before the helped check.

„Helfen muss angesagt werden, bevor der Runner seine Probe würfelt. Dann legen zuerst alle
Helfer ihre Proben ab … Es gilt in der Regel derselbe Modifikator wie für die Hauptprobe.“
In combat the helper announces its help with its Handlung (the HELFEN choice); the roll
waits for the check it helps, because only then are that check's skill and modifiers known
(a helper rolling at once would roll without the main check's cover and range). Each
helper's check is an ordinary :class:`~cwenv.engine.checks.CheckFrame` (its own Mumm
spends); the highest QS of the successful helpers is a bonus on the main check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwenv.engine import events as ev
from cwenv.engine.actions import Decision
from cwenv.engine.frames import Frame, Return
from cwenv.engine.parts import HELP, VALUE_SOURCES, PartKind, Parts
from cwenv.engine.payloads import CheckInfo, CheckPurpose
from cwenv.engine.tables.checks import check_text
from cwenv.model.types import AttackMode, CheckValue
from cwenv.rules.options import HelpModifier, HelpScope

if TYPE_CHECKING:
    from cwenv.engine.checks import CheckFrame
    from cwenv.engine.state import Combat

OWN_TURN_CHECKS = frozenset(
    {
        CheckPurpose.ATTACK,
        CheckPurpose.MOVE,
        CheckPurpose.STABILISE,
        CheckPurpose.SHAKE,
        CheckPurpose.BENOMMEN,
        CheckPurpose.FREE_WEAPON,
        CheckPurpose.RUCKSACK,
    }
)
"""X60: the checks of a fighter's own Handlung, which announced help can count for (not a
defence, a reaction, a fall or the round's end checks)."""

UNASKED, ROLLING, HELPED = range(3)
"""Where a check stands with its announced helpers (``CheckFrame.helped``)."""

_VALUE_OF = {source: value for value, source in VALUE_SOURCES.items()}


def helpable(c: Combat, about: CheckInfo) -> bool:
    """X60: whether announced help counts for a check that is ``about`` this."""
    if about.purpose not in OWN_TURN_CHECKS:
        return False
    attack = about.attack
    if attack is not None and attack.mode is AttackMode.BLOCKADE:
        return False  # a Blockadeangriff is a reaction in the mover's turn (R04)
    if c.options.help_scope is HelpScope.ATTACKS:
        return about.purpose is CheckPurpose.ATTACK
    return True


def help_step(c: Combat, main: CheckFrame, value: Any) -> HelpersFrame | None:
    """P08, X60: before ``main`` offers any spend, its announced helpers roll; their best
    QS (``value`` once they are back) joins its Probenwert. None: go on with the check."""
    if main.helped == UNASKED:
        frame = help_frame(c, main)
        main.helped = HELPED if frame is None else ROLLING
        return frame
    main.helped = HELPED
    if value:
        main.parts = (*main.parts, (HELP, value))
    return None


def help_frame(c: Combat, main: CheckFrame) -> HelpersFrame | None:
    """P08: the frame that rolls the helpers announced for ``main``'s roller, if any help
    counts for it (X60); the announcement is used up either way. It returns the highest
    helper QS (0: no helper succeeded)."""
    f = c.fighters[main.fighter]
    if not f.helpers or not helpable(c, main.about):
        return None
    helpers = tuple(h for h in f.helpers if c.fighters[h].standing)
    f.helpers = ()
    if not helpers:
        return None
    return HelpersFrame(f.idx, helpers, _VALUE_OF[main.parts[0][0]], helper_modifiers(c, main))


def helper_modifiers(c: Combat, main: CheckFrame) -> Parts:
    """X59: the main check's modifiers a helper shares — every part beyond the roller's own
    value and conditions (``help_modifier``)."""
    if c.options.help_modifier is HelpModifier.NONE:
        return ()
    return tuple(p for p in main.parts[main.own :] if p[0].kind is not PartKind.HELP)


class HelpersFrame(Frame):
    """Roll each helper's check for ``ally`` (P08: the main check's ``skill`` with X59's
    ``modifiers``) and return the highest QS of the successful ones."""

    __slots__ = ("ally", "best", "helpers", "modifiers", "next", "skill")

    def __init__(
        self, ally: int, helpers: tuple[int, ...], skill: CheckValue, modifiers: Parts
    ) -> None:
        super().__init__()
        self.ally = ally
        self.helpers = helpers
        self.skill = skill
        self.modifiers = modifiers
        self.next = 0
        self.best = 0

    def describe(self) -> str:
        return "Helfen"

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        from cwenv.engine.checks import check

        if self.next and value.success:  # a helper's result is back
            self.best = max(self.best, value.qs)
            rolled = self.helpers[self.next - 1]  # the helper whose result this is
            c.emit(ev.Acted(rolled, ev.Act.HELP, f"+{value.qs}", self.ally, value=value.qs))
        if self.next < len(self.helpers):
            helper = c.fighters[self.helpers[self.next]]
            self.next += 1
            text = check_text(CheckPurpose.HELP, c.fighters[self.ally].name)
            return check(c, helper, self.skill, text, CheckPurpose.HELP, self.modifiers)
        return Return(self.best)
