"""One generated scenario: map family, roster, spawns, victory, written and loaded back.

An attempt draws everything from one ``random.Random(seed)``; its document is dumped as
YAML and loaded by the same content models as any file in ``configs/`` (so what the
generator returns is what a user loading the written file gets). An attempt whose fight is
not fair (a fighter cut off, an unreachable exit, a lint warning) is thrown away and the
next one drawn from the same generator, so the result still depends on the seed alone.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from cwenv.content.assemble import build_game
from cwenv.content.errors import Origin, validate
from cwenv.content.generate.canvas import FLOOR, WALL, Canvas
from cwenv.content.generate.knobs import SIZE_DIMS, SIZES, Knobs
from cwenv.content.generate.reach import core, pick_zone, playable_problems, step_graph
from cwenv.content.generate.rooftops import build_rooftops
from cwenv.content.generate.rooms import build_rooms
from cwenv.content.generate.roster import GeneratorError, Roster, build_roster
from cwenv.content.generate.streets import build_streets
from cwenv.content.library import Library
from cwenv.content.lint import scenario_warnings, sides_connected
from cwenv.content.scenarios import ScenarioModel
from cwenv.engine.game import Game
from cwenv.yamlio import parse_yaml

ATTEMPTS = 40
BUILDERS: dict[str, Callable[[random.Random, int, int], Canvas]] = {
    "rooms": build_rooms,
    "streets": build_streets,
    "rooftops": build_rooftops,
}
FAMILY_LABEL = {"rooms": "Innenräume", "streets": "Strassen", "rooftops": "Dächer"}
ZONE_CHARS = {"runner": "R", "gegner": "G", "neutral": "Z"}
EXIT_CHAR = "E"

NAME_PREFIX = "Zufall"
_SEED_IN_NAME = re.compile(rf"^{NAME_PREFIX} (\d{{1,10}}): ")


def seed_in_name(name: str) -> int | None:
    """The seed a generated scenario's name carries (``Zufall 42: …``), else None; a
    bundle trained on generated seeds tells from it whether a fight was among them."""
    match = _SEED_IN_NAME.match(name)
    return int(match.group(1)) if match else None


@dataclass(frozen=True)
class Generated:
    """A generated scenario: the document, its YAML text and the loaded Game."""

    document: dict[str, Any]
    text: str
    game: Game


class _Dumper(yaml.SafeDumper):
    """Block style for lists of mappings, the grid as a literal block (one row a line)."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def to_yaml(document: dict[str, Any]) -> str:
    """The scenario as YAML text (the same document gives the same bytes, always)."""
    text: str = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=4096)
    return text


@cache
def shipped_library() -> Library:
    """The shipped ``configs/``, read once per process: a generator draws every scenario
    from the same archetypes, weapons and hacks (re-reading them per scenario was 9/10 of
    the time), and they change only with the code."""
    return Library()


def load_text(text: str, source: str, lib: Library | None = None) -> Game:
    """Load scenario YAML through the content models, exactly as a file is loaded."""
    doc = parse_yaml(text, source=source)
    model = validate(ScenarioModel, Origin(doc), doc.data)
    return build_game(model, doc, lib or shipped_library())


def _count(rng: random.Random, given: int | None, other: int | None) -> int:
    if given is not None:
        return given
    if other is not None:  # the other side fixed: about as many, give or take one
        return max(1, min(6, other + rng.choice((-1, 0, 0, 1))))
    return rng.randint(1, 6)


def _anchors(rng: random.Random, w: int, h: int) -> tuple[tuple[float, float], ...]:
    """Where the Runner zone, the Gegner zone and the exit lie: opposite ends of the
    longer axis (a corner now and then), the Runners on either end."""
    if w >= h or rng.random() < 0.2:
        ya, yb = rng.uniform(1, h - 2), rng.uniform(1, h - 2)
        a, b = (1.0, ya), (w - 2.0, yb)
    else:
        xa, xb = rng.uniform(1, w - 2), rng.uniform(1, w - 2)
        a, b = (xa, 1.0), (xb, h - 2.0)
    if rng.random() < 0.5:
        a, b = b, a
    return a, b, (b[0], rng.uniform(1, h - 2)) if w >= h else (rng.uniform(1, w - 2), b[1])


