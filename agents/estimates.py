"""Exact odds for agents: attack values, hit and damage distributions, defences.

Everything is derived from the engine's rules: Probenwerte from ``check_parts`` (via
:class:`~agents.board.Board`), hit and QS odds from ``attack_odds`` (all 10,000 pairs of
attack and defence rolls, A01–A05), damage by exact convolution of the W10 per QS with the
bonus and armour per roll (A06, X08), brechend/direkt (D01, D02) and resistances (D04, X32).
Only the Volltreffer table's extra dice (A07) enter as their exact expectation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from agents.board import Board
from agents.exact import keep_alive, odds, success_chance
from cwenv.engine.attack_plan import PRONE_TARGET_MALUS, defence_values, plan_attack
from cwenv.engine.damage import armour_after_mode
from cwenv.engine.fighter import FighterState
from cwenv.engine.hits import damage_bonus
from cwenv.model.specs import HackSpec, WeaponSpec
from cwenv.model.types import ArmourMode, AttackMode, CheckValue, CoverLevel, Maneuver, WeaponKind
from cwenv.rules.options import AreaCover, Rounding, RuleOptions
from cwenv.rules.tables import volltreffer_effect

FACES = range(1, 11)


@dataclass(frozen=True, slots=True)
class Estimate:
    """One attack's exact prospects: P(hit), expected LP damage, P(the target drops)."""

    hit: float
    damage: float
    ko: float

    def value(self, ko_bonus: float) -> float:
        """Expected damage plus ``ko_bonus`` LP for each expected knock-out."""
        return self.damage + ko_bonus * self.ko


# -- damage -------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def _damage_sums(dice: int, offset: int, floor: bool) -> tuple[tuple[int, float], ...]:
    """The distribution of ``dice`` W10 each + ``offset`` (bonus − armour per roll, A06,
    X08; at least 0 each when ``floor``): (sum, probability) in the convolution's order.
    Shared by every target LP, flat bonus and resistance."""
    faces = [r + offset for r in FACES]
    if floor:
        faces = [max(v, 0) for v in faces]
    dist: dict[int, float] = {0: 1.0}
    for _ in range(max(dice, 0)):
        nxt: dict[int, float] = {}
        for s, p in dist.items():
            for v in faces:
                nxt[s + v] = nxt.get(s + v, 0.0) + p / 10
        dist = nxt
    return tuple(dist.items())


@lru_cache(maxsize=16384)
def damage_stats(
    dice: int, bonus: int, armour: int, floor: bool, flat: int, factor: int, up: bool, lp: int
) -> tuple[float, float]:
    """Mean damage and P(damage >= lp) of ``dice`` W10 + ``bonus`` each, armour per roll
    (A06, X08), then ``flat``, then a resistance ``factor`` (0 none, 1 immune, 2 resistant,
    3 vulnerable; D04, X32, rounded up when ``up``)."""
    mean = 0.0
    ko = 0.0
    for s, p in _damage_sums(dice, bonus - armour, floor):
        total = max(s + flat, 0)
        if factor == 1:
            total = 0
        elif factor == 2:
            total = (total + 1) // 2 if up else total // 2
        elif factor == 3:
            total = (total * 3 + 1) // 2 if up else total * 3 // 2
        mean += p * total
        if total >= lp:
            ko += p
    return mean, ko


@lru_cache(maxsize=64)
def crit_extra_dice(qs: int) -> float:
    """A07: expected extra damage dice of a Volltreffer with QS ``qs`` (2W10 − QS)."""
    return sum(volltreffer_effect(a + b - qs).extra_dice for a in FACES for b in FACES) / 100


def resistance_kind(target: FighterState, forms: frozenset[str]) -> int:
    spec = target.spec
    if forms & spec.immunities:
        return 1
    resist = bool(forms & spec.resistances)
    vuln = bool(forms & spec.vulnerabilities)
    if resist == vuln:
        return 0
    return 2 if resist else 3


