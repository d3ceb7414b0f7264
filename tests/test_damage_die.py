"""A06: one W10 + bonus per QS is the only damage roll; a spec has no die to set (#15 item 14).

``WeaponSpec.die`` / ``HackSpec.die`` used to exist: the engine ignored them (it always rolls
a W10) while the env's damage tables used them, so a weapon built in code with ``die=6`` was
seen by the policy as weaker than it hit. The field is gone; content never had it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from cwenv.content import ConfigError, Library, validate_file
from cwenv.envs.tables import GameTables
from cwenv.model.specs import HackSpec, WeaponSpec
from cwenv.model.types import Side, WeaponKind
from tests.helpers import fighter, make_game
from tests.test_rules_damage import last_damage, strike

ONE_QS = (1, 2)  # attack dice that hit with QS 1: exactly one damage die


def test_a06_a_spec_has_no_damage_die() -> None:
    """Asking a code-built weapon or hack for a W6 is refused, not silently rolled as a W10."""
    with pytest.raises(TypeError, match="die"):
        WeaponSpec("Messer", WeaponKind.MELEE, die=6)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="die"):
        HackSpec("Stoss", die=6)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("weapons", "name: X\nkind: nahkampf\ndamage: W10\ndie: 6\n"),
        ("hacks", "name: X\ndamage: W10\ndie: 6\n"),
    ],
)
def test_a06_a_die_field_in_content_is_named(tmp_path: Path, kind: str, text: str) -> None:
    path = tmp_path / kind / "x.yaml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        validate_file(path)
    (issue,) = [i for i in info.value.issues if i.path == ("die",)]
    assert (
        issue.line == len(text.splitlines())
        and "unknown field" in issue.message
        and "damage" in issue.message
    )


def _engine_mean(weapon: WeaponSpec) -> Fraction:
    """The engine's exact expected damage of one QS against an unarmoured target: every
    face of the single damage die, each once."""
    totals = [last_damage(strike(ONE_QS, [face], weapon=weapon)) for face in range(1, 11)]
    assert all(len(d.rolls) == 1 for d in totals)
    return Fraction(sum(d.total for d in totals), 10)


def _weapons() -> list[WeaponSpec]:
    lib = Library()
    shipped = [lib.weapon(name) for name in lib.names("weapons")]
    # one of each bonus the shipped weapons use, rolled as a melee strike (only the bonus
    # matters to the roll), plus W10−1, the lowest bonus the env's mean holds for
    bonuses = sorted({w.bonus for w in shipped} | {-1})
    return [WeaponSpec(f"W10{b:+d}", WeaponKind.MELEE, bonus=b) for b in bonuses]


@pytest.mark.parametrize("weapon", _weapons(), ids=lambda w: w.name)
def test_a06_env_damage_table_matches_the_engine(weapon: WeaponSpec) -> None:
    """The policy's average damage of a weapon is what the engine's W10 + bonus deals."""
    game = make_game(
        [(fighter("A", weapons=(weapon,)), (1, 1)), (fighter("B", Side.GEGNER), (2, 1))]
    )
    env_mean = GameTables(game).w_damage[0, 0]
    assert Fraction(float(env_mean)) == _engine_mean(weapon)
