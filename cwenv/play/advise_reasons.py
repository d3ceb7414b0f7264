"""The advisor's reasons: one sentence per action, in German and English, built only from
engine facts — the exact hit chance of an attack (A01–A05) and its expected damage (A06),
the cover gained or lost against each enemy by a move (C01–C04) and the hit chances of the
enemies' attacks here and there, the odds of a prompt's choice, and the Mumm (M01–M09) a
choice keeps and what it is kept for.

Nothing here changes the combat: a move is looked at on a copy with the fighter put on the
cell. Game terms stay German in the English text (Mumm, QS, Probenwert, the spends' names).
"""

from __future__ import annotations

from dataclasses import dataclass

from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind, DecisionKind, mumm_price
from cwenv.engine.cover import cover_against
from cwenv.engine.fighter import FighterState
from cwenv.engine.payloads import AttackPrompt, BeforeRoll, DamagePrompt
from cwenv.engine.preview import mean_damage_per_qs, preview_attack
from cwenv.engine.state import Combat
from cwenv.model.types import AttackMode, CoverLevel, MummSpend, WeaponKind
from cwenv.play.prompt_odds import choice_odds, defence_chance, defence_pw
from cwenv.rules.odds import FACES
from cwenv.rules.options import RuleOptions
from cwenv.rules.probe import ProbeResult, hit_qs, resolve_probe

COVER_EN = ("no cover", "half cover", "three-quarter cover", "full cover")
KEPT_FOR = (MummSpend.TREFFER_WEGSTECKEN, MummSpend.TOD_ABWENDEN, MummSpend.ZUSAETZLICHE_REAKTION)
"""What unspent Mumm is kept for: the spends that save a fighter when it is attacked."""
MOVE_KINDS = (ActionKind.MOVE, ActionKind.SCHWIERIG)


@dataclass(frozen=True, slots=True)
class Reason:
    de: str
    en: str

    def __add__(self, other: Reason) -> Reason:
        if not other.de:
            return self
        if not self.de:
            return other
        return Reason(f"{self.de}; {other.de}", f"{self.en}; {other.en}")


NONE = Reason("", "")


def _pct(p: float) -> str:
    return f"{round(p * 100)} %"


def expected_damage(c: Combat, action: Action, expected_qs: float) -> float | None:
    """A weapon attack's expected LP of damage: the expected QS (hit chance included)
    times the mean of one damage die, W10 + the weapon's bonus − the target's armour per
    roll (A06, D01, D02), at least 0 per die when the armour floor is on. Resistances,
    a Volltreffer's bare dice and Zehrend are left out: an estimate, shown with ≈."""
    if action.kind is not ActionKind.ATTACK:
        return None
    return expected_qs * mean_damage_per_qs(c, action)


def attack_reason(c: Combat, action: Action) -> Reason:
    preview = preview_attack(c, action)
    if preview is None:
        return NONE
    t = c.fighters[action.target]
    name = c.game.names[action.target]
    against = f" gegen Abwehr {preview.defence}" if preview.defence is not None else ""
    against_en = f" vs. defence {preview.defence}" if preview.defence is not None else ""
    de = f"Treffer {_pct(preview.hit)} (Probenwert {preview.probenwert}{against})"
    en = f"hit {_pct(preview.hit)} (Probenwert {preview.probenwert}{against_en})"
    dmg = expected_damage(c, action, preview.expected_qs)
    if dmg is not None:
        de += f", erwarteter Schaden ≈ {dmg:.1f} LP".replace(".", ",")
        en += f", expected damage ≈ {dmg:.1f} LP"
    else:
        de += f", erwartete QS {preview.expected_qs:.2f}".replace(".", ",")
        en += f", expected QS {preview.expected_qs:.2f}"
    de += f", {name} bei {t.lp}/{t.spec.lp} LP"
    en += f", {name} at {t.lp}/{t.spec.lp} LP"
    if preview.cover is not CoverLevel.NONE:
        de += f", Ziel in {preview.cover.label.replace('Deckung', 'Deckung')}"
        en += f", target in {COVER_EN[preview.cover]}"
    return Reason(de, en)


def _attacks(c: Combat, a: FighterState, t: FighterState) -> list[tuple[Action, float, float]]:
    """Each weapon attack ``a`` can make on ``t`` where both stand (usable, in range, not
    through full cover), with its hit chance and expected QS."""
    out = []
    d = c.bm.distance(a.pos, t.pos)
    for i, w in enumerate(a.weapons):
        if not a.weapon_usable(i) or w.range_modifier(d) is None:
            continue
        ranged = w.kind is WeaponKind.RANGED
        if cover_against(c, a, t, ranged=ranged).level is CoverLevel.FULL:
            continue
        action = Action(ActionKind.ATTACK, a.idx, t.idx, -1, i)
        preview = preview_attack(c, action)
        if preview is not None:
            out.append((action, preview.hit, preview.expected_qs))
    return out


