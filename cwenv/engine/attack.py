"""One attack from declaration to damage (A01–A08, C01–C05, R06, H10, H11, K01–K05).

:class:`AttackFrame` resolves weapon attacks, hacks, Kampfmanöver and Blockadeangriffe:
declare → (target may drop prone, R06) → attack check → on failure the Patzer table or a
miss through living cover (C05) → on success the target may defend (A02, A03) → compare
(A04) → hit with QS (A05, H11) → Volltreffer table (A07) → effects.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, Decision, DecisionKind
from cwenv.engine.attack_plan import (
    area_radius,
    attack_is_ranged,
    defence_values,
    plan_attack,
)
from cwenv.engine.checks import CheckFrame, check
from cwenv.engine.conditions import (
    can_use_reaction,
    gain_condition,
    pay_reaction,
)
from cwenv.engine.cover import NO_COVER, Cover
from cwenv.engine.effects import patzer_effects
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.hits import crit_rows, hit_effects
from cwenv.engine.payloads import AttackPrompt, AttackRef, CheckInfo, CheckPurpose
from cwenv.engine.prompts import defence_choices, niederwerfen_choices
from cwenv.engine.tables.checks import check_text
from cwenv.invariants import present
from cwenv.model.specs import HackSpec, WeaponSpec
from cwenv.model.types import AttackMode, Condition, CoverLevel, Maneuver
from cwenv.rules.options import LoneWinnerQS, ManeuverCrit, PatzerDefence
from cwenv.rules.probe import ProbeResult, hit_qs, resolve_probe
from cwenv.rules.tables import volltreffer_effect

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat


class AttackStage(IntEnum):
    """Where an :class:`AttackFrame` stands; each stage is one method (``_STAGES``)."""

    DECLARE = 0  # declare; the target may drop prone (R06)
    ROLL = 1  # the R06 answer is back: roll the attack
    ROLLED = 2  # the attack roll is back: miss, Patzer, C05, or the defence prompt
    DEFEND = 3  # the target answered the defence prompt
    COMPARED = 4  # the defence roll is back: compare (A04)
    EFFECTS_DONE = 5  # a hit's effects have run: the next target of an area attack
    AFTER_PATZER = 6  # a Patzer's effects have run
    PATZER_DEFENDED = 7  # X09 defence_roll: the target's roll against a Patzer is back


(
    _DECLARE,
    _ROLL,
    _ROLLED,
    _DEFEND,
    _COMPARED,
    _EFFECTS_DONE,
    _AFTER_PATZER,
    _PATZER_DEFENDED,
) = AttackStage


class AttackFrame(Frame):
    """Resolve one attack. ``index`` is the weapon, hack or Maneuver."""

    __slots__ = (
        "aim_qs",
        "attack",
        "attacker",
        "cover",
        "defence",
        "defended",
        "index",
        "mode",
        "no_cover_pw",
        "target",
        "targets",
        "ti",
    )

    def __init__(self, attacker: int, target: int, index: int, mode: AttackMode) -> None:
        super().__init__()
        self.attacker = attacker
        self.target = target
        self.index = index
        self.mode = mode
        self.targets: tuple[int, ...] = (target,)
        self.ti = 0
        self.attack: ProbeResult | None = None
        self.defence: ProbeResult | None = None
        self.cover: Cover = NO_COVER
        self.no_cover_pw = 0
        self.aim_qs = 0
        self.defended = False

    def describe(self) -> str:
        return f"Angriff von {self.attacker} auf {self.target}"

    # -- what is being used ------------------------------------------------------------
    def _weapon(self, a: FighterState) -> WeaponSpec:
        return a.weapons[self.index]

    def _hack(self, a: FighterState) -> HackSpec:
        return a.spec.hacks[self.index]

    def _means(self, a: FighterState) -> str:
        if self.mode is AttackMode.HACK:
            return self._hack(a).name
        if self.mode is AttackMode.MANEUVER:
            return Maneuver(self.index).label
        return self._weapon(a).name

    # -- the procedure --------------------------------------------------------------------
    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        a = c.fighters[self.attacker]
        handler = _STAGES[self.stage]
        return handler(self, c, a, value)

    def ref(self, target: int, roll: ProbeResult | None) -> AttackRef:
        """This attack as the payload of a prompt about it, resolved against ``target``."""
        return AttackRef(self.attacker, target, self.mode, self.index, roll, self.aim_qs)

    def _declare(self, c: Combat, a: FighterState, value: Any) -> Decision | Frame | Return:
        t = c.fighters[self.target]
        c.count(f"attack:{self.mode.label}")
        c.emit(ev.AttackDeclared(a.idx, t.idx, self.mode, self.index, self._means(a)))
        if self.mode is AttackMode.WEAPON:
            w = self._weapon(a)
            if w.uses_ammo:
                a.ammo[self.index] -= 1
        elif self.mode is AttackMode.HACK:
            a.upload_progress[self.index] = 0
        self.stage = _ROLL
        ranged = attack_is_ranged(a, self.mode, self.index)
        if ranged and not area_radius(a, self.mode, self.index) and not t.prone:
            prompt = self._niederwerfen_prompt(c, a, t)
            if prompt is not None:
                return prompt
        return self._roll(c, a, None)

    def _niederwerfen_prompt(self, c: Combat, a: FighterState, t: FighterState) -> Decision | None:
        """R06, X23: when targeted, before the attack roll, the target may drop prone."""
        choices = niederwerfen_choices(c, t, a)
        if not choices:
            return None
        return Decision(
            DecisionKind.NIEDERWERFEN, t.idx, choices, AttackPrompt(self.ref(t.idx, None))
        )

    def reprompt(self, c: Combat, decision: Decision, shaken: Condition | None) -> Decision | None:
        """After an M08 shake at the target's prompt (X38): its reaction choices again —
        all of them once Benommen is off."""
        a, t = c.fighters[self.attacker], c.fighters[decision.fighter]
        prompt: Decision | None = None
        if decision.kind is DecisionKind.NIEDERWERFEN:
            prompt = self._niederwerfen_prompt(c, a, t)
        elif decision.kind is DecisionKind.DEFEND:
            prompt = self._defence_prompt(c, a, t)
        # Nothing left to pay with: the affordable rest (the declining choice) stands.
        return prompt or super().reprompt(c, decision, shaken)

    def _roll(self, c: Combat, a: FighterState, value: Any) -> Decision | Frame | Return:
        t = c.fighters[self.target]
        if value is not None and value.kind is ActionKind.DROP_PRONE:
            pay_reaction(c, t, value.mumm, ev.ReactionKind.DROP_PRONE)
            gain_condition(c, t, Condition.NIEDERGEWORFEN)
            t.prone_bonus = True
        plan = plan_attack(c, a, t, self.mode, self.index)
        self.cover = plan.cover
        self.targets = plan.targets
        if plan.cover.level is CoverLevel.FULL:
            c.emit(ev.AttackFailed(a.idx, t.idx, "volle Deckung"))
            return DONE
        self.aim_qs = plan.aim_qs
        if plan.aim_qs:
            c.count("zielen_used")
        if a.aim_stacks and self.mode is AttackMode.WEAPON and plan.ranged:
            a.aim_stacks = 0  # the aim is spent on this shot (X03)
            a.aim_target = -1
        self.no_cover_pw = plan.no_cover_probenwert
        self.stage = _ROLLED
        about = CheckInfo(CheckPurpose.ATTACK, self.ref(t.idx, None))
        text = check_text(CheckPurpose.ATTACK, self._means(a), t.name)
        return CheckFrame(a.idx, plan.parts, text, about, plan.own_parts)

    def _rolled(self, c: Combat, a: FighterState, result: ProbeResult) -> Decision | Frame | Return:
        self.attack = result
        t = c.fighters[self.target]
        if not result.success:
            # C05 before the Patzer: a Pasch that fails only by the cover penalty 'wäre
            # ohne den Deckungsabzug erfolgreich gewesen' (a Volltreffer on the coverer);
            # when the 50 % spares the coverer, the failed Pasch stays a Patzer (P06).
            if self.cover.living and result.total <= self.no_cover_pw and result.total < 19:
                d = c.d10()  # C05: 50 % (1–5 on a W10) that the covering creature is hit
                if d <= 5:
                    self.target = self.cover.coverer
                    self.targets = (self.cover.coverer,)
                    c.emit(ev.AttackRedirected(a.idx, t.idx, self.cover.coverer, d))
                    self.attack = resolve_probe(self.no_cover_pw, result.d1, result.d2, c.options)
                    self.aim_qs = 0
                    return self._next_target(c, a)
            if result.patzer:
                c.count("patzer")
                if c.options.patzer_defender_qs is PatzerDefence.DEFENCE_ROLL and (
                    can_use_reaction(c, t)
                ):
                    return self._defend_patzer(c, a, t)
                self.stage = _AFTER_PATZER
                return patzer_effects(c, a, t, self.mode, self.index)
            c.emit(ev.AttackFailed(a.idx, t.idx, "verfehlt"))
            return DONE
        if result.volltreffer:
            c.count("volltreffer")
        return self._next_target(c, a)

    def _defend_patzer(self, c: Combat, a: FighterState, t: FighterState) -> Frame:
        """A08, X09 defence_roll: the target rolls its best defence value against the
        failed attack (no reaction paid: nothing hits it); its QS worsens the Patzer."""
        values = defence_values(c, self.mode, a, self.index)
        skill = max(values, key=t.spec.value)
        self.stage = _PATZER_DEFENDED
        about = CheckInfo(CheckPurpose.DEFENCE, self.ref(t.idx, self.attack))
        return check(
            c, t, skill, check_text(CheckPurpose.DEFENCE), about, reaction=True, defence=True
        )

    def _patzer_defended(
        self, c: Combat, a: FighterState, result: ProbeResult
    ) -> Decision | Frame | Return:
        self.stage = _AFTER_PATZER
        t = c.fighters[self.target]
        return patzer_effects(c, a, t, self.mode, self.index, result.qs)

    def _next_target(self, c: Combat, a: FighterState) -> Decision | Frame | Return:
        """Offer the defence to the current target (A02); area attacks loop over targets."""
        while self.ti < len(self.targets):
            t = c.fighters[self.targets[self.ti]]
            attack = present(self.attack, "the attack roll")
            if t.dead:
                self.ti += 1
                continue
            self.defended = False
            self.defence = None
            self.stage = _DEFEND
            if attack.volltreffer and not c.options.volltreffer_defendable:
                return self._hit(c, a, None)
            prompt = self._defence_prompt(c, a, t)
            if prompt is None:
                return self._hit(c, a, None)
            return prompt
        return DONE

    def _defence_prompt(self, c: Combat, a: FighterState, t: FighterState) -> Decision | None:
        """A02, R02, R03, A03, M05: the target's ways to defend, or None when it cannot."""
        attack = present(self.attack, "the attack roll")
        choices = defence_choices(c, t, a, self.mode, self.index)
        if not choices:
            return None
        return Decision(DecisionKind.DEFEND, t.idx, choices, AttackPrompt(self.ref(t.idx, attack)))

    def _defend(self, c: Combat, a: FighterState, value: Any) -> Decision | Frame | Return:
        t = c.fighters[self.targets[self.ti]]
        if value.kind is ActionKind.NO_DEFENCE:
            c.emit(ev.DefenceDeclined(t.idx))
            return self._hit(c, a, None)
        if not (self.mode is AttackMode.MANEUVER and c.options.maneuver_reaction_cost == 0):
            pay_reaction(c, t, value.mumm, ev.ReactionKind.DEFENCE)
        self.stage = _COMPARED
        self.defended = True
        about = CheckInfo(CheckPurpose.DEFENCE, self.ref(t.idx, self.attack))
        skill = value.skill
        return check(
            c, t, skill, check_text(CheckPurpose.DEFENCE), about, reaction=True, defence=True
        )

    def _compared(
        self, c: Combat, a: FighterState, result: ProbeResult
    ) -> Decision | Frame | Return:
        t = c.fighters[self.targets[self.ti]]
        attack = present(self.attack, "the attack roll")
        self.defence = result
        qs = hit_qs(attack, result, c.options)
        if qs is None:
            c.count("defended")
            c.emit(ev.AttackDefended(a.idx, t.idx, attack.total, result.total))
            self.ti += 1
            return self._next_target(c, a)
        if not result.success and result.patzer and c.options.defence_patzer_niedergeworfen:
            gain_condition(c, t, Condition.NIEDERGEWORFEN)
        # a hit through a defence is a weakened one (H11's aim, X03), and so is X27's P07 QS
        difference = c.options.contest_lone_winner_qs is LoneWinnerQS.DIFFERENCE
        return self._hit(c, a, qs if result.success or difference else None)

    def _hit(
        self, c: Combat, a: FighterState, weakened_qs: int | None
    ) -> Decision | Frame | Return:
        """A05/A04: the hit's QS, Zielen's bonus (H11, X03), then the Volltreffer table."""
        t = c.fighters[self.targets[self.ti]]
        attack = present(self.attack, "the attack roll")
        qs = attack.qs if weakened_qs is None else weakened_qs
        aim = self.aim_qs if (weakened_qs is None or c.options.zielen_qs_on_weakened_hit) else 0
        qs += aim
        c.count("hits")
        c.emit(ev.Hit(a.idx, t.idx, qs, weakened_qs is not None, aim))
        if c.options.zielen_lost_on_hit and t.aim_stacks:
            t.aim_stacks = 0
            t.aim_target = -1
        extra = 0
        direct = False
        crit_cond: Condition | None = None
        crit_zehrend: str | None = None
        rows = crit_rows(c.options, self.mode)
        if attack.volltreffer and rows is not ManeuverCrit.NONE:
            d1, d2 = c.d10(), c.d10()
            effect = volltreffer_effect(d1 + d2 - qs)
            c.emit(ev.TableRolled(a.idx, ev.TableKind.VOLLTREFFER, d1, d2, qs, effect.row.value))
            extra, direct = effect.extra_dice, effect.direct
            crit_cond = effect.condition
            crit_zehrend = effect.zehrend if rows is ManeuverCrit.ALL_ROWS else None
        self.stage = _EFFECTS_DONE
        self.ti += 1
        return hit_effects(
            c, a, t, self.mode, self.index, qs, extra, direct, crit_cond, crit_zehrend
        )

    def _after_effects(self, c: Combat, a: FighterState, value: Any) -> Decision | Frame | Return:
        return self._next_target(c, a)

    def _done(self, c: Combat, a: FighterState, value: Any) -> Decision | Frame | Return:
        return DONE


_BY_STAGE = {
    AttackStage.DECLARE: AttackFrame._declare,
    AttackStage.ROLL: AttackFrame._roll,
    AttackStage.ROLLED: AttackFrame._rolled,
    AttackStage.DEFEND: AttackFrame._defend,
    AttackStage.COMPARED: AttackFrame._compared,
    AttackStage.EFFECTS_DONE: AttackFrame._after_effects,
    AttackStage.AFTER_PATZER: AttackFrame._done,
    AttackStage.PATZER_DEFENDED: AttackFrame._patzer_defended,
}
if set(_BY_STAGE) != set(AttackStage):  # every stage needs its method
    raise ImportError(f"AttackFrame stages without a method: {set(AttackStage) - set(_BY_STAGE)}")
_STAGES = tuple(_BY_STAGE[stage] for stage in AttackStage)
"""The method of each stage, indexed by its value (the frame's dispatch)."""
