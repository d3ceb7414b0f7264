"""The odds behind every prompt's choices, for the menu: a defence's chance against the
attack roll it answers, what Niederwerfen does to the hit chance, the new chance after
Probe verbessern, the reroll's chance, both results of a reroll.

Nothing is estimated: probabilities come from the exact enumeration of
:mod:`cwenv.rules.odds` and :func:`cwenv.engine.preview.preview_attack`, or from the
rules' own :func:`~cwenv.rules.probe.resolve_probe` and :func:`~cwenv.rules.probe.contest`
over all 100 rolls; Probenwerte are the engine's :func:`~cwenv.engine.checks.check_parts`.
"""

from __future__ import annotations

from fractions import Fraction

from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.checks import check_parts
from cwenv.engine.conditions import gain_condition, pay_reaction
from cwenv.engine.events import ReactionKind
from cwenv.engine.payloads import (
    AfterRoll,
    AttackPrompt,
    AttackRef,
    BeforeRoll,
    CheckInfo,
    CheckPurpose,
    DamagePrompt,
    FallPrompt,
    KeepPrompt,
)
from cwenv.engine.preview import preview_attack
from cwenv.engine.state import Combat
from cwenv.model.types import AttackMode, CheckValue, Condition
from cwenv.rules.odds import FACES, attack_odds, probe_odds
from cwenv.rules.options import RuleOptions
from cwenv.rules.probe import ProbeResult, forced_volltreffer, hit_qs, resolve_probe

_ATTACK_KIND = {
    AttackMode.WEAPON: ActionKind.ATTACK,
    AttackMode.MANEUVER: ActionKind.MANEUVER,
    AttackMode.HACK: ActionKind.HACK,
    AttackMode.BLOCKADE: ActionKind.BLOCKADE_ATTACK,
}


_DAMAGE_CHOICES = (ActionKind.HALVE_DAMAGE, ActionKind.TAKE_DAMAGE)


def pct(p: float | Fraction) -> str:
    return f"{round(float(p) * 100)} %"


def defended(attack: ProbeResult, defence: ProbeResult, options: RuleOptions) -> bool:
    """A04: the defence stops the attack (a failed defence never does)."""
    return hit_qs(attack, defence, options) is None


def defence_chance(attack: ProbeResult, probenwert: int, options: RuleOptions) -> Fraction:
    """The chance a defence with ``probenwert`` stops the rolled ``attack`` (100 rolls)."""
    wins = sum(
        defended(attack, resolve_probe(probenwert, a, b, options), options)
        for a in FACES
        for b in FACES
    )
    return Fraction(wins, 100)


def roll_text(r: ProbeResult) -> str:
    """``7+5 = 12: Erfolg, QS 3``."""
    if r.success:
        outcome = f"{'Volltreffer' if r.volltreffer else 'Erfolg'}, QS {r.qs}"
    else:
        outcome = "Patzer" if r.patzer else "misslungen"
    return f"{r.d1}+{r.d2} = {r.total}: {outcome}"


def _attack_action(ref: AttackRef) -> Action:
    return Action(_ATTACK_KIND[ref.mode], ref.attacker, ref.target, arg=ref.index)


def defence_pw(c: Combat, defender: int, value: CheckValue) -> int:
    parts = check_parts(c, c.fighters[defender], value, reaction=True, defence=True)
    return sum(v for _, v in parts)


def _attack_defence(c: Combat, ref: AttackRef) -> int | None:
    """The target's best defence value against this attack (None: it cannot defend)."""
    preview = preview_attack(c, _attack_action(ref))
    return preview.defence if preview is not None else None


def _chance(c: Combat, check: CheckInfo, probenwert: int) -> tuple[str, Fraction]:
    """What a check with ``probenwert`` achieves, and how likely: a hit for an attack
    roll (against the target's best defence), stopping the attack for a defence, else
    success."""
    ref = check.attack
    if check.purpose is CheckPurpose.ATTACK and ref is not None:
        return "Treffer", attack_odds(probenwert, _attack_defence(c, ref), c.options).hit
    if check.purpose is CheckPurpose.DEFENCE and ref is not None and ref.roll is not None:
        return "Abwehr", defence_chance(ref.roll, probenwert, c.options)
    return "Erfolg", probe_odds(probenwert, c.options).success


def _result_chance(c: Combat, check: CheckInfo, r: ProbeResult) -> str:
    """What a rolled result means for the attack it belongs to."""
    ref = check.attack
    if check.purpose is CheckPurpose.ATTACK and ref is not None and r.success:
        dpw = _attack_defence(c, ref)
        if dpw is None or (r.volltreffer and not c.options.volltreffer_defendable):
            return "; trifft sicher"
        return f"; Treffer {pct(1 - defence_chance(r, dpw, c.options))}"
    if check.purpose is CheckPurpose.DEFENCE and ref is not None and ref.roll is not None:
        return "; wehrt ab" if defended(ref.roll, r, c.options) else "; wehrt nicht ab"
    return ""


