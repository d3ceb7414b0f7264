"""Situation files: a fight described at the table, read strictly and checked against the
scenario and the rules (who exists, where they can stand, what LP, reactions and Mumm a
fighter can have), with errors that name the file, line and field.

A situation names a scenario, whose turn it is, and what differs from the scenario's start
for each fighter (position, LP, conditions, reactions, Mumm, out of the fight).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cwenv.content.errors import issues_from
from cwenv.engine.game import Game
from cwenv.engine.situation import SituationError, combat_at_turn, lowest_lp, max_reactions
from cwenv.engine.state import Combat
from cwenv.model.types import Condition
from cwenv.play.savefile import SavedGame, load_game
from cwenv.yamlio import ConfigError, ConfigIssue, YamlDocument, read_yaml_file

CellXY = Annotated[list[int], Field(min_length=2, max_length=2)]
"""A map cell as ``[x, y]`` (a YAML list: strict mode wants a list, not a tuple)."""
STRICT = ConfigDict(extra="forbid", strict=True)
"""Like content files: unknown fields are errors and nothing is coerced ('4' is no 4)."""


class FighterSituation(BaseModel):
    model_config = STRICT

    at: CellXY | None = None
    lp: int | None = None
    conditions: list[str] = Field(default_factory=list)
    reactions: int | None = Field(None, ge=0)
    mumm: int | None = Field(None, ge=0)
    out: bool = False  # dead or gone: off the board

    @field_validator("conditions")
    @classmethod
    def _known(cls, values: list[str]) -> list[str]:
        for value in values:
            Condition.from_label(value)  # raises with the allowed names
        return values


class Situation(BaseModel):
    model_config = STRICT

    scenario: str
    rules: str | None = None
    round: int = Field(1, ge=1)
    turn: str
    seed: int = 0
    fighters: dict[str, FighterSituation] = Field(default_factory=dict)


def load_situation(path: Path) -> tuple[Game, Combat, YamlDocument]:
    """Read a situation file and build the combat at the described turn. The combat is
    terminal when the situation already decides the fight (``combat.outcome`` says how)."""
    doc = read_yaml_file(path)
    if not isinstance(doc.data, dict):
        raise ConfigError([doc.issue((), "a situation is a mapping of fields (scenario, turn, …)")])
    try:
        sit = Situation.model_validate(doc.data)
    except ValidationError as exc:
        raise ConfigError(issues_from(exc, Situation, doc)) from None
    # A situation names its scenario and rules like a saved game: the same loader, whose
    # errors point at this file's ``scenario`` or ``rules`` line.
    game = load_game(
        SavedGame(scenario=sit.scenario, rules=sit.rules, seed=0, runners="-", nscs="-"), doc
    )
    names = list(game.names)
    _check_names(doc, sit, names)
    fresh = game.new_combat(sit.seed)
    _check_values(doc, sit, game, fresh)

    def edit(c: Combat) -> None:
        bm = game.battlemap
        for name, fs in sit.fighters.items():
            f = c.fighters[names.index(name)]
            if fs.at is not None:
                f.pos = bm.index(*fs.at)
            if fs.lp is not None:
                f.lp = fs.lp
                f.down = f.lp <= 0
            for cond in fs.conditions:
                f.conditions |= 1 << Condition.from_label(cond)
            if fs.reactions is not None:
                f.reactions = fs.reactions
            if fs.mumm is not None:
                f.mumm = fs.mumm
            if fs.out:
                f.dead = f.down = True
                c.remove_from_map(f)
                f.fled = True

    try:
        combat = combat_at_turn(game, names.index(sit.turn), edit, round_=sit.round, seed=sit.seed)
    except SituationError as exc:
        raise ConfigError([doc.issue(("fighters",), str(exc))]) from None
    return game, combat, doc


def _check_names(doc: YamlDocument, sit: Situation, names: list[str]) -> None:
    issues: list[ConfigIssue] = []
    if sit.turn not in names:
        issues.append(doc.issue(("turn",), f"no fighter {sit.turn!r}; known: {', '.join(names)}"))
    for name in sit.fighters:
        if name not in names:
            issues.append(
                doc.issue(("fighters", name), f"no such fighter; known: {', '.join(names)}")
            )
    if issues:
        raise ConfigError(issues)


def _check_values(doc: YamlDocument, sit: Situation, game: Game, c: Combat) -> None:
    """Every value within what the rules and the map allow, each error at its field."""
    issues: list[ConfigIssue] = []
    limit = game.round_limit
    if limit is not None and sit.round > limit:
        issues.append(doc.issue(("round",), f"{sit.round} is after the round limit {limit}"))
    taken: dict[int, str] = {}
    for f in c.fighters:  # where everybody not moved by the situation stands
        fs = sit.fighters.get(f.name)
        if f.on_map and (fs is None or (fs.at is None and not fs.out)):
            taken[f.pos] = f.name
    for name, fs in sit.fighters.items():
        f = c.fighters[list(game.names).index(name)]
        where = ("fighters", name)
        if fs.at is not None and not fs.out:
            problem = _cell_problem(game, fs.at, taken, name)
            if problem:
                issues.append(doc.issue((*where, "at"), problem))
        if fs.lp is not None and not lowest_lp(c, f) <= fs.lp <= f.spec.lp:
            issues.append(
                doc.issue(
                    (*where, "lp"),
                    f"{fs.lp} is outside {lowest_lp(c, f)} to {f.spec.lp} (below 0 is "
                    "sterbend; a dead fighter is `out: true`)",
                )
            )
        dying = any(Condition.from_label(x) is Condition.STERBEND for x in fs.conditions)
        lp = fs.lp if fs.lp is not None else f.spec.lp
        if dying and lp > 0:  # D05: sterbend comes with kampfunfähig, at 0 LP or below
            issues.append(
                doc.issue(
                    (*where, "conditions"),
                    f"sterbend needs LP 0 or below (kampfunfähig, D05); {name} has {lp}",
                )
            )
        if fs.reactions is not None and fs.reactions > max_reactions(c, f):
            top = max_reactions(c, f)
            issues.append(
                doc.issue((*where, "reactions"), f"{fs.reactions}: {name} can have at most {top}")
            )
        if fs.mumm is not None and fs.mumm > f.mumm_max:
            issues.append(
                doc.issue((*where, "mumm"), f"{fs.mumm}: {name} can have at most {f.mumm_max}")
            )
    turn = sit.fighters.get(sit.turn)
    if turn is not None and (turn.out or (turn.lp is not None and turn.lp <= 0)):
        issues.append(doc.issue(("turn",), f"{sit.turn} is out of the fight and cannot act"))
    if issues:
        raise ConfigError(issues)


def _cell_problem(game: Game, at: list[int], taken: dict[int, str], name: str) -> str:
    """Why ``name`` cannot stand at ``at`` ('' if it can); marks the cell as taken."""
    bm = game.battlemap
    x, y = at
    if not (0 <= x < bm.width and 0 <= y < bm.height):
        return (
            f"({x}, {y}) is outside the {bm.width}×{bm.height} map "
            f"(x 0 to {bm.width - 1}, y 0 to {bm.height - 1})"
        )
    cell = bm.index(x, y)
    terrain = bm.terrain[cell]
    if not terrain.standable:
        return f"({x}, {y}) is {terrain.name.lower().replace('_', ' ')}, where nobody can stand"
    if cell in taken:
        return f"({x}, {y}) is taken by {taken[cell]}"
    taken[cell] = name
    return ""
