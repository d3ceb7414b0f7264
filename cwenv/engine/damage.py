"""Damage, LP, conditions, dying and death (A06, D01–D09, Z01–Z08, M04, M06).

Everything that lowers LP goes through :class:`LoseLPFrame`, because any LP loss may kill
and a dying runner may then spend Mumm (M04). Damage from dice goes through
:class:`DamageFrame` first: rolled per QS with armour per roll (A06, X08), then
resistances (D04, X32), then the M06 prompt.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, Decision, DecisionKind
from cwenv.engine.checks import can_spend_mumm, spend_mumm
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.payloads import DamagePrompt, DeathPrompt
from cwenv.model.types import ArmourMode, Condition, MummSpend, Side, Skill
from cwenv.rules.options import (
    AngeschlagenTrigger,
    DeathThreshold,
    NscAtZero,
    Rounding,
)

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat
    from cwenv.engine.view import CombatView

from cwenv.engine.conditions import gain_condition, lose_condition


def gain_zehrend(c: Combat, f: FighterState, kind: str) -> Frame | None:
    """Z08: start Zehrend of a type; the same type again deals 1W10 at once instead."""
    if f.dead:
        return None
    if kind in f.zehrend:
        c.emit(ev.ConditionGained(f.idx, f"Zehrend ({kind}) erneut: 1W10 Schaden"))
        return zehrend_damage(c, f, kind, "Zehrend erneut", ongoing=False)
    f.zehrend = (*f.zehrend, kind)
    c.count("condition:ZEHREND")
    c.emit(ev.ConditionGained(f.idx, f"zehrend ({kind})"))
    return None


def zehrend_damage(
    c: Combat, f: FighterState, kind: str, cause: str, ongoing: bool = True
) -> DamageFrame:
    """1W10 of the Zehrend's type; armour, resistances and immunities apply (Z08, X20)."""
    forms = frozenset({kind.lower()})
    return DamageFrame(f.idx, -1, 1, 0, zehrend_mode(kind), forms, False, cause, ongoing=ongoing)


def zehrend_mode(kind: str) -> ArmourMode:
    """How a Zehrend's 1W10 meets armour: fire is brechend (D01), the rest normal (Z08)."""
    return ArmourMode.BRECHEND if kind.lower() == "feuer" else ArmourMode.NORMAL


def armour_after_mode(c: CombatView, armour: int, mode: ArmourMode) -> int:
    """Effective armour per roll: brechend halves it (D01, X08), direkt ignores it (D02)."""
    if mode is ArmourMode.DIREKT:
        return 0
    if mode is ArmourMode.BRECHEND:
        return (
            (armour + 1) // 2 if c.options.brechend_armour_rounding is Rounding.UP else armour // 2
        )
    return armour


