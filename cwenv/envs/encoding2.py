"""Encoding 2 (issue #18): entities, a coarse map and one row per legal action.

:class:`Session2` turns a decision into a dict of fixed-shape float32 arrays
(:data:`SHAPES2`) and an action index back into the engine's :class:`Action`:
candidate ``i`` is ``legal_actions()[i]``, so every legal action of every decision up to
K has an index and nothing else does. ``K`` (:data:`DEFAULT_K` = 512) is above the largest
legal count measured on every shipped scenario and 500 generated ones under random play
(``experiments/encoding2/measure_k.py``; ``docs/env.md`` "Encoding 2" has the figure).
Over the training pool of issue #18 (``experiments/nsc-general/legal_counts.py``) the
measured maximum is 727 (a generated roof fight: movement destinations, MOVE and
SCHWIERIG; 3 of 1,828 generated fights exceed 512), which no K bounds for sure. A decision
with more than K legal actions raises :class:`EncodingError` (``over_k="raise"``, the
session's default), or, as the envs do (``over_k="stage"``), is chosen in stages
(:mod:`cwenv.envs.stages`): stage 1 shows the other actions and groups of the cell moves,
each as a real row of one of its moves, stage 2 the chosen group's moves, so every legal
action keeps a path of choices within K and the network and its features stay as they
are (:meth:`Session2.narrow`, :attr:`Encoded2.stage`). ``legal_scale`` (default K)
scales the one K-dependent feature, the global legal_count/K: a session padded wider than
the K a network was trained with keeps that K as the scale, so padding changes nothing the
network sees.

Numpy only: no gymnasium, no torch (the env adapter is :mod:`cwenv.envs.env2`).

**Record and fingerprint.** :func:`encoding2_record` lists the keys with their shapes
and feature names, the one action section (``CANDIDATE``, size K) and the capacities, in
the shape of :mod:`cwenv.envs.encoding`'s records, so its ``fingerprint`` and
``encoding_changes`` compare them. Its version is :data:`ENCODING2_VERSION` = 3: the
number 2 already names the padded grid encoding of issue #14 that the duel bundles use,
and a bundle's ``observation_encoding`` must tell the two apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.state import Combat
from cwenv.envs.candidates import (
    CANDIDATE_FEATURES,
    MAX_ACTION_KINDS,
    VS_FEATURES,
    CandidateEncoder,
    candidate_bounds,
)
from cwenv.envs.capacity import CAPACITIES, ENUMS, members
from cwenv.envs.encoding import Record, fingerprint
from cwenv.envs.entities import (
    COARSE_BLOCK,
    COARSE_SIDE,
    ENTITY_FEATURES,
    GLOBAL_FEATURES,
    MAP_CHANNELS,
    MAX_ENTITIES,
    EntityEncoder,
    entity_bounds,
    entity_rows,
    map_bounds,
)
from cwenv.envs.errors import EncodingError, InvalidActionError, LimitError
from cwenv.envs.game_encoder import DEFAULT_MAX_STEPS, SEED_BOUND, ScenarioSpec, resolve_game
from cwenv.envs.layout import Slots
from cwenv.envs.rewards import RewardConfig, RewardSpec, SideReward, load_reward_config
from cwenv.envs.stages import Stage, first_stage, next_stage
from cwenv.envs.tables import F32, GameTables
from cwenv.model.types import Side

ENCODING2_VERSION = 3
DEFAULT_K = 512
"""Candidates per decision. Measured maximum: see ``docs/env.md`` "Encoding 2"."""
ACTION_KINDS = "action_kinds"  # members: ActionKind names by value (candidate_kind)
CANDIDATE_KEYS = (
    "candidates", "candidate_kind", "candidate_target", "candidate_vs", "candidate_mask",
)  # fmt: skip
"""The observation keys with one row per candidate (their first axis is the K candidates,
the legal ones first); the other keys describe the decision as a whole."""


def shapes2(k: int = DEFAULT_K) -> dict[str, tuple[int, ...]]:
    """Observation keys and shapes of encoding 2 with ``k`` candidates."""
    return {
        "entities": (MAX_ENTITIES, len(ENTITY_FEATURES)),
        "entity_mask": (MAX_ENTITIES,),
        "global": (len(GLOBAL_FEATURES),),
        "map": (len(MAP_CHANNELS), COARSE_SIDE, COARSE_SIDE),
        "candidates": (k, len(CANDIDATE_FEATURES)),
        "candidate_kind": (k,),
        "candidate_target": (k,),
        "candidate_vs": (k, MAX_ENTITIES, len(VS_FEATURES)),
        "candidate_mask": (k,),
    }


SHAPES2 = shapes2()
FEATURES2: dict[str, tuple[str, ...]] = {
    "entities": ENTITY_FEATURES,
    "entity_mask": ("present",),
    "global": GLOBAL_FEATURES,
    "map": MAP_CHANNELS,
    "candidates": CANDIDATE_FEATURES,
    "candidate_kind": ("action_kind",),
    "candidate_target": ("entity_row",),
    "candidate_vs": VS_FEATURES,
    "candidate_mask": ("legal",),
}
"""The names along each key's last axis (``map``: its channels, the first axis)."""