def _forced(c: Combat, check: CheckInfo, probenwert: int) -> str:
    """M09: what the automatic Volltreffer achieves."""
    ref = check.attack
    best = forced_volltreffer(probenwert, c.options)
    if check.purpose is CheckPurpose.ATTACK and ref is not None:
        dpw = _attack_defence(c, ref)
        if dpw is None or not c.options.volltreffer_defendable:
            return "Treffer sicher"
        return f"Treffer {pct(1 - defence_chance(best, dpw, c.options))}"
    if check.purpose is CheckPurpose.DEFENCE and ref is not None and ref.roll is not None:
        return "Abwehr sicher" if defended(ref.roll, best, c.options) else "wehrt nicht ab"
    return "Erfolg sicher"


def _prone_hit(c: Combat, ref: AttackRef, mumm: int) -> float | None:
    """The hit chance if the target drops prone first: the engine's own steps of R06 on a
    copy (cwenv.engine.attack, AttackFrame._roll), then the attack previewed again."""
    twin = c.clone()
    t = twin.fighters[ref.target]
    pay_reaction(twin, t, mumm, ReactionKind.DROP_PRONE)
    gain_condition(twin, t, Condition.NIEDERGEWORFEN)
    t.prone_bonus = True
    preview = preview_attack(twin, _attack_action(ref))
    return preview.hit if preview is not None else None


def choice_odds(c: Combat, action: Action) -> str:
    """The odds to show after a prompt choice's label (empty where there are none)."""
    d = c.decision
    about = d.payload if d is not None else None
    kind = action.kind
    if isinstance(about, AttackPrompt):
        ref = about.attack
        if kind is ActionKind.DEFEND and ref.roll is not None:
            pw = defence_pw(c, action.actor, action.skill)
            chance = defence_chance(ref.roll, pw, c.options)
            return f"Probenwert {pw}: wehrt den Wurf {ref.roll.total} zu {pct(chance)} ab"
        if kind is ActionKind.NO_DEFENCE and ref.roll is not None:
            return f"Treffer sicher, QS {ref.roll.qs + ref.aim_qs}"
        if kind in (ActionKind.STAY_UP, ActionKind.DROP_PRONE):
            if kind is ActionKind.STAY_UP:
                preview = preview_attack(c, _attack_action(ref))
                hit = preview.hit if preview is not None else None
            else:
                hit = _prone_hit(c, ref, action.mumm)
            return f"Treffer {pct(hit)}" if hit is not None else ""
    if isinstance(about, BeforeRoll):
        what, now = _chance(c, about.check, about.probenwert)
        if kind is ActionKind.PRE_NONE:
            return f"{what} {pct(now)}"
        if kind in (ActionKind.PRE_IMPROVE, ActionKind.PRE_ACTIONBONUS):
            _, better = _chance(c, about.check, about.probenwert + 2)
            return f"{what} {pct(now)} → {pct(better)}"
        if kind is ActionKind.PRE_GROSSER_WURF:
            return _forced(c, about.check, about.probenwert)
    if isinstance(about, AfterRoll):
        r = about.roll
        if kind is ActionKind.POST_ACCEPT:
            return roll_text(r) + _result_chance(c, about.check, r)
        if kind is ActionKind.POST_REROLL:
            what, again = _chance(c, about.check, r.probenwert)
            return f"jetzt {roll_text(r)}; neuer Wurf: {what} {pct(again)}, dann wählen"
    if isinstance(about, KeepPrompt) and kind in (ActionKind.KEEP_FIRST, ActionKind.KEEP_SECOND):
        r = about.first if kind is ActionKind.KEEP_FIRST else about.second
        return roll_text(r) + _result_chance(c, about.check, r)
    if isinstance(about, DamagePrompt) and kind in _DAMAGE_CHOICES:
        f = c.fighters[action.actor]
        # M06 'Treffer wegstecken' halves the damage, rounded down (cwenv.engine.damage).
        lost = about.total // 2 if kind is ActionKind.HALVE_DAMAGE else about.total
        return f"{lost} LP Schaden, LP {f.lp} → {f.lp - lost}"
    if isinstance(about, FallPrompt) and kind is ActionKind.CATCH_FALL:
        f = c.fighters[action.actor]
        parts = check_parts(c, f, CheckValue.INFILTRATION, reaction=True)
        pw = sum(v for _, v in parts)
        return f"{about.metres} m; Probenwert {pw}: Erfolg {pct(probe_odds(pw, c.options).success)}"
    if isinstance(about, FallPrompt) and kind is ActionKind.NO_CATCH:
        return f"{about.metres} m"
    return ""
