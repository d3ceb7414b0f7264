"""Encoding 2's training pool: many fights, both sides, one env (issue #18).

A run of the candidate scorer trains on a :class:`~agents.training.config.Pool`: shipped
scenarios (names or YAML paths), ``generated:SEED`` references and a range of generated
seeds, each played from the sides the pool names. :class:`PoolEnv` is one Gymnasium env
over all of them: every ``reset`` draws a fight and a side with the env's own generator
and plays it through ``cwenv/Kampfrunde2-v0`` (:class:`~cwenv.envs.env2.KampfrundeEnv2`);
the observation and the ``Discrete(K)`` actions are the same for every fight, which is what
lets one network learn them all. A decision above K (a rare fight's many movement cells) is
chosen in stages (:mod:`cwenv.envs.stages`), so no fight of the pool stops a run. The
fights of ``held_out`` are refused before a run starts (:func:`held_out_issues`), so the
evaluation of issue #18 stays unseen.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import gymnasium as gym
import numpy as np

from agents.training.config import HeldOut, Pool, TrainingConfig
from cwenv.engine.actions import Action
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.envs.encoding2 import DEFAULT_K
from cwenv.envs.env2 import KampfrundeEnv2, observation_space2
from cwenv.envs.errors import EncodingError
from cwenv.envs.game_encoder import SEED_BOUND, resolve_game
from cwenv.envs.opponents import OpponentSpec
from cwenv.model.types import Side

GENERATED = "generated:"
CACHED_ENVS = 16
"""Envs kept per PoolEnv (building one costs ~0.1 s; a pool may hold thousands of fights)."""


class PoolError(ValueError):
    """A pool reference that names no fight."""


def generated_seed(ref: str) -> int | None:
    """The seed of a ``generated:SEED`` reference, None for a scenario name or path."""
    if not ref.startswith(GENERATED):
        return None
    text = ref.removeprefix(GENERATED)
    if not text.isdigit() or len(text) > 10:
        raise PoolError(f"{ref!r}: generated:SEED needs a seed 0…2147483647")
    seed = int(text)
    if seed >= 2**31:
        raise PoolError(f"{ref!r}: generated:SEED needs a seed 0…2147483647")
    return seed


def load_ref(ref: str, rules: str | Path | None = None) -> Game:
    """The Game of a pool reference (a ValueError names what is wrong)."""
    seed = generated_seed(ref)
    if seed is None:
        return resolve_game(ref, rules)
    from cwenv.content.generate import generate_game

    return resolve_game(generate_game(seed), rules)


@dataclass(frozen=True, slots=True)
class Fight:
    """One entry of a pool: a scenario reference and the side the learner plays."""

    ref: str
    side: str


def pool_of(cfg: TrainingConfig) -> Pool:
    """The run's pool: its ``pool``, or the one fight ``scenario``/``side``."""
    if cfg.pool is not None:
        return cfg.pool
    return Pool(scenarios=[cfg.scenario], sides=[cfg.side])


def draw_fight(pool: Pool, rng: np.random.Generator) -> Fight:
    """A fight of ``pool`` drawn with ``rng`` (the env's generator: runs replay)."""
    gen = pool.generated
    use_generated = gen is not None and (not pool.scenarios or rng.random() < pool.generated_share)
    if use_generated and gen is not None:
        ref = f"{GENERATED}{gen.first + int(rng.integers(gen.count))}"
    else:
        ref = pool.scenarios[int(rng.integers(len(pool.scenarios)))]
    return Fight(ref, pool.sides[int(rng.integers(len(pool.sides)))])


_DISPLAY = ("name", "archetype")
"""Fields of a fighter that only name it: a copy may change them and stay the same fight."""


