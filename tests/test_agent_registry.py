"""Agents found through the ``cwenv.agents`` entry points (issue #14 item 3).

A third-party package is simulated by a module and a ``.dist-info`` folder on ``sys.path``,
the way ``pip install`` leaves one, so the real ``importlib.metadata`` lookup finds it; the
package is the example of ``docs/agents.md``.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cwenv.agent_registry as registry
from cwenv.agent_registry import AgentPluginError, UnknownAgentError, make_agent
from cwenv.runner.task import load_game, play_combat
from tests.helpers import run_cwenv

DOCS = Path(__file__).resolve().parent.parent / "docs" / "agents.md"


def documented_plugin() -> str:
    """The example package of ``docs/agents.md`` (so the guide is the code tested here)."""
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("```python\n# meine_agenten.py\n", 1)[1].split("```", 1)[0]
    return block + "\nnot_a_resolver = object()\n"


PLUGIN = documented_plugin()


def install(site: Path, dist: str, module: str, source: str, points: dict[str, str]) -> None:
    """``module.py`` and the metadata ``pip install`` writes for distribution ``dist``."""
    (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = "".join(f"{name} = {value}\n" for name, value in points.items())
    (info / "entry_points.txt").write_text(f"[cwenv.agents]\n{lines}", encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on ``sys.path`` for fake installed packages; the registry reads it afresh."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    registry.resolvers.cache_clear()
    yield folder
    for name in ("meine_agenten", "kaputte_agenten"):
        sys.modules.pop(name, None)
    registry.resolvers.cache_clear()


@pytest.fixture
def plugin(site: Path) -> Path:
    install(site, "meine-agenten", "meine_agenten", PLUGIN, {"meine": "meine_agenten:resolver"})
    return site


def test_a_third_party_package_adds_an_agent(plugin: Path) -> None:
    agent = make_agent("vorsichtig")
    assert type(agent).__module__ == "meine_agenten" and agent.name == "vorsichtig"
    assert type(make_agent("taktiker")).__name__ == "Taktiker"  # the project's still resolve
    assert {"vorsichtig", "taktiker", "greedy"} <= set(registry.known_specs())
    assert ("vorsichtig", "nimmt immer die erste legale Aktion") in registry.describe_agents()


def test_it_plays_restricted_games_like_any_agent(plugin: Path) -> None:
    combat = play_combat(load_game("duell"), "vorsichtig!ZIELEN", "greedy", 3)
    assert combat.is_terminal()


def test_its_names_are_in_the_unknown_agent_message(plugin: Path) -> None:
    with pytest.raises(UnknownAgentError) as exc:
        make_agent("vorsichtg")
    message = str(exc.value)
    assert "unknown agent 'vorsichtg' (did you mean 'vorsichtig'?)" in message
    known = message.partition("; known: ")[2].split(", ")
    assert "vorsichtig" in known and "taktiker" in known


def test_the_commands_use_it(plugin: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin), *sys.path])}
    listed = run_cwenv("agents", "list", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "vorsichtig" in listed.stdout
    played = run_cwenv(
        "simulate", "duell", "--runners", "vorsichtig", "--games", "2", "--json", env=env
    )
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout.splitlines()[-1])["games"] == 2


def test_a_broken_plugin_is_named_not_a_traceback(site: Path) -> None:
    install(
        site,
        "kaputte-agenten",
        "kaputte_agenten",
        "import gibt_es_nicht\n",
        {"kaputt": "kaputte_agenten:resolver"},
    )
    with pytest.raises(AgentPluginError) as exc:
        make_agent("greedy")
    message = str(exc.value)
    assert "entry point 'kaputt' = 'kaputte_agenten:resolver'" in message
    assert "gibt_es_nicht" in message
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    result = run_cwenv("simulate", "duell", "--games", "1", env=env)
    assert result.returncode == 1
    assert "kaputte_agenten:resolver" in result.stderr and "Traceback" not in result.stderr


def test_an_entry_point_that_is_no_resolver_is_named(site: Path) -> None:
    install(site, "meine-agenten", "meine_agenten", PLUGIN, {"x": "meine_agenten:not_a_resolver"})
    with pytest.raises(AgentPluginError, match=r"'x' = 'meine_agenten:not_a_resolver'.*"):
        make_agent("greedy")


def test_without_any_agent_package_the_message_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "resolvers", lambda: ())
    with pytest.raises(UnknownAgentError, match="no agent package is registered"):
        make_agent("taktiker")


class _Only:
    """A resolver that knows one name and builds a marker agent for it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.built: list[Any] = []

    def known(self) -> list[str]:
        return [self.name]

    def resolve(self, spec: str) -> Any:
        if spec != self.name:
            return None
        agent = type("Marker", (), {"name": spec, "act": lambda s, v, legal, rng: legal[0]})()
        self.built.append(agent)
        return agent


@pytest.mark.parametrize("name", ["taktiker", "greedy"])
def test_the_default_opponent_comes_from_the_registry(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    from cwenv.envs.opponents import opponent_factory

    only = _Only(name)
    monkeypatch.setattr(registry, "resolvers", lambda: (only,))
    factory, chosen = opponent_factory(None)
    assert chosen == name
    assert factory() is only.built[-1]  # built by the registry, not a hard-wired class


def test_exploit_search_trains_with_the_trainer_it_is_given(tmp_path: Path) -> None:
    """``cwenv.stress`` holds no training code: the command hands the trainer in."""
    from cwenv.stress.exploit import ExploitConfig, train_learner

    calls: list[tuple[Path, bool, Path]] = []

    def trainer(config_path: Path, *, resume: bool, runs: Path) -> object:
        calls.append((config_path, resume, runs))
        return runs / "exploit"

    config = ExploitConfig("duell", "greedy", 64)
    bundle = train_learner(config, tmp_path, trainer)
    assert calls == [(tmp_path / "training.yaml", False, tmp_path / "runs")]
    assert (tmp_path / "training.yaml").is_file()
    assert bundle == tmp_path / "runs" / "exploit" / "bundle"
