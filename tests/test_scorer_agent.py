"""``scorer:<bundle>`` (issue #18): one candidate scorer plays any scenario, either side.

The bundle here is random-initialised with numpy (the weights do not depend on the
scenario or K, so any bundle must play every fight); what is checked is what a user sees:
the spec resolves wherever agents are named, every action it plays is legal, the games
end, the CLI runs it, and a side or scenario other than the manifest's warns once.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from agents.policy.agent import PolicyMismatchWarning
from agents.policy.scorer import dims_of, param_shapes
from agents.policy.scorer_agent import ScorerAgent
from agents.policy.scorer_bundle import write_scorer_bundle
from cwenv.agent import DecisionView, play_out
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.cli.main import app
from cwenv.content import load_scenario
from cwenv.content.generate import generate_game
from cwenv.engine.game import Game
from cwenv.envs.encoding2 import Session2, shapes2
from cwenv.model.types import Side


def _random_bundle(folder: Path) -> Path:
    """A scorer bundle with random weights (numpy only), trained "for" duell, Gegner."""
    rng = np.random.default_rng(0)
    shapes = param_shapes(dims_of(shapes2()))
    tensors = {n: rng.normal(0, 0.1, s).astype(np.float32) for n, s in shapes.items()}
    return write_scorer_bundle(folder, tensors, scenario="duell", side="gegner")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _random_bundle(tmp_path_factory.mktemp("scorer"))


class _Checked:
    """Wraps an agent; records whether every action it played was legal."""

    def __init__(self, inner: ScorerAgent) -> None:
        self.inner, self.decisions, self.illegal = inner, 0, 0

    def act(self, view: DecisionView, legal: list, rng: random.Random):
        chosen = self.inner.act(view, legal, rng)
        self.decisions += 1
        self.illegal += chosen not in legal
        return chosen


def _play(game: Game, spec: str, scorer_side: Side, seed: int) -> _Checked:
    agent = make_agent(spec)
    assert isinstance(agent, ScorerAgent)
    checked = _Checked(agent)
    other = make_agent("greedy")
    c = game.new_combat(seed)
    agents = {int(s): other for s in Side}
    agents[int(scorer_side)] = checked
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PolicyMismatchWarning)
        play_out(c, agents, {int(s): random.Random(seed + int(s)) for s in Side})
    assert c.is_terminal()
    return checked


SHIPPED = sorted(
    p.stem for p in (Path(__file__).resolve().parents[1] / "configs" / "scenarios").glob("*.yaml")
)


@pytest.mark.parametrize("side", [Side.GEGNER, Side.RUNNER])
@pytest.mark.parametrize("scenario", ["generated:7", "generated:31", "generated:1000123", *SHIPPED])
def test_scorer_plays_any_scenario_either_side_with_legal_actions(
    bundle: Path, scenario: str, side: Side
) -> None:
    """Every shipped scenario and generated ones (issue #18: "plays every shipped scenario
    and any generated one without an error"), whole games, either side."""
    if scenario.startswith("generated:"):
        game = generate_game(int(scenario.removeprefix("generated:")))
    else:
        game = load_scenario(scenario)
    checked = _play(game, f"scorer:{bundle}", side, seed=3)
    assert checked.decisions > 0 and checked.illegal == 0


def test_more_legal_actions_than_k_grow_k_instead_of_failing(bundle: Path) -> None:
    agent = make_agent(f"scorer:{bundle}")
    assert isinstance(agent, ScorerAgent)
    game = load_scenario("strassenschlacht")
    c = game.new_combat(1)
    view, legal = DecisionView(c), c.legal_actions()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PolicyMismatchWarning)
        agent.prepare(game)
        assert agent._session is not None
        agent._session = type(agent._session)(game, k=4)  # far below the legal count
        assert agent.act(view, legal, random.Random(0)) in legal
    assert agent._session.k >= len(legal) > 4
    assert agent._session.legal_scale == agent.trained_k == 512