def fight_fingerprint(game: Game) -> str:
    """What makes two scenarios the same fight for the held-out check: the map (cells,
    heights, spawns, exits) and every fighter's stat block and equipment at its starting
    cell, in any roster order. Left out are what a copy changes without making another
    fight: the names of the scenario, its map and fighters (and the description, which a
    loaded game does not keep), the victory conditions, the round limit and rule options."""
    from cwenv.hashing import content_hash
    from cwenv.rulesets.cw_content import game_parts, plain

    field = {k: v for k, v in game_parts(game)["map"].items() if k != "name"}
    fighters = sorted(
        content_hash({"at": at, **{k: v for k, v in plain(spec).items() if k not in _DISPLAY}})
        for spec, at in zip(game.roster, game.positions, strict=True)
    )
    return content_hash({"map": field, "fighters": fighters}, 16)


FINGERPRINTED_RANGE = 5000
"""The most held-out generated seeds a YAML file of the pool is compared with (~40 ms a
seed): a larger held-out range with a file in the pool is refused, not checked in part."""


@lru_cache(maxsize=4)
def range_prints(first: int, count: int) -> dict[str, int]:
    """The fingerprint of every default-generated fight ``first`` … ``first+count-1`` (the
    first seed of each): a file of the pool that matches one is a held-out fight under an
    edited name. Rule options are not part of a fingerprint, so none are applied."""
    prints: dict[str, int] = {}
    for seed in range(first, first + count):
        prints.setdefault(fight_fingerprint(load_ref(f"{GENERATED}{seed}")), seed)
    return prints


def held_out_issues(pool: Pool, held: HeldOut, rules: str | None) -> list[tuple[Any, str]]:
    """``(field path, message)`` for every pool entry that is held out: names compared as
    written and as loaded (a path to a held-out scenario's file is caught too), the loaded
    fight by :func:`fight_fingerprint` (a renamed or re-described copy is caught, of a
    held-out scenario and, for a YAML file of the pool, of every seed of the held-out
    range, at most :data:`FINGERPRINTED_RANGE` of them), and seeds of the held-out
    range and of ``generated:SEED`` among the held-out scenarios alike."""
    from cwenv.content import list_scenarios
    from cwenv.content.generate import seed_in_name

    out: list[tuple[Any, str]] = []
    gen, held_gen = pool.generated, held.generated
    if gen is not None and held_gen is not None and gen.overlaps(held_gen):
        out.append(
            (("pool", "generated"), f"{gen.label()} overlaps the held-out {held_gen.label()}")
        )
    held_names: dict[str, str] = {}
    held_prints: dict[str, tuple[int, str]] = {}
    held_seeds: set[int] = set()
    for j, ref in enumerate(held.scenarios):
        held_names[ref] = ref
        with suppress(ValueError):  # a held-out name this cwenv lacks cannot be trained on
            seed = generated_seed(ref)
            if seed is not None:
                held_seeds.add(seed)
            game = load_ref(ref, rules)
            held_names[game.name] = ref
            held_prints.setdefault(fight_fingerprint(game), (j, ref))
    held_gen_label = held_gen.label() if held_gen is not None else ""
    inside = sorted(s for s in held_seeds if gen is not None and gen.first <= s < gen.stop)
    if gen is not None and inside:
        out.append(
            (("pool", "generated"), f"{gen.label()} holds the held-out generated:{inside[0]}")
        )

    def held_seed(seed: int) -> bool:
        return seed in held_seeds or (
            held_gen is not None and held_gen.first <= seed < held_gen.stop
        )

    for i, ref in enumerate(pool.scenarios):
        try:
            seed = generated_seed(ref)
        except PoolError:
            continue  # reported by the pool's own check
        if seed is not None:
            if held_seed(seed):
                out.append((("pool", "scenarios", i), f"{ref} is held out"))
            continue
        hit = held_names.get(ref)
        copied: tuple[int, str] | None = None
        if hit is None:
            try:
                game = load_ref(ref, rules)
            except ValueError:
                continue  # reported by the pool's own check
            hit = held_names.get(game.name)
            # a YAML written by `cwenv scenarios generate` names its seed
            seed = seed_in_name(game.name)
            if hit is None and seed is not None and held_seed(seed):
                hit = f"generated:{seed}"
            if hit is None:
                print_ = fight_fingerprint(game)
                copied = held_prints.get(print_)
                if copied is None and held_gen is not None and ref not in list_scenarios():
                    # a file, not a shipped name: it may be a generated fight renamed
                    if held_gen.count > FINGERPRINTED_RANGE:
                        out.append((
                            ("held_out", "generated", "count"),
                            f"{held_gen.count} held-out seeds are too many to compare the "
                            f"pool's file {ref!r} with (at most {FINGERPRINTED_RANGE}): "
                            "hold out fewer seeds or train on generated seeds, not files",
                        ))  # fmt: skip
                        continue
                    seed = range_prints(held_gen.first, held_gen.count).get(print_)
                    if seed is not None:
                        copied = (-1, f"{GENERATED}{seed}")
        if hit is not None:
            out.append((("pool", "scenarios", i), f"{ref!r} is held out (as {hit!r})"))
        elif copied is not None:
            j, original = copied
            where = f"held_out.scenarios.{j}" if j >= 0 else f"held_out.generated {held_gen_label}"
            out.append((
                ("pool", "scenarios", i),
                f"{ref!r} is a copy of the held-out {original!r} ({where}): "
                "the same map, fighters and starting cells under other names",
            ))  # fmt: skip
    return out