@dataclass(frozen=True, slots=True)
class DamageProfile:
    """How one attack's QS turn into LP on one target."""

    bonus: int
    armour: int
    floor: bool
    flat: int
    factor: int
    up: bool
    lp: int

    def per_qs(self, qs: int) -> float:
        if qs <= 0:
            return 0.0
        return damage_stats(
            qs, self.bonus, self.armour, self.floor, self.flat, self.factor, self.up, self.lp
        )[0]

    def stats(self, qs: int) -> tuple[float, float]:
        if qs <= 0:
            return 0.0, 0.0
        return damage_stats(
            qs, self.bonus, self.armour, self.floor, self.flat, self.factor, self.up, self.lp
        )


def damage_profile(
    board: Board,
    target: FighterState,
    bonus: int,
    mode: ArmourMode,
    forms: frozenset[str],
    flat: int = 0,
) -> DamageProfile:
    opts = board.options
    armour = armour_after_mode(board, target.spec.armour + target.armour_bonus, mode)
    return DamageProfile(
        bonus,
        armour,
        opts.armour_floor_zero,
        flat,
        resistance_kind(target, forms),
        opts.resistance_rounding is Rounding.UP,
        max(target.lp, 1),
    )


def weapon_profile(board: Board, a: FighterState, t: FighterState, w: WeaponSpec) -> DamageProfile:
    key = (a.idx, t.idx, id(w))  # once per decision (Board.profiles)
    hit = board.profiles.get(key)
    if hit is None:
        bonus = damage_bonus(w, board.options)
        flat = -board.options.entwaffnen_nsc_penalty if a.disarmed else 0
        hit = board.profiles[key] = damage_profile(board, t, bonus, w.armour_mode, w.forms, flat)
    return hit


_ESTIMATES: dict[tuple[int, int, int | None, DamageProfile, int], Estimate] = {}


def estimate(
    options: RuleOptions, pw: int, dpw: int | None, profile: DamageProfile, aim_qs: int = 0
) -> Estimate:
    """Combine the exact hit/QS odds of ``pw`` against ``dpw`` with the exact damage per QS
    (A04–A06); a Volltreffer adds its table's expected extra dice (A07), scaled by the
    share of successful attacks that hit."""
    key = (id(options), pw, dpw, profile, aim_qs)
    hit = _ESTIMATES.get(key)
    if hit is None:
        keep_alive(options)
        hit = _estimate(options, pw, dpw, profile, aim_qs)
        if len(_ESTIMATES) > 200_000:
            _ESTIMATES.clear()
        _ESTIMATES[key] = hit
    return hit


def _estimate(
    options: RuleOptions, pw: int, dpw: int | None, profile: DamageProfile, aim_qs: int
) -> Estimate:
    o = odds(options, pw, dpw)
    damage = 0.0
    ko = 0.0
    for k, p in o.qs.items():
        mean, pko = profile.stats(k + aim_qs)
        damage += p * mean
        ko += p * pko
    hit = o.hit
    if o.volltreffer and hit > 0:
        through = min(1.0, hit / max(success_chance(options, pw), 1e-9))
        top = max(o.qs)
        damage += o.volltreffer * through * crit_extra_dice(top) * profile.per_qs(1)
    return Estimate(hit, damage, ko)


# -- attack values ------------------------------------------------------------------------
def defence_value(
    board: Board, t: FighterState, mode: AttackMode, a: FighterState, index: int
) -> int | None:
    """The defence ``t`` would roll (A02, A03, X21, X22), or None when it cannot react.
    The same for every cell a doctrine scores: kept once per decision."""
    key = (t.idx, mode, a.idx, index)
    memo = board.defences
    if key in memo:
        return memo[key]
    free = mode is AttackMode.MANEUVER and board.options.maneuver_reaction_cost == 0
    value: int | None = None
    if board.can_react(t) or (free and t.standing):
        values = defence_values(board, mode, a, index)
        value = max(board.check_value(t, v, reaction=True, defence=True) for v in values)
    memo[key] = value
    return value


