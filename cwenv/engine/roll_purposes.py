"""What the W10 being rolled now is for, read from the rolling frame's own state.

Every die of a combat is rolled inside some frame's ``step``; at that moment the frame on
top of the stack knows whose roll it is, how many dice it takes and what it decides. A
table-dice prompt (``cwenv play --dice table``) and the service's ``needs die`` answer ask
:meth:`cwenv.engine.state.Combat.resolving`, which looks the top frame's class up in
:data:`ROLL_PURPOSES` — the one table — and gets a frozen :class:`RollPurpose`. Words are
made from it in presentation only (:mod:`cwenv.play.roll_text`).

Completeness: every :class:`~cwenv.engine.frames.Frame` subclass is either in
:data:`ROLL_PURPOSES` or in :data:`NEVER_ROLLS` (frames that only hand dice rolling on to a
sub-frame); one in neither is an ImportError naming it, so a new frame cannot roll
unnamed dice at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind
from cwenv.engine.attack import AttackFrame, AttackStage
from cwenv.engine.checks import CheckFrame
from cwenv.engine.climbing import ClimbFrame
from cwenv.engine.damage import DamageFrame, LoseLPFrame, SequenceFrame
from cwenv.engine.effects import DragFrame
from cwenv.engine.falls import FallFrame, ForcedMoveFrame, SchwierigFrame
from cwenv.engine.frames import Frame
from cwenv.engine.handlungen import CheckedHandlung
from cwenv.engine.helping import HelpersFrame
from cwenv.engine.hits import ZehrendLater
from cwenv.engine.movement import MoveFrame
from cwenv.engine.parts import PartKind
from cwenv.engine.payloads import CheckPurpose
from cwenv.engine.roundflow import CombatFrame, EndOfRoundFrame, RoundFrame, initiative_dice
from cwenv.engine.turn import TurnFrame
from cwenv.model.types import CheckValue
from cwenv.rules.options import InitiativeSystem

if TYPE_CHECKING:
    from cwenv.engine.state import Combat


class RollKind(Enum):
    """What a roll decides."""

    INITIATIVE = "initiative"  # I01/I02: a fighter's initiative dice
    TIEBREAK = "tiebreak"  # X16 tie_order random: the two dice that break a tie
    CHECK = "check"  # P01: a Probe's 2W10 (attack, defence, any other check)
    COVER = "cover"  # C05: the 50 % die whether the covering creature is hit
    VOLLTREFFER = "volltreffer"  # A07: the Volltreffer table's 2W10
    PATZER = "patzer"  # A08: the Patzer table's 2W10
    DAMAGE = "damage"  # A06: damage dice (of a hit, a Patzer row, a Zehrend tick)
    FALL = "fall"  # B06, X18: a fall's brechende damage dice
    STERBEND_AGAIN = "sterbend_again"  # Z06, X29: 1W10 direct damage on the sterbend
    DYING_LOSS = "dying_loss"  # D08: the failed dying check's 1W10 LP loss
    HEALING = "healing"  # H04, H09: a medkit's or cyberware's healing dice


@dataclass(frozen=True, slots=True)
class RollPurpose:
    """One die of one roll: ``fighter`` rolls it (−1: nobody's, e.g. a fall's damage on
    ``target``), die ``index`` (0-based) of ``count``. ``target`` is whom the roll is against
    or lands on (−1: none), ``other`` a third fighter (C05's coverer, a defence's attacker).
    ``check``/``value`` name a Probe's purpose and what it is rolled against; ``qs`` the QS
    of the hit a damage roll follows; ``label`` the engine's own narration label (a check's
    purpose text, a damage's cause) for presentation to quote."""

    kind: RollKind
    fighter: int
    count: int
    index: int = 0
    target: int = -1
    other: int = -1
    check: CheckPurpose | None = None
    value: CheckValue | None = None
    qs: int | None = None
    label: str = ""


