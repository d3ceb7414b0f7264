"""Typed decisions (issue #14 item 2): every decision says what it is about.

A defence prompt carries the attack (attacker, mode, weapon/hack/manoeuvre index, its roll),
a Mumm prompt the check it belongs to (its purpose, the attack it rolls or answers), a
DAMAGE prompt the damage rolled. Agents used to rebuild this from the event log and got it
wrong in four situations, each shown below with the engine's own account.
"""

from __future__ import annotations

import random

import pytest

from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.payloads import (
    PAYLOAD_OF,
    AfterRoll,
    AttackPrompt,
    BeforeRoll,
    CheckPurpose,
    DamagePrompt,
    KeepPrompt,
)
from cwenv.engine.state import Combat
from cwenv.model.types import AttackMode, CheckValue, Maneuver, Side
from cwenv.rules.probe import ProbeResult
from tests.helpers import PISTOL, events_of, fighter, find, make_game, scripted
from tests.test_rules_cover import GRENADE, INIT, INIT3, TAIL, fight, shoot


def _roll(e: ev.CheckRolled) -> ProbeResult:
    return ProbeResult(e.probenwert, e.d1, e.d2, e.success, e.qs, e.volltreffer, e.patzer)


def _check_payload(c: Combat) -> None:
    """The payload has its kind's type and agrees with what the log shows."""
    d = c.decision
    assert d is not None
    about = d.payload
    assert isinstance(about, PAYLOAD_OF[d.kind]), (d.kind, about)
    if isinstance(about, AttackPrompt):
        assert about.attack.target == d.fighter
        assert about.attack.attacker == events_of(c, ev.AttackDeclared)[-1].attacker or (
            d.kind is DecisionKind.DEFEND  # an area attack's later targets
        )
        assert (about.attack.roll is None) is (d.kind is DecisionKind.NIEDERWERFEN)
    elif isinstance(about, DamagePrompt):
        rolled = events_of(c, ev.DamageRolled)[-1]
        assert (rolled.target, rolled.total) == (d.fighter, about.total)
    elif isinstance(about, KeepPrompt):
        mine = [e for e in events_of(c, ev.CheckRolled) if e.fighter == d.fighter]
        assert about.second == _roll(mine[-1])
    elif isinstance(about, AfterRoll):
        mine = [_roll(e) for e in events_of(c, ev.CheckRolled) if e.fighter == d.fighter]
        assert about.roll in mine or not about.roll.success  # M01 averts to a failure
    if isinstance(about, BeforeRoll | AfterRoll | KeepPrompt) and about.check.attack:
        who = about.check.attack
        me = who.attacker if about.check.purpose is CheckPurpose.ATTACK else who.target
        assert me == d.fighter


@pytest.mark.parametrize(
    ("scenario", "agent", "seed"),
    [
        ("duell", "taktiker", 1),
        ("boss", "taktiker", 2),
        ("feuergefecht", "greedy", 3),
        ("spiegelduell", "random", 4),
        ("eskorte", "stuermer", 5),
    ],
)
def test_every_decision_carries_its_payload(scenario: str, agent: str, seed: int) -> None:
    c = load_scenario(scenario).new_combat(seed)
    agents = {side: make_agent(agent) for side in (0, 1, 2)}
    rng = random.Random(seed)
    view = DecisionView(c)
    kinds = set()
    while not c.is_terminal():
        _check_payload(c)
        kinds.add(c.decision.kind if c.decision else None)
        side = int(c.fighters[c.current_fighter()].side)
        c.apply(agents[side].act(view, c.legal_actions(), rng))
    assert DecisionKind.TURN in kinds and len(kinds) > 2


def test_an_area_attack_on_its_thrower_keeps_the_attack_roll() -> None:
    """The grenade's blast takes in Kira herself: she defends first, and the Wache's defence
    prompt still carries the attack roll (2+3), not Kira's own defence (4+5), which the old
    log scan took for it."""
    game = make_game(
        [
            (fighter("Kira", fernkampf=14, weapons=(GRENADE,)), (0, 2)),
            (fighter("Wache", Side.GEGNER, lp=80), (1, 2)),
        ]
    )
    c = scripted(game, [*INIT, 2, 3, 4, 5, *TAIL])
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert c.decision is not None and c.decision.fighter == 0
    c.apply(find(c, ActionKind.DEFEND, arg=int(CheckValue.AUSWEICHEN)))
    d = c.decision
    assert d is not None and (d.kind, d.fighter) == (DecisionKind.DEFEND, 1)
    assert isinstance(d.payload, AttackPrompt)
    roll = d.payload.attack.roll
    assert roll is not None and (roll.d1, roll.d2, roll.probenwert) == (2, 3, 14)


