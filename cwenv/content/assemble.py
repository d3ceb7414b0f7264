"""Build a :class:`~cwenv.engine.game.Game` from a validated scenario.

Everything the engine would reject, and more, is checked here first and reported as one
:class:`ConfigError` naming the scenario file: unknown references, fighters that cannot be
placed, duplicate names, victory conditions that can never be met, an ambush without a
surprise rule (X45). The engine never sees an invalid scenario.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cwenv.battlemap.grid import BattleMap
from cwenv.content.errors import IssueList, Origin, UnknownReference
from cwenv.content.fields import side_of
from cwenv.content.fighters import MergedOrigin, fighter_spec, merge_fighter, validate_fighter
from cwenv.content.library import Library, looks_like_path
from cwenv.content.maps import MapModel, build_map
from cwenv.content.scenarios import (
    PLACEMENT_FIELDS,
    EliminateVictory,
    ProtectVipVictory,
    ReachExitVictory,
    ScenarioFighter,
    ScenarioModel,
    SurviveVictory,
)
from cwenv.engine.game import Game, GameSetupError, Victory, VictoryKind
from cwenv.model.specs import FighterSpec
from cwenv.model.types import Side
from cwenv.rules.options import DEFAULT_OPTIONS, RuleOptions, Surprise
from cwenv.rules.variants import load_rule_variant, options_from_mapping
from cwenv.yamlio import ConfigError, ConfigIssue, YamlDocument


@dataclass(frozen=True)
class Placed:
    """A fighter of the roster and the scenario entry it came from."""

    spec: FighterSpec
    entry: int


def _map(model: ScenarioModel, doc: YamlDocument, lib: Library) -> BattleMap:
    where = Origin(doc)
    if isinstance(model.map, MapModel):
        return build_map(model.map, Origin(doc, ("map",)))
    try:
        return lib.map(model.map)
    except UnknownReference as exc:
        raise ConfigError([where.issue(("map",), str(exc))]) from None


def _options(
    model: ScenarioModel, doc: YamlDocument, lib: Library, rules: str | Path | None
) -> RuleOptions:
    """The rule variant (``rules`` replaces the scenario's) with ``options`` on top."""
    issues = IssueList()
    base = DEFAULT_OPTIONS
    variant = rules if rules is not None else model.rules
    if variant is not None and variant != "default":
        try:
            if looks_like_path(variant):
                base = load_rule_variant(Path(variant))
            else:
                base = load_rule_variant(lib.path("rules", str(variant)))
        except UnknownReference as exc:
            if rules is None:
                issues.append(Origin(doc).issue(("rules",), str(exc)))
            else:  # the --rules option, not the scenario file, named it
                issues.append(ConfigIssue("command line", None, ("--rules",), str(exc)))
        except ConfigError as exc:
            issues.extend_from(exc)
    options = base
    try:
        options = options_from_mapping(model.options, doc, base, prefix=("options",))
    except ConfigError as exc:
        issues.extend_from(exc)
    issues.raise_if_any()
    return options


def _fighters(
    model: ScenarioModel, doc: YamlDocument, lib: Library, issues: IssueList
) -> list[Placed]:
    """The roster: each entry's archetype merged with its overrides, ``count`` times."""
    roster: list[Placed] = []
    for i, entry in enumerate(model.fighters):
        raw: dict[Any, Any] = dict(doc.data["fighters"][i])
        for key in PLACEMENT_FIELDS:
            raw.pop(key, None)
        entry_where = Origin(doc, ("fighters", i))
        base_data: dict[Any, Any] = {}
        base_where = None
        if entry.archetype is not None:
            try:
                lib.fighter_model(entry.archetype)  # the archetype must be valid by itself
                base_doc = lib.document("fighters", entry.archetype)
            except UnknownReference as exc:
                issues.append(entry_where.issue(("archetype",), str(exc)))
                continue
            except ConfigError as exc:
                issues.extend_from(exc)
                continue
            base_data, base_where = dict(base_doc.data), Origin(base_doc)
        origin = MergedOrigin(base_where, base_data, entry_where, raw)
        try:
            fighter = validate_fighter(merge_fighter(base_data, raw), origin)
            spec = fighter_spec(fighter, lib, origin, entry.archetype or "")
        except ConfigError as exc:
            issues.extend_from(exc)
            continue
        if entry.count == 1:
            roster.append(Placed(spec, i))
        else:
            for k in range(1, entry.count + 1):
                roster.append(Placed(dataclasses.replace(spec, name=f"{spec.name} {k}"), i))
    _check_unique_names(doc, roster, issues)
    return roster


def _check_unique_names(doc: YamlDocument, roster: list[Placed], issues: IssueList) -> None:
    seen: dict[str, int] = {}
    for placed in roster:
        name = placed.spec.name
        if name in seen:
            field = "name" if "name" in doc.data["fighters"][placed.entry] else "archetype"
            issues.append(
                Origin(doc, ("fighters", placed.entry)).issue(
                    (field,),
                    f"fighter name {name!r} is already used by fighters.{seen[name]}; "
                    "names must be unique (set name: or use count:)",
                )
            )
        seen.setdefault(name, placed.entry)


def _positions(
    model: ScenarioModel, doc: YamlDocument, bm: BattleMap, roster: list[Placed], issues: IssueList
) -> tuple[int, ...]:
    """Explicit cells first, then each spawn zone filled in cell-index order.

    A fighter may not start on a cell it cannot stand on or that another fighter holds;
    each scenario entry reports at most one placement problem.
    """
    positions = [-1] * len(roster)
    taken: dict[int, str] = {}
    used: dict[str, int] = {}
    failed: set[int] = set()
    explicit = [r for r, p in enumerate(roster) if model.fighters[p.entry].at is not None]
    spawned = [r for r, p in enumerate(roster) if model.fighters[p.entry].at is None]
    for r in explicit + spawned:
        placed = roster[r]
        if placed.entry in failed:
            continue
        entry: ScenarioFighter = model.fighters[placed.entry]
        where = Origin(doc, ("fighters", placed.entry))
        field = "at" if entry.at is not None else "spawn"
        problem, cell = _start_cell(entry, bm, used)
        if problem is None:
            xy = list(bm.cell(cell))
            if not bm.terrain[cell].standable:
                problem = f"cannot stand on {bm.terrain[cell].described} at {xy}"
            elif cell in taken:
                problem = f"cell {xy} is already taken by {taken[cell]}"
        if problem is not None:
            issues.append(where.issue((field,), f"{placed.spec.name}: {problem}"))
            failed.add(placed.entry)
            continue
        taken[cell] = placed.spec.name
        positions[r] = cell
    return tuple(positions)


def _start_cell(
    entry: ScenarioFighter, bm: BattleMap, used: dict[str, int]
) -> tuple[str | None, int]:
    """The next start cell of ``entry`` (and the problem, if there is none)."""
    if entry.at is not None:
        x, y = entry.at
        if not (0 <= x < bm.width and 0 <= y < bm.height):
            return f"[{x}, {y}] is outside the {bm.width}×{bm.height} map", -1
        return None, y * bm.width + x
    zone_name = entry.spawn or ""
    zone = bm.spawns.get(zone_name)
    if zone is None:
        known = ", ".join(sorted(bm.spawns)) or "(none)"
        return f"the map has no spawn zone {zone_name!r}; known: {known}", -1
    k = used.get(zone_name, 0)
    if k >= len(zone):
        return f"spawn zone {zone_name!r} has only {len(zone)} cells, all taken", -1
    used[zone_name] = k + 1
    return None, sorted(zone)[k]


def _victory(
    model: ScenarioModel, doc: YamlDocument, bm: BattleMap, roster: list[Placed], issues: IssueList
) -> tuple[Victory, ...]:
    out: list[Victory] = []
    names = [p.spec.name for p in roster]
    for i, v in enumerate(model.victory):
        where = Origin(doc, ("victory", i))
        if isinstance(v, EliminateVictory):
            out.append(Victory(VictoryKind.ELIMINATE))
        elif isinstance(v, SurviveVictory):
            if model.round_limit is not None and v.rounds > model.round_limit:
                issues.append(
                    where.issue(
                        ("rounds",),
                        f"{v.rounds} rounds can never pass: round_limit is {model.round_limit}",
                    )
                )
            out.append(Victory(VictoryKind.SURVIVE, side_of(v.side), rounds=v.rounds))
        elif isinstance(v, ReachExitVictory):
            side = side_of(v.side)
            members = sum(1 for p in roster if p.spec.side is side)
            if not bm.exits:
                issues.append(where.issue(("kind",), "reach_exit needs exit cells on the map"))
            if v.count > members:
                issues.append(where.issue(("count",), f"{v.side} has only {members} fighters"))
            out.append(Victory(VictoryKind.REACH_EXIT, side, count=v.count))
        elif isinstance(v, ProtectVipVictory):
            if v.vip not in names:
                known = ", ".join(dict.fromkeys(names))
                issues.append(where.issue(("vip",), f"no fighter named {v.vip!r}; known: {known}"))
                continue
            out.append(Victory(VictoryKind.PROTECT_VIP, side_of(v.side), vip=names.index(v.vip)))
    return tuple(out)


def build_game(
    model: ScenarioModel,
    doc: YamlDocument,
    lib: Library,
    *,
    rules: str | Path | None = None,
) -> Game:
    """The Game of a validated scenario; every remaining problem as one ConfigError."""
    issues = IssueList()
    bm: BattleMap | None = None
    options: RuleOptions | None = None
    try:
        bm = _map(model, doc, lib)
    except ConfigError as exc:
        issues.extend_from(exc)
    try:
        options = _options(model, doc, lib, rules)
    except ConfigError as exc:
        issues.extend_from(exc)
    roster = _fighters(model, doc, lib, issues)
    if model.ambushed and options is not None and options.surprise is Surprise.NONE:
        issues.append(
            Origin(doc).issue(
                ("ambushed",),
                "has no effect while the rule option surprise is "
                "none (X45); add options: {surprise: reflexe_check}",
            )
        )
    sides = {p.spec.side for p in roster}
    if not issues and not {Side.RUNNER, Side.GEGNER} <= sides:
        issues.append(
            Origin(doc).issue(("fighters",), "a fight needs at least one runner and one gegner")
        )
    positions: tuple[int, ...] = ()
    victory: tuple[Victory, ...] = ()
    if bm is not None:
        positions = _positions(model, doc, bm, roster, issues)
        victory = _victory(model, doc, bm, roster, issues)
    issues.raise_if_any()
    if bm is None or options is None:  # never: their failures were raised above
        raise ConfigError([Origin(doc).issue((), "no map or no rule options")])
    try:
        return Game(
            battlemap=bm,
            roster=tuple(p.spec for p in roster),
            positions=positions,
            options=options,
            victory=victory,
            round_limit=model.round_limit,
            decision_cap=model.decision_cap,
            name=model.name,
            ambushed=frozenset(side_of(s) for s in model.ambushed),
        )
    except GameSetupError as exc:
        raise ConfigError(
            [Origin(doc).issue((), f"the engine rejects the scenario: {exc}")]
        ) from None
