"""Where fighters can walk: the strict step graph the generator places spawns and exits by.

The graph is the engine's own terrain steps (:func:`cwenv.battlemap.steps.terrain_edges`)
for the slowest fighter, minus every step that can fail or that no single Handlung pays
for: jumps that need a check (B02 beyond half Bewegung) and climbs costing more than
Bewegung (B03). Closed doors count as passable (anyone may open them, H04). Drops (B06,
falls B05) count, but only one way: spawns and exits are placed in the *core*, the cells
that can each reach and be reached from every other, so a fighter who steps off a roof
can always climb back by a fire escape.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.battlemap.steps import MoveProfile, StepKind, terrain_edges
from cwenv.engine.game import Game, VictoryKind
from cwenv.engine.movement import profile_for
from cwenv.rules.options import ClimbDown, DropAbsorbed, RuleOptions

Graph = list[list[int]]
SLOWEST = 6  # Bewegung of every shipped archetype the generator uses (X13)


# The strictest readings of the steps (fewest ways): a core that holds under them holds
# under every reading. Drops absorbed below half Bewegung (B06, X18), no hurdles (X48), and
# every deep face of a climbable ledge climbed down (B03, X62), which costs more than
# Bewegung where the drop cost one metre.
STRICT = RuleOptions(
    drop_absorbed=DropAbsorbed.BELOW_HALF, hurdles=False, climb_down=ClimbDown.ALWAYS
)


def generator_profile(bewegung: int) -> MoveProfile:
    """The engine's profile (:func:`cwenv.engine.movement.profile_for`) under ``STRICT``."""
    return profile_for(STRICT, bewegung, eingeschraenkt=False)


def step_graph(bm: BattleMap, bewegung: int = SLOWEST) -> Graph:
    """Each cell's strict successors (see the module docstring)."""
    profile = generator_profile(bewegung)
    graph: Graph = [[] for _ in range(bm.size)]
    for a in range(bm.size):
        t = bm.terrain[a]
        if not (t.standable or t is Terrain.DOOR_CLOSED):
            continue
        graph[a] = [
            to
            for to, cost, kind, _ in terrain_edges(bm, a, profile)
            if kind != StepKind.JUMP and cost <= bewegung
        ]
    return graph


def _bfs(graph: Graph, starts: Iterable[int]) -> list[bool]:
    seen = [False] * len(graph)
    stack = []
    for s in starts:
        if not seen[s]:
            seen[s] = True
            stack.append(s)
    while stack:
        a = stack.pop()
        for b in graph[a]:
            if not seen[b]:
                seen[b] = True
                stack.append(b)
    return seen


def reverse(graph: Graph) -> Graph:
    back: Graph = [[] for _ in graph]
    for a, succ in enumerate(graph):
        for b in succ:
            back[b].append(a)
    return back


def core(bm: BattleMap, graph: Graph, rng: random.Random, tries: int = 4) -> list[bool]:
    """The largest set of floor cells found that all reach each other (from a few floor
    cells drawn by ``rng``)."""
    back = reverse(graph)
    floor = [i for i in range(bm.size) if bm.terrain[i] is Terrain.FLOOR]
    best: list[bool] = [False] * bm.size
    best_n = 0
    for _ in range(tries):
        if not floor:
            break
        s = rng.choice(floor)
        if best[s]:
            continue
        fwd, bwd = _bfs(graph, [s]), _bfs(back, [s])
        both = [f and b for f, b in zip(fwd, bwd, strict=True)]
        n = sum(both)
        if n > best_n:
            best, best_n = both, n
    return best


def pick_zone(
    bm: BattleMap,
    graph: Graph,
    ok: Sequence[bool],
    anchor: tuple[float, float],
    k: int,
) -> list[int]:
    """``k`` cells of ``ok`` floor near ``anchor``: the nearest one, then outwards by steps
    on one level (a roof, a room), so a zone is one blob; [] if ``ok`` has too few."""
    ax, ay = anchor
    cells = [i for i in range(bm.size) if ok[i] and bm.terrain[i] is Terrain.FLOOR]
    if len(cells) < k:
        return []
    first = min(cells, key=lambda i: ((bm.xs[i] - ax) ** 2 + (bm.ys[i] - ay) ** 2, i))
    order, seen = [first], {first}
    head = 0
    level = bm.elevation
    for same_level in (True, False):
        while head < len(order) and len(order) < k:
            a = order[head]
            head += 1
            for b in graph[a]:
                if b in seen or not ok[b] or bm.terrain[b] is not Terrain.FLOOR:
                    continue
                if same_level and abs(level[b] - level[a]) > 1:
                    continue
                seen.add(b)
                order.append(b)
        head = 0
    if len(order) < k:  # the blob is cut off by cover: take the nearest cells instead
        rest = sorted(
            (i for i in cells if i not in seen),
            key=lambda i: ((bm.xs[i] - ax) ** 2 + (bm.ys[i] - ay) ** 2, i),
        )
        order.extend(rest[: k - len(order)])
    return order[:k]


def playable_problems(game: Game) -> list[str]:
    """Why ``game`` is not a fair generated fight (empty when it is): every start cell
    must reach every other in the strict graph, and every Runner an exit if one counts."""
    bm = game.battlemap
    slowest = min(spec.movement for spec in game.roster)
    graph = step_graph(bm, slowest)
    starts = list(game.positions)
    fwd = _bfs(graph, starts[:1])
    bwd = _bfs(reverse(graph), starts[:1])
    out = []
    for spec, pos in zip(game.roster, starts, strict=True):
        if not (fwd[pos] and bwd[pos]):
            out.append(f"{spec.name} at {list(bm.cell(pos))} is cut off from the others")
    exit_counts = any(v.kind is VictoryKind.REACH_EXIT for v in game.victory)
    if exit_counts and not any(fwd[e] for e in bm.exits):
        out.append("no exit can be reached")
    return out
