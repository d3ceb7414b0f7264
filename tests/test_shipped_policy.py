"""The shipped NSC policy (issue #6): the bundle in agents/policies/duell-nsc loads safely
and plays legal, complete games of its scenario through ``policy:PATH``."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path

from typer.testing import CliRunner

from agents.base import DecisionView
from agents.policy.agent import PolicyAgent
from agents.policy.bundle import load_bundle
from agents.registry import make_agent
from agents.training.config import load_training_config
from agents.training.league import LeagueOpponent
from agents.training.train import _make_env
from cwenv.content import load_scenario
from cwenv.envs.layout import ActionLayout
from cwenv.model.types import Side
from tests.test_runner_support import runner_app

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / "agents" / "policies" / "duell-nsc"
SPEC = "policy:agents/policies/duell-nsc"


def test_the_shipped_bundle_is_small_and_names_its_scenario() -> None:
    size = sum(p.stat().st_size for p in BUNDLE.iterdir())
    assert size < 5_000_000
    bundle = load_bundle(BUNDLE)  # checks the manifest, the shapes and the sha256
    assert bundle.manifest.scenario == "duell" and bundle.manifest.side == "gegner"
    assert bundle.manifest.training["move_radius"] == 12
    assert bundle.manifest.training["drag_radius"] == 4


def test_the_training_config_sets_the_action_window() -> None:
    cfg = load_training_config(ROOT / "configs" / "training" / "duell-nsc.yaml")
    assert (cfg.move_radius, cfg.drag_radius) == (12, 4)
    env = _make_env(cfg, LeagueOpponent(cfg.league), 0)()
    size = load_bundle(BUNDLE).manifest.action_size
    assert env.action_space.n == ActionLayout(12, 4).size == size


def test_the_shipped_policy_plays_legal_full_games() -> None:
    agent = PolicyAgent(load_bundle(BUNDLE))
    runner = make_agent("stuermer")
    game = load_scenario("duell")
    rng = random.Random(0)
    for seed in range(3):
        combat = game.new_combat(seed)
        view = DecisionView(combat)
        policy_decisions = 0
        while not combat.is_terminal():
            legal = combat.legal_actions()
            fighter = combat.fighters[combat.current_fighter()]
            if fighter.side == Side.GEGNER:
                action = agent.act(view, legal, rng)
                assert action in legal
                policy_decisions += 1
            else:
                action = runner.act(view, legal, rng)
            combat.apply(action)
        assert policy_decisions > 0
        assert combat.outcome is not None


def test_simulate_accepts_the_shipped_policy() -> None:
    result = CliRunner().invoke(
        runner_app(),
        shlex.split(f"simulate duell --runners taktiker --nscs {SPEC} --games 4 --seed 1 --json"),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 4
    assert data["sides"]["GEGNER"]["agent"] == SPEC
    decided = data["sides"]["GEGNER"]["wins"] + data["sides"]["RUNNER"]["wins"] + data["draws"]
    assert decided == 4
    assert data["actions"]["END_TURN"] > 0
