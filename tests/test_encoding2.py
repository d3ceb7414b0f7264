"""Encoding 2 (issue #18): entity rows, candidates padded to K, the env and its record."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from cwenv.content import load_scenario
from cwenv.content.generate import generate_game
from cwenv.envs.encoding2 import DEFAULT_K, Session2, encoding2_record
from cwenv.envs.errors import EncodingError, InvalidActionError

SHIPPED = ("duell", "feuergefecht", "strassenschlacht", "boss", "hinterhalt")


def _play(session: Session2, seed: int, decisions: int) -> list[tuple[int, int]]:
    """Random play; checks every decision's invariants; returns (legal count, index)."""
    rng = random.Random(seed)
    c = session.game.new_combat(seed)
    seen = []
    shapes = session.shapes
    for _ in range(decisions):
        if c.is_terminal():
            break
        enc = session.encode(c)
        n = len(enc.legal)
        for key, shape in shapes.items():
            assert enc.obs[key].shape == shape and enc.obs[key].dtype == np.float32, key
        assert enc.mask.sum() == n and enc.mask[:n].all()  # every legal action reachable
        assert enc.obs["candidates"][n:].sum() == 0 and enc.obs["candidate_vs"][n:].sum() == 0
        assert (enc.obs["candidate_target"][n:] == -1).all()
        for i in (0, n - 1):  # round trip index -> engine Action
            assert session.decode(enc, i) == enc.legal[i]
            assert int(enc.obs["candidate_kind"][i]) == int(enc.legal[i].kind)
        with pytest.raises(InvalidActionError):
            session.decode(enc, n)
        i = rng.randrange(n)
        seen.append((n, i))
        c.apply(session.decode(enc, i))
    return seen


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scenarios_encode_every_legal_action(name: str) -> None:
    assert _play(Session2(load_scenario(name)), 1, 300)


@pytest.mark.parametrize("seed", [0, 11, 216])
def test_generated_scenarios_encode_every_legal_action(seed: int) -> None:
    # seed 216 reached 449 legal actions in the K measurement (the most of seeds 0-499)
    assert _play(Session2(generate_game(seed)), seed, 250)


def test_encoding_is_deterministic() -> None:
    a, b = Session2(load_scenario("feuergefecht")), Session2(load_scenario("feuergefecht"))
    ca, cb = a.game.new_combat(5), b.game.new_combat(5)
    for _ in range(40):
        ea, eb = a.encode(ca), b.encode(cb)
        for key in ea.obs:
            np.testing.assert_array_equal(ea.obs[key], eb.obs[key])
        ca.apply(ea.legal[len(ea.legal) // 2])
        cb.apply(eb.legal[len(eb.legal) // 2])


def test_more_legal_actions_than_k_is_an_error_not_a_drop() -> None:
    s = Session2(load_scenario("feuergefecht"), k=4)
    c = s.game.new_combat(1)
    with pytest.raises(EncodingError, match="K=4"):
        s.encode(c)


def test_attack_candidates_carry_the_engines_exact_odds() -> None:
    from cwenv.engine.actions import ActionKind
    from cwenv.engine.preview import preview_attack
    from cwenv.envs.candidates import CANDIDATE_FEATURES

    s = Session2(load_scenario("duell"))
    c = s.game.new_combat(2)
    rng = random.Random(2)
    hit = CANDIDATE_FEATURES.index("attack_hit")
    for _ in range(400):
        if c.is_terminal():
            break
        enc = s.encode(c)
        for i, a in enumerate(enc.legal):
            if a.kind is ActionKind.ATTACK:
                p = preview_attack(c, a)
                assert p is not None
                assert enc.obs["candidates"][i, hit] == pytest.approx(p.hit, abs=1e-6)
                return
        c.apply(rng.choice(enc.legal))
    pytest.fail("no attack in 400 decisions")


def test_record_fingerprint_is_stable_and_changes_with_k() -> None:
    r = encoding2_record()
    assert r["fingerprint"] == encoding2_record()["fingerprint"]
    assert r["fingerprint"] != encoding2_record(DEFAULT_K + 1)["fingerprint"]
    assert r["version"] == 3  # 2 names the padded grid encoding of the MLP bundles


def test_gym_env_checker_and_masks() -> None:
    import warnings

    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    import cwenv  # noqa: F401  (registers the envs)

    env = gym.make(
        "cwenv/Kampfrunde2-v0", scenario="duell", opponent="random", illegal_action="fallback",
        k=128, render_mode="ansi",
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert env.action_space.n == 128
    assert env.unwrapped.action_masks().sum() == obs["candidate_mask"].sum()


def test_encoder_imports_neither_gymnasium_nor_torch() -> None:
    code = (
        "import sys, cwenv.envs.encoding2, agents.policy.scorer_bundle;"
        "bad=[m for m in ('gymnasium','torch') if m in sys.modules]; print(bad); assert not bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
