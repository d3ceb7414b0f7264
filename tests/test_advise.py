"""cwenv advise (issue #8): the GM describes a situation, the agent recommends a move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cwenv.cli.main import app
from cwenv.content import load_scenario
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.narration import narrate_all
from cwenv.play.advise import load_situation
from cwenv.yamlio import ConfigError

SITUATIONS = Path(__file__).resolve().parents[1] / "configs" / "situations"
runner = CliRunner()


@pytest.mark.parametrize("name", ["wache-am-zug", "nahkampf-duell", "dach-scharfschuetze"])
@pytest.mark.parametrize("agent", ["greedy", "random"])
def test_advice_is_a_legal_action(name: str, agent: str) -> None:
    path = SITUATIONS / f"{name}.yaml"
    _, combat, _ = load_situation(path)
    result = runner.invoke(app, ["advise", str(path), "--agent", agent, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    first = data["options"][0]["action"]
    action = Action(
        ActionKind[first["kind"]],
        first["actor"],
        first["target"],
        first["cell"],
        first["index"],
        first["mumm"],
    )
    assert action in combat.legal_actions()
    assert combat.fighters[combat.current_fighter()].name == data["fighter"]


@pytest.mark.parametrize("agent", ["policy:agents/policies/duell-nsc", "lookahead"])
def test_policies_and_search_agents_advise_too(agent: str) -> None:
    """A shipped policy gives probabilities that sum to at most 1 over the top choices; a
    search agent its values; both recommend a legal action."""
    path = SITUATIONS / "nahkampf-duell.yaml"
    _, combat, _ = load_situation(path)
    root = Path(__file__).resolve().parents[1]
    result = runner.invoke(app, ["advise", str(path), "--agent", agent, "--top", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    kinds = {a.kind.name for a in combat.legal_actions()}
    assert data["options"] and all(o["action"]["kind"] in kinds for o in data["options"])
    if agent.startswith("policy:"):
        assert (root / "agents/policies/duell-nsc/manifest.json").is_file()
        scores = [o["score"] for o in data["options"]]
        assert scores == sorted(scores, reverse=True) and 0 < sum(scores) <= 1 + 1e-9


def test_a_lethal_attack_is_picked() -> None:
    """Mara is down to 3 LP next to the Schichtleiterin: the advice is to shoot her."""
    result = runner.invoke(app, ["advise", str(SITUATIONS / "wache-am-zug.yaml"), "--json"])
    data = json.loads(result.output)
    best = data["options"][0]
    assert best["action"]["kind"] == "ATTACK" and "Mara" in best["label"]


def test_the_situation_sets_the_state() -> None:
    _, combat, _ = load_situation(SITUATIONS / "nahkampf-duell.yaml")
    game = load_scenario("duell")
    kenji = combat.fighters[list(game.names).index("Kenji")]
    assert kenji.lp == 9 and kenji.reactions == 1 and kenji.mumm == 1
    assert combat.round == 2
    assert "Akame ist am Zug" in narrate_all(combat.events, game.names)[0]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("scenario: duell\nturn: Niemand\n", "turn"),
        ("scenario: duell\nturn: Akame\nfighters:\n  Akame: {lp: zehn}\n", "fighters.Akame.lp"),
        ("scenario: duell\nturn: Akame\nfighters:\n  Akame: {at: [99, 1]}\n", "fighters.Akame.at"),
        (
            "scenario: duell\nturn: Akame\nfighters:\n  Kenji: {conditions: [müde]}\n",
            "fighters.Kenji.conditions",
        ),
        ("scenario: duell\nturn: Akame\nwetter: Regen\n", "wetter"),
    ],
)
def test_a_malformed_situation_names_the_field(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "lage.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_situation(path)
    assert field in str(info.value) and "lage.yaml" in str(info.value)
    result = runner.invoke(app, ["advise", str(path)])
    assert result.exit_code == 1
