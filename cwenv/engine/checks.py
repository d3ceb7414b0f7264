"""Rolling a Probe inside a combat, with every Mumm spend the rules allow around it.

:class:`CheckFrame` is the one place a fighter's check is rolled: it offers M02/M09
before the roll (PRE_CHECK), rolls 2W10 from the combat's dice, offers M03/M01 after it
(POST_CHECK, KEEP), records a :class:`~cwenv.engine.events.CheckRolled` event with the
Probenwert broken down by source, and returns the standing :class:`ProbeResult`.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, Decision, DecisionKind
from cwenv.engine.frames import Frame, Return
from cwenv.engine.helping import HELPED, UNASKED, help_step
from cwenv.engine.parts import (
    ACTIONBONUS,
    BEHINDERUNG,
    CONDITION_SOURCES,
    FOCUS,
    MUMM,
    VALUE_SOURCES,
    Part,
    PartKind,
    Parts,
    has_kind,
)
from cwenv.engine.payloads import (
    PLAIN_CHECKS,
    AfterRoll,
    BeforeRoll,
    CheckInfo,
    CheckPurpose,
    KeepPrompt,
)
from cwenv.engine.tables.checks import CHECK_PURPOSES
from cwenv.engine.tables.conditions import CONDITION_PENALTY, MALUS_ORDER, CheckSort
from cwenv.invariants import present
from cwenv.model.types import CheckValue, Condition, MummSpend, Side
from cwenv.rules.options import ActionBonusMode, BehinderungScope
from cwenv.rules.probe import ProbeResult, forced_volltreffer, resolve_probe

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat
    from cwenv.engine.view import CombatView

ACTIONBONUS_VALUE = 2
"""P03: the Tycoon may grant +2 (never more) for a spectacular action."""


def mumm_problem(c: CombatView, f: FighterState, cost: int) -> str | None:
    """Why ``f`` may not pay ``cost`` Mumm now (M01–M09, M11, X10, X11), None if it may."""
    if f.dead:
        return "the fighter is dead"
    if f.mumm < cost:
        return "not enough Mumm"
    opts = c.options
    if f.side is not Side.RUNNER and not opts.nsc_mumm:
        return "NSCs spend no Mumm (nsc_mumm is off)"
    if f.conditions >> Condition.ENTMUTIGT & 1:
        if not opts.mumm_verbrennen:
            return "entmutigt: no Mumm may be spent (M11)"
        if f.mumm_max < cost:
            return "entmutigt: burning Mumm needs that much maximum Mumm (M11, X10)"
    return None


def can_spend_mumm(c: Combat, f: FighterState, cost: int) -> bool:
    """Whether ``f`` may pay ``cost`` Mumm now (M01–M09, M11, X10, X11)."""
    return mumm_problem(c, f, cost) is None


def spend_mumm(c: Combat, f: FighterState, spend: MummSpend) -> None:
    """Pay for a spend; an entmutigt fighter under X10 also burns its maximum."""
    cost = spend.cost
    f.mumm -= cost
    if f.conditions >> Condition.ENTMUTIGT & 1:
        f.mumm_max -= cost
    c.count(f"mumm:{spend.name}")
    c.emit(ev.MummSpent(f.idx, spend, cost, f.mumm))


def check_parts(
    c: CombatView,
    f: FighterState,
    check: CheckValue,
    *,
    attack: bool = False,
    reaction: bool = False,
    defence: bool = False,
) -> list[Part]:
    """The Probenwert's parts: the value, then every condition and gear modifier.

    Each condition's malus is its entry's in :data:`cwenv.engine.tables.conditions.CONDITIONS`
    (Angeschlagen −2 on körperliche checks, Z01, X04, X39; Verwirrt on geistige and hacking
    checks, Z07; Entmutigt on attacks, Z04; Eingeschränkt on reactions, Z03; Niedergeworfen
    on defences, Z05); Behinderung on attacks (A01, X42).
    """
    opts = c.options
    spec = f.spec
    parts: list[Part] = [(VALUE_SOURCES[check], spec.value(check))]
    conds = f.conditions
    mental = check in opts.mental_checks
    if conds:
        sort = CheckSort(check, mental, attack, reaction, defence)
        for rule in MALUS_ORDER:
            if conds >> rule.condition & 1 and rule.malus is not None and rule.malus(opts, sort):
                parts.append((CONDITION_SOURCES[rule.condition], CONDITION_PENALTY))
    if spec.behinderung and (
        attack or (not mental and opts.behinderung_scope is BehinderungScope.ALL_PHYSICAL)
    ):
        parts.append((BEHINDERUNG, -spec.behinderung))
    if f.focus_bonus:
        parts.append((FOCUS, f.focus_bonus))  # spent when the check is rolled
    return parts


class CheckStage(IntEnum):
    """Where a :class:`CheckFrame` stands."""

    BEFORE_ROLL = 0  # M02, M09, P03 offered
    ROLL = 1  # 2W10
    AFTER_ROLL = 2  # M03, M01 offered
    KEEP = 3  # M03: which of the two results stands


_BEFORE_ROLL, _ROLL, _AFTER_ROLL, _KEEP = CheckStage


class CheckFrame(Frame):
    """Roll one Probe for ``fighter`` and return the result that stands (P01–P06, M01–M03,
    M09). ``parts`` are the Probenwert's summands by source; ``purpose`` names the check in
    the narration, ``about`` says what it is for (the Mumm prompts' payload)."""

    __slots__ = (
        "about",
        "fighter",
        "first",
        "helped",
        "improved",
        "own",
        "parts",
        "purpose",
        "rerolls",
        "result",
    )

    def __init__(
        self, fighter: int, parts: Parts, purpose: str, about: CheckInfo, own: int = 1
    ) -> None:
        super().__init__()
        self.fighter = fighter
        self.parts = parts
        self.purpose = purpose
        self.about = about
        self.own = own  # leading parts from the roller itself (check_parts): its conditions
        self.improved = 0
        self.helped = UNASKED  # P08: the announced helpers (cwenv.engine.helping)
        self.rerolls = 0
        self.result: ProbeResult | None = None
        self.first: ProbeResult | None = None

    def describe(self) -> str:
        return self.purpose

    def pre_problem(self, c: Combat, f: FighterState, kind: ActionKind) -> str | None:
        """Why the pre-roll choice ``kind`` is not open (P03, M02, M09), None if it is."""
        if kind is ActionKind.PRE_ACTIONBONUS:
            return self.actionbonus_problem(c, f)
        if kind is ActionKind.PRE_IMPROVE:
            per_check = c.options.mumm_improve_per_check
            if self.improved >= per_check:
                return f"M02 at most {per_check} time(s) per check (mumm_improve_per_check)"
            return mumm_problem(c, f, MummSpend.PROBE_VERBESSERN.cost)
        if kind is ActionKind.PRE_GROSSER_WURF:
            if self.improved and not c.options.mumm_improve_then_grosser_wurf:
                return "M09 cannot follow M02 on the same check (mumm_improve_then_grosser_wurf)"
            return mumm_problem(c, f, MummSpend.GROSSER_WURF.cost)
        return None

    def _pre_choices(self, c: Combat, f: FighterState) -> tuple[Action, ...]:
        from cwenv.engine.prompts import check_spends

        return check_spends(c, self, f, after=False)

    def reprompt(self, c: Combat, decision: Decision, shaken: Condition | None) -> Decision | None:
        """After an M08 shake at this check's prompt: before the roll the shaken
        condition's malus leaves the Probenwert (only the roller's own part: a prone
        target's R06 malus is no condition of the roller); before or after it the frame asks
        again."""
        if self.stage == _BEFORE_ROLL:
            own = self.parts[: self.own]
            for i, (source, _) in enumerate(own):
                if i and source.kind is PartKind.CONDITION and source.ref == shaken:
                    self.parts = self.parts[:i] + self.parts[i + 1 :]
                    self.own -= 1
                    break
            return None
        if self.stage == _AFTER_ROLL:
            return None
        return super().reprompt(c, decision, shaken)

    def post_problem(self, c: Combat, f: FighterState, kind: ActionKind) -> str | None:
        """Why the after-roll choice ``kind`` is not open (M01, M03), None if it is."""
        r = present(self.result, "the roll (set before stage 2)")
        opts = c.options
        use = CHECK_PURPOSES[self.about.purpose]  # X53: what the check decides
        if kind is ActionKind.POST_AVERT:
            if not r.patzer:
                return "only a Patzer can be averted (M01)"
            if not (opts.futile_spends or use.patzer(opts)):
                return "this Patzer is a plain failure (P06, X53 futile_spends)"
            if self.rerolls and not opts.mumm_avert_after_reroll:
                return "no M01 after a reroll (mumm_avert_after_reroll is off)"
            return mumm_problem(c, f, MummSpend.PATZER_ABWENDEN.cost)
        if kind is ActionKind.POST_REROLL:
            if r.patzer:
                return "a Patzer cannot be rerolled (M03); M01 averts it"
            if r.volltreffer:  # rerolling it is a no-op
                return "a Volltreffer cannot be bettered"
            if r.success and not (opts.futile_spends or use.graded):
                return "only success counts for this check (X53 futile_spends)"
            if self.rerolls >= opts.mumm_rerolls_per_check:
                return "M03 as often as the rules allow on this check (mumm_rerolls_per_check)"
            return mumm_problem(c, f, MummSpend.PROBE_WIEDERHOLEN.cost)
        return None

    def _post_choices(self, c: Combat, f: FighterState) -> tuple[Action, ...]:
        from cwenv.engine.prompts import check_spends

        return check_spends(c, self, f, after=True)

    def actionbonus_problem(self, c: Combat, f: FighterState) -> str | None:
        """P03, X14, X41: with declared Actionboni a Runner (an NSC only under X41) may claim
        +2 on one check per round, before the roll, once per check."""
        opts = c.options
        if opts.actionbonus is not ActionBonusMode.DECLARED_ONCE_PER_ROUND:
            return "Actionboni are not declared by the player (X14 actionbonus)"
        if f.actionbonus_used:
            return "the Actionbonus was claimed this round already (X14)"
        if has_kind(self.parts, PartKind.ACTIONBONUS):
            return "this check has the Actionbonus already"
        if f.side is not Side.RUNNER and not opts.nsc_actionbonus:
            return "NSCs claim no Actionbonus (X41 nsc_actionbonus)"
        return None

    def _roll(self, c: Combat, forced: bool) -> ProbeResult:
        f = c.fighters[self.fighter]
        parts = self.parts
        if self.improved:
            parts = (*parts, (MUMM, 2 * self.improved))
        probenwert = sum(v for _, v in parts)
        if f.focus_bonus and has_kind(parts, PartKind.FOCUS):
            f.focus_bonus = 0  # a cyberware focus (H09) lasts for one check
        if forced:
            result = forced_volltreffer(probenwert, c.options)
        else:
            result = resolve_probe(probenwert, c.d10(), c.d10(), c.options)
        c.emit(
            ev.CheckRolled(
                f.idx,
                self.purpose,
                parts,
                probenwert,
                result.d1,
                result.d2,
                result.success,
                result.qs,
                result.volltreffer,
                result.patzer,
                forced,
            )
        )
        return result

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        if self.stage == _BEFORE_ROLL and self.helped != HELPED:  # P08: helpers roll first
            helpers = help_step(c, self, value)
            if helpers is not None:
                return helpers
            value = None
        if self.stage == _BEFORE_ROLL:  # before the roll: M02, M09
            if value is not None:
                if value.kind is ActionKind.PRE_ACTIONBONUS:
                    f.actionbonus_used = True
                    self.parts = (*self.parts, (ACTIONBONUS, ACTIONBONUS_VALUE))
                    c.count("actionbonus")
                elif value.kind is ActionKind.PRE_IMPROVE:
                    spend_mumm(c, f, MummSpend.PROBE_VERBESSERN)
                    self.improved += 1
                elif value.kind is ActionKind.PRE_GROSSER_WURF:
                    spend_mumm(c, f, MummSpend.GROSSER_WURF)
                    self.result = self._roll(c, forced=True)
                    return Return(self.result)
                else:
                    self.stage = _ROLL
            if self.stage == _BEFORE_ROLL:
                choices = self._pre_choices(c, f)
                if choices:
                    pw = sum(v for _, v in self.parts) + 2 * self.improved
                    return Decision(
                        DecisionKind.PRE_CHECK, f.idx, choices, BeforeRoll(self.about, pw)
                    )
            self.stage = _ROLL
            value = None
        if self.stage == _ROLL:  # roll
            self.result = self._roll(c, forced=False)
            self.stage = _AFTER_ROLL
            value = None
        if self.stage == _AFTER_ROLL:  # after the roll: M03, M01
            if value is not None:
                if value.kind is ActionKind.POST_AVERT:
                    spend_mumm(c, f, MummSpend.PATZER_ABWENDEN)
                    r = present(self.result, "the roll")
                    self.result = ProbeResult(r.probenwert, r.d1, r.d2, False, 0, False, False)
                    return Return(self.result)
                if value.kind is ActionKind.POST_REROLL:
                    spend_mumm(c, f, MummSpend.PROBE_WIEDERHOLEN)
                    self.rerolls += 1
                    self.first = self.result
                    self.result = self._roll(c, forced=False)
                    self.stage = _KEEP
                    return self._keep_decision(c, f)
                return Return(self.result)
            choices = self._post_choices(c, f)
            if choices:
                return self._post_decision(f, choices)
            return Return(self.result)
        # stage 3: M03 — 'Du entscheidest anschliessend, welches der beiden Ergebnisse gilt'
        first = present(self.first, "the first roll of M03")
        kept = present(self.result, "the reroll of M03")
        if value.kind is ActionKind.KEEP_FIRST:
            kept = self.result = first
        c.emit(ev.ResultKept(f.idx, kept.total, value.kind is ActionKind.KEEP_SECOND))
        self.stage = _AFTER_ROLL
        choices = self._post_choices(c, f)
        if choices:
            return self._post_decision(f, choices)
        return Return(self.result)

    def _post_decision(self, f: FighterState, choices: tuple[Action, ...]) -> Decision:
        roll = present(self.result, "the roll (set before stage 2)")
        return Decision(DecisionKind.POST_CHECK, f.idx, choices, AfterRoll(self.about, roll))

    def _keep_decision(self, c: Combat, f: FighterState) -> Decision:
        from cwenv.engine.prompts import keep_choices

        return Decision(
            DecisionKind.KEEP,
            f.idx,
            keep_choices(c, self),
            KeepPrompt(
                self.about,
                present(self.first, "the first roll of M03"),
                present(self.result, "the reroll of M03"),
            ),
        )


def check(
    c: Combat,
    f: FighterState,
    value: CheckValue,
    purpose: str,
    about: CheckInfo | CheckPurpose,
    extra: Parts = (),
    **flags: bool,
) -> CheckFrame:
    """A CheckFrame for ``value`` with condition modifiers and ``extra`` parts; ``purpose``
    names it in the narration, ``about`` says what it is for (a bare purpose: a check that
    concerns no attack)."""
    parts = check_parts(c, f, value, **flags)
    own = len(parts)
    parts.extend(extra)
    info = PLAIN_CHECKS[about] if isinstance(about, CheckPurpose) else about
    return CheckFrame(f.idx, tuple(parts), purpose, info, own)
