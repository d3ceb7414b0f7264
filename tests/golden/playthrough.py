"""Narrated golden playthroughs: seeded games a reader can follow line by line.

Next to the hash digests (``tests/test_golden_digests.py``), which say *that* play
changed, these files say *how*: every decision with its fighter, its kind and every legal
choice as the terminal game's menu shows it (attacks with their exact odds), the choice
taken, and every event as German narration (OpenSpiel's ``playthroughs`` style). A rule
change shows up as a readable diff. Regenerate all of them with::

    python -m tests.golden.playthrough

and read the diff before committing it.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.engine.actions import ActionKind
from cwenv.engine.narration import narrate, rounds_text
from cwenv.engine.state import Combat
from cwenv.model.types import Side
from cwenv.play.menu import MOVE_KINDS, label
from cwenv.runner.seeds import side_rngs

FOLDER = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Playthrough:
    """One recorded game: scenario, rule variant, the agent of each side, the seed."""

    scenario: str
    runners: str
    nscs: str
    seed: int
    rules: str | None = None

    @property
    def file(self) -> Path:
        rules = f"-{self.rules}" if self.rules else ""
        return FOLDER / f"{self.scenario}{rules}-{self.runners}-{self.nscs}-{self.seed}.txt"


PLAYTHROUGHS = (
    Playthrough("duell", "stuermer", "taktiker", 1),  # melee, 13 Kampfmanöver, Mumm
    Playthrough("spiegelduell", "schuetze", "taktiker", 2),  # the mirrored duel, Mumm
    Playthrough("feuergefecht", "greedy", "greedy", 3, "passes"),  # 4v4, activation passes
    Playthrough("boss", "taktiker", "stuermer", 4),  # a boss: a hack, Zielen, manoeuvres
)


def _choices(c: Combat) -> str:
    """Every legal choice: menu entries by their label, cell choices as coordinates."""
    legal = c.legal_actions()
    parts = [label(c, a) for a in legal if a.kind not in MOVE_KINDS]
    for kind in (ActionKind.MOVE, ActionKind.SCHWIERIG, ActionKind.DRAG_TO):
        cells = sorted(tuple(c.bm.cell(a.cell)) for a in legal if a.kind is kind)
        if cells:
            listed = " ".join(f"({x},{y})" for x, y in cells)
            parts.append(f"{kind.label} [{len(cells)}]: {listed}")
    return " | ".join(parts)


def render(p: Playthrough) -> str:
    """The transcript of ``p``, decision by decision."""
    game = load_scenario(p.scenario, rules=p.rules)
    combat = game.new_combat(p.seed)
    agents = {int(Side.RUNNER): make_agent(p.runners), int(Side.GEGNER): make_agent(p.nscs)}
    agents[int(Side.NEUTRAL)] = agents[int(Side.GEGNER)]
    rngs: dict[int, random.Random] = side_rngs(p.seed)
    view = DecisionView(combat)
    names = game.names
    lines = [
        f"# {game.name} ({p.scenario}), rules {p.rules or 'default'}, seed {p.seed}",
        f"# Runner: {p.runners}; Gegner: {p.nscs}",
        "# regenerate: python -m tests.golden.playthrough",
        "",
    ]
    shown = 0
    step = 0
    while True:
        lines += [f"  {narrate(e, names)}" for e in combat.events[shown:]]
        shown = len(combat.events)
        if combat.is_terminal():
            break
        decision = combat.decision
        if decision is None:  # pragma: no cover - a live combat always has one
            raise RuntimeError("no decision pending")
        who = names[decision.fighter]
        step += 1
        lines.append(f"[{step}] {who}: {decision.kind.label}")
        lines.append(f"    legal: {_choices(combat)}")
        side = int(combat.fighters[decision.fighter].side)
        action = agents[side].act(view, combat.legal_actions(), rngs[side])
        chosen = label(combat, action)
        if action.kind in MOVE_KINDS:
            chosen = f"{action.kind.label} ({', '.join(map(str, combat.bm.cell(action.cell)))})"
        lines.append(f"    gewählt: {chosen}")
        combat.apply(action)
    outcome = combat.outcome
    if outcome is not None:
        winner = outcome.winner.label if outcome.winner is not None else "Unentschieden"
        lines.append(
            f"# Ergebnis: {winner} nach {rounds_text(outcome.rounds)} ({outcome.reason}), "
            f"{step} Entscheidungen"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    for p in PLAYTHROUGHS:
        p.file.write_text(render(p), encoding="utf-8")
        print(f"wrote {p.file.relative_to(FOLDER.parent.parent)}", file=sys.stderr)


if __name__ == "__main__":
    main()