EVALUATED = 4
"""Fights of the pool the training curve evaluates when ``evaluation.scenarios`` is empty."""


def evaluation_refs(cfg: TrainingConfig) -> list[str]:
    """The references the run's evaluation plays (its own, else a fixed sample of the
    pool: the first named scenarios, else the first generated seeds)."""
    if cfg.evaluation.scenarios:
        return list(cfg.evaluation.scenarios)
    pool = pool_of(cfg)
    if pool.scenarios:
        return pool.scenarios[:EVALUATED]
    gen = pool.generated
    if gen is None:  # a pool names scenarios or generated seeds (config check)
        raise PoolError("the pool names no fight")
    return [f"{GENERATED}{gen.first + i}" for i in range(min(EVALUATED, gen.count))]


def evaluation_fights(cfg: TrainingConfig) -> tuple[list[tuple[Game, Side]], str]:
    """The (game, learner's side) pairs of the run's evaluation, in turn, and a title."""
    refs = evaluation_refs(cfg)
    sides = [Side.GEGNER if s == "gegner" else Side.RUNNER for s in pool_of(cfg).sides]
    fights = [(load_ref(ref, cfg.rules), side) for ref in refs for side in sides]
    title = ", ".join(refs[:3]) + (f" and {len(refs) - 3} more" if len(refs) > 3 else "")
    return fights, title


def pool_entry(cfg: TrainingConfig, frames: int) -> dict[str, Any]:
    """The run's pool as a bundle records it (a ``TrainedPool``), with ``frames`` on it."""
    pool = pool_of(cfg)
    return {
        "scenarios": list(pool.scenarios),
        "generated": None if pool.generated is None else pool.generated.model_dump(),
        "generated_share": pool.generated_share if pool.scenarios else 1.0,
        "sides": list(pool.sides),
        "rules": cfg.rules,
        "frames": frames,
    }


def trained_on(cfg: TrainingConfig, history: list[dict[str, Any]]) -> dict[str, Any]:
    """What a bundle of this run was trained on (its last pool, and every pool in
    ``history``) and what was held out (its manifest's ``trained_on``)."""
    last = {k: v for k, v in pool_entry(cfg, 0).items() if k != "frames"}
    return {**last, "held_out": cfg.held_out.model_dump(mode="json"), "history": history}


