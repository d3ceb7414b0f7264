"""The mirrored duel: the same fighter on both sides of a mirror-symmetric map.

It is the scenario on which MCTS is measured against the best doctrine (docs/agents.md),
because only a balanced fight leaves a both-sides win rate room above 50 %.
"""

from __future__ import annotations

import dataclasses

from cwenv.content import load_scenario


def test_both_fighters_are_the_same_but_for_name_and_side() -> None:
    combat = load_scenario("spiegelduell").new_combat(1)
    a, b = (dataclasses.asdict(f.spec) for f in combat.fighters)
    differing = {k for k in a if a[k] != b[k]}
    assert differing == {"name", "side"}


def test_the_map_and_the_starts_mirror_left_to_right() -> None:
    game = load_scenario("spiegelduell")
    bm = game.battlemap
    rows = bm.render_rows()
    assert all(row == row[::-1] for row in rows)
    (ax, ay), (bx, by) = ((p % bm.width, p // bm.width) for p in game.positions)
    assert ay == by
    assert ax == bm.width - 1 - bx
