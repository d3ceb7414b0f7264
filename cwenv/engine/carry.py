"""Fighters who come into a fight from an earlier one of the same job (M10, X37, X61).

A *job* (Auftrag) is several fights in a row. What a Runner brings from one fight into the
next — LP, Mumm, Zustände, ammunition, consumables — is a :class:`CarriedFighter`; a
:class:`~cwenv.engine.game.Game` holds them by roster index (``Game.carried``), checks them
when it is built (:func:`check_carried`, validate) and every combat started from it begins
with them (:func:`apply_carried`, apply), before the first initiative roll, so a combat
with carried fighters still draws everything from its one seeded generator.

:func:`carried_from` reads a finished combat's fighter; :func:`job_start_mumm` and
:func:`session_mumm` are M10's regeneration (full at the start of a job, half at the start
of each further session, X37); :func:`daring_points` counts M10's "dumm, aber
draufgängerisch" under the X61 reading.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cwenv.engine import events as ev
from cwenv.engine.parts import PartKind, has_kind
from cwenv.model.specs import FighterSpec, ItemSpec, WeaponSpec
from cwenv.model.types import Condition, MummSpend, Side
from cwenv.rules.options import RuleOptions, regenerate_session_mumm
from cwenv.rules.readings import DaringMumm

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat


class CarryError(ValueError):
    """Carried fighter state that no fighter of this roster can have."""


@dataclass(frozen=True, slots=True)
class CarriedFighter:
    """A fighter's state at the start of a fight, brought from an earlier one.

    ``ammo``/``reloads`` run over the stat block's ``all_weapons`` (None: a fresh fighter's);
    ``items``/``backpack`` are the consumables left (None: the stat block's)."""

    lp: int
    mumm: int
    conditions: frozenset[Condition] = frozenset()
    zehrend: tuple[str, ...] = ()
    ammo: tuple[int, ...] | None = None
    reloads: tuple[int, ...] | None = None
    items: tuple[ItemSpec, ...] | None = None
    backpack: tuple[ItemSpec, ...] | None = None


def mumm_cap(spec: FighterSpec) -> int:
    """The most Mumm ``spec`` can hold (X13: ``mumm_max``, at least the starting Mumm)."""
    return max(spec.mumm_max, spec.mumm)


def _problem(spec: FighterSpec, carried: CarriedFighter) -> str | None:
    """Why ``carried`` cannot be the state of ``spec`` at the start of a fight (None: it can)."""
    if not 1 <= carried.lp <= spec.lp:
        # D07: at 0 LP or less a fighter is kampfunfähig; nobody enters a fight like that
        return f"lp {carried.lp} must be 1..{spec.lp} (a fighter at 0 LP cannot fight, D07)"
    if not 0 <= carried.mumm <= mumm_cap(spec):
        return f"mumm {carried.mumm} must be 0..{mumm_cap(spec)} (X13)"
    if Condition.STERBEND in carried.conditions:
        return "sterbend needs 0 LP or less (D07); such a fighter cannot fight"
    if any(not kind for kind in carried.zehrend):
        return "a Zehrend type needs a name (Z08)"
    weapons = spec.all_weapons
    for name, values in (("ammo", carried.ammo), ("reloads", carried.reloads)):
        if values is not None and len(values) != len(weapons):
            return f"{name} needs {len(weapons)} values (one per weapon), got {len(values)}"
    for w, left in zip(weapons, carried.ammo or (), strict=False):
        if not 0 <= left <= w.magazine:
            return f"ammo {left} of {w.name} must be 0..{w.magazine}"
    for w, spare in zip(weapons, carried.reloads or (), strict=False):
        if w.reloads is None and spare != -1:
            return f"{w.name} has unlimited reloads (-1), got {spare}"
        if w.reloads is not None and not 0 <= spare <= w.reloads:
            return f"reloads {spare} of {w.name} must be 0..{w.reloads}"
    return None


def check_carried(game: Game) -> None:
    """Validate ``game.carried``: one entry per roster index at most, each a state its
    fighter can start a fight in (a :class:`CarryError` naming fighter and field)."""
    seen: set[int] = set()
    for idx, carried in game.carried:
        if not 0 <= idx < len(game.roster):
            raise CarryError(f"carried state for roster index {idx}: no such fighter")
        if idx in seen:
            raise CarryError(f"carried state for {game.roster[idx].name} given twice")
        seen.add(idx)
        problem = _problem(game.roster[idx], carried)
        if problem is not None:
            raise CarryError(f"carried state of {game.roster[idx].name}: {problem}")


def apply_carried(c: Combat) -> None:
    """Give the fresh combat's fighters their carried state (after :func:`check_carried`;
    before the first round, so initiative and every offer see it)."""
    for idx, carried in c.game.carried:
        f = c.fighters[idx]
        f.lp = carried.lp
        f.mumm = carried.mumm
        f.conditions = sum(1 << cond for cond in set(carried.conditions))
        f.zehrend = carried.zehrend
        if carried.ammo is not None:
            f.ammo = list(carried.ammo)
        if carried.reloads is not None:
            f.reloads = list(carried.reloads)
        if carried.items is not None:
            f.items = list(carried.items)
        if carried.backpack is not None:
            f.backpack = list(carried.backpack)


def out_of_action(f: FighterState) -> bool:
    """Dead, or down (kampfunfähig, sterbend, stabilised or unconscious, D05/D07/M04) when
    its fight ended: such a Runner takes no part in the job's later fights (M04: 'muss
    mindestens 1 LP heilen, bevor er wieder handlungsfähig wird'; a job heals nobody)."""
    return f.dead or f.down


LASTING = frozenset(Condition) - {Condition.NIEDERGEWORFEN, Condition.STERBEND}
"""Zustände that outlast a fight: each ends only by being shaken off (Z01–Z07). Not
Niedergeworfen: ending it takes an action and no check (Z05), which a Runner has between
fights; not Sterbend: a dying Runner is out of action."""


def carried_from(
    f: FighterState, *, conditions: frozenset[Condition], zehrend: bool, ammo: str, items: bool
) -> CarriedFighter:
    """What fighter ``f`` of a finished combat brings into the next fight: its LP and Mumm,
    the Zustände among ``conditions`` it still has, its Zehrend kinds if ``zehrend`` (the
    ones of a danger zone end when it leaves the zone's map, D03), its ammunition by
    ``ammo`` (``as_left``; ``reloaded``: each partly empty magazine refilled from a spare
    one, Nachladen takes no Handlung between fights; ``full``: a fresh fighter's) and its
    consumables left if ``items``."""
    weapons = f.weapons
    magazines: tuple[int, ...] | None = tuple(f.ammo)
    spares: tuple[int, ...] | None = tuple(f.reloads)
    if ammo == "reloaded":
        left, spare_left = list(f.ammo), list(f.reloads)
        for i, w in enumerate(weapons):
            if w.uses_ammo and left[i] < w.magazine and spare_left[i] != 0:
                left[i] = w.magazine
                spare_left[i] = spare_left[i] - 1 if spare_left[i] > 0 else -1
        magazines, spares = tuple(left), tuple(spare_left)
    elif ammo == "full":
        magazines = spares = None
    kept = frozenset(cond for cond in f.condition_list() if cond in conditions)
    own_zehrend = tuple(z for z in f.zehrend if z not in f.zone_zehrend) if zehrend else ()
    return CarriedFighter(
        lp=f.lp,
        mumm=f.mumm,
        conditions=kept,
        zehrend=own_zehrend,
        ammo=magazines,
        reloads=spares,
        items=tuple(f.items) if items else None,
        backpack=tuple(f.backpack) if items else None,
    )


def job_start_mumm(spec: FighterSpec) -> int:
    """M10: 'Am Anfang jedes Auftrags startest du mit vollem Mumm'."""
    return mumm_cap(spec)


def session_mumm(carried: CarriedFighter, spec: FighterSpec, options: RuleOptions) -> int:
    """M10, X37: 'Am Anfang jeder Sitzung eines Auftrags regenerierst du deinen halben
    Mumm', read by ``options.mumm_session_regen``."""
    return regenerate_session_mumm(carried.mumm, mumm_cap(spec), options)


_CHECK_TAIL = (ev.MummSpent, ev.CheckRolled, ev.ResultKept)
_AFTER_ROLL = frozenset({MummSpend.PATZER_ABWENDEN, MummSpend.PROBE_WIEDERHOLEN})  # M01, M03


def daring_points(c: Combat, idx: int) -> int:
    """M10, X61: how many Mumm points fighter ``idx`` (a Runner) earned back in combat ``c``
    by doing something 'dumm, aber draufgängerisch' without spending Mumm on it. Under
    ``actionbonus_without_mumm`` that is each check made with the declared Actionbonus
    (P03) with no Mumm on it: no Probe verbessern part (M02), no Grosser Wurf (M09, a check
    without dice) and no spend after the roll (M01, M03) before the check is settled."""
    if c.options.mumm_daring is DaringMumm.NEVER or c.fighters[idx].side is not Side.RUNNER:
        return 0
    events = c.events
    points = 0
    i = 0
    while i < len(events):
        e = events[i]
        i += 1
        if not (isinstance(e, ev.CheckRolled) and e.fighter == idx):
            continue
        clean = has_kind(e.parts, PartKind.ACTIONBONUS) and not (
            e.forced or has_kind(e.parts, PartKind.MUMM)
        )
        rerolled = False  # M03 just spent: the CheckRolled next is its reroll
        while i < len(events) and isinstance(events[i], _CHECK_TAIL):
            tail = events[i]
            if getattr(tail, "fighter", -1) != idx:
                break  # another fighter's check
            if isinstance(tail, ev.CheckRolled) and not rerolled:
                break  # this fighter's next check
            if isinstance(tail, ev.MummSpent) and tail.spend not in _AFTER_ROLL:
                break  # a spend before this fighter's next check (M02, M09 …)
            rerolled = isinstance(tail, ev.MummSpent) and tail.spend is MummSpend.PROBE_WIEDERHOLEN
            clean = clean and not isinstance(tail, ev.MummSpent)
            i += 1
        points += clean
    return points


def refit(carried: CarriedFighter, old: FighterSpec, new: FighterSpec) -> CarriedFighter:
    """``carried`` (read from a fighter with stat block ``old``) for the same Runner in a
    later scenario with stat block ``new``: ammunition follows each weapon by name (a
    weapon the earlier fight did not have comes full), LP, Mumm, magazines and spare
    reloads stay within the new block's maxima."""
    weapons = new.all_weapons
    ammo = reloads = None
    if carried.ammo is not None:
        left = {w.name: v for w, v in zip(old.all_weapons, carried.ammo, strict=True)}
        ammo = tuple(min(left.get(w.name, w.magazine), w.magazine) for w in weapons)
    if carried.reloads is not None:
        spare = {w.name: v for w, v in zip(old.all_weapons, carried.reloads, strict=True)}

        def fit(w: WeaponSpec) -> int:
            if w.reloads is None:
                return -1
            had = spare.get(w.name, -1)
            return w.reloads if had == -1 else min(had, w.reloads)

        reloads = tuple(fit(w) for w in weapons)
    return CarriedFighter(
        lp=min(carried.lp, new.lp),
        mumm=min(carried.mumm, mumm_cap(new)),
        conditions=carried.conditions,
        zehrend=carried.zehrend,
        ammo=ammo,
        reloads=reloads,
        items=carried.items,
        backpack=carried.backpack,
    )


def without(game: Game, drop: set[int]) -> Game:
    """``game`` without the fighters at roster indices ``drop`` (Runners out of action
    since an earlier fight of the job); victory conditions keep naming the same fighters,
    and a reach_exit count is at most the side's fighters left. A :class:`CarryError` when
    a dropped fighter is the VIP a victory names."""
    if not drop:
        return game
    keep = [i for i in range(len(game.roster)) if i not in drop]
    index = {old: new for new, old in enumerate(keep)}
    roster = tuple(game.roster[i] for i in keep)
    victories = []
    for v in game.victory:
        if v.vip >= 0 and v.vip not in index:
            raise CarryError(f"{game.roster[v.vip].name} is out of action and is the VIP")
        vip = index[v.vip] if v.vip >= 0 else v.vip
        # only reach_exit reads ``count``; every other kind keeps its 1
        members = sum(1 for s in roster if s.side is v.side)
        count = max(1, min(v.count, members)) if v.vip < 0 else v.count
        victories.append(replace(v, vip=vip, count=count))
    return replace(
        game,
        roster=roster,
        positions=tuple(game.positions[i] for i in keep),
        victory=tuple(victories),
        carried=(),
    )