def weapon_attack_value(
    board: Board, a: FighterState, t: FighterState, wi: int, src: int | None = None
) -> tuple[int, int] | None:
    """Probenwert and Zielen QS bonus of a weapon attack, or None when out of reach, out of
    sight or behind full cover (A01, C01–C04, R06, H11, K01, P08).

    Without ``src`` the attack is made from where ``a`` stands and its value is the
    engine's own (``plan_attack``, living cover included); with ``src`` (even ``a``'s own
    cell) it is estimated with terrain cover only, so that all cells compare alike."""
    w = a.weapons[wi]
    pos = a.pos if src is None else src
    dist = board.dist(pos, t.pos)
    rm = w.range_modifier(dist)
    if rm is None:
        return None
    ranged = w.kind is WeaponKind.RANGED
    if src is None:
        if not ranged and not board.sight(pos, t.pos):
            return None
        plan = plan_attack(board, a, t, AttackMode.WEAPON, wi)
        if plan.cover.level is CoverLevel.FULL:
            return None
        return plan.probenwert, plan.aim_qs
    pw = shot_base(board, a, t, wi)
    aim_qs = 0
    if ranged:
        area = w.area_radius > 0 and board.options.area_cover is AreaCover.ALL_AREA_ATTACKS
        cover = board.terrain_cover_at(pos, t)
        if cover is CoverLevel.FULL:
            return None
        if area:  # C03, X26
            cover = CoverLevel.NONE
        pw += shot_modifier(rm, cover, t.prone_bonus)
        if pos == a.pos:  # X03: Zielen is lost on moving
            aim_pw, aim_qs = aim_kept(board, a, t)
            pw += aim_pw
    elif not board.sight(pos, t.pos):
        return None
    return pw, aim_qs


_PENALTY = tuple(level.penalty for level in CoverLevel)
"""C01's attack modifier per cover level, as a tuple: the enum property costs a call in the
doctrines' per-cell loops."""


def shot_base(board: Board, a: FighterState, t: FighterState, wi: int) -> int:
    """The Probenwert of ``a``'s weapon ``wi`` on ``t`` before range, cover and Zielen — the
    same from every cell: skill and weapon (A01), a melee blow on a prone target (R06, X23),
    a disarmed NSC's malus (K05)."""
    w = a.weapons[wi]
    opts = board.options
    pw = board.check_value(a, CheckValue(w.skill.value), attack=True) + w.attack_modifier
    if w.kind is not WeaponKind.RANGED and t.prone_bonus and opts.niederwerfen_vs_melee:
        pw -= PRONE_TARGET_MALUS
    if a.disarmed:
        pw -= opts.entwaffnen_nsc_penalty
    return pw  # announced help (P08) rolls with the check: unknown before it


def shot_modifier(rm: int, cover: CoverLevel, prone_bonus: bool) -> int:
    """What range and terrain cover add to a shot (A01, C01), with R06's −2 on a prone target
    without cover."""
    if prone_bonus and cover is CoverLevel.NONE:
        return rm - PRONE_TARGET_MALUS
    return rm + _PENALTY[cover]


def aim_kept(board: Board, a: FighterState, t: FighterState) -> tuple[int, int]:
    """Probenwert and QS bonus of ``a``'s Zielen on ``t`` (H11, X03), for a shot from where
    ``a`` stands; (0, 0) without one."""
    if a.aim_target == t.idx and a.aim_stacks:
        opts = board.options
        return opts.zielen_bonus * a.aim_stacks, opts.zielen_qs_bonus * a.aim_stacks
    return 0, 0


def weapon_estimate(
    board: Board,
    a: FighterState,
    t: FighterState,
    wi: int,
    *,
    src: int | None = None,
    pw_delta: int = 0,
    aim: bool = False,
    defended: bool | None = None,
) -> Estimate | None:
    """Exact prospects of ``a`` attacking ``t`` with weapon ``wi`` (None: impossible).

    ``aim`` adds one Zielen more (H11, X03; up to ``zielen_max_stacks``); ``defended`` overrides
    whether ``t`` defends (default: whenever it can pay a reaction, A02)."""
    av = weapon_attack_value(board, a, t, wi, src)
    if av is None:
        return None
    pw, aim_qs = av
    w = a.weapons[wi]
    if aim and w.kind is WeaponKind.RANGED:
        kept = a.aim_target == t.idx and (src is None or src == a.pos)
        stacks = a.aim_stacks if kept else 0
        if stacks < board.options.zielen_max_stacks:  # X03: one Zielen more, where it stacks
            pw += board.options.zielen_bonus
            aim_qs += board.options.zielen_qs_bonus
    if defended is None or defended:
        dpw = defence_value(board, t, AttackMode.WEAPON, a, wi)
    else:
        dpw = None
    return board_estimate(board, a, t, wi, pw + pw_delta, dpw, aim_qs)


