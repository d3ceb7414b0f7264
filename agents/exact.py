"""Exact odds by counting: the engine's ``attack_odds`` numbers, fast enough for agents.

``cwenv.rules.odds.attack_odds`` enumerates the 10,000 pairs of attack and defence rolls
with fractions, which takes a noticeable fraction of a second per pair of values. Here the
100 rolls of each side are first grouped into the few results a contest can tell apart
(success, QS, Volltreffer, Patzer, total), so the same exact numbers cost a few hundred
comparisons with the engine's own ``resolve_probe`` and ``contest``. The tests compare both.
"""

from __future__ import annotations

from dataclasses import dataclass

from cwenv.rules.odds import probe_odds
from cwenv.rules.options import RuleOptions
from cwenv.rules.probe import ProbeResult, hit_qs, resolve_probe

FACES = range(1, 11)


@dataclass(frozen=True, slots=True)
class Odds:
    """The numbers of :class:`~cwenv.rules.odds.AttackOdds` as floats."""

    hit: float
    qs: dict[int, float]
    volltreffer: float
    patzer: float


_ODDS: dict[tuple[int, int, int | None], Odds] = {}
_OPTIONS: dict[int, RuleOptions] = {}  # keeps every keyed options object alive: ids stay unique


def keep_alive(options: RuleOptions) -> None:
    """Caches key on ``id(options)``; holding the object keeps its id from being reused."""
    _OPTIONS[id(options)] = options


def odds(options: RuleOptions, attack: int, defence: int | None) -> Odds:
    """Exactly ``attack_odds(attack, defence, options)`` (A01–A05, P07, X07, X09, X27),
    computed by counting: the 100 rolls of each side are grouped into the few results a
    contest can tell apart, so the 10,000 pairs cost a few hundred comparisons."""
    key = (id(options), attack, defence)
    hit = _ODDS.get(key)
    if hit is None:
        _OPTIONS[id(options)] = options
        hit = _count_odds(options, attack, defence)
        if len(_ODDS) > 100_000:
            _ODDS.clear()
        _ODDS[key] = hit
    return hit


def _classes(probenwert: int, options: RuleOptions) -> list[tuple[ProbeResult, int]]:
    """The 100 rolls of a Probe grouped by everything a contest reads."""
    groups: dict[tuple[bool, int, bool, bool, int], tuple[ProbeResult, int]] = {}
    for a in FACES:
        for b in FACES:
            r = resolve_probe(probenwert, a, b, options)
            k = (r.success, r.qs, r.volltreffer, r.patzer, r.total)
            rep, n = groups.get(k, (r, 0))
            groups[k] = (rep, n + 1)
    return list(groups.values())


def _count_odds(options: RuleOptions, attack: int, defence: int | None) -> Odds:
    attacks = roll_classes(options, attack)
    defences = roll_classes(options, defence) if defence is not None else []
    hit = volltreffer = patzer = 0
    qs: dict[int, int] = {}
    for a, na in attacks:
        if not a.success:
            if a.patzer:
                patzer += na * 100
            continue
        if a.volltreffer:
            volltreffer += na * 100
        if not defences or (a.volltreffer and not options.volltreffer_defendable):
            hit += na * 100
            qs[a.qs] = qs.get(a.qs, 0) + na * 100
            continue
        for d, nd in defences:
            k = hit_qs(a, d, options)
            if k is not None:
                hit += na * nd
                qs[k] = qs.get(k, 0) + na * nd
    unit = 1 / 10_000
    return Odds(hit * unit, {k: v * unit for k, v in qs.items()}, volltreffer * unit, patzer * unit)


_SUCCESS: dict[tuple[int, int], float] = {}


def success_chance(options: RuleOptions, probenwert: int) -> float:
    """P(success) of a plain Probe (P01, P04), from ``probe_odds``."""
    key = (id(options), probenwert)
    hit = _SUCCESS.get(key)
    if hit is None:
        _OPTIONS[id(options)] = options
        hit = float(probe_odds(probenwert, options).success)
        _SUCCESS[key] = hit
    return hit


def defended_loss(
    options: RuleOptions, attack: ProbeResult, defence_pw: int, loss_per_qs: list[float]
) -> float:
    """Expected loss after defending with ``defence_pw`` against the rolled ``attack``:
    every one of the 100 defence rolls compared (A04, A05, P07, X07, X27)."""
    total = 0.0
    top = len(loss_per_qs) - 1
    for r, n in roll_classes(options, defence_pw):
        k = hit_qs(attack, r, options)
        if k is not None:
            total += n * loss_per_qs[min(k, top)]
    return total / 100


_CLASSES: dict[tuple[int, int], list[tuple[ProbeResult, int]]] = {}


def roll_classes(options: RuleOptions, probenwert: int) -> list[tuple[ProbeResult, int]]:
    """The 100 rolls of a Probe grouped by what a contest reads, with their counts."""
    key = (id(options), probenwert)
    hit = _CLASSES.get(key)
    if hit is None:
        _OPTIONS[id(options)] = options
        hit = _classes(probenwert, options)
        _CLASSES[key] = hit
    return hit
