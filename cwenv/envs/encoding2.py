"""Encoding 2 (issue #18): entities, a coarse map and one row per legal action.

:class:`Session2` turns a decision into a dict of fixed-shape float32 arrays
(:data:`SHAPES2`) and an action index back into the engine's :class:`Action`:
candidate ``i`` is ``legal_actions()[i]``, so every legal action of every decision up to
K has an index and nothing else does. ``K`` (:data:`DEFAULT_K` = 512) is above the largest
legal count measured on every shipped scenario and 500 generated ones under random play
(``experiments/encoding2/measure_k.py``; ``docs/env.md`` "Encoding 2" has the figure); a
decision with more raises :class:`EncodingError`. Over the training pool of issue #18
(``experiments/nsc-general/legal_counts.py``) the measured maximum is 727 (a generated
roof fight: movement destinations, MOVE and SCHWIERIG): ``nsc-general-bc.yaml`` trains
with K 1,024, above every measured decision but not a bound. ``legal_scale`` (default K)
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


@dataclass(frozen=True, slots=True)
class Encoded2:
    """One decision in encoding 2: the decider, its legal actions, observation and mask."""

    fighter: int
    legal: list[Action]
    obs: dict[str, F32]
    mask: np.ndarray


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
    ) -> None:
        if max_steps < 1 or k < 1 or (legal_scale is not None and legal_scale < 1):
            raise ValueError("max_steps, k and legal_scale must be at least 1")
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

    def new_combat(self, rng: np.random.Generator) -> Combat:
        return self.game.new_combat(int(rng.integers(SEED_BOUND)))

    def side_rewards(self, sides: list[Side]) -> dict[Side, SideReward]:
        return {s: SideReward(self.reward_config, self.sides, s) for s in sides}

    def encode(self, c: Combat) -> Encoded2:
        """The pending decision; :class:`EncodingError` if it has no or more than K actions."""
        d = c.decision
        if d is None:
            raise EncodingError("the combat is over; there is no decision to encode")
        legal = c.legal_actions()
        if not legal:
            raise EncodingError(f"{d.kind.name} of fighter {d.fighter} has no legal action")
        obs = self.observe_decider(c, d.fighter, legal)
        return Encoded2(d.fighter, legal, obs, obs["candidate_mask"] > 0)

    def observe_decider(self, c: Combat, viewer: int, legal: list[Action]) -> dict[str, F32]:
        """The observation of ``viewer`` deciding ``legal`` (empty: not deciding now)."""
        ents, emask, glob, cmap = self.entities.encode(c, viewer, legal)
        rows = entity_rows(self.slots, viewer)
        cand, kind, target, vs, mask = self.candidates.encode(c, viewer, rows, legal)
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
        """The legal action of candidate ``index``; :class:`InvalidActionError` if masked."""
        if not 0 <= index < len(enc.legal):
            raise InvalidActionError(
                f"candidate {index} is not legal for fighter {enc.fighter} "
                f"({self.game.names[enc.fighter]}): {len(enc.legal)} legal actions "
                f"(0..{len(enc.legal) - 1}); use the action mask"
            )
        return enc.legal[index]
