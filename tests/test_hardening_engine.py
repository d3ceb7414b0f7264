"""Fights that cannot end, env actions that are not integers, names that drive the
terminal (issue #19, items 8 and 13)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cwenv.content import ConfigError, load_scenario
from cwenv.engine.actions import ActionKind
from cwenv.engine.game import DECISION_CAP
from cwenv.engine.state import DECISION_CAP_REASON
from cwenv.envs.errors import InvalidActionError
from cwenv.envs.kampfrunde import KampfrundeEnv
from tests.helpers import run_cwenv

SEALED = """\
name: Versiegelt
map:
  name: Zwei Zellen
  grid: |
    #######
    #R.#.G#
    #######
  spawn_chars:
    R: runner
    G: gegner
{extra}fighters:
  - archetype: runner-veteran
    spawn: runner
  - archetype: konzernwache
    spawn: gegner
"""


def test_validate_warns_about_a_fight_that_cannot_end(tmp_path: Path) -> None:
    sealed = tmp_path / "versiegelt.yaml"
    sealed.write_text(SEALED.format(extra=""), encoding="utf-8")
    out = run_cwenv("scenarios", "validate", str(sealed), "--kind", "scenarios")
    assert out.returncode == 0  # valid, but:
    assert "no walkable path between the Runners and the Gegner" in out.stderr
    assert "round_limit" in out.stderr
    limited = tmp_path / "begrenzt.yaml"
    limited.write_text(SEALED.format(extra="round_limit: 5\n"), encoding="utf-8")
    assert "warning" not in run_cwenv("scenarios", "validate", str(limited)).stderr


def test_every_shipped_scenario_validates_without_a_warning() -> None:
    out = run_cwenv("scenarios", "validate")
    assert out.returncode == 0, out.stderr
    assert "warning" not in out.stderr


def test_a_fight_that_cannot_end_stops_at_the_decision_cap(tmp_path: Path) -> None:
    sealed = tmp_path / "versiegelt.yaml"
    sealed.write_text(SEALED.format(extra="decision_cap: 300\n"), encoding="utf-8")
    out = run_cwenv("fight", str(sealed), "--runners", "taktiker", "--nscs", "greedy")
    assert out.returncode == 0, out.stderr
    assert DECISION_CAP_REASON in out.stdout
    combat = load_scenario(sealed).new_combat(seed=3)
    while not combat.is_terminal():
        combat.apply(combat.legal_actions()[-1])
    assert combat.outcome is not None and combat.outcome.winner is None
    assert combat.outcome.reason == DECISION_CAP_REASON and len(combat.history) == 300


def test_the_default_decision_cap_is_documented_and_far_above_shipped_fights() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "scenarios.md").read_text()
    assert "`decision_cap`" in text and str(DECISION_CAP) in text
    assert load_scenario("strassenschlacht").decision_cap == DECISION_CAP


def test_a_decision_cap_below_100_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(SEALED.format(extra="decision_cap: 5\n"), encoding="utf-8")
    with pytest.raises(ConfigError, match="decision_cap"):
        load_scenario(path)


@pytest.mark.parametrize("bad", [1.7, 0.0, "0", True, None, np.float32(2.0), np.array([0, 1])])
def test_env_step_takes_only_integers(bad: object) -> None:
    env = KampfrundeEnv(scenario="duell", side="runner", opponent="random")
    env.reset(seed=1)
    before = env.combat.clone().history
    with pytest.raises(InvalidActionError, match="integer"):
        env.step(bad)
    assert env.combat.history == before


def test_env_step_takes_numpy_integers() -> None:
    env = KampfrundeEnv(scenario="duell", side="runner", opponent="random")
    _, info = env.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for action in (np.int64(legal), np.array(legal), np.array([legal])):
        env.reset(seed=1)
        env.step(action)


@pytest.mark.parametrize("name", ["Kenji\\e[2J", "Kenji\\u001b]0;x\\u0007", "A\\u202eB"])
def test_names_with_control_characters_are_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: Kontrolle\nmap: dojo\nfighters:\n"
        f'  - {{archetype: runner-veteran, name: "{name}", spawn: runner}}\n'
        "  - {archetype: cyber-samurai, spawn: gegner}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=r"fighters\.0\.name: contains the control character"):
        load_scenario(path)


STUCK = """\
name: Erstarrt
map:
  name: Zellen
  grid: |
    #######
    #R...G#
    #######
  spawn_chars: {R: runner, G: gegner}
decision_cap: 100
fighters:
  - {archetype: runner-lehrling, name: A, weapons: [], items: [], cyberware: [], bewegung: 0,
     spawn: runner}
  - {archetype: konzernwache, name: B, weapons: [], items: [], cyberware: [], bewegung: 0,
     spawn: gegner}
"""


def test_a_fight_where_nobody_ever_has_a_choice_stops_at_the_cap(tmp_path: Path) -> None:
    """Every turn is a forced Zug beenden: no decision is ever posed, so the cap counts the
    choices the rules take alone too (the combat used to loop forever in its constructor)."""
    path = tmp_path / "erstarrt.yaml"
    path.write_text(STUCK, encoding="utf-8")
    combat = load_scenario(path).new_combat(seed=1)
    assert combat.is_terminal() and combat.history == []
    assert combat.outcome is not None and combat.outcome.reason == DECISION_CAP_REASON
    assert combat.forced == 100
    out = run_cwenv("fight", str(path), "--quiet")
    assert out.returncode == 0 and DECISION_CAP_REASON in out.stdout


def test_an_illegal_action_is_named_plainly_with_its_reason() -> None:
    from cwenv.engine.actions import Action
    from cwenv.engine.state import IllegalActionError

    combat = load_scenario("duell").new_combat(seed=1)
    actor = combat.current_fighter()
    with pytest.raises(IllegalActionError) as err:
        combat.apply(Action(ActionKind.ATTACK, actor, actor, arg=0))
    text = str(err.value)
    assert text.startswith(f"illegal action ATTACK(actor={actor}, target={actor}, arg=0) for")
    assert "<ActionKind" not in text and text.rsplit(": ", 1)[1]
