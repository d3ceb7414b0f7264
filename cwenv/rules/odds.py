"""Exact odds of a Probe, enumerated over the 100 equally likely outcomes of 2W10.

Nothing here samples: every probability is a count of dice outcomes divided by 100 (or
10,000 for a reroll or a defended attack), so tests compare sampled frequencies to these
numbers and agents base their choices on them.

Mumm spends (M02, M03, M09) are included as the player would use them:

* ``improve`` — M02 'Probe verbessern', +2 on the Probenwert per spend;
* ``reroll`` — M03 'Probe wiederholen' used when the first roll is a failure that is not a
  Patzer (a Patzer cannot be rerolled); the better result stands;
* ``grosser_wurf`` — M09: an automatic Volltreffer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType

from cwenv.rules.options import DEFAULT_OPTIONS, RuleOptions
from cwenv.rules.probe import ProbeResult, forced_volltreffer, hit_qs, resolve_probe

FACES = range(1, 11)
_PAIRS = 100 * 100  # the equally likely pairs of two 2W10 rolls


@dataclass(frozen=True, slots=True)
class ProbeOdds:
    """Exact outcome probabilities of one Probe. ``qs[k]`` = P(success with QS k)."""

    probenwert: int
    success: Fraction
    volltreffer: Fraction
    patzer: Fraction
    qs: Mapping[int, Fraction]  # read-only: results are cached and shared

    def as_json(self) -> dict[str, object]:
        return {
            "probenwert": self.probenwert,
            "success": float(self.success),
            "volltreffer": float(self.volltreffer),
            "patzer": float(self.patzer),
            "qs": {str(k): float(v) for k, v in sorted(self.qs.items())},
        }

    @property
    def expected_qs(self) -> Fraction:
        return sum((k * p for k, p in self.qs.items()), Fraction(0))


def _outcomes(probenwert: int, options: RuleOptions) -> list[ProbeResult]:
    return [resolve_probe(probenwert, a, b, options) for a in FACES for b in FACES]


@lru_cache(maxsize=1024)
def _classes(probenwert: int, options: RuleOptions) -> tuple[tuple[ProbeResult, int], ...]:
    """The 100 outcomes of 2W10 as (one outcome, how many of the 100 are like it).

    P01, P04–P07 and A04 read two dice only through their sum and whether they are a
    Pasch, so outcomes alike in both give alike results everywhere; counting them once
    turns the 10,000 roll pairs of a defended attack into ~29² class pairs. The classes come
    in the order of their first outcome in the enumeration, so the QS tables below list
    their keys in the same order the plain enumeration found them.
    """
    firsts: dict[tuple[int, bool], ProbeResult] = {}
    counts: dict[tuple[int, bool], int] = {}
    for result in _outcomes(probenwert, options):
        key = (result.total, result.pasch)
        firsts.setdefault(key, result)
        counts[key] = counts.get(key, 0) + 1
    return tuple((first, counts[key]) for key, first in firsts.items())


def _better(first: ProbeResult, second: ProbeResult) -> ProbeResult:
    """The result a player keeps after M03: success over failure, then higher QS."""
    if second.success and (not first.success or second.qs > first.qs):
        return second
    if not first.success and not second.success and first.patzer and not second.patzer:
        return second
    return first


def probe_odds(
    probenwert: int,
    options: RuleOptions = DEFAULT_OPTIONS,
    *,
    improve: int = 0,
    reroll: bool = False,
    grosser_wurf: bool = False,
) -> ProbeOdds:
    """Enumerate a Probe's outcomes under P01–P06 and the given Mumm spends."""
    return _probe_odds_cached(probenwert, options, improve, reroll, grosser_wurf)


@lru_cache(maxsize=4096)
def _probe_odds_cached(
    probenwert: int, options: RuleOptions, improve: int, reroll: bool, grosser_wurf: bool
) -> ProbeOdds:
    value = probenwert + 2 * improve
    if grosser_wurf:
        result = forced_volltreffer(value, options)
        return ProbeOdds(
            probenwert, Fraction(1), Fraction(1), Fraction(0), {result.qs: Fraction(1)}
        )
    # Integer weights out of 100² (a single roll's outcome weighs 100, a reroll's pair 1);
    # one exact Fraction per figure at the end.
    weights: list[tuple[ProbeResult, int]] = []
    single = _classes(value, options)
    for first, n in single:
        if reroll and not first.success and not first.patzer:
            for second, m in single:
                weights.append((_better(first, second), n * m))
        else:
            weights.append((first, 100 * n))
    success = volltreffer = patzer = 0
    counts: dict[int, int] = {}
    for result, w in weights:
        if result.success:
            success += w
            counts[result.qs] = counts.get(result.qs, 0) + w
            if result.volltreffer:
                volltreffer += w
        elif result.patzer:
            patzer += w
    qs = {k: Fraction(w, _PAIRS) for k, w in counts.items()}
    return ProbeOdds(
        probenwert,
        Fraction(success, _PAIRS),
        Fraction(volltreffer, _PAIRS),
        Fraction(patzer, _PAIRS),
        MappingProxyType(qs),
    )


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact odds of an attack against a defence roll (A01–A05): hit and QS distribution."""

    hit: Fraction
    qs: Mapping[int, Fraction]  # read-only: results are cached and shared
    volltreffer: Fraction
    patzer: Fraction

    @property
    def expected_qs(self) -> Fraction:
        return sum((k * p for k, p in self.qs.items()), Fraction(0))


@lru_cache(maxsize=8192)
def attack_odds(
    attack_value: int, defence_value: int | None, options: RuleOptions = DEFAULT_OPTIONS
) -> AttackOdds:
    """P(hit) and the hit's QS when the target defends with ``defence_value`` (None: no defence).

    A failed attack ends without defence (A01); a successful one is compared with the
    defence (A04): the defender wins ties; an attacker win is a weakened hit whose QS is the
    band of the difference (X07); an undefended or failed defence gives the attacker's QS
    (A05). Volltreffer defence follows X09.
    """
    # Integer counts of roll pairs out of 100² over the outcome classes; one exact
    # Fraction per figure at the end (the same values as adding 1/100² per pair).
    attacks = _classes(attack_value, options)
    defences = _classes(defence_value, options) if defence_value is not None else ()
    hit = volltreffer = patzer = 0
    counts: dict[int, int] = {}
    for a, n in attacks:
        if not a.success:
            if a.patzer:
                patzer += n
            continue
        if a.volltreffer:
            volltreffer += n
        if not defences or (a.volltreffer and not options.volltreffer_defendable):
            hit += 100 * n
            counts[a.qs] = counts.get(a.qs, 0) + 100 * n
            continue
        for d, m in defences:
            k = hit_qs(a, d, options)
            if k is not None:
                hit += n * m
                counts[k] = counts.get(k, 0) + n * m
    qs = {k: Fraction(w, _PAIRS) for k, w in counts.items()}
    return AttackOdds(
        Fraction(hit, _PAIRS),
        MappingProxyType(qs),
        Fraction(volltreffer, 100),
        Fraction(patzer, 100),
    )