def board_estimate(
    board: Board, a: FighterState, t: FighterState, wi: int, pw: int, dpw: int | None, aim_qs: int
) -> Estimate:
    """The estimate of ``a``'s weapon ``wi`` on ``t`` at Probenwert ``pw`` against ``dpw``,
    kept once per decision."""
    key = ("est", a.idx, t.idx, wi, pw, dpw, aim_qs)
    hit = board.estimates.get(key)
    if hit is None:
        prof = weapon_profile(board, a, t, a.weapons[wi])
        hit = estimate(board.options, pw, dpw, prof, aim_qs)
        board.estimates[key] = hit
    return hit


def hack_estimate(
    board: Board, a: FighterState, t: FighterState, hi: int, pw_delta: int = 0
) -> Estimate | None:
    """A hack (H10): Hacking against Firewall (A03, R03), ranged cover (C03)."""
    h: HackSpec = a.spec.hacks[hi]
    if board.dist(a.pos, t.pos) > h.range_m:
        return None
    plan = plan_attack(board, a, t, AttackMode.HACK, hi)
    if plan.cover.level is CoverLevel.FULL:
        return None
    pw = plan.probenwert
    dpw = defence_value(board, t, AttackMode.HACK, a, hi)
    if not h.deals_damage:
        return Estimate(odds(board.options, pw + pw_delta, dpw).hit, 0.0, 0.0)
    prof = damage_profile(board, t, h.bonus, h.armour_mode, h.forms)
    return estimate(board.options, pw + pw_delta, dpw, prof)


def maneuver_chance(
    board: Board, a: FighterState, t: FighterState, m: Maneuver, pw_delta: int = 0
) -> float:
    """P(success) of a Kampfmanöver: its attack value (``plan_attack``: Kampfkunst, K01/K03's
    −2, conditions) against the target's Kampfkunst defence (A03, X22)."""
    pw = plan_attack(board, a, t, AttackMode.MANEUVER, int(m)).probenwert + pw_delta
    dpw = defence_value(board, t, AttackMode.MANEUVER, a, int(m))
    return odds(board.options, pw, dpw).hit


def offense(board: Board, f: FighterState) -> float:
    """What ``f`` threatens per attack: the best expected damage of its usable weapons
    against its nearest foe, range and cover left aside (for danger and condition costs)."""
    cache = board.offense_cache()
    hit = cache.get(f.idx)
    if hit is not None:
        return hit
    foes = board.foes_of(f)
    best = 0.0
    if foes:
        t = min(foes, key=lambda g: (board.dist(f.pos, g.pos), g.idx))
        for wi, w in enumerate(f.weapons):
            if not f.weapon_usable(wi) or w.area_radius > 0:
                continue
            pw = board.check_value(f, CheckValue(w.skill.value), attack=True) + w.attack_modifier
            if w.kind is WeaponKind.RANGED and w.ranges:
                pw += w.ranges[0].modifier
            dpw = defence_value(board, t, AttackMode.WEAPON, f, wi)
            est = estimate(board.options, pw, dpw, weapon_profile(board, f, t, w))
            best = max(best, est.damage)
        for hi, h in enumerate(f.spec.hacks):
            if f.upload_progress[hi] >= h.upload and h.deals_damage:
                pw = board.check_value(f, CheckValue.HACKING, attack=True) + h.modifier
                dpw = defence_value(board, t, AttackMode.HACK, f, hi)
                prof = damage_profile(board, t, h.bonus, h.armour_mode, h.forms)
                best = max(best, estimate(board.options, pw, dpw, prof).damage)
    cache[f.idx] = best
    return best


def danger(board: Board, f: FighterState) -> float:
    """Expected damage ``f`` deals per round: its best attack times its turns (I03)."""
    return offense(board, f) * max(1, f.actions)