def test_a_miss_through_living_cover_reaches_the_cover_as_it_hits() -> None:
    """C05: Kira aimed (+2, +1 QS) and missed through an enemy body (12 − … = 13 > 12);
    the body is hit by the roll without the cover malus (Probenwert 16) and without the aim,
    as the engine resolves it; the old log scan said Probenwert 12 with the aim."""
    body = fighter("Dazwischen", Side.GEGNER, lp=80)
    c = fight([*INIT3, 6, 7, 2, *TAIL], extra=((body, (3, 2)),))
    c.apply(find(c, ActionKind.ZIELEN, target=1))
    c.apply(find(c, ActionKind.END_TURN))
    while c.decision is not None and c.decision.fighter != 0:
        c.apply(c.legal_actions()[-1])
    shoot(c)
    d = c.decision
    assert d is not None and (d.kind, d.fighter) == (DecisionKind.DEFEND, 2)
    assert isinstance(d.payload, AttackPrompt)
    attack = d.payload.attack
    assert attack.roll == ProbeResult(16, 6, 7, True, 3, False, False) and attack.aim_qs == 0
    assert events_of(c, ev.Hit) == []


def test_a_free_defence_against_a_manoeuvre_is_a_defence() -> None:
    """X22 with maneuver_reaction_cost 0: the defence costs no reaction, so no ReactionUsed
    event says so; the Mumm prompt of the defence check still names it a defence against
    the Umreissen (the old log scan called it 'other')."""
    game = make_game(
        [
            (fighter("Kira", kampfkunst=14, mumm=3, mumm_max=3), (0, 2)),
            (fighter("Wache", Side.GEGNER, lp=80, kampfkunst=12, mumm=3, mumm_max=3), (1, 2)),
        ],
        maneuver_reaction_cost=0,
    )
    c = scripted(game, [*INIT, 2, 3, *TAIL])
    c.apply(find(c, ActionKind.MANEUVER, target=1, arg=int(Maneuver.UMREISSEN)))
    c.apply(find(c, ActionKind.PRE_NONE))
    c.apply(find(c, ActionKind.POST_ACCEPT))
    c.apply(find(c, ActionKind.DEFEND, arg=int(CheckValue.KAMPFKUNST)))
    d = c.decision
    assert d is not None and (d.kind, d.fighter) == (DecisionKind.PRE_CHECK, 1)
    assert events_of(c, ev.ReactionUsed) == []
    assert isinstance(d.payload, BeforeRoll)
    check = d.payload.check
    assert check.purpose is CheckPurpose.DEFENCE and check.attack is not None
    assert (check.attack.mode, check.attack.index) == (AttackMode.MANEUVER, Maneuver.UMREISSEN)


def test_a_second_reroll_is_weighed_against_the_result_that_stands() -> None:
    """M03 twice (mumm_rerolls_per_check 2): Kira keeps her first roll (17), rerolls again
    (14): the choice is between the result that stands (17) and the new one, and the prompt
    in between shows the standing 17 — the old log scan read the last two rolls (16, 14)."""
    game = make_game(
        [
            (fighter("Kira", fernkampf=14, mumm=5, mumm_max=5, weapons=(PISTOL,)), (0, 2)),
            (fighter("Wache", Side.GEGNER, lp=80), (5, 2)),
        ],
        mumm_rerolls_per_check=2,
    )
    c = scripted(game, [*INIT, 9, 8, 7, 9, 6, 8, *TAIL])
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    while c.decision is not None and c.decision.kind is DecisionKind.NIEDERWERFEN:
        c.apply(c.legal_actions()[-1])
    c.apply(find(c, ActionKind.PRE_NONE))
    c.apply(find(c, ActionKind.POST_REROLL))
    c.apply(find(c, ActionKind.KEEP_FIRST))
    d = c.decision
    assert d is not None and isinstance(d.payload, AfterRoll)
    assert (d.payload.roll.d1, d.payload.roll.d2) == (9, 8)  # the kept first roll
    c.apply(find(c, ActionKind.POST_REROLL))
    d = c.decision
    assert d is not None and isinstance(d.payload, KeepPrompt)
    assert (d.payload.first.total, d.payload.second.total) == (17, 14)


def test_typed_event_fields() -> None:
    """The fields code reads are enums: who knocks out whom, which table, which reaction."""
    game = make_game(
        [
            (fighter("Kira", fernkampf=14, weapons=(PISTOL,)), (0, 2)),
            (fighter("Wache", Side.GEGNER, lp=1, ausweichen=10), (5, 2)),
        ]
    )
    c = scripted(game, [*INIT, 2, 3, 9, 9, 10, *TAIL])
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    while c.decision is not None and c.decision.kind is DecisionKind.NIEDERWERFEN:
        c.apply(c.legal_actions()[-1])
    c.apply(find(c, ActionKind.DEFEND, arg=int(CheckValue.AUSWEICHEN)))
    declared = events_of(c, ev.AttackDeclared)[-1]
    assert (declared.mode, declared.index, declared.means) == (AttackMode.WEAPON, 0, "Pistole")
    assert [e.kind for e in events_of(c, ev.ReactionUsed)] == [ev.ReactionKind.DEFENCE]
    statuses = [e.status for e in events_of(c, ev.StatusChanged)]
    assert statuses and all(s.knocks_out for s in statuses)
