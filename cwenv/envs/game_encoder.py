"""What both environments share: the game, its tables, the layout, masks and seeds.

A :class:`Session` is built once per environment; every episode is a new
:class:`~cwenv.engine.state.Combat` of the same :class:`~cwenv.engine.game.Game`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cwenv.engine.actions import Action
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.envs.errors import EncodingError, InvalidActionError
from cwenv.envs.layout import (
    DEFAULT_DRAG_RADIUS,
    DEFAULT_MOVE_RADIUS,
    ActionLayout,
    IntArray,
    Slots,
    check_limits,
)
from cwenv.envs.observe import Observer
from cwenv.envs.rewards import RewardConfig, RewardSpec, SideReward, load_reward_config
from cwenv.envs.tables import F32, GameTables
from cwenv.model.types import Side
from cwenv.rules.variants import load_rule_variant

DEFAULT_SCENARIO = "feuergefecht"
DEFAULT_MAX_STEPS = 3000
SEED_BOUND = 2**62

BoolArray = npt.NDArray[np.bool_]
ScenarioSpec = str | Path | Game


def resolve_game(scenario: ScenarioSpec, rules: str | Path | None) -> Game:
    """A Game from a scenario name, a YAML path or a Game; ``rules`` names a rule variant
    (``configs/rules``) that replaces the scenario's options."""
    if isinstance(scenario, Game):
        if rules is None:
            return scenario
        return dataclasses.replace(scenario, options=load_rule_variant(rules))
    from cwenv.content import load_scenario

    return load_scenario(scenario, rules=rules)


def parse_side(side: str | Side) -> Side:
    if isinstance(side, Side):
        return side
    key = str(side).strip().lower()
    for s in Side:
        if key in (s.name.lower(), s.label.lower()):
            return s
    raise ValueError(f"unknown side {side!r}; allowed: runner, gegner")


@dataclass(frozen=True, slots=True)
class Encoded:
    """The current decision, encoded: the decider, legal actions, their indices, the mask."""

    fighter: int
    legal: list[Action]
    indices: IntArray
    mask: BoolArray


class Session:
    def __init__(
        self,
        scenario: ScenarioSpec = DEFAULT_SCENARIO,
        rules: str | Path | None = None,
        reward: RewardSpec = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        move_radius: int = DEFAULT_MOVE_RADIUS,
        drag_radius: int = DEFAULT_DRAG_RADIUS,
    ) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.game = resolve_game(scenario, rules)
        self.layout = ActionLayout(move_radius, drag_radius)
        check_limits(self.game, self.layout)
        self.tables = GameTables(self.game)
        self.slots = Slots(self.game)
        self.observer = Observer(self.tables, self.layout, self.slots)
        self.reward_config: RewardConfig = load_reward_config(reward)
        self.sides = [spec.side for spec in self.game.roster]
        self.max_steps = max_steps

    # -- combats and seeds ----------------------------------------------------------------------
    def new_combat(self, rng: np.random.Generator) -> Combat:
        return self.game.new_combat(int(rng.integers(SEED_BOUND)))

    def side_rewards(self, sides: list[Side]) -> dict[Side, SideReward]:
        return {s: SideReward(self.reward_config, self.sides, s) for s in sides}

    # -- actions ------------------------------------------------------------------------------
    def encode(self, c: Combat) -> Encoded:
        """Encode the pending decision; raises :class:`EncodingError` rather than drop a
        legal action."""
        d = c.decision
        if d is None:
            raise EncodingError("the combat is over; there is no decision to encode")
        legal = c.legal_actions()
        if not legal:
            raise EncodingError(f"{d.kind.name} of fighter {d.fighter} has no legal action")
        t = self.tables
        pos = c.fighters[d.fighter].pos
        indices = self.layout.encode_all(
            legal, t.xs[pos], t.ys[pos], t.xs, t.ys, self.slots.slot_of[d.fighter]
        )
        mask = np.zeros(self.layout.size, dtype=np.bool_)
        mask[indices] = True
        if int(np.count_nonzero(mask)) != len(legal):
            raise EncodingError(_collision(legal, indices, self.layout))
        return Encoded(d.fighter, legal, indices, mask)

    def decode(self, enc: Encoded, index: int) -> Action:
        """The legal action behind ``index``; :class:`InvalidActionError` if it is masked."""
        if not 0 <= index < self.layout.size or not enc.mask[index]:
            what = self.layout.describe(index) if 0 <= index < self.layout.size else "-"
            raise InvalidActionError(
                f"action {index} ({what}) is not legal for fighter {enc.fighter} "
                f"({self.game.names[enc.fighter]}); {len(enc.legal)} legal actions: "
                f"use the action mask"
            )
        return enc.legal[int(np.flatnonzero(enc.indices == index)[0])]

    def observe(self, c: Combat, viewer: int, enc: Encoded | None, step: int) -> dict[str, F32]:
        if enc is None or enc.fighter != viewer:
            return self.observer.observe(c, viewer, None, None, step, self.max_steps)
        return self.observer.observe(c, viewer, enc.legal, enc.indices, step, self.max_steps)


def _collision(legal: list[Action], indices: IntArray, layout: ActionLayout) -> str:
    seen: dict[int, Action] = {}
    for a, i in zip(legal, indices.tolist(), strict=True):
        if i in seen:
            return (
                f"two legal actions share index {i} ({layout.describe(i)}): {seen[i]!r} and {a!r}"
            )
        seen[i] = a
    return "duplicate legal actions"  # pragma: no cover