def _exit_cells(c: Canvas, ok: list[bool], anchor: tuple[float, float], n: int) -> list[int]:
    """Up to ``n`` cells on the map's edge near ``anchor``: core floor, or a wall (the
    outer wall of a building) with core floor right inside it, which becomes a way out."""
    w, h = c.width, c.height
    out: list[tuple[float, int]] = []
    for x, y in c.cells():
        if 0 < x < w - 1 and 0 < y < h - 1:
            continue
        i = y * w + x
        inward = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        inner = [(a, b) for a, b in inward if 0 < a < w - 1 and 0 < b < h - 1]
        usable = (ok[i] and c.get(x, y) == FLOOR) or (
            c.get(x, y) == WALL
            and len(inner) == 1
            and ok[inner[0][1] * w + inner[0][0]]
            and c.get(*inner[0]) == FLOOR
        )
        if usable:
            out.append(((x - anchor[0]) ** 2 + (y - anchor[1]) ** 2, i))
    out.sort()
    if not out:
        return []
    first = out[0][1]
    fx, fy = first % w, first // w
    near = [i for _, i in out if abs(i % w - fx) + abs(i // w - fy) < n]
    return near[:n]


def _victory(
    rng: random.Random, kind: str, roster: Roster, size: str
) -> tuple[list[dict[str, Any]], int]:
    base = {"small": 12, "medium": 16, "large": 20}[size]
    if kind == "survive":
        rounds = rng.randint(5, 10)
        return [{"kind": "survive", "side": "runner", "rounds": rounds}], rounds
    limit = base + rng.randint(-3, 3)
    if kind == "reach_exit":
        count = max(1, len(roster.runner) // 2)
        return [{"kind": "reach_exit", "side": "runner", "count": count}], limit
    if kind == "protect_vip":
        return [{"kind": "eliminate"}, {"kind": "protect_vip", "vip": roster.vip}], limit
    return [{"kind": "eliminate"}], limit


def _draw_victory(rng: random.Random, knobs: Knobs) -> str:
    if knobs.victory is not None:
        return knobs.victory
    roll = rng.random()
    return (
        "eliminate" if roll < 0.6 else
        "survive" if roll < 0.74 else
        "protect_vip" if roll < 0.87 else
        "reach_exit"
    )  # fmt: skip


def _attempt(rng: random.Random, seed: int, knobs: Knobs) -> Generated | None:
    size = knobs.size or rng.choices(SIZES, weights=(4, 4, 2))[0]
    family = knobs.family or rng.choice(sorted(BUILDERS))
    runners = _count(rng, knobs.runners, knobs.gegner)
    gegner = _count(rng, knobs.gegner, runners)
    kind = _draw_victory(rng, knobs)
    (wlo, whi), (hlo, hhi) = SIZE_DIMS[size]
    w, h = rng.randint(wlo, whi), rng.randint(hlo, hhi)
    canvas = BUILDERS[family](rng, w, h)
    civilians = rng.randint(1, 3) if family != "rooftops" and rng.random() < 0.15 else 0
    roster = build_roster(
        rng, runners, gegner, vip=kind == "protect_vip", civilians=civilians, lib=shipped_library()
    )
    bm = canvas.battlemap()
    graph = step_graph(bm)
    ok = core(bm, graph, rng)
    runner_anchor, gegner_anchor, exit_anchor = _anchors(rng, w, h)
    free = list(ok)
    zones: dict[str, list[int]] = {}
    for zone, anchor, n in (
        ("runner", runner_anchor, len(roster.runner)),
        ("gegner", gegner_anchor, len(roster.gegner)),
        ("neutral", ((w - 1) / 2, (h - 1) / 2), len(roster.neutral)),
    ):
        if not n:
            continue
        cells = pick_zone(bm, graph, free, anchor, n + rng.randint(0, 2))
        if not cells:
            return None
        zones[zone] = cells
        for i in cells:
            free[i] = False
            for j in bm.neighbours[i]:  # a free cell between zones: no one starts in contact
                free[j] = False
    exits = _exit_cells(canvas, free, exit_anchor, 3) if kind == "reach_exit" else []
    if kind == "reach_exit" and not exits:
        return None
    for zone, cells in zones.items():
        for i in cells:
            canvas.set(i % w, i // w, ZONE_CHARS[zone])
    for i in exits:
        canvas.set(i % w, i // w, EXIT_CHAR)
    victory, round_limit = _victory(rng, kind, roster, size)
    document = _document(rng, seed, knobs, canvas, roster, victory, round_limit, family, size)
    text = to_yaml(document)
    game = load_text(text, source=f"<generated scenario, seed {seed}>")
    if playable_problems(game) or scenario_warnings(game) or not sides_connected(game):
        return None
    return Generated(document, text, game)


def _document(
    rng: random.Random,
    seed: int,
    knobs: Knobs,
    canvas: Canvas,
    roster: Roster,
    victory: list[dict[str, Any]],
    round_limit: int,
    family: str,
    size: str,
) -> dict[str, Any]:
    shown = knobs.as_dict()
    if knobs.players is not None:  # players fixed both sides
        shown["runners"] = shown["gegner"] = None
    given = " ".join(f"--{k} {v}" for k, v in shown.items() if v is not None)
    command = f"cwenv scenarios generate --seed {seed}" + (f" {given}" if given else "")
    w, h = canvas.width, canvas.height
    label = FAMILY_LABEL[family]
    n_r = sum(1 for e in roster.runner if e["archetype"] != "vip")
    features = ", ".join(roster.features)
    doc: dict[str, Any] = {
        "name": f"{NAME_PREFIX} {seed}: {label}, {n_r} gegen {len(roster.gegner)}",
        "description": (
            f"Generiert ({size}, {w}×{h} m{', ' + features if features else ''}). "
            f"Neu erzeugen: {command}"
        ),
    }
    grid_map: dict[str, Any] = {
        "name": f"Zufallskarte {seed} ({label})",
        "grid": "\n".join(canvas.rows()) + "\n",
    }
    if canvas.has_heights():
        grid_map["elevation"] = "\n".join(canvas.elevation_rows()) + "\n"
    grid_map["spawn_chars"] = {
        ch: zone for zone, ch in ZONE_CHARS.items() if any(ch in row for row in canvas.rows())
    }
    if any(EXIT_CHAR in row for row in canvas.rows()):
        grid_map["exit_chars"] = [EXIT_CHAR]
    doc["map"] = grid_map
    doc["round_limit"] = round_limit
    if rng.random() < 0.1:  # an ambush (X45)
        doc["options"] = {"surprise": "reflexe_check"}
        doc["ambushed"] = [rng.choice(("runner", "gegner"))]
    doc["victory"] = victory
    doc["fighters"] = roster.runner + roster.gegner + roster.neutral
    return doc


def generate_scenario(seed: int, knobs: Knobs) -> Generated:
    """The scenario of ``seed`` and ``knobs``: the first fair attempt of its generator."""
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        made = _attempt(rng, seed, knobs)
        if made is not None:
            return made
    given = ", ".join(f"{k}={v}" for k, v in knobs.as_dict().items() if v is not None)
    raise GeneratorError(
        f"seed {seed}{' with ' + given if given else ''}: no fair scenario in {ATTEMPTS} "
        "attempts (try another seed or fewer fighters)"
    )
