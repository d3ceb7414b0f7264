"""Builders for small hand-made fights in tests (YAML scenarios are tested elsewhere)."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from cwenv.battlemap.grid import BattleMap
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.game import Game, Victory
from cwenv.engine.state import Combat
from cwenv.model.specs import FighterSpec, RangeBand, WeaponSpec
from cwenv.model.types import Side, Skill, WeaponKind
from cwenv.rules.dice import ScriptedDice
from cwenv.rules.options import DEFAULT_OPTIONS, RuleOptions

PISTOL = WeaponSpec(
    "Pistole",
    WeaponKind.RANGED,
    bonus=2,
    ranges=(RangeBand(10, 0), RangeBand(30, -2)),
    magazine=12,
    nachladen=1,
)
KNIFE = WeaponSpec("Messer", WeaponKind.MELEE, bonus=1)
SWORD = WeaponSpec("Katana", WeaponKind.MELEE, bonus=3, forms=frozenset({"klinge"}))


def skills(default: int = 10, **values: int) -> tuple[int, ...]:
    """A skill tuple: every skill ``default`` except the named ones (``fernkampf=14``)."""
    out = [default] * len(Skill)
    for name, value in values.items():
        out[Skill[name.upper()]] = value
    return tuple(out)


def fighter(name: str, side: Side = Side.RUNNER, *, lp: int = 30, **kw: Any) -> FighterSpec:
    sk = kw.pop("skills", None) or skills(
        **{k: kw.pop(k) for k in list(kw) if k.upper() in Skill.__members__}
    )
    return FighterSpec(name=name, side=side, skills=sk, lp=lp, **kw)


def open_map(width: int = 10, height: int = 5) -> BattleMap:
    return BattleMap.from_rows(["." * width] * height)


def make_game(
    fighters: Sequence[tuple[FighterSpec, tuple[int, int]]],
    *,
    rows: Sequence[str] | None = None,
    elevation: Sequence[str] | None = None,
    options: RuleOptions = DEFAULT_OPTIONS,
    victory: tuple[Victory, ...] | None = None,
    **opts: Any,
) -> Game:
    bm = BattleMap.from_rows(rows or ["." * 10] * 5, elevation_rows=elevation)
    if opts:
        options = replace(options, **opts)
    kwargs: dict[str, Any] = {}
    if victory is not None:
        kwargs["victory"] = victory
    return Game(
        bm,
        tuple(f for f, _ in fighters),
        tuple(bm.index(x, y) for _, (x, y) in fighters),
        options,
        **kwargs,
    )


def scripted(game: Game, dice: Sequence[int]) -> Combat:
    return game.new_combat(dice=ScriptedDice(dice))


def find(c: Combat, kind: ActionKind, **fields: int) -> Action:
    """The one legal action of ``kind`` whose fields match."""
    found = [
        a
        for a in c.legal_actions()
        if a.kind is kind and all(getattr(a, k) == v for k, v in fields.items())
    ]
    if len(found) != 1:
        raise AssertionError(
            f"expected one {kind.name} {fields}, found {found}; "
            f"legal: {sorted({a.kind.name for a in c.legal_actions()})}"
        )
    return found[0]


def play(c: Combat, choose: Callable[[Combat], Action], limit: int = 100_000) -> None:
    for _ in range(limit):
        if c.is_terminal():
            return
        c.apply(choose(c))
    raise AssertionError("combat did not end")


def random_policy(seed: int) -> Callable[[Combat], Action]:
    rng = random.Random(seed)

    def choose(c: Combat) -> Action:
        return rng.choice(c.legal_actions())

    return choose


def decline_prompts(c: Combat) -> Action | None:
    """The declining answer when a prompt is pending (prompts list it last)."""
    d = c.decision
    if d is not None and d.kind is not DecisionKind.TURN:
        return c.legal_actions()[-1]
    return None


def init_dice(game: Game, face: int = 1) -> list[int]:
    """Initiative dice for one round of the steps system: ``face`` for every die of every
    fighter (I02: Grundwert ÷ 5 rounded up W10s each, in roster order)."""
    from cwenv.engine.roundflow import initiative_dice

    return [face] * sum(initiative_dice(spec.initiative_grundwert) for spec in game.roster)


def lines(c: Combat) -> list[str]:
    """The narration so far (handy in assertion messages)."""
    from cwenv.engine.narration import narrate_all

    return narrate_all(c.events, c.game.names)


def events_of(c: Combat, kind: type[Any]) -> list[Any]:
    return [e for e in c.events if isinstance(e, kind)]


def run_cwenv(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """``cwenv ARGS`` in a fresh interpreter (what a user's shell runs), output as text."""
    return subprocess.run(
        [sys.executable, "-m", "cwenv.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,
    )


def dump_db(db: Any) -> list[str]:
    """A database's content, row by row, read-only (reading must not change it)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()