def test_a_grown_k_shows_the_network_what_the_trained_k_shows() -> None:
    """Padding K wider (the agent's doubling) must not change any feature: the global
    legal_count/K is scaled by the trained K (``legal_scale``)."""
    game = load_scenario("strassenschlacht")
    c = game.new_combat(1)
    legal = c.legal_actions()
    me = c.current_fighter()
    trained = Session2(game, k=512).observe_decider(c, me, legal)
    grown = Session2(game, k=2048, legal_scale=512).observe_decider(c, me, legal)
    n = len(legal)
    for key in ("entities", "entity_mask", "global", "map"):
        np.testing.assert_array_equal(trained[key], grown[key], err_msg=key)
    for key in ("candidates", "candidate_kind", "candidate_target", "candidate_vs"):
        np.testing.assert_array_equal(trained[key][:n], grown[key][:n], err_msg=key)
        pad = np.broadcast_to(trained[key][n], grown[key][n:].shape)  # n < 512 here
        np.testing.assert_array_equal(grown[key][n:], pad, err_msg=key)
    assert grown["candidate_mask"].sum() == trained["candidate_mask"].sum() == n
    # Without the trained scale the padding would leak into the global row.
    plain = Session2(game, k=2048).observe_decider(c, me, legal)
    assert not np.array_equal(trained["global"], plain["global"])


def test_cli_simulate_plays_a_scorer_on_either_side(bundle: Path) -> None:
    for args in (["--nscs", f"scorer:{bundle}"], ["--runners", f"scorer:{bundle}"]):
        result = CliRunner().invoke(
            app, ["simulate", "feuergefecht", *args, "--games", "2", "--seed", "1", "--json"]
        )
        assert result.exit_code == 0, result.output
        out = json.loads(result.output[result.output.index("{") : result.output.rindex("}") + 1])
        seat = "GEGNER" if args[0] == "--nscs" else "RUNNER"
        assert out["sides"][seat]["agent"] == f"scorer:{bundle}"
        assert (
            out["games"] == 2 and sum(s["wins"] for s in out["sides"].values()) + out["draws"] == 2
        )


def test_other_side_and_scenario_warn_once_naming_the_difference(tmp_path: Path) -> None:
    game = load_scenario("feuergefecht")  # a fresh bundle path: warnings are once per path
    agent = make_agent(f"scorer:{_random_bundle(tmp_path)}")
    c = game.new_combat(2)
    view = DecisionView(c)
    while view.fighter.side is not Side.RUNNER:
        c.apply(c.legal_actions()[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            agent.act(view, c.legal_actions(), random.Random(0))
    texts = [str(w.message) for w in caught if w.category is PolicyMismatchWarning]
    assert len(texts) == 2, texts
    assert any(f"trained on 'duell', plays {game.name!r}" in t for t in texts), texts
    assert any("trained for the gegner side, plays the runner side" in t for t in texts), texts


def test_a_scorer_game_imports_neither_torch_nor_gymnasium(bundle: Path) -> None:
    code = (
        "import sys; from cwenv.agent_registry import make_agent; from cwenv.agent import "
        "play_out; from cwenv.content import load_scenario; import random;"
        f"a = make_agent('scorer:{bundle}'); g = load_scenario('duell'); c = g.new_combat(1);"
        "play_out(c, {0: a, 1: a, 2: a}, {i: random.Random(i) for i in range(3)});"
        "bad = [m for m in ('gymnasium', 'torch') if m in sys.modules]; print(bad)"
    )
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_an_mlp_policy_bundle_is_refused_as_a_scorer_by_its_format() -> None:
    with pytest.raises(UnknownAgentError, match=r"format 'cwenv-policy'.*policy:<bundle>"):
        make_agent("scorer:agents/policies/spiegelduell-nsc")


def test_shipped_bundles_are_listed_with_their_own_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cwenv agents` lists a shipped candidate scorer as ``scorer:`` and an MLP policy as
    ``policy:`` (every shipped bundle was listed as ``policy:``, which refuses a scorer)."""
    import agents.registry as registry

    for name, fmt in (("allgemein", "cwenv-scorer"), ("duell", "cwenv-policy")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "manifest.json").write_text(json.dumps({"format": fmt}))
    monkeypatch.setattr(registry, "POLICY_DIR", tmp_path)
    assert registry.shipped_policies() == [
        "scorer:agents/policies/allgemein",
        "policy:agents/policies/duell",
    ]


def test_the_bc_configs_k_holds_the_measured_largest_legal_count() -> None:
    """experiments/nsc-general/legal_counts.json: the largest legal count measured over
    the pool (shipped and generated fights) fits the K of the pool run's config."""
    import yaml

    root = Path(__file__).resolve().parents[1]
    measured = json.loads((root / "experiments/nsc-general/legal_counts.json").read_text())
    top = max(measured["fight_max"].values())
    cfg = yaml.safe_load((root / "configs/training/nsc-general-bc.yaml").read_text())
    assert 512 < top <= cfg["scorer"]["k"], top
