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
    weights: list[tuple[ProbeResult, Fraction]] = []
    single = _outcomes(value, options)
    unit = Fraction(1, 100)
    for first in single:
        if reroll and not first.success and not first.patzer:
            for second in single:
                weights.append((_better(first, second), unit * unit))
        else:
            weights.append((first, unit))
    success = volltreffer = patzer = Fraction(0)
    qs: dict[int, Fraction] = {}
    for result, w in weights:
        if result.success:
            success += w
            qs[result.qs] = qs.get(result.qs, Fraction(0)) + w
            if result.volltreffer:
                volltreffer += w
        elif result.patzer:
            patzer += w
    return ProbeOdds(probenwert, success, volltreffer, patzer, MappingProxyType(qs))


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
    attacks = _outcomes(attack_value, options)
    defences = _outcomes(defence_value, options) if defence_value is not None else []
    unit = Fraction(1, 100)
    hit = volltreffer = patzer = Fraction(0)
    qs: dict[int, Fraction] = {}

    def add(k: int, w: Fraction) -> None:
        qs[k] = qs.get(k, Fraction(0)) + w

    for a in attacks:
        if not a.success:
            if a.patzer:
                patzer += unit
            continue
        if a.volltreffer:
            volltreffer += unit
        if not defences or (a.volltreffer and not options.volltreffer_defendable):
            hit += unit
            add(a.qs, unit)
            continue
        for d in defences:
            k = hit_qs(a, d, options)
            if k is not None:
                hit += unit * unit
                add(k, unit * unit)
    return AttackOdds(hit, MappingProxyType(qs), volltreffer, patzer)