class UnnamedRollError(ValueError):
    """A frame rolled a die in a state its purpose entry does not know."""


PurposeOf = Callable[["Combat", Frame], RollPurpose]


def _initiative(c: Combat, frame: RoundFrame) -> RollPurpose:
    """I01/I02/X16: the fighter whose initiative is being rolled (``RoundFrame.rolling``)."""
    f = c.fighters[frame.rolling]
    if frame.tiebreaking:
        return RollPurpose(RollKind.TIEBREAK, f.idx, 2)
    if c.options.initiative is InitiativeSystem.STEPS:
        return RollPurpose(RollKind.INITIATIVE, f.idx, initiative_dice(f.grundwert))
    return RollPurpose(RollKind.INITIATIVE, f.idx, 1)


def _check(c: Combat, frame: CheckFrame) -> RollPurpose:
    """P01: the Probe's 2W10; an attack names its target, a defence its attacker."""
    source = frame.parts[0][0]
    value = CheckValue(source.ref) if source.kind is PartKind.VALUE else None
    about = frame.about
    target = other = -1
    if about.attack is not None:
        if about.purpose is CheckPurpose.DEFENCE:
            other = about.attack.attacker
        else:
            target = about.attack.target
    return RollPurpose(
        RollKind.CHECK,
        frame.fighter,
        2,
        target=target,
        other=other,
        check=about.purpose,
        value=value,
        label=frame.purpose,
    )


def _attack(c: Combat, frame: AttackFrame) -> RollPurpose:
    """C05's 50 % die (at ROLLED), the Patzer table (A08), the Volltreffer table (A07)."""
    stage = frame.stage
    if stage == AttackStage.ROLLED:
        return RollPurpose(
            RollKind.COVER, frame.attacker, 1, target=frame.target, other=frame.cover.coverer
        )
    if stage == AttackStage.AFTER_PATZER:
        return RollPurpose(RollKind.PATZER, frame.attacker, 2, target=frame.target)
    if stage in (AttackStage.DEFEND, AttackStage.COMPARED):  # undefended, or compared
        ti = min(frame.ti, len(frame.targets) - 1)
        return RollPurpose(RollKind.VOLLTREFFER, frame.attacker, 2, target=frame.targets[ti])
    raise UnnamedRollError(f"AttackFrame rolls no die at stage {AttackStage(stage).name}")


def _hit_qs(c: Combat, frame: DamageFrame) -> int | None:
    """The QS of the hit this damage follows (A06): the newest Hit by ``source`` on
    ``target`` while that attack still runs below the damage."""
    if frame.ongoing or frame.source < 0:
        return None
    attacking = any(
        isinstance(f, AttackFrame) and f.attacker == frame.source for f in c.stack_frames()
    )
    if not attacking:
        return None
    for event in reversed(c.events):
        if isinstance(event, ev.Hit):
            hit = event.attacker == frame.source and event.target == frame.target
            return event.qs if hit else None
    return None


def _damage(c: Combat, frame: DamageFrame) -> RollPurpose:
    """A06 damage dice; a fall's (B06) by its 'sturz' form."""
    kind = RollKind.FALL if "sturz" in frame.forms else RollKind.DAMAGE
    return RollPurpose(
        kind,
        frame.source,
        frame.dice,
        target=frame.target,
        qs=_hit_qs(c, frame),
        label=frame.cause,
    )


def _lose_lp(c: Combat, frame: LoseLPFrame) -> RollPurpose:
    """Z06/X29: a sterbend fighter wounded again takes 1W10 direct damage."""
    return RollPurpose(RollKind.STERBEND_AGAIN, -1, 1, target=frame.fighter, label=frame.cause)


def _end_of_round(c: Combat, frame: EndOfRoundFrame) -> RollPurpose:
    """D08: the LP a fighter loses after failing its dying check."""
    fighter = frame.order[frame.pos]
    return RollPurpose(RollKind.DYING_LOSS, fighter, 1, target=fighter)


