"""``cwenv/Kampfrunde2-v0``: the Kampfrunde in encoding 2 (issue #18) for MaskablePPO.

The same game loop as ``cwenv/Kampfrunde-v0`` (:class:`~cwenv.envs.kampfrunde.KampfrundeEnv`:
one decision of the controlled side per step, the opponent inside ``step``, the same
rewards, seeds and errors), with the observation and actions of
:mod:`cwenv.envs.encoding2`: a ``Dict`` of float32 Boxes (:data:`SHAPES2`) and
``Discrete(K)``, index ``i`` = the ``i``-th legal action, ``action_masks()`` the first
``len(legal)`` indices. A decision with more than K legal actions is chosen in stages
(``over_k="stage"``, the default; :mod:`cwenv.envs.stages`): a step that picks a group of
cell moves leaves the engine as it was (reward 0, not terminated, not counted towards
``max_steps``) and shows the next stage, the group's moves; ``info["stage"]`` is 0 for a
decision up to K, else the stage shown (1, 2). ``over_k="raise"`` raises
:class:`~cwenv.envs.errors.EncodingError` instead. ``gymnasium.make("cwenv/Kampfrunde2-v0",
…)`` makes it (registered with ``cwenv/Kampfrunde-v0`` by :func:`cwenv.register_envs`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from gymnasium import spaces

from cwenv import ENV2_ID
from cwenv.engine.actions import Action
from cwenv.envs.encoding2 import DEFAULT_K, Encoded2, OverK, Session2, bounds2, shapes2
from cwenv.envs.errors import action_index
from cwenv.envs.game_encoder import DEFAULT_MAX_STEPS, DEFAULT_SCENARIO, ScenarioSpec
from cwenv.envs.kampfrunde import KampfrundeEnv, Obs
from cwenv.envs.opponents import OpponentSpec
from cwenv.envs.rewards import RewardSpec
from cwenv.envs.spaces import box_dict
from cwenv.model.types import Side


def observation_space2(k: int = DEFAULT_K) -> spaces.Dict:
    return box_dict(shapes2(k), lambda key: bounds2(key, k))


class KampfrundeEnv2(KampfrundeEnv):
    """A Corporate Wars fight in encoding 2; arguments as ``KampfrundeEnv`` (no action
    windows: ``k`` candidates instead, default 512; ``over_k``: a decision above K in
    stages, or ``"raise"``)."""

    def __init__(
        self,
        scenario: ScenarioSpec = DEFAULT_SCENARIO,
        side: str | Side = "gegner",
        opponent: OpponentSpec = None,
        rules: str | Path | None = None,
        reward: RewardSpec = None,
        render_mode: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        k: int = DEFAULT_K,
        illegal_action: Literal["raise", "fallback"] = "raise",
        over_k: OverK = "stage",
    ) -> None:
        self.k = k
        # Session2 plays Session's part (new_combat, encode, decode, observe); no subclass.
        self._setup(
            lambda: Session2(scenario, rules, reward, max_steps, k, over_k=over_k),  # type: ignore[arg-type, return-value]
            side, opponent, render_mode, illegal_action,
        )  # fmt: skip

    def _spaces(self) -> tuple[spaces.Dict, spaces.Discrete]:
        return observation_space2(self.k), spaces.Discrete(self.k)

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """One decision, or a stage of a decision above K choosing a group of moves: then
        the engine stays as it was and the observation shows the group (the next stage)."""
        enc, c = self._enc, self._combat
        if (
            isinstance(enc, Encoded2) and enc.stage is not None and c is not None
            and not c.is_terminal() and self._steps < self.session.max_steps
        ):  # fmt: skip
            narrowed = self.session.narrow(enc, action_index(action))
            if narrowed is not None:
                self._enc = narrowed
                return self._observe(), 0.0, False, False, self._info()
        return super().step(action)

    def row_of(self, action: Action) -> int:
        """The index to step with now to play the legal ``action`` (in a stage of a decision
        above K: its group's row; a teacher's choice, e.g. for imitation)."""
        enc = self._enc
        if not isinstance(enc, Encoded2):
            raise RuntimeError("no decision is pending: call reset()")
        return self.session.row_of(enc, action)

    def _info(self) -> dict[str, Any]:
        info = super()._info()
        enc = self._enc
        info["stage"] = enc.stage_number if isinstance(enc, Encoded2) else 0
        return info


__all__ = ["DEFAULT_MAX_STEPS", "ENV2_ID", "KampfrundeEnv2", "observation_space2"]