class PoolEnv(gym.Env[dict[str, Any], np.int64]):
    """``cwenv/Kampfrunde2-v0`` over a pool: each episode a fight and a side drawn anew.

    Arguments: the ``pool``, the ``opponent`` (an agent spec or the league, as for
    :class:`~cwenv.envs.kampfrunde.KampfrundeEnv`), ``rules``, ``reward``, ``max_steps``
    ``k`` and ``illegal_action`` (as the env's: ``fallback`` for API checkers that sample
    without the mask). ``info`` carries the episode's ``scenario`` reference and ``side``,
    and the env's ``stage`` (a decision above K: chosen in steps, :mod:`cwenv.envs.stages`).
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - Gymnasium declares it so

    def __init__(
        self,
        pool: Pool,
        opponent: OpponentSpec = None,
        rules: str | None = None,
        reward: Any = None,
        max_steps: int = 3000,
        k: int = DEFAULT_K,
        illegal_action: Literal["raise", "fallback"] = "raise",
    ) -> None:
        self.pool = pool
        self.illegal_action: Literal["raise", "fallback"] = illegal_action
        self.opponent = opponent
        self.rules, self.reward, self.max_steps, self.k = rules, reward, max_steps, k
        self.observation_space = observation_space2(k)
        self.action_space = gym.spaces.Discrete(k)
        self._envs: OrderedDict[Fight, KampfrundeEnv2] = OrderedDict()
        self._env: KampfrundeEnv2 | None = None
        self.fight: Fight | None = None

    def _env_for(self, fight: Fight) -> KampfrundeEnv2:
        env = self._envs.pop(fight, None)
        if env is None:
            env = KampfrundeEnv2(
                load_ref(fight.ref, self.rules), side=fight.side, opponent=self.opponent,
                reward=self.reward, max_steps=self.max_steps, k=self.k,
                illegal_action=self.illegal_action,
            )  # fmt: skip
        self._envs[fight] = env
        while len(self._envs) > CACHED_ENVS:
            self._envs.popitem(last=False)[1].close()
        return env

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.fight = draw_fight(self.pool, self.np_random)
        self._env = self._env_for(self.fight)
        with self._naming_the_fight():
            obs, info = self._env.reset(seed=int(self.np_random.integers(SEED_BOUND)))
        return obs, self._tag(info)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._env is None:
            raise RuntimeError("call reset() first")
        with self._naming_the_fight():
            obs, reward, terminated, truncated, info = self._env.step(action)
        return obs, reward, terminated, truncated, self._tag(info)

    @contextmanager
    def _naming_the_fight(self) -> Iterator[None]:
        """An :class:`EncodingError` (a decision the encoder cannot hold; one above K is
        chosen in stages) names the pool's fight and side: the encoder's message names
        only the fighter, and a pool holds thousands of fights."""
        try:
            yield
        except EncodingError as exc:
            fight = self.fight
            where = f"{fight.ref} ({fight.side})" if fight is not None else "no fight"
            raise EncodingError(f"pool fight {where}: {exc}") from exc

    @property
    def combat(self) -> Combat:
        """The running combat of this episode's fight (read it, do not change it)."""
        if self._env is None:
            raise RuntimeError("call reset() first")
        return self._env.combat

    def row_of(self, action: Action) -> int:
        """The index to step with now to play the legal ``action`` (the env's ``row_of``)."""
        if self._env is None:
            raise RuntimeError("call reset() first")
        return self._env.row_of(action)

    def action_masks(self) -> np.ndarray:
        if self._env is None:
            mask = np.zeros(self.k, dtype=np.bool_)
            mask[0] = True
            return mask
        return self._env.action_masks()

    def _tag(self, info: dict[str, Any]) -> dict[str, Any]:
        if self.fight is not None:
            info["scenario"], info["side"] = self.fight.ref, self.fight.side
        return info

    def close(self) -> None:
        for env in self._envs.values():
            env.close()
        self._envs.clear()
        self._env = None