def _turn(c: Combat, frame: TurnFrame) -> RollPurpose:
    """H04/H09: the healing dice of the medkit or cyberware the turn's Handlung uses (the
    amount read from the action just taken; a used item has left the hand, so its healing
    dice are the ones the Acted event of its use recorded)."""
    f = c.fighters[frame.fighter]
    action = c.history[-1] if c.history else None
    amount = 0
    if action is not None and action.kind is ActionKind.CYBERWARE:
        ability = f.spec.cyberware[action.cyberware].ability
        amount = ability.amount if ability is not None else 0
    elif action is not None and action.kind is ActionKind.USE_ITEM:
        used = next((e for e in reversed(c.events) if isinstance(e, ev.Acted)), None)
        amount = used.value if used is not None and used.act is ev.Act.USE_ITEM else 0
    else:
        raise UnnamedRollError(f"TurnFrame rolls no die after {action}")
    return RollPurpose(RollKind.HEALING, f.idx, max(amount, 1), target=f.idx)


ROLL_PURPOSES: dict[type[Frame], PurposeOf] = {
    RoundFrame: _initiative,  # type: ignore[dict-item]
    CheckFrame: _check,  # type: ignore[dict-item]
    AttackFrame: _attack,  # type: ignore[dict-item]
    DamageFrame: _damage,  # type: ignore[dict-item]
    LoseLPFrame: _lose_lp,  # type: ignore[dict-item]
    EndOfRoundFrame: _end_of_round,  # type: ignore[dict-item]
    TurnFrame: _turn,  # type: ignore[dict-item]
}
"""The frame class rolling now → what its die is for."""

NEVER_ROLLS: frozenset[type[Frame]] = frozenset(
    {
        CombatFrame,  # starts rounds (RoundFrame rolls initiative)
        SequenceFrame,  # runs its frames in turn
        DragFrame,
        ForcedMoveFrame,
        SchwierigFrame,  # its check is a CheckFrame
        FallFrame,  # its catch is a CheckFrame, its damage a DamageFrame
        CheckedHandlung,
        HelpersFrame,  # each helper's roll is a CheckFrame
        ZehrendLater,
        MoveFrame,
        ClimbFrame,
    }
)
"""Frames that hand every roll on to a sub-frame."""


def _all_frames(root: type[Frame]) -> list[type[Frame]]:
    found: list[type[Frame]] = []
    todo = list(root.__subclasses__())
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo.extend(kind.__subclasses__())
    return found


def unnamed_frames() -> list[str]:
    """Frame classes in neither table (a new frame someone has to classify)."""
    return sorted(
        k.__name__ for k in _all_frames(Frame) if k not in ROLL_PURPOSES and k not in NEVER_ROLLS
    )


_missing = unnamed_frames()
if _missing:
    raise ImportError(
        f"frame classes without a roll purpose: {', '.join(_missing)}; add each to "
        "ROLL_PURPOSES (it can roll a die) or NEVER_ROLLS in cwenv/engine/roll_purposes.py"
    )


def roll_purpose(c: Combat) -> RollPurpose | None:
    """What the next die is for (index 0; a consumer counts the dice of one roll, see
    :func:`next_die`); None before the first frame runs."""
    frames = c.stack_frames()
    if not frames:
        return None
    top = frames[-1]
    entry = ROLL_PURPOSES.get(type(top))
    if entry is None:
        raise UnnamedRollError(f"{type(top).__name__} rolls no dice (NEVER_ROLLS)")
    return entry(c, top)


def next_die(last: RollPurpose | None, purpose: RollPurpose) -> RollPurpose:
    """``purpose`` as the die after ``last``: the next die of the same roll while the roll
    has dice left, else the first die of a new roll. Consecutive dice with equal purposes
    are one roll, up to its ``count``."""
    if last is not None and last.index + 1 < last.count and replace(last, index=0) == purpose:
        return replace(purpose, index=last.index + 1)
    return purpose