def bounds2(key: str, k: int = DEFAULT_K) -> tuple[F32, F32]:
    """(low, high) of one observation key."""
    shape = shapes2(k)[key]
    if key == "entities":
        return entity_bounds()
    if key == "map":
        return map_bounds()
    if key == "candidates":
        return candidate_bounds(k)
    low = np.zeros(shape, dtype=np.float32)
    high = np.ones(shape, dtype=np.float32)
    if key == "candidate_kind":
        high[:] = MAX_ACTION_KINDS - 1
    elif key == "candidate_target":
        low[:], high[:] = -1.0, MAX_ENTITIES - 1
    return low, high


def encoding2_record(k: int = DEFAULT_K) -> Record:
    """The record of encoding 2 with ``k`` candidates (a JSON-able dict with fingerprint)."""
    shapes = shapes2(k)
    record: Record = {
        "version": ENCODING2_VERSION,
        "actions": [{"name": "CANDIDATE", "field": "legal_order", "size": k}],
        "observation": [
            {"key": key, "shape": list(shape), "features": list(FEATURES2[key])}
            for key, shape in shapes.items()
        ],
        "capacities": {
            **CAPACITIES.as_dict(),
            "candidates": k,
            "entities": MAX_ENTITIES,
            "action_kinds": MAX_ACTION_KINDS,
            "coarse_side": COARSE_SIDE,
            "coarse_block": COARSE_BLOCK,
        },
    }
    record["fingerprint"] = fingerprint(record)
    found = {section: members(section) for section in ENUMS}
    found[ACTION_KINDS] = [kind.name for kind in ActionKind]
    record["members"] = found
    return record


OverK = Literal["raise", "stage"]
"""What a decision above K does: raise :class:`EncodingError`, or be chosen in stages
(:mod:`cwenv.envs.stages`; the envs' default)."""


@dataclass(frozen=True, slots=True)
class Encoded2:
    """One decision in encoding 2: the decider, its legal actions, observation and mask;
    ``stage`` (None up to K legal actions) says what the rows of a decision above K stand
    for (:mod:`cwenv.envs.stages`): then row ``i`` is not ``legal[i]``."""

    fighter: int
    legal: list[Action]
    obs: dict[str, F32]
    mask: np.ndarray
    stage: Stage | None = None

    @property
    def stage_number(self) -> int:
        """0 for a decision up to K, else the stage (1, 2; 3 only above (K−1)·K moves)."""
        return 0 if self.stage is None else self.stage.number


