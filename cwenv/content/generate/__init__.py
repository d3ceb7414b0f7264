"""Seeded random scenarios (issue #18): maps, rosters and victory conditions from a seed.

Three map families: indoor ``rooms`` (walls, closed ``+`` and open ``/`` doors,
corridors), ``streets`` (blocks, alleys, cars and crates as cover) and ``rooftops``
(heights, gaps to jump, fire escapes of ``H`` ledges, falls), with water and fire now and
then; rosters of 1 to 6 a side from the shipped archetypes with melee and ranged
loadouts, cyberware, hackers, drones and sometimes a boss; victory mostly ``eliminate``,
else ``survive``, ``protect_vip`` or ``reach_exit``.

The generator writes a scenario document and loads it through the content models (a
generated fight is a normal scenario file); every start cell can reach every other and
every exit (:mod:`cwenv.content.generate.reach`), ``cwenv scenarios validate`` has no
warning for it, and it fits the RL env's layout. The same seed and knobs give the same
YAML bytes in any process::

    from cwenv.content.generate import generate, generate_game, generate_yaml

    generate(42)                     # the scenario as a YAML-ready mapping (map inline)
    generate_game(42, size="small")  # the loaded Game
    generate_yaml(42, players=3)     # the YAML text (`cwenv scenarios generate --seed 42`)
"""

from __future__ import annotations

from typing import Any

from cwenv.content.generate.knobs import (
    FAMILIES,
    KNOB_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SIZES,
    VICTORIES,
    GeneratorKnobError,
    Knobs,
    check_seed,
    make_knobs,
)
from cwenv.content.generate.roster import GeneratorError
from cwenv.content.generate.scenario import Generated, generate_scenario, seed_in_name, to_yaml
from cwenv.engine.game import Game

__all__ = [
    "FAMILIES",
    "KNOB_NAMES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SIZES",
    "VICTORIES",
    "Generated",
    "GeneratorError",
    "GeneratorKnobError",
    "Knobs",
    "generate",
    "generate_game",
    "generate_yaml",
    "generated",
    "seed_in_name",
    "to_yaml",
]


def generated(seed: int, **knobs: Any) -> Generated:
    """Document, YAML text and loaded Game of one generated scenario.

    Knobs (all optional, see :mod:`cwenv.content.generate.knobs`): ``size`` (small,
    medium, large), ``family`` (rooms, streets, rooftops), ``players`` (1–6 a side) or
    ``runners`` and ``gegner`` (1–6 each), ``victory`` (eliminate, survive, protect_vip,
    reach_exit). A bad knob is a :class:`GeneratorKnobError` naming the allowed values.
    """
    return generate_scenario(check_seed(seed), make_knobs(**knobs))


def generate(seed: int, **knobs: Any) -> dict[str, Any]:
    """The scenario of ``seed`` as a YAML-ready mapping, its map inline."""
    return generated(seed, **knobs).document


def generate_game(seed: int, **knobs: Any) -> Game:
    """The scenario of ``seed`` loaded as a :class:`Game` (through the content models)."""
    return generated(seed, **knobs).game


def generate_yaml(seed: int, **knobs: Any) -> str:
    """The scenario of ``seed`` as YAML text, byte for byte the same in every process."""
    return generated(seed, **knobs).text
