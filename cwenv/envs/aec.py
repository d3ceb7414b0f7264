"""PettingZoo environments: every fighter is an agent (AEC), plus a parallel adapter.

Agents are named ``<side>_<roster index>`` (``runner_0``, ``gegner_4``, ``neutral_7``).
``agent_selection`` is always the fighter who must decide now: the active fighter in its
turn, or the one a prompt asks (the defender, the fighter who may strike a passing mover,
…). Observations are ``{"observation": <the single-agent Dict>, "action_mask": int8}``;
the mask is all zeros for anyone who is not deciding.

Rewards use the same config as the single-agent env, per side: every agent of a side
receives its side's reward; the step cost goes to the deciding agent. Agents whose fighter
died or fled are terminated (and stepped once with ``None``); when the combat ends all are.

``max_cycles`` caps the actions each agent submits: an agent that has decided
``max_cycles`` times is truncated and ``fallback`` (default: the default opponent) takes
its later decisions; once no uncapped fighter is standing, the episode is truncated.
``illegal_action="fallback"`` lets ``fallback`` decide instead of raising when a masked
action arrives (meant for API checkers that sample without masks); the default raises.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv

from cwenv.agent import DecisionView
from cwenv.engine.state import Combat
from cwenv.envs.errors import InvalidActionError, action_index
from cwenv.envs.game_encoder import (
    DEFAULT_MAX_STEPS,
    DEFAULT_SCENARIO,
    SEED_BOUND,
    Encoded,
    ScenarioSpec,
    Session,
)
from cwenv.envs.layout import DEFAULT_DRAG_RADIUS, DEFAULT_MOVE_RADIUS
from cwenv.envs.opponents import OpponentSpec, opponent_factory
from cwenv.envs.render import render_frame
from cwenv.envs.rewards import RewardSpec, fighter_state
from cwenv.envs.spaces import action_space, mask_space, observation_space
from cwenv.invariants import present

AgentObs = dict[str, Any]
MAX_AUTOPILOT = 200_000


class KampfrundeAEC(AECEnv[str, AgentObs, int | None]):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array", "human"],
        "name": "kampfrunde_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        scenario: ScenarioSpec = DEFAULT_SCENARIO,
        rules: str | Path | None = None,
        reward: RewardSpec = None,
        render_mode: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        max_cycles: int | None = None,
        illegal_action: Literal["raise", "fallback"] = "raise",
        fallback: OpponentSpec = None,
        move_radius: int = DEFAULT_MOVE_RADIUS,
        drag_radius: int = DEFAULT_DRAG_RADIUS,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}; allowed: {self.metadata['render_modes']}"
            )
        if illegal_action not in ("raise", "fallback"):
            raise ValueError("illegal_action must be 'raise' or 'fallback'")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError("max_cycles must be at least 1")
        self.session = Session(scenario, rules, reward, max_steps, move_radius, drag_radius)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.illegal_action = illegal_action
        self._make_fallback, self.fallback_name = opponent_factory(fallback)
        sides = self.session.sides
        self.possible_agents = [f"{s.label.lower()}_{i}" for i, s in enumerate(sides)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {"observation": observation_space(), "action_mask": mask_space(self.session.layout)}
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: action_space(self.session.layout) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._combat: Combat | None = None
        self._enc: Encoded | None = None
        self.agents: list[str] = []
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- PettingZoo API -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        rng = self._np_random
        self._combat = c = self.session.new_combat(rng)
        self._fallback = self._make_fallback()
        self._rng = random.Random(int(rng.integers(SEED_BOUND)))
        self._view = DecisionView(c)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._decisions = dict.fromkeys(self.agents, 0)
        self._side_rewards = self.session.side_rewards(sorted(set(self.session.sides)))
        lost, downed = fighter_state(c, self.session.tables.lp_max)
        for tracker in self._side_rewards.values():
            tracker.reset(lost, downed)
        self._skip_agent_selection = None
        self._advance()
        self._settle()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        c, enc = self._combat, self._enc
        if c is None or enc is None:
            raise InvalidActionError("no decision is pending: call reset()")
        info: dict[str, Any] = {}
        try:
            if action is None:
                raise InvalidActionError(f"{agent} must act; None is only for finished agents")
            index = action_index(action)
            chosen = self.session.decode(enc, index)
        except InvalidActionError:
            if self.illegal_action == "raise":
                raise
            chosen = self._fallback.act(self._view, enc.legal, self._rng)
            info["illegal_action"] = True
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        c.apply(chosen)
        self._steps += 1
        self._decisions[agent] += 1
        self.rewards[agent] += self.session.reward_config.step_cost
        self.infos = {a: {} for a in self.agents}
        self.infos[agent].update(info)
        if self.max_cycles is not None and self._decisions[agent] >= self.max_cycles:
            self.truncations[agent] = True
        self._advance()
        lost, downed = fighter_state(c, self.session.tables.lp_max)
        sides = self.session.sides
        for side, tracker in self._side_rewards.items():
            r = tracker.update(c, lost, downed)
            if r:
                for a in self.agents:
                    if sides[self._index[a]] is side:
                        self.rewards[a] += r
        self._settle()
        self._accumulate_rewards()
        self._deads_step_first()

    def observe(self, agent: str) -> AgentObs:
        c = self._combat
        if c is None:
            raise RuntimeError("call reset() first")
        i = self._index[agent]
        deciding = self._enc is not None and self._enc.fighter == i and agent in self.agents
        enc = self._enc if deciding and not self.terminations[agent] else None
        mask = (
            enc.mask.astype(np.int8)
            if enc is not None
            else np.zeros(self.session.layout.size, dtype=np.int8)
        )
        return {"observation": self.session.observe(c, i, enc, self._steps), "action_mask": mask}

    def render(self) -> str | np.ndarray | None:
        return render_frame(self._combat, self.render_mode)

    def close(self) -> None:
        self._enc = None

    @property
    def combat(self) -> Combat:
        if self._combat is None:
            raise RuntimeError("call reset() first")
        return self._combat

    # -- internals ------------------------------------------------------------------------------
    def _capped(self, agent: str) -> bool:
        return self.max_cycles is not None and self._decisions.get(agent, 0) >= self.max_cycles

    def _advance(self) -> None:
        """Auto-play decisions of capped agents; encode the next real decision."""
        c = present(self._combat, "the combat (reset() first)")
        self._enc = None
        for _ in range(MAX_AUTOPILOT):
            if c.is_terminal():
                return
            agent = self.possible_agents[c.current_fighter()]
            if not self._capped(agent):
                self._enc = self.session.encode(c)
                return
            if not self._uncapped_standing(c):
                return
            c.apply(self._fallback.act(self._view, c.legal_actions(), self._rng))
        raise RuntimeError(f"{MAX_AUTOPILOT} autopilot decisions in a row")

    def _uncapped_standing(self, c: Combat) -> bool:
        return any(c.fighters[self._index[a]].standing and not self._capped(a) for a in self.agents)

    def _settle(self) -> None:
        """Set terminations/truncations and the next agent after a change of state."""
        c = present(self._combat, "the combat (reset() first)")
        if c.is_terminal():
            for a in self.agents:
                self.terminations[a] = True
            return
        fighters = c.fighters
        for a in self.agents:
            f = fighters[self._index[a]]
            if f.dead or f.fled:
                self.terminations[a] = True
        if self._enc is None or self._steps >= self.session.max_steps:
            for a in self.agents:  # the safety cap, or nobody uncapped is left standing
                if not self.terminations[a]:
                    self.truncations[a] = True
            return
        self.agent_selection = self.possible_agents[self._enc.fighter]


class KampfrundeParallel(ParallelEnv[str, AgentObs, int | None]):  # type: ignore[misc]
    """Parallel adapter: each ``step`` resolves one decision, that of the agent the AEC env
    selects; everyone else's action is ignored. ``max_cycles`` caps the number of steps."""

    metadata = KampfrundeAEC.metadata

    def __init__(self, max_cycles: int | None = None, **kwargs: Any) -> None:
        self.aec = KampfrundeAEC(**kwargs)
        self.max_cycles = max_cycles
        self.possible_agents = self.aec.possible_agents
        self.render_mode = self.aec.render_mode
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, AgentObs], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self._cycles = 0
        self.agents = self.aec.agents[:]
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, int | None]) -> tuple[
        dict[str, AgentObs], dict[str, float], dict[str, bool], dict[str, bool],
        dict[str, dict[str, Any]],
    ]:  # fmt: skip
        aec = self.aec
        live = self.agents[:]
        rewards = dict.fromkeys(live, 0.0)
        done: dict[str, tuple[bool, bool]] = {}
        infos: dict[str, dict[str, Any]] = {a: {} for a in live}
        aec.step(actions.get(aec.agent_selection))
        while True:
            for a, r in aec.rewards.items():
                if a in rewards:
                    rewards[a] += r
            for a in aec.agents:
                infos[a] = dict(aec.infos[a])
            cur = aec.agent_selection
            if not aec.agents or not (aec.terminations[cur] or aec.truncations[cur]):
                break
            done[cur] = (aec.terminations[cur], aec.truncations[cur])
            aec.step(None)
        self._cycles += 1
        cut = self.max_cycles is not None and self._cycles >= self.max_cycles
        terms = {a: done.get(a, (False, False))[0] for a in live}
        truncs = {a: done.get(a, (False, False))[1] or (cut and a not in done) for a in live}
        self.agents = [] if cut else [a for a in aec.agents if a not in done]
        return {a: aec.observe(a) for a in live}, rewards, terms, truncs, infos

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def raw_env(**kwargs: Any) -> KampfrundeAEC:
    return KampfrundeAEC(**kwargs)


def env(**kwargs: Any) -> KampfrundeAEC:
    """The AEC env (no wrappers: masks are enforced by the env itself)."""
    return KampfrundeAEC(**kwargs)


def parallel_env(**kwargs: Any) -> KampfrundeParallel:
    return KampfrundeParallel(**kwargs)