def _threat(c: Combat, e: FighterState, me: FighterState) -> float:
    """The best hit chance of ``e``'s weapon attacks on ``me`` (0: none can be made)."""
    return max((hit for _, hit, _ in _attacks(c, e, me)), default=0.0)


def _enemies(c: Combat, me: FighterState) -> list[FighterState]:
    return [e for e in c.enemies_of(me) if not e.down and not e.dead]


def move_reason(c: Combat, action: Action) -> Reason:
    """Cover against each enemy and each enemy's hit chance, here and on the cell; the
    best attack from there while the Handlung is still to come."""
    me = c.fighters[action.actor]
    there = c.clone()
    moved = there.fighters[me.idx]
    there.move_fighter(moved, action.cell)
    names = c.game.names
    de: list[str] = []
    en: list[str] = []
    for e in _enemies(c, me):
        twin = there.fighters[e.idx]
        ranged = any(w.kind is WeaponKind.RANGED for w in e.weapons)
        now = cover_against(c, e, me, ranged=ranged).level
        then = cover_against(there, twin, moved, ranged=ranged).level
        hit_now, hit_then = _threat(c, e, me), _threat(there, twin, moved)
        parts_de, parts_en = [], []
        if then != now:
            gained = then > now
            parts_de.append(f"{now.label} → {then.label}")
            parts_en.append(
                f"{COVER_EN[now]} → {COVER_EN[then]} ({'gained' if gained else 'lost'})"
            )
        if round(hit_now * 100) != round(hit_then * 100):
            parts_de.append(f"trifft hier {_pct(hit_now)}, dort {_pct(hit_then)}")
            parts_en.append(f"hits {_pct(hit_now)} here, {_pct(hit_then)} there")
        if parts_de:
            de.append(f"gegen {names[e.idx]}: {', '.join(parts_de)}")
            en.append(f"against {names[e.idx]}: {', '.join(parts_en)}")
    reason = Reason("; ".join(de), "; ".join(en))
    if any(a.kind in HANDLUNG_KINDS for a in c.legal_actions()):  # the Handlung is to come
        reason = reason + _best_shot_from(there, moved)
    if not reason.de:
        reason = Reason("keine Änderung an Deckung und Bedrohung", "no change in cover or threat")
    return reason


def _best_shot_from(c: Combat, me: FighterState) -> Reason:
    """The weapon attack with the most expected damage from where ``me`` stands in ``c``."""
    best: tuple[float, Action, float] | None = None
    for t in _enemies(c, me):
        for a, hit, qs in _attacks(c, me, t):
            dmg = expected_damage(c, a, qs) or 0.0
            if best is None or dmg > best[0]:
                best = (dmg, a, hit)
    if best is None:
        return Reason("von dort kein Angriff", "no attack from there")
    dmg, a, hit = best
    who, weapon = c.game.names[a.target], me.weapons[a.weapon].name
    return Reason(
        f"von dort {weapon} auf {who}: Treffer {_pct(hit)}, ≈ {dmg:.1f} LP".replace(".", ","),
        f"from there {weapon} on {who}: hit {_pct(hit)}, ≈ {dmg:.1f} LP",
    )


def mumm_reason(c: Combat, action: Action) -> Reason:
    """What a choice that spends no Mumm, where a spend was on offer, keeps it for."""
    d = c.decision
    me = c.fighters[action.actor]
    if d is None or me.mumm <= 0 or mumm_price(action) > 0:
        return NONE
    if not any(mumm_price(a) > 0 for a in c.legal_actions()):
        return NONE
    uses = [s for s in KEPT_FOR if s.cost <= me.mumm]
    if not uses:
        return NONE
    names = ", ".join(s.label for s in uses)
    return Reason(f"Mumm {me.mumm} bleibt für {names}", f"Mumm {me.mumm} kept for {names}")


def spend_reason(c: Combat, action: Action) -> Reason:
    price = mumm_price(action)
    if price <= 0:
        return NONE
    me = c.fighters[action.actor]
    return Reason(
        f"kostet {price} Mumm (bleiben {me.mumm - price})",
        f"costs {price} Mumm ({me.mumm - price} left)",
    )


