"""A plain greedy baseline: attack the most hurt enemy in reach, otherwise close in.

No tactics beyond that; the doctrines (Stürmer, Schütze, Taktiker) build smarter behaviour.
Prompts get the obvious answers: defend when possible, catch falls, avert death and Patzer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cwenv.agent import DecisionView
from cwenv.engine.actions import Action, ActionKind, DecisionKind

PROMPT_PREFERENCE = (
    ActionKind.DEFEND,
    ActionKind.BLOCKADE_ATTACK,
    ActionKind.CATCH_FALL,
    ActionKind.AVERT_DEATH,
    ActionKind.POST_AVERT,
    ActionKind.KEEP_SECOND,
    ActionKind.PRE_NONE,
    ActionKind.POST_ACCEPT,
    ActionKind.STAY_UP,
    ActionKind.TAKE_DAMAGE,
    ActionKind.DRAG_STOP,
)


class GreedyAgent:
    name = "greedy"
    description = "greift den am stärksten verletzten Gegner in Reichweite an, sonst rückt er vor"

    def native_twin(self) -> object | None:
        """agents/native/rollouts.cpp's greedy, which makes every choice this agent makes
        (None where the module is not built)."""
        from agents.native_rollouts import native_policy

        return native_policy(self)

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        d = view.decision
        if d.kind is DecisionKind.TURN:
            return self._turn(view, legal, rng)
        if d.kind is DecisionKind.KEEP:
            return _keep_better(view, legal)
        for kind in PROMPT_PREFERENCE:
            for a in legal:
                if a.kind is kind:
                    return a
        return legal[0]

    def _turn(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        fighters = view.fighters
        attacks = [a for a in legal if a.kind is ActionKind.ATTACK and fighters[a.target].standing]
        if attacks:
            return min(attacks, key=lambda a: (fighters[a.target].lp, a.arg))
        me = view.fighter
        enemies = [f for f in fighters if f.side is not me.side and f.standing]
        moves = [a for a in legal if a.kind is ActionKind.MOVE]
        if enemies and moves:
            bm = view.battlemap
            xs, ys = bm.xs, bm.ys
            spots = [(xs[e.pos], ys[e.pos]) for e in enemies]
            here = min(bm.distance(me.pos, e.pos) for e in enemies)
            best, best_gap = None, here
            for a in moves:  # the nearest cell to an enemy, ties to the lowest index
                gap = bm.nearest(a.cell, spots, here)  # capped at here: only nearer cells count
                if gap < best_gap or (gap == best_gap and best is not None and a.cell < best.cell):
                    best, best_gap = a, gap
            if best is not None:
                return best
        reload = [a for a in legal if a.kind is ActionKind.RELOAD]
        if reload:
            return reload[0]
        for a in legal:
            if a.kind is ActionKind.END_TURN:
                return a
        return legal[rng.randrange(len(legal))]


def _keep_better(view: DecisionView, legal: Sequence[Action]) -> Action:
    """M03: keep whichever of the two rolls is the better result."""
    from cwenv.engine.payloads import KeepPrompt

    about = view.decision.payload
    if not isinstance(about, KeepPrompt):
        return legal[-1]
    first, second = about.first, about.second
    second_better = (second.success, second.qs, not second.patzer) >= (
        first.success,
        first.qs,
        not first.patzer,
    )
    want = ActionKind.KEEP_SECOND if second_better else ActionKind.KEEP_FIRST
    return next(a for a in legal if a.kind is want)