def resistance_factor(
    c: Combat, f: FighterState, forms: frozenset[str], amount: int
) -> tuple[int, str]:
    """D04: immune → 0, resistent → half, verwundbar → ×1.5, per attack (X32)."""
    spec = f.spec
    if forms & spec.immunities:
        return 0, "immun"
    resist = bool(forms & spec.resistances)
    vuln = bool(forms & spec.vulnerabilities)
    if resist == vuln:
        return amount, ""
    up = c.options.resistance_rounding is Rounding.UP
    if resist:
        return ((amount + 1) // 2 if up else amount // 2), "resistent"
    return ((amount * 3 + 1) // 2 if up else amount * 3 // 2), "verwundbar"


class DamageStage(IntEnum):
    """Where a :class:`DamageFrame` stands."""

    ROLL = 0  # the damage dice (A06), then the M06 prompt
    ANSWERED = 1  # M06 answered: the LP go
    FINISHED = 2  # the LP loss has run


_DAMAGE_ROLL, _DAMAGE_ANSWERED, _DAMAGE_FINISHED = DamageStage


class DamageFrame(Frame):
    """Roll ``dice`` W10 + ``bonus`` each, armour per roll, resistances, then M06 (A06)."""

    __slots__ = (
        "bare",
        "bonus",
        "cause",
        "dice",
        "direct_tail",
        "flat",
        "forms",
        "mode",
        "non_lethal",
        "ongoing",
        "source",
        "target",
        "total",
    )

    def __init__(
        self,
        target: int,
        source: int,
        dice: int,
        bonus: int,
        mode: ArmourMode,
        forms: frozenset[str],
        non_lethal: bool,
        cause: str,
        *,
        bare: int = 0,
        direct_tail: int = 0,
        flat: int = 0,
        ongoing: bool = False,
    ) -> None:
        """The last ``bare`` dice are rolled without the bonus (X33 BARE_DIE); the last
        ``direct_tail`` dice ignore armour (X33: only a Zerschmetterter Leib's extra dice
        are direct); ``flat`` is added after armour (K01's −2 for a disarmed NSC, X22)."""
        super().__init__()
        self.bare = bare
        self.direct_tail = direct_tail
        self.ongoing = ongoing
        self.flat = flat
        self.target = target
        self.source = source
        self.dice = dice
        self.bonus = bonus
        self.mode = mode
        self.forms = forms
        self.non_lethal = non_lethal
        self.cause = cause
        self.total = 0

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.target]
        if self.stage == _DAMAGE_ROLL:
            if f.dead:
                return DONE
            armour = armour_after_mode(c, f.spec.armour + f.armour_bonus, self.mode)
            floor = c.options.armour_floor_zero
            rolls = tuple(c.d10() for _ in range(self.dice))
            subtotal = 0
            bonus_until = self.dice - self.bare
            armour_until = self.dice - self.direct_tail
            for i, r in enumerate(rolls):
                v = r + (self.bonus if i < bonus_until else 0) - (armour if i < armour_until else 0)
                subtotal += v if v > 0 or not floor else 0
            subtotal += self.flat
            total, factor = resistance_factor(c, f, self.forms, max(subtotal, 0))
            c.emit(
                ev.DamageRolled(
                    f.idx,
                    rolls,
                    self.bonus,
                    armour,
                    self.mode,
                    subtotal,
                    factor,
                    total,
                    self.bare,
                    self.direct_tail,
                    self.flat,
                )
            )
            self.total = total
            self.stage = _DAMAGE_ANSWERED
            if total > 0 and can_spend_mumm(c, f, MummSpend.TREFFER_WEGSTECKEN.cost):
                return Decision(
                    DecisionKind.DAMAGE,
                    f.idx,
                    (Action(ActionKind.HALVE_DAMAGE, f.idx), Action(ActionKind.TAKE_DAMAGE, f.idx)),
                    DamagePrompt(total, self.source),
                )
            value = None
        if self.stage == _DAMAGE_ANSWERED:
            if value is not None and value.kind is ActionKind.HALVE_DAMAGE:
                spend_mumm(c, f, MummSpend.TREFFER_WEGSTECKEN)
                halved = self.total // 2  # M06: 'Dabei wird abgerundet'
                c.emit(ev.DamageHalved(f.idx, self.total, halved))
                self.total = halved
            self.stage = _DAMAGE_FINISHED
            if self.source >= 0 and self.total > 0:
                c.count("damage_dealt", self.total)
            return LoseLPFrame(
                f.idx, self.total, self.cause, True, self.non_lethal, ongoing=self.ongoing
            )
        return DONE


def dies_at(c: Combat, f: FighterState) -> bool:
    """D07, X05: dead when LP reach −Unbeugsamkeit (or fall below it)."""
    limit = -f.spec.skill(Skill.UNBEUGSAMKEIT)
    if c.options.death_threshold is DeathThreshold.AT_OR_BELOW:
        return f.lp <= limit
    return f.lp < limit


def kill(c: Combat, f: FighterState, cause: str) -> None:
    f.dead = True
    f.down = True
    f.let_go()
    f.reactions = 0
    c.count(f"dead:{f.side.name}")
    c.emit(ev.StatusChanged(f.idx, ev.Status.DEAD, cause))
    c.mark_dirty()


class LossStage(IntEnum):
    """Where a :class:`LoseLPFrame` stands."""

    LOSE = 0  # lower the LP and settle the consequences
    DEATH_ANSWERED = 1  # the M04 prompt answered


_LOSS_LOSE, _LOSS_DEATH_ANSWERED = LossStage


class LoseLPFrame(Frame):
    """Lower LP and settle the consequences: angeschlagen at half (D06, X28), kampfunfähig and
    sterbend at 0 (D05, D07, X11, X34), sterbend again (Z06, X29), death (D07, X05) with the
    M04 prompt. ``damage`` is False for a dying fighter's LP loss (D08)."""

    __slots__ = ("amount", "cause", "damage", "die", "fighter", "non_lethal", "ongoing")

    def __init__(
        self,
        fighter: int,
        amount: int,
        cause: str,
        damage: bool,
        non_lethal: bool = False,
        die: bool = False,
        ongoing: bool = False,
    ) -> None:
        """``die``: the fighter would die outright (a Patzer on the dying check, D08);
        ``ongoing``: a Zehrend tick, which keeps acting while dying but is no new wound."""
        super().__init__()
        self.die = die
        self.ongoing = ongoing
        self.fighter = fighter
        self.amount = amount
        self.cause = cause
        self.damage = damage
        self.non_lethal = non_lethal

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        opts = c.options
        if self.stage == _LOSS_DEATH_ANSWERED:
            if value.kind is ActionKind.AVERT_DEATH:
                spend_mumm(c, f, MummSpend.TOD_ABWENDEN)
                before = f.lp
                f.lp = 0
                f.down = True
                f.let_go()
                f.stabilised = True
                c.emit(ev.LPChanged(f.idx, before, 0, "dem Tod von der Schippe gesprungen"))
                if opts.tod_abwenden_ends_sterbend:
                    lose_condition(c, f, Condition.STERBEND, "Mumm")
                c.emit(ev.StatusChanged(f.idx, ev.Status.UNCONSCIOUS))
                return DONE
            kill(c, f, self.cause)
            return DONE
        if f.dead:
            return DONE
        if self.die:
            return self._would_die(c, f)
        if self.amount <= 0:
            return DONE
        amount = self.amount
        if (
            self.damage
            and not self.ongoing  # D08: ongoing effects 'wirken … weiter', they add nothing
            and f.down
            and f.conditions >> Condition.STERBEND & 1
            and opts.sterbend_damage_reinflicts
        ):
            extra = c.d10()  # Z06: sterbend again → 1W10 direct damage (X29)
            c.emit(ev.ConditionGained(f.idx, f"1W10 direkter Schaden ({extra})", "sterbend"))
            amount += extra
        if amount <= 0:
            return DONE
        before = f.lp
        after = before - amount
        if self.non_lethal and opts.non_lethal_floor_zero and before > 0:
            after = max(after, 0)
        f.lp = after
        c.emit(ev.LPChanged(f.idx, before, after, self.cause))
        c.mark_dirty()
        half = f.spec.lp / 2
        if (
            after <= half
            and (
                before > half
                or (self.damage and opts.angeschlagen_trigger is AngeschlagenTrigger.EVERY_HIT)
            )
            and after > 0
        ):
            gain_condition(c, f, Condition.ANGESCHLAGEN)
        if after <= 0 and not f.down:
            f.down = True
            f.let_go()
            f.reactions = 0
            c.count(f"down:{f.side.name}")
            if opts.kampfunfaehig_prone:
                f.conditions |= 1 << Condition.NIEDERGEWORFEN  # X44: 'zu Boden'
            if self.non_lethal and after == 0:
                c.emit(ev.StatusChanged(f.idx, ev.Status.UNCONSCIOUS_NON_LETHAL))
                return DONE
            if f.side is not Side.RUNNER and opts.nsc_at_zero is NscAtZero.DEAD:
                return self._would_die(c, f)
            c.emit(ev.StatusChanged(f.idx, ev.Status.KAMPFUNFAEHIG))
            f.conditions |= 1 << Condition.STERBEND
            c.emit(ev.ConditionGained(f.idx, Condition.STERBEND.label))
        elif (
            after <= 0
            and self.damage
            and not self.non_lethal
            and not f.conditions >> Condition.STERBEND & 1
        ):
            # D05 'solange kein weiterer Schaden folgt', D07: the unconscious or stabilised
            # fighter who takes lethal damage at 0 LP or less is dying again.
            f.stabilised = False
            f.conditions |= 1 << Condition.STERBEND
            c.emit(ev.ConditionGained(f.idx, Condition.STERBEND.label))
        if f.down and dies_at(c, f):
            return self._would_die(c, f)
        return DONE

    def _would_die(self, c: Combat, f: FighterState) -> Decision | Return:
        """M04: 'Würde dein Runner sterben, kannst du 1 Mummpunkt bezahlen'."""
        if can_spend_mumm(c, f, MummSpend.TOD_ABWENDEN.cost):
            self.stage = _LOSS_DEATH_ANSWERED
            return Decision(
                DecisionKind.DEATH,
                f.idx,
                (Action(ActionKind.AVERT_DEATH, f.idx), Action(ActionKind.ACCEPT_DEATH, f.idx)),
                DeathPrompt(f.lp),
            )
        kill(c, f, self.cause)
        return DONE


def heal(c: Combat, f: FighterState, amount: int, cause: str) -> None:
    """Heal LP up to the maximum. A fighter at ≤ 0 LP wakes once healed to ≥ 1 LP unless
    still sterbend, which healing does not end (D08, X29)."""
    if f.dead or amount <= 0:
        return
    before = f.lp
    f.lp = min(f.spec.lp, f.lp + amount)
    c.emit(ev.LPChanged(f.idx, before, f.lp, cause))
    if f.down and f.lp >= 1 and not f.conditions >> Condition.STERBEND & 1:
        f.down = False
        f.stabilised = False
        c.emit(ev.StatusChanged(f.idx, ev.Status.AWAKE))
    c.mark_dirty()


class SequenceFrame(Frame):
    """Run several frames one after the other (each copied when it starts, so clones never
    share a running frame)."""

    __slots__ = ("frames", "i")

    def __init__(self, frames: tuple[Frame, ...]) -> None:
        super().__init__()
        self.frames = frames
        self.i = 0

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        if self.i >= len(self.frames):
            return DONE
        self.i += 1
        return self.frames[self.i - 1].copy()
