"""M08 and Zehrend (issue #15 item 5, X55): 'Gib 2 Mummpunkte aus, um einen Zustand deines
Runners sofort aufzuheben. Der Zustand Sterbend kann auf diese Weise nicht aufgehoben
werden' — Zehrend is a Zustand (A07 'Zustand «Zehrend (LP, Blutung)»'), so Mumm ends it;
one whose cause is a danger zone the fighter still stands in is a named reading (D03)."""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ZEHREND_ARG, Action, ActionArgError, ActionKind
from cwenv.engine.conditions import gain_condition
from cwenv.engine.damage import gain_zehrend
from cwenv.engine.state import Combat
from cwenv.model.types import Condition, Side
from cwenv.rules.options import ZehrendShake
from tests.helpers import events_of, fighter, find, init_dice, lines, make_game, scripted

SHAKE_BLUTUNG = ZEHREND_ARG  # the first Zehrend held


def bleeding(rows: list[str] | None = None, **options: Any) -> Combat:
    """Kira (Mumm 5, LP 30) bleeds (Zehrend Blutung) in her turn, a Wache far off."""
    game = make_game(
        [
            (fighter("Kira", reflexe=12, mumm=5, mumm_max=5), (1, 1)),
            (fighter("Wache", Side.GEGNER), (8, 1)),
        ],
        rows=rows,
        **options,
    )
    c = scripted(game, init_dice(game) + [7, 8] + [5] * 60)
    assert gain_zehrend(c, c.fighters[0], "Blutung") is None
    c.refresh_legal()
    return c


def zehrend_shakes(c: Combat) -> list[Action]:
    return [
        a for a in c.legal_actions() if a.kind is ActionKind.MUMM_SHAKE and a.arg >= ZEHREND_ARG
    ]


DECLINE = (ActionKind.END_TURN, ActionKind.TAKE_DAMAGE, ActionKind.PRE_NONE, ActionKind.POST_ACCEPT)


def end_round(c: Combat) -> None:
    """Every turn ended, every Mumm prompt declined, until the round is over."""
    while c.round == 1 and c.outcome is None:
        c.apply(next(a for a in c.legal_actions() if a.kind in DECLINE))


def test_m08_ends_zehrend_and_its_damage_at_round_end() -> None:
    """A bleeding runner with Mumm is offered M08 for the Zehrend; 2 Mumm end it at once and
    the round's end deals no 1W10 (without the shake: 7 damage, then the check)."""
    c = bleeding()
    kira = c.fighters[0]
    assert zehrend_shakes(c) == [Action(ActionKind.MUMM_SHAKE, 0, arg=SHAKE_BLUTUNG)]
    c.apply(zehrend_shakes(c)[0])
    assert kira.zehrend == () and kira.mumm == 3
    assert "nicht mehr zehrend (Blutung) (mit Mumm aufgehoben)" in "\n".join(lines(c))
    end_round(c)
    assert kira.lp == 30, lines(c)
    assert not [e for e in events_of(c, ev.CheckRolled) if "Zehrend" in e.purpose]


def test_without_the_shake_the_zehrend_bites() -> None:
    """The control: the same dice without M08 cost 7 LP at the round's end (Z08)."""
    c = bleeding()
    end_round(c)
    assert c.fighters[0].lp == 23, lines(c)


def test_m08_still_cannot_end_sterbend() -> None:
    """'Der Zustand Sterbend kann auf diese Weise nicht aufgehoben werden'."""
    c = bleeding()
    gain_condition(c, c.fighters[0], Condition.STERBEND)
    c.refresh_legal()
    shakes = [a for a in c.legal_actions() if a.kind is ActionKind.MUMM_SHAKE]
    assert Condition.STERBEND not in [a.arg for a in shakes]
    why = c.why_illegal(Action(ActionKind.MUMM_SHAKE, 0, arg=int(Condition.STERBEND)))
    assert why is not None and "M08 cannot end sterbend" in why


def test_the_arg_names_a_zehrend_not_a_condition() -> None:
    """ARG_OF: MUMM_SHAKE's arg from ZEHREND_ARG on names a Zehrend slot; ``condition``
    refuses it cleanly and why_illegal names a slot the fighter does not hold."""
    a = Action(ActionKind.MUMM_SHAKE, 0, arg=ZEHREND_ARG + 1)
    assert a.zehrend_slot == 1
    assert Action(ActionKind.MUMM_SHAKE, 0, arg=int(Condition.BENOMMEN)).zehrend_slot is None
    with pytest.raises(ActionArgError):
        _ = a.condition
    why = bleeding().why_illegal(a)
    assert why is not None and "holds no Zehrend 1" in why


def test_x55_never_is_the_old_engine() -> None:
    c = bleeding(zehrend_mumm_shake=ZehrendShake.NEVER)
    assert zehrend_shakes(c) == []
    why = c.why_illegal(Action(ActionKind.MUMM_SHAKE, 0, arg=SHAKE_BLUTUNG))
    assert why is not None and "X55" in why


FIRE_ROWS = [".........."] + [".*........"] + ["." * 10] * 3


def burning(reading: ZehrendShake) -> Combat:
    """Kira steps into burning ground next to her (D03: Zehrend Feuer) and stays in it."""
    game = make_game(
        [
            (fighter("Kira", reflexe=12, mumm=5, mumm_max=5), (2, 1)),
            (fighter("Wache", Side.GEGNER), (8, 1)),
        ],
        rows=FIRE_ROWS,
        zehrend_mumm_shake=reading,
    )
    c = scripted(game, init_dice(game) + [6, 9, 9] + [5] * 60)
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(1, 1)))
    assert c.fighters[0].zehrend == ("Feuer",), lines(c)
    return c


def test_x55_reapplied_shaken_in_the_zone_starts_again_at_round_end() -> None:
    """Default: M08 ends the Zustand, but the fire still burns (D03) — standing in it at the
    round's end starts the Zehrend again, and it deals its 1W10 (6, armour 0)."""
    c = burning(ZehrendShake.REAPPLIED)
    kira = c.fighters[0]
    c.apply(zehrend_shakes(c)[0])
    assert kira.zehrend == ()
    end_round(c)
    assert kira.zehrend == ("Feuer",), lines(c)
    assert kira.lp == 30 - 6, lines(c)


def test_x55_refused_in_zone() -> None:
    """refused_in_zone: while the fighter stands in the fire, M08 cannot end its Zehrend."""
    c = burning(ZehrendShake.REFUSED_IN_ZONE)
    assert zehrend_shakes(c) == []
    why = c.why_illegal(Action(ActionKind.MUMM_SHAKE, 0, arg=SHAKE_BLUTUNG))
    assert why is not None and "refused_in_zone" in why
