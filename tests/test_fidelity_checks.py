"""Fidelity to the German rules text (issue #15): the checks, attacks, Mumm spends and
conditions where the engine read the text differently from what it says, and the open
readings turned into named rule options (tests fail on the code before each fix)."""

from __future__ import annotations

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.model.types import Side
from tests.helpers import fighter
from tests.test_rules_cover import INIT3, TAIL, fight, of, shoot


# -- C05 with a Pasch (item 12) -------------------------------------------------------------
@pytest.mark.parametrize(("d10", "redirected"), [(3, True), (7, False)])
def test_c05_a_pasch_that_fails_only_by_living_cover(d10: int, redirected: bool) -> None:
    """C05 'Wäre der Angriff ohne den Deckungsabzug erfolgreich gewesen': 6+6 = 12 fails
    against Fernkampf 14 − 4 (an enemy between) but would have hit without the cover, so
    the 50 % is rolled — a W10 of 3 hits the covering creature with the roll's Volltreffer
    (QS from Probenwert 14); a 7 spares it and the failed Pasch stays a Patzer (P06)."""
    body = fighter("Dazwischen", Side.GEGNER, lp=80)
    c = fight([*INIT3, 6, 6, d10, *TAIL], extra=((body, (3, 2)),))
    shoot(c)
    assert of(c, ev.CheckRolled)[-1].probenwert == 10
    tables = [e.table for e in of(c, ev.TableRolled)]
    if not redirected:
        assert not of(c, ev.AttackRedirected)
        assert tables == [ev.TableKind.PATZER]
        return
    assert of(c, ev.AttackRedirected)[-1] == ev.AttackRedirected(0, 1, 2, d10)
    assert c.decision.kind is DecisionKind.DEFEND and c.decision.fighter == 2
    c.apply(next(a for a in c.legal_actions() if a.kind is ActionKind.NO_DEFENCE))
    hit = of(c, ev.Hit)[-1]
    assert hit.target == 2 and hit.qs == 3
    assert ev.TableKind.PATZER not in tables
    assert ev.TableKind.VOLLTREFFER in [e.table for e in of(c, ev.TableRolled)]
