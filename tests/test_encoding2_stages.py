"""A decision above K is chosen in stages (cwenv/envs/stages.py, issue #18): every legal
action stays reachable, every stage fits K, a group's step leaves the engine as it was, the
action chosen is the one the engine applies, the stages replay and are the same bytes under
both engines; the pool env plays such fights to the end instead of raising."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import numpy as np
import pytest

from agents.training.config import Pool
from agents.training.pool import PoolEnv, load_ref
from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.engine.actions import Action
from cwenv.engine.state import Combat
from cwenv.envs.encoding2 import CANDIDATE_KEYS, Encoded2, Session2
from cwenv.envs.errors import EncodingError, InvalidActionError
from cwenv.envs.stages import Stage
from cwenv.native.differential import engine_as

BIG = "generated:948"
"""The fight of the training pool with the most legal actions measured (727: its roof's
MOVE and SCHWIERIG cells; experiments/nsc-general/legal_counts.json)."""
BIG_STEPS = 118  # the taktiker's game seed 948 reaches the 727 at its decision 118
BIG_POOL_SEED = 104  # PoolEnv seed whose runner game reaches 711 legal actions (stage 2)


@cache
def _big_actions() -> tuple[Action, ...]:
    """The taktiker's first 118 actions of seed 948 (both sides), as legal_counts.py plays."""
    with engine_as("native"):
        c = load_ref(BIG).new_combat(948)
        view = DecisionView(c)
        players = {int(f.side): make_agent("taktiker") for f in c.fighters}
        rng = random.Random(948)
        for _ in range(BIG_STEPS):
            d = c.decision
            if d is None:
                raise RuntimeError("the game ended early")
            c.apply(players[int(c.fighters[d.fighter].side)].act(view, c.legal_actions(), rng))
        return tuple(c.history)


def _big_combat(session: Session2) -> Combat:
    c = session.game.new_combat(948)
    for a in _big_actions():
        c.apply(a)
    return c


def _reached(session: Session2, enc: Encoded2) -> Counter[Action]:
    """Every action reachable from ``enc``, each as often as a path of choices reaches it."""
    out: Counter[Action] = Counter()
    rows = np.flatnonzero(enc.mask)
    assert len(rows) <= session.k and rows.tolist() == list(range(len(rows)))
    for row in rows.tolist():
        narrowed = session.narrow(enc, row)
        if narrowed is None:
            out[session.decode(enc, row)] += 1
        else:
            assert narrowed.stage is not None and enc.stage is not None
            assert narrowed.stage.number == enc.stage.number + 1
            with pytest.raises(InvalidActionError, match="next stage"):
                session.decode(enc, row)
            out += _reached(session, narrowed)
    return out


@pytest.mark.parametrize("k", [512, 64, 16, 4])
def test_every_legal_action_of_a_decision_above_k_is_reached_once(k: int) -> None:
    """The 727 legal actions under K 512 (two stages), 16 (three), and 4, where the 8
    actions that are not cell moves alone fill K and every action is grouped."""
    session = Session2(load_ref(BIG), k=k, over_k="stage")
    c = _big_combat(session)
    legal = c.legal_actions()
    assert len(legal) == 727
    enc = session.encode(c)
    assert enc.stage is not None and enc.stage.number == 1
    assert int(enc.mask.sum()) == k  # the rows left free are all used for groups
    reached = _reached(session, enc)
    assert reached == Counter(legal)  # every one, once: none dropped, none twice
    assert max(reached.values()) == 1
    # each row a stage shows is the whole decision's row of the action it stands for
    whole = enc.stage.whole
    for key in CANDIDATE_KEYS:
        np.testing.assert_array_equal(enc.obs[key][:k], whole[key][list(enc.stage.rows)])
    for key in ("entities", "entity_mask", "global", "map"):
        np.testing.assert_array_equal(enc.obs[key], session.observe_decider(
            c, enc.fighter, legal, width=len(legal))[key])  # fmt: skip


def test_raise_keeps_the_error_for_a_decision_above_k() -> None:
    session = Session2(load_ref(BIG), k=512)
    with pytest.raises(EncodingError, match=r"727 legal actions .* K=512"):
        session.encode(_big_combat(session))


def test_the_stages_are_the_same_bytes_under_both_engines() -> None:
    """Stage 1 and every stage 2 of the 727 decision, under the native and the Python
    engine (the same actions replayed), byte for byte."""
    seen: list[list[bytes]] = []
    for engine in ("native", "python"):
        with engine_as(engine):
            session = Session2(load_ref(BIG), k=512, over_k="stage")
            enc = session.encode(_big_combat(session))
            encs = [enc] + [
                e for row in range(session.k) if (e := session.narrow(enc, row)) is not None
            ]
            seen.append([e.obs[key].tobytes() for e in encs for key in sorted(e.obs)])
    assert len(seen[0]) > 9 * 10  # stage 1 and more than ten stage-2 groups
    assert seen[0] == seen[1]


def _stage_of(env: PoolEnv) -> Stage:
    enc = env._env._enc if env._env is not None else None
    if not isinstance(enc, Encoded2) or enc.stage is None:
        raise AssertionError("no stage is shown")
    return enc.stage