class Session2:
    """Encoding 2 of one game: encode decisions, decode indices (the env's and agents')."""

    def __init__(
        self,
        scenario: ScenarioSpec,
        rules: str | Path | None = None,
        reward: RewardSpec = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        k: int = DEFAULT_K,
        legal_scale: int | None = None,
        over_k: OverK = "raise",
    ) -> None:
        if max_steps < 1 or k < 1 or (legal_scale is not None and legal_scale < 1):
            raise ValueError("max_steps, k and legal_scale must be at least 1")
        if over_k not in ("raise", "stage"):
            raise ValueError("over_k must be 'raise' or 'stage'")
        self.over_k: OverK = over_k
        self.game = resolve_game(scenario, rules)
        if len(self.game.roster) > MAX_ENTITIES:
            raise LimitError(
                f"{len(self.game.roster)} fighters; encoding 2 holds {MAX_ENTITIES} entity rows"
            )
        self.k = k
        self.max_steps = max_steps
        self.tables = GameTables(self.game)
        self.slots = Slots(self.game)
        # The global feature legal_count/K divides by ``legal_scale`` (default: K), the K a
        # network was trained with: padding wider at play time must not change what it sees.
        self.legal_scale = k if legal_scale is None else legal_scale
        self.entities = EntityEncoder(self.tables, self.slots, self.legal_scale)
        self.candidates = CandidateEncoder(self.tables, k)
        self.reward_config: RewardConfig = load_reward_config(reward)
        self.sides = [spec.side for spec in self.game.roster]
        self.shapes = shapes2(k)
        self._xs = np.asarray(self.tables.xs, dtype=np.int64)
        self._ys = np.asarray(self.tables.ys, dtype=np.int64)

    def new_combat(self, rng: np.random.Generator) -> Combat:
        return self.game.new_combat(int(rng.integers(SEED_BOUND)))

    def side_rewards(self, sides: list[Side]) -> dict[Side, SideReward]:
        return {s: SideReward(self.reward_config, self.sides, s) for s in sides}

    def encode(self, c: Combat) -> Encoded2:
        """The pending decision; :class:`EncodingError` if it has no action, or more than K
        with ``over_k="raise"`` (``"stage"``: its stage 1, :mod:`cwenv.envs.stages`)."""
        d = c.decision
        if d is None:
            raise EncodingError("the combat is over; there is no decision to encode")
        legal = c.legal_actions()
        if not legal:
            raise EncodingError(f"{d.kind.name} of fighter {d.fighter} has no legal action")
        if len(legal) > self.k and self.over_k == "stage":
            whole = self.observe_decider(c, d.fighter, legal, width=len(legal))
            return self.first_stage(d.fighter, legal, whole)
        obs = self.observe_decider(c, d.fighter, legal)
        return Encoded2(d.fighter, legal, obs, obs["candidate_mask"] > 0)

    def first_stage(self, fighter: int, legal: list[Action], whole: dict[str, F32]) -> Encoded2:
        """Stage 1 of ``fighter`` deciding ``legal`` (more than K), from ``whole``, the
        observation with a candidate row for every one of them."""
        return self._staged(fighter, legal, first_stage(legal, self.k, self._xs, self._ys, whole))

    def narrow(self, enc: Encoded2, index: int) -> Encoded2 | None:
        """The next stage if ``index`` chooses a group of more than one move in a stage of
        ``enc``; None where ``index`` plays an action (or is not legal: :meth:`decode`
        says so). The engine is not touched."""
        stage = enc.stage
        if stage is None or not 0 <= index < len(stage.rows):
            return None
        if stage.action_index(index) is not None:
            return None
        return self._staged(enc.fighter, enc.legal, next_stage(stage, index))

    def row_of(self, enc: Encoded2, action: Action) -> int:
        """The row of ``enc`` that leads to the legal ``action`` (its candidate index, or
        in a stage the row of its group): how a teacher's choice becomes the env's."""
        try:
            index = enc.legal.index(action)
        except ValueError:
            raise InvalidActionError(f"{action!r} is not a legal action") from None
        return index if enc.stage is None else enc.stage.row_of(index)

    def _staged(self, fighter: int, legal: list[Action], stage: Stage) -> Encoded2:
        """The observation of one stage: the decision's own arrays, the candidate rows cut
        to the stage's rows, padded to K as any decision's are (target −1, else 0)."""
        obs = dict(stage.whole)
        rows = np.asarray(stage.rows, dtype=np.int64)
        for key in CANDIDATE_KEYS:
            whole = stage.whole[key]
            out = np.zeros((self.k, *whole.shape[1:]), dtype=whole.dtype)
            if key == "candidate_target":
                out[:] = -1.0
            out[: len(rows)] = whole[rows]
            obs[key] = out
        return Encoded2(fighter, legal, obs, obs["candidate_mask"] > 0, stage)

    def observe_decider(
        self, c: Combat, viewer: int, legal: list[Action], width: int | None = None
    ) -> dict[str, F32]:
        """The observation of ``viewer`` deciding ``legal`` (empty: not deciding now), with
        ``width`` candidate rows (default K)."""
        ents, emask, glob, cmap = self.entities.encode(c, viewer, legal)
        rows = entity_rows(self.slots, viewer)
        cand, kind, target, vs, mask = self.candidates.encode(c, viewer, rows, legal, width)
        return {
            "entities": ents,
            "entity_mask": emask,
            "global": glob,
            "map": cmap,
            "candidates": cand,
            "candidate_kind": kind,
            "candidate_target": target,
            "candidate_vs": vs,
            "candidate_mask": mask,
        }

    def observe(
        self, c: Combat, viewer: int, enc: Encoded2 | None, step: int = 0
    ) -> dict[str, F32]:
        if enc is not None and enc.fighter == viewer:
            return enc.obs
        return self.observe_decider(c, viewer, [])

    def decode(self, enc: Encoded2, index: int) -> Action:
        """The legal action of candidate ``index``; :class:`InvalidActionError` if masked
        (or, in a stage, a group: :meth:`narrow` takes it)."""
        stage = enc.stage
        if stage is not None:
            played = stage.action_index(index) if 0 <= index < len(stage.rows) else None
            if played is None:
                raise InvalidActionError(
                    f"candidate {index} plays no action of fighter {enc.fighter} "
                    f"({self.game.names[enc.fighter]}) in stage {stage.number} of a decision "
                    f"above K: {len(stage.rows)} rows (0..{len(stage.rows) - 1}); a group "
                    "row leads to the next stage (Session2.narrow); use the action mask"
                )
            return enc.legal[played]
        if not 0 <= index < len(enc.legal):
            raise InvalidActionError(
                f"candidate {index} is not legal for fighter {enc.fighter} "
                f"({self.game.names[enc.fighter]}): {len(enc.legal)} legal actions "
                f"(0..{len(enc.legal) - 1}); use the action mask"
            )
        return enc.legal[index]
