"""``cwenv/Kampfrunde-v0``: API checks, masks, determinism, episode ends, rewards (issue #4)."""

from __future__ import annotations

import dataclasses
import os
import re
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence

import cwenv  # noqa: F401  (registers the env)
from agents.uniform import RandomAgent
from cwenv.agent_registry import UnknownAgentError
from cwenv.content import list_scenarios, load_scenario
from cwenv.envs import InvalidActionError, KampfrundeEnv, load_reward_config
from cwenv.envs.observe import CONTEXT_FEATURES
from cwenv.envs.rewards import RewardConfig, fighter_state
from cwenv.envs.soak import check_step, play_episode
from cwenv.yamlio import ConfigError

SCENARIOS = list_scenarios()
# Episodes per scenario in CI (about 0.05 s for a duel, 1.5 s for the 6v6 street fight);
# CWENV_ENV_EPISODE_SCALE multiplies them.
CI_EPISODES = {
    "duell": 100, "dach": 20, "feuergefecht": 20, "flucht": 20, "boss": 14, "eskorte": 10,
    "hinterhalt": 10, "tiefgarage": 10, "korridor": 6, "strassenschlacht": 4,
}  # fmt: skip
EPISODE_SCALE = float(os.environ.get("CWENV_ENV_EPISODE_SCALE", "1"))