def _mask_checked(env: PoolEnv, info: dict[str, object], obs: dict[str, np.ndarray]) -> np.ndarray:
    mask = env.action_masks()
    assert np.array_equal(mask, np.asarray(info["action_mask"]).astype(bool))
    assert np.array_equal(mask, obs["candidate_mask"] > 0)
    assert 0 < mask.sum() <= env.k and mask[: int(mask.sum())].all()
    return mask


def test_a_pool_fight_above_512_plays_to_the_end() -> None:
    """generated:948 through the pool env under K 512: the taktiker decides (as a teacher
    through ``row_of``), random masked choices in every stage; stage 2 is reached."""
    env = PoolEnv(Pool(scenarios=[BIG], sides=["runner"]), opponent="taktiker", k=512)
    obs, info = env.reset(seed=BIG_POOL_SEED)
    teacher, rng = make_agent("taktiker"), random.Random(0)
    view = DecisionView(env.combat)
    stages: Counter[int] = Counter()
    top, done = 0, False
    action: Action | None = None
    while not done:
        mask = _mask_checked(env, info, obs)
        stage = int(info["stage"])  # type: ignore[call-overload]
        stages[stage] += 1
        legal = env.combat.legal_actions()
        if stage == 0:
            action = teacher.act(view, legal, rng)
            index = env.row_of(action)
        else:  # a random legal row of the stage; in stage 1 a random group's
            top = max(top, len(legal))
            rows = np.flatnonzero(mask).tolist()
            if stage == 1:
                rows = [r for r in rows if _stage_of(env).action_index(r) is None]
            index = rng.choice(rows)
        obs, _, terminated, truncated, info = env.step(index)
        done = terminated or truncated
    assert terminated and top > 512 and stages[1] and stages[2], (top, stages)


@pytest.mark.parametrize(("ref", "k"), [("dach", 16), ("feuergefecht", 16), ("dach", 2)])
def test_random_masked_play_under_a_small_k_plays_to_the_end(ref: str, k: int) -> None:
    env = PoolEnv(Pool(scenarios=[ref], sides=["runner", "gegner"]), opponent="random", k=k)
    rng = np.random.default_rng(0)
    stages: Counter[int] = Counter()
    for episode in range(2):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            mask = _mask_checked(env, info, obs)
            stages[int(info["stage"])] += 1  # type: ignore[call-overload]
            index = int(rng.choice(np.flatnonzero(mask)))
            obs, _, terminated, truncated, info = env.step(index)
            done = terminated or truncated
    assert stages[1] and stages[2], stages


def _digest(c: Combat) -> tuple[object, ...]:
    return (
        tuple(c.history), c.round, c.turn_fighter, bytes(c.opaque),
        tuple((f.pos, f.lp, f.mumm, f.conditions) for f in c.fighters),
        None if c.decision is None else (c.decision.kind, c.decision.fighter),
        tuple(c.legal_actions()),
    )  # fmt: skip


def test_a_group_step_leaves_the_engine_and_the_chosen_action_is_applied() -> None:
    """A stage step changes nothing in the engine (reward 0, not over, the same decision);
    the last stage's row ``i`` applies exactly the legal action its row stands for."""
    env = PoolEnv(Pool(scenarios=["dach"], sides=["runner"]), opponent="random", k=16)
    rng = np.random.default_rng(1)
    env.reset(seed=0)
    groups = applied = 0
    for _ in range(400):
        c = env.combat
        before = _digest(c)
        mask = env.action_masks()
        index = int(rng.choice(np.flatnonzero(mask)))
        enc = env._env._enc if env._env is not None else None
        assert isinstance(enc, Encoded2)
        stage = enc.stage
        grouped = stage is not None and stage.action_index(index) is None
        expected = None if grouped else env._env.session.decode(enc, index)  # type: ignore[union-attr]
        steps = len(c.history)
        _, reward, terminated, truncated, info = env.step(index)
        if grouped:
            groups += 1
            assert _digest(c) == before and reward == 0.0 and not (terminated or truncated)
            assert int(info["stage"]) == stage.number + 1  # type: ignore[union-attr]
        else:
            applied += stage is not None
            assert c.history[steps] == expected
        if terminated or truncated:
            env.reset()
    assert groups > 20 and applied > 20, (groups, applied)


def test_staged_episodes_replay() -> None:
    """The same seed and the same choices give the same observations, rewards and log."""

    def run() -> tuple[list[bytes], list[float], list[Action]]:
        env = PoolEnv(Pool(scenarios=["dach"], sides=["runner"]), opponent="random", k=16)
        obs, _ = env.reset(seed=7)
        rng = np.random.default_rng(7)
        seen, rewards = [], []
        for _ in range(300):
            seen.append(b"".join(obs[key].tobytes() for key in sorted(obs)))
            obs, reward, terminated, truncated, _ = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks())))
            )
            rewards.append(reward)
            if terminated or truncated:
                break
        return seen, rewards, list(env.combat.history)

    first = run()
    assert first == run()
