"""State invariants checked after every step of random play (issue #2)."""

from __future__ import annotations

from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.state import Combat
from cwenv.model.types import Condition, Skill
from cwenv.rules.options import BenommenReactions, DeathThreshold

KEPT = BenommenReactions.KEPT

BENOMMEN_TURN = {ActionKind.MUMM_PROBE, ActionKind.MUMM_SHAKE, ActionKind.END_TURN}
REACTIONS = {
    ActionKind.DEFEND,
    ActionKind.DROP_PRONE,
    ActionKind.BLOCKADE_ATTACK,
    ActionKind.CATCH_FALL,
}


def check_invariants(c: Combat) -> None:
    for f in c.fighters:
        spec = f.spec
        assert f.lp <= spec.lp, f"{f.name}: LP {f.lp} above maximum {spec.lp}"
        pending_death = (
            c.decision is not None
            and c.decision.kind is DecisionKind.DEATH
            and c.decision.fighter == f.idx
        )
        if not f.dead and not pending_death:
            limit = -spec.skill(Skill.UNBEUGSAMKEIT)
            if c.options.death_threshold is DeathThreshold.BELOW:
                limit -= 1  # X05: dies only below −Unbeugsamkeit
            assert f.lp > limit, f"{f.name}: alive at LP {f.lp} (death at {limit})"
        assert f.reactions >= 0, f"{f.name}: negative reactions"
        assert 0 <= f.mumm <= f.mumm_max, f"{f.name}: Mumm {f.mumm} outside 0..{f.mumm_max}"
        if f.lp > 0 and not f.dead and not f.stabilised:
            assert not f.has(Condition.STERBEND) or f.down, f"{f.name}: sterbend while up"
        if f.on_map:
            assert f.pos in c.occupant, f"{f.name}: cell not in the occupancy map"
        assert all(a >= 0 for a in f.ammo), f"{f.name}: negative ammo"
    for cell, idx in c.occupant.items():
        assert c.fighters[idx].pos == cell and c.fighters[idx].on_map, "stale occupancy entry"
    if not c.is_terminal() and not any(type(fr).__name__ == "MoveFrame" for fr in c._stack):
        # Only a mover interrupted while passing an ally may share a cell.
        assert len(c.occupant) == sum(1 for f in c.fighters if f.on_map), "two in one cell"
    if c.is_terminal():
        assert c.decision is None and c.legal_actions() == []
        return
    d = c.decision
    assert d is not None, "no decider while the combat runs"
    legal = c.legal_actions()
    assert legal, f"empty legal actions at {d.kind.name}"
    assert len(set(legal)) == len(legal), "duplicate legal actions"
    assert len(legal) > 1 or d.kind is DecisionKind.TURN, f"a single choice at {d.kind.name}"
    decider = c.fighters[d.fighter]
    assert not decider.dead, f"dead {decider.name} decides {d.kind.name}"
    if d.kind is DecisionKind.TURN:
        assert decider.standing, f"{decider.name} takes a turn while down"
        if decider.has(Condition.BENOMMEN):
            kinds = {a.kind for a in legal}
            assert kinds <= BENOMMEN_TURN, f"benommen {decider.name} may {kinds}"
    elif decider.has(Condition.BENOMMEN) and c.options.benommen_reactions is not KEPT:
        reacting = {a.kind for a in legal} & REACTIONS
        assert not reacting, f"benommen {decider.name} may react: {reacting}"  # X24, M08
    for a in legal:
        assert a.actor == d.fighter or d.kind is DecisionKind.ORDER, f"{a} not by the decider"