def _masked(rng: np.random.Generator, info: dict[str, Any]) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_gymnasium_check_env_with_warnings_as_errors(scenario: str) -> None:
    env = gym.make(
        "cwenv/Kampfrunde-v0", scenario=scenario, render_mode="ansi", illegal_action="fallback"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_stable_baselines3_check_env(scenario: str) -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = KampfrundeEnv(scenario=scenario, illegal_action="fallback")
    advisory = re.compile(r"unconventional shape|is an image|image space|minimal resolution")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_checker.check_env(env, warn=True)
    unexpected = [str(w.message) for w in caught if not advisory.search(str(w.message))]
    assert not unexpected, unexpected


def test_masked_actions_raise_and_leave_the_state_alone() -> None:
    env = KampfrundeEnv(scenario="duell")
    obs, info = env.reset(seed=3)
    masked = int(np.flatnonzero(info["action_mask"] == 0)[0])
    history = len(env.combat.history)
    with pytest.raises(InvalidActionError, match="not legal"):
        env.step(masked)
    with pytest.raises(InvalidActionError):
        env.step(env.action_space.n)
    with pytest.raises(InvalidActionError, match="integer"):
        env.step("x")
    assert len(env.combat.history) == history
    assert data_equivalence(env.reset(seed=3)[0], obs)


def test_only_the_controlled_side_decides_and_prompts_reach_it() -> None:
    env = KampfrundeEnv(side="runner")
    rng = np.random.default_rng(0)
    kinds = set()
    for seed in range(3):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            assert env.combat.fighters[info["fighter"]].side.name == "RUNNER"
            kinds.add(info["decision"])
            _, _, term, trunc, info = env.step(_masked(rng, info))
            done = term or trunc
    assert "TURN" in kinds and len(kinds - {"TURN", "NONE"}) >= 2, kinds


def _episode(env: KampfrundeEnv, seed: int, episodes: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    out: list[tuple[Any, ...]] = []
    obs, info = env.reset(seed=seed)
    out.append((obs, info))
    for _ in range(episodes):
        done = False
        while not done:
            obs, reward, term, trunc, info = env.step(_masked(rng, info))
            out.append((obs, reward, term, trunc, info))
            done = term or trunc
        obs, info = env.reset()
        out.append((obs, info))
    return out


@pytest.mark.parametrize("scenario", ["duell", "feuergefecht"])
def test_whole_episodes_are_deterministic(scenario: str) -> None:
    a = _episode(KampfrundeEnv(scenario=scenario), 11, 2)
    b = _episode(KampfrundeEnv(scenario=scenario), 11, 2)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert data_equivalence(x, y, exact=True)


def test_reset_with_a_seed_after_play_equals_a_fresh_env() -> None:
    played = KampfrundeEnv(scenario="feuergefecht")
    _episode(played, 5, 2)
    fresh = KampfrundeEnv(scenario="feuergefecht")
    assert data_equivalence(played.reset(seed=99), fresh.reset(seed=99), exact=True)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    info_a = played.reset(seed=7)[1]
    info_b = fresh.reset(seed=7)[1]
    for _ in range(30):
        out_a = played.step(_masked(rng_a, info_a))
        out_b = fresh.step(_masked(rng_b, info_b))
        assert data_equivalence(out_a, out_b, exact=True)
        info_a, info_b = out_a[4], out_b[4]
        if out_a[2] or out_a[3]:
            break


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_masked_episodes_stay_in_space_and_end(scenario: str) -> None:
    """A few hundred random masked episodes, both sides (more of the short scenarios), the
    first two against the default doctrine, the rest against ``greedy`` (faster); every
    step is checked by ``soak.check_step``. The full 10,000-episode run is
    ``python -m cwenv.envs.soak --episodes 10000``."""
    episodes = max(2, round(CI_EPISODES.get(scenario, 4) * EPISODE_SCALE))
    for k in range(episodes):
        side = ("gegner", "runner")[k % 2]
        opponent = None if k < 2 else "greedy"  # the default doctrine, then the fast baseline
        result = play_episode((scenario, side, 1000 + k, opponent, 3000))
        assert result["terminated"] or result["truncated"]


def test_truncation_is_the_step_cap_and_ends_the_episode() -> None:
    env = KampfrundeEnv(max_steps=5)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for step in range(5):
        obs, reward, term, trunc, info = env.step(_masked(rng, info))
        assert not term
        assert trunc == (step == 4)
        check_step(env, obs, reward, info)
    with pytest.raises(InvalidActionError, match="truncated"):
        env.step(_masked(rng, info))


def test_round_limit_is_termination_with_the_round_observed() -> None:
    game = dataclasses.replace(load_scenario("feuergefecht"), round_limit=1)
    env = KampfrundeEnv(scenario=game)
    _, info = env.reset(seed=2)
    done = False
    while not done:
        mask = info["action_mask"]  # END_TURN (index 0) or the last (declining) answer
        action = 0 if mask[0] else int(np.flatnonzero(mask)[-1])
        obs, _, term, trunc, info = env.step(action)
        done = term or trunc
    assert term and not trunc
    assert info["round"] == 1 and info["reason"] == "Rundenlimit erreicht"
    ctx = obs["context"]
    assert ctx[CONTEXT_FEATURES.index("round/limit")] == 1.0
    assert ctx[CONTEXT_FEATURES.index("decision_none")] == 1.0
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and mask.sum() == 1
    with pytest.raises(InvalidActionError, match="over"):
        env.step(0)


@pytest.mark.parametrize("side", ["gegner", "runner"])
def test_sparse_reward_is_credited_to_the_controlled_side(side: str) -> None:
    env = KampfrundeEnv(scenario="duell", side=side, reward="sparse")
    rng = np.random.default_rng(4)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, reward, term, trunc, info = env.step(_masked(rng, info))
            total += reward
            done = term or trunc
        expected = (
            0.0 if info["winner"] == "draw" else 1.0 if info["winner"].lower() == side else -1.0
        )
        assert total == expected


def test_shaped_reward_is_a_potential_difference_plus_outcome() -> None:
    env = KampfrundeEnv(scenario="feuergefecht", side="runner")
    cfg = env.session.reward_config
    rng = np.random.default_rng(8)
    _, info = env.reset(seed=8)
    total, steps, done = 0.0, 0, False
    while not done:
        _, reward, term, trunc, info = env.step(_masked(rng, info))
        total, steps, done = total + reward, steps + 1, term or trunc
    lost, downed = fighter_state(env.combat, env.session.tables.lp_max)
    runner = np.array([s.name == "RUNNER" for s in env.session.sides])
    shaping = (
        cfg.damage_dealt * lost[~runner].sum()
        + cfg.damage_taken * lost[runner].sum()
        + cfg.enemy_downed * downed[~runner].sum()
        + cfg.ally_downed * downed[runner].sum()
    )
    outcome = {"Runner": cfg.win, "Gegner": cfg.loss, "draw": cfg.draw}[info["winner"]]
    assert total == pytest.approx(shaping + outcome + steps * cfg.step_cost)


def test_reward_config_is_strict(tmp_path: Any) -> None:
    fields = ("win", "loss", "draw", "damage_dealt", "damage_taken", "enemy_downed")
    default = load_reward_config()
    assert [getattr(default, f) for f in fields] == [getattr(RewardConfig(), f) for f in fields]
    assert default.step_cost == RewardConfig().step_cost and default.ally_downed == -0.25
    assert load_reward_config({"win": 2.0}).win == 2.0
    bad = tmp_path / "bad.yaml"
    bad.write_text("win: 1.0\nbonus: 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.yaml:2"):
        load_reward_config(bad)
    dup = tmp_path / "dup.yaml"
    dup.write_text("win: 1.0\nwin: 2.0\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="duplicate key"):
        load_reward_config(dup)
    with pytest.raises(ConfigError, match="known"):
        load_reward_config("nope")
    with pytest.raises(ConfigError):
        load_reward_config({"win": float("inf")})


def test_opponents_and_sides() -> None:
    assert KampfrundeEnv(scenario="duell", opponent="random").opponent_name == "random"
    env = KampfrundeEnv(scenario="duell", opponent=RandomAgent())
    env.reset(seed=0)
    with pytest.raises(UnknownAgentError):
        KampfrundeEnv(scenario="duell", opponent="niemand")
    with pytest.raises(ValueError, match="side"):
        KampfrundeEnv(scenario="duell", side="neutral")
    with pytest.raises(ValueError, match="side"):
        KampfrundeEnv(scenario="duell", side="drache")


def test_render_modes() -> None:
    env = KampfrundeEnv(scenario="tiefgarage", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    bm = env.combat.bm
    assert len(text.splitlines()) >= bm.height + len(env.combat.fighters)
    assert "Runde" in text
    env = KampfrundeEnv(scenario="tiefgarage", render_mode="rgb_array")
    env.reset(seed=1)
    img = env.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8
    assert img.shape == (bm.height * 12, bm.width * 12, 3)
    assert KampfrundeEnv(scenario="duell").render() is None
