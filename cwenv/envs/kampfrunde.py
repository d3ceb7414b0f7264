"""``cwenv/Kampfrunde-v0``: one decision of the Kampfrunde per step, for one side."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cwenv.agent import DecisionView, native_play
from cwenv.engine.state import Combat
from cwenv.envs.errors import InvalidActionError, action_index
from cwenv.envs.game_encoder import (
    DEFAULT_MAX_STEPS,
    DEFAULT_SCENARIO,
    SEED_BOUND,
    Encoded,
    ScenarioSpec,
    Session,
    parse_side,
)
from cwenv.envs.layout import DEFAULT_DRAG_RADIUS, DEFAULT_MOVE_RADIUS
from cwenv.envs.opponents import OpponentSpec, opponent_factory
from cwenv.envs.render import render_frame
from cwenv.envs.rewards import RewardSpec, fighter_state
from cwenv.envs.spaces import action_space, observation_space
from cwenv.invariants import present
from cwenv.model.types import Side

Obs = dict[str, Any]
MAX_RESTARTS = 100
MAX_OPPONENT_DECISIONS = 200_000


class KampfrundeEnv(gym.Env[Obs, np.int64]):
    """A Corporate Wars fight; a shared policy plays every fighter of one side.

    ## Description
    Each ``step`` is one decision of one fighter of the controlled ``side``: a turn choice
    (move, attack, aim, hack, door, reload, …, end the turn) or a prompt raised during
    anyone's turn (defend, drop prone, Blockadeangriff, catch a fall, Mumm spends, halve
    damage, avert death, drag, who acts first). Decisions of every other fighter (the
    opposing side and neutrals) are taken inside ``step`` by the ``opponent`` agent, with
    its own ``random.Random`` seeded from the env's seed.

    ## Action space
    ``Discrete(N)`` with N = 5953 for the default radii (``move_radius=24``,
    ``drag_radius=8``); the layout is in :mod:`cwenv.envs.layout` and ``docs/env.md``.
    Only legal actions may be taken: ``action_masks()`` (bool, sb3-contrib) and
    ``info["action_mask"]`` (int8) come from ``Combat.legal_actions()``. A masked action
    raises :class:`~cwenv.envs.errors.InvalidActionError` (a ``ValueError``).

    ## Observation space
    ``Dict`` of float32 Boxes, fixed for every scenario (up to 16 fighters, maps up to
    64×64): ``self`` (39), ``weapons`` (8×10), ``allies`` (15×37), ``enemies`` (15×37),
    ``context`` (21), ``grid`` (17×15×15 local patch). Features are listed in
    :mod:`cwenv.envs.observe` and ``docs/env.md``; values lie in [0, 1] except relative
    positions, height differences and LP fractions ([−1, 1]).

    ## Rewards
    From a :class:`~cwenv.envs.rewards.RewardConfig` (``configs/rewards/default.yaml``),
    credited to the controlled side only: win +1, loss −1, draw 0; damage dealt +0.5 and
    taken −0.5 per LP bar; each enemy downed +0.25, each own fighter downed −0.25; −0.001
    per step. Shaping terms are potential differences (healing gives back).

    ## Starting state
    ``Game.new_combat(seed)`` of the scenario; opponent decisions run until the first
    decision of the controlled side. A combat that ends before it (rare) is replayed with
    the next seed from the env's generator (``info["restarts"]``).

    ## Episode end
    Termination: the engine's outcome (one side out, a victory condition, or the
    scenario's round limit, which is a rule; the round is in ``context``). Truncation:
    ``max_steps`` decisions of the controlled side (default 3000), a safety cap.

    ## Arguments
    ``scenario`` (``"feuergefecht"``: name, YAML path or ``Game``), ``side``
    (``"gegner"`` – the NSC side; or ``"runner"``), ``opponent`` (None: ``taktiker`` if
    registered, else ``greedy``; or a registry name or an ``Agent``), ``rules`` (None: the
    scenario's variant; or a name in ``configs/rules``), ``reward`` (None: ``default``;
    or a name, YAML path, dict or ``RewardConfig``), ``render_mode`` (None, ``"ansi"``,
    ``"rgb_array"``, ``"human"``), ``max_steps`` (3000), ``move_radius`` (24) and
    ``drag_radius`` (8): the action windows, checked against the scenario's movement;
    ``illegal_action`` (``"raise"``; ``"fallback"`` lets the opponent's agent pick instead,
    for API checkers that sample without masks, flagged in ``info["illegal_action"]``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium declares it so
        "render_modes": ["ansi", "rgb_array", "human"],
        "render_fps": 4,
    }

    def __init__(
        self,
        scenario: ScenarioSpec = DEFAULT_SCENARIO,
        side: str | Side = "gegner",
        opponent: OpponentSpec = None,
        rules: str | Path | None = None,
        reward: RewardSpec = None,
        render_mode: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        move_radius: int = DEFAULT_MOVE_RADIUS,
        drag_radius: int = DEFAULT_DRAG_RADIUS,
        illegal_action: Literal["raise", "fallback"] = "raise",
    ) -> None:
        self._setup(
            lambda: Session(scenario, rules, reward, max_steps, move_radius, drag_radius),
            side, opponent, render_mode, illegal_action,
        )  # fmt: skip

    def _setup(
        self,
        make_session: Callable[[], Session],
        side: str | Side,
        opponent: OpponentSpec,
        render_mode: str | None,
        illegal_action: str,
    ) -> None:
        """Everything ``__init__`` sets, for any encoding: ``make_session`` builds the
        encoding's session (after the cheap argument checks); the spaces are its own."""
        if illegal_action not in ("raise", "fallback"):
            raise ValueError("illegal_action must be 'raise' or 'fallback'")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}; allowed: {self.metadata['render_modes']}"
            )
        self.session = make_session()
        self.side = parse_side(side)
        if self.side not in self.session.sides or self.side is Side.NEUTRAL:
            raise ValueError(
                f"side {self.side.label} has no controllable fighters in this scenario"
            )
        self._make_opponent, self.opponent_name = opponent_factory(opponent)
        self.render_mode = render_mode
        self.observation_space, actions = self._spaces()
        self.action_space, self._n_actions = actions, int(actions.n)
        self._combat: Combat | None = None
        self._enc: Encoded | None = None
        self._opponent = self._fallback = self._make_opponent()
        self._rng = self._fallback_rng = random.Random(0)
        self._native: Callable[[], int] | None = None
        self._viewer = self.session.sides.index(self.side)
        self._steps = 0
        self._restarts = 0
        self._reward = self.session.side_rewards([self.side])[self.side]

    def _spaces(self) -> tuple[spaces.Dict, spaces.Discrete]:
        return observation_space(), action_space(self.session.layout)

    # -- Gymnasium API --------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
            self.observation_space.seed(seed)
        self._restarts = 0
        for _ in range(MAX_RESTARTS):
            combat = self.session.new_combat(self.np_random)
            self._opponent = self._make_opponent()
            self._rng = random.Random(int(self.np_random.integers(SEED_BOUND)))
            self._fallback = self._make_opponent()
            self._fallback_rng = random.Random(int(self.np_random.integers(SEED_BOUND)))
            self._combat = combat
            self._view = DecisionView(combat)
            # the opponent's native twin plays its decisions in the core (the same game)
            self._native = native_play(
                combat, {int(s): self._opponent for s in Side if s is not self.side}
            )
            self._advance()
            if not combat.is_terminal():
                break
            self._restarts += 1
        else:
            raise RuntimeError(f"{MAX_RESTARTS} combats ended before the {self.side.label} decided")
        self._steps = 0
        lost, downed = fighter_state(combat, self.session.tables.lp_max)
        self._reward.reset(lost, downed)
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        c, enc = self._combat, self._enc
        if c is None or enc is None or c.is_terminal():
            raise InvalidActionError("the episode is over (or never started): call reset()")
        if self._steps >= self.session.max_steps:
            raise InvalidActionError("the episode was truncated: call reset()")
        index = action_index(action)
        substituted = False
        try:
            chosen = self.session.decode(enc, index)
        except InvalidActionError:
            if self.illegal_action == "raise":
                raise
            chosen = self._fallback.act(self._view, enc.legal, self._fallback_rng)
            substituted = True
        c.apply(chosen)
        self._steps += 1
        self._advance()
        lost, downed = fighter_state(c, self.session.tables.lp_max)
        reward = self.session.reward_config.step_cost + self._reward.update(c, lost, downed)
        terminated = c.is_terminal()
        truncated = not terminated and self._steps >= self.session.max_steps
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if substituted:
            info["illegal_action"] = True
        return self._observe(), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now (bool); after the episode only the placeholder index 0."""
        if self._enc is None:
            mask = np.zeros(self._n_actions, dtype=np.bool_)
            mask[0] = True
            return mask
        return self._enc.mask.copy()

    def render(self) -> str | np.ndarray | None:
        return render_frame(self._combat, self.render_mode)

    def close(self) -> None:
        self._combat = None
        self._enc = None

    # -- internals ------------------------------------------------------------------------------
    @property
    def combat(self) -> Combat:
        """The running combat (read it, do not change it)."""
        if self._combat is None:
            raise RuntimeError("call reset() first")
        return self._combat

    def _advance(self) -> None:
        """Let the opponent decide until the controlled side must, or the combat ends."""
        c = present(self._combat, "the combat (reset() first)")
        fighters, side = c.fighters, self.side
        for _ in range(MAX_OPPONENT_DECISIONS):
            if c.is_terminal():
                self._enc = None
                return
            f = fighters[c.current_fighter()]
            if f.side is side:
                self._viewer = f.idx
                self._enc = self.session.encode(c)
                return
            if self._native is not None and self._native():
                continue  # the core played up to a decision it leaves to Python
            c.apply(self._opponent.act(self._view, c.legal_actions(), self._rng))
        raise RuntimeError(f"the opponent took {MAX_OPPONENT_DECISIONS} decisions in a row")

    def _observe(self) -> Obs:
        combat = present(self._combat, "the combat (reset() first)")
        return self.session.observe(combat, self._viewer, self._enc, self._steps)

    def _info(self) -> dict[str, Any]:
        c = present(self._combat, "the combat (reset() first)")
        mask = self.action_masks().astype(np.int8)
        d = c.decision
        info: dict[str, Any] = {
            "action_mask": mask,
            "fighter": self._viewer,
            "decision": d.kind.name if d is not None else "NONE",
            "round": c.round,
            "restarts": self._restarts,
        }
        if c.outcome is not None:
            winner = c.outcome.winner
            info["winner"] = winner.label if winner is not None else "draw"
            info["reason"] = c.outcome.reason
        return info