def reason(c: Combat, action: Action) -> Reason:
    """Why ``action`` (at ``c``'s pending decision) looks as it does, from engine facts."""
    d = c.decision
    kind = action.kind
    if kind in (ActionKind.ATTACK, ActionKind.MANEUVER, ActionKind.HACK):
        out = attack_reason(c, action)
    elif kind in MOVE_KINDS and action.cell >= 0:
        out = move_reason(c, action)
    elif d is not None and d.kind is not DecisionKind.TURN:
        out = prompt_reason(c, action)
    elif kind is ActionKind.END_TURN:
        me = c.fighters[action.actor]
        threats = [
            f"{c.game.names[e.idx]} {_pct(h)}"
            for e in _enemies(c, me)
            if (h := _threat(c, e, me)) > 0
        ]
        out = (
            Reason("hier treffen: " + ", ".join(threats), "hits here: " + ", ".join(threats))
            if threats
            else Reason("hier trifft kein Gegner", "no enemy hits here")
        )
    else:
        out = NONE
    return out + spend_reason(c, action) + mumm_reason(c, action)


def prompt_reason(c: Combat, action: Action) -> Reason:
    """A prompt's choice: a defence's exact chance against the rolled attack and the damage
    the roll brings, Mumm before a roll, halving damage; else the menu's odds."""
    d = c.decision
    about = d.payload if d is not None else None
    kind = action.kind
    me = c.fighters[action.actor]
    roll = about.attack.roll if isinstance(about, AttackPrompt) else None
    if isinstance(about, AttackPrompt) and roll is not None:
        ref = about.attack
        qs = roll.qs + ref.aim_qs
        dmg = None
        if ref.mode is AttackMode.WEAPON:
            hit = Action(ActionKind.ATTACK, ref.attacker, ref.target, -1, ref.index)
            dmg = expected_damage(c, hit, float(qs))
        loss_de = f" ≈ {dmg:.1f} LP".replace(".", ",") if dmg is not None else ""
        loss_en = f" ≈ {dmg:.1f} LP" if dmg is not None else ""
        if kind is ActionKind.DEFEND:
            pw = defence_pw(c, action.actor, action.skill)
            p = float(defence_chance(roll, pw, c.options))
            after = defended_qs(roll, pw, c.options) + (1 - p) * ref.aim_qs
            left = max(me.reactions - (0 if action.mumm else 1), 0)
            dmg_de = dmg_en = ""
            if dmg is not None and qs:
                then = dmg * after / qs
                dmg_de = f" (≈ {dmg:.1f} → {then:.1f} LP)".replace(".", ",")
                dmg_en = f" (≈ {dmg:.1f} → {then:.1f} LP)"
            return Reason(
                f"Probenwert {pw} wehrt den Wurf {roll.total} zu {_pct(p)} ab; erwartete QS "
                f"{qs} → {after:.2f}{dmg_de}; Reaktionen danach {left}".replace(".", ","),
                f"Probenwert {pw} stops the roll {roll.total} {_pct(p)} of the time; expected "
                f"QS {qs} → {after:.2f}{dmg_en}; reactions left {left}",
            )
        if kind is ActionKind.NO_DEFENCE:
            return Reason(
                f"Treffer sicher mit QS {qs}{loss_de}; Reaktionen bleiben {me.reactions}",
                f"a sure hit with QS {qs}{loss_en}; reactions kept {me.reactions}",
            )
    if isinstance(about, BeforeRoll) and kind in (ActionKind.PRE_NONE, ActionKind.PRE_IMPROVE):
        odds = choice_odds(c, action)  # 'Treffer 52 %' or 'Treffer 52 % → 64 %'
        en = (
            odds.replace("Treffer", "hit").replace("Abwehr", "defence").replace("Erfolg", "success")
        )
        return Reason(odds, en)
    if isinstance(about, DamagePrompt):
        lost = about.total // 2 if kind is ActionKind.HALVE_DAMAGE else about.total
        return Reason(
            f"{lost} LP Schaden, LP {me.lp} → {me.lp - lost}",
            f"{lost} LP of damage, LP {me.lp} → {me.lp - lost}",
        )
    odds = choice_odds(c, action)
    return Reason(odds, odds) if odds else NONE  # the menu's exact odds


def defended_qs(attack: ProbeResult, probenwert: int, options: RuleOptions) -> float:
    """The attack's expected QS after a defence with ``probenwert`` (all 100 rolls): a
    failed defence leaves the roll's QS, a successful one that loses the contest the
    difference's (A04, A05, P07, X27), one that wins stops it."""
    total = 0
    for a in FACES:
        for b in FACES:
            total += hit_qs(attack, resolve_probe(probenwert, a, b, options), options) or 0
    return total / 100
