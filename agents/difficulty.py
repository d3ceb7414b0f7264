"""Difficulty levels: an agent played weaker in calibrated steps (``BASE@LEVEL``).

``taktiker@2`` is the Taktiker at level 2 of ``configs/difficulty/levels.yaml``; level 0
is the agent itself. A level weakens the agent's play in two ways:

* sampling: with a ``temperature`` above 0 the action is drawn from the agent's own full
  distribution (:meth:`cwenv.agent.Scoring.scores`: policy probabilities, search values,
  doctrine values) restricted to its ``top_k`` best, with weight ``exp(s / temperature)``;
  ``s`` is the log probability for a policy, and for values the value less the best one in
  units of the spread between the best and the worst scored action (so one temperature
  means the same on every agent's scale). An infinite temperature draws uniformly among
  the ``top_k`` best. Where the agent has no scores, or chose an action it does not score
  (a Doktrin's rule-based Mumm or sprint), its own choice stands;
* mistakes (:mod:`agents.mistakes`), each made with its probability per opportunity;
* blunders: with probability ``blunder`` per decision a legal action drawn uniformly, with
  no thought at all (the bottom of the ladder: a beginner's first fight).

Every draw comes from the generator the game passes, so a seed replays the same choices,
and a level's settings are part of the agent's ``config`` (a changed level changes
tournament ids).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agents.mistakes import MISTAKE_TEXT, MISTAKES, Mistake, make_mistakes
from cwenv.agent import Agent, DecisionView, Scoring
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.content.errors import Origin, validate
from cwenv.engine.actions import Action
from cwenv.rules.variants import CONFIG_ROOT
from cwenv.yamlio import read_yaml_file

LEVELS_FILE = CONFIG_ROOT / "difficulty" / "levels.yaml"
SEPARATOR = "@"
PROBABILITY_KIND = "probability"  # ActionScores.kind_en of a policy's probabilities


class DifficultyError(UnknownAgentError):
    """A ``BASE@LEVEL`` spec that names no level (the message lists the allowed ones)."""


class Level(BaseModel):
    """One difficulty level."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=True)

    temperature: float = Field(
        default=0.0, ge=0, description="Sampling temperature (0: the agent's own choice)."
    )
    top_k: int | None = Field(default=None, ge=1, description="Sample among the k best only.")
    blunder: float = Field(
        default=0.0, ge=0, le=1, description="Probability per decision of a random legal action."
    )
    mistakes: dict[Mistake, float] = Field(
        default_factory=dict, description="Each mistake's probability per opportunity."
    )
    description: str = Field(default="", description="What a GM sees of this level.")

    def sampling_text(self) -> str:
        """How this level samples, in words (as docs/difficulty.md reads it)."""
        if self.temperature <= 0:
            return "none"
        t = "∞" if math.isinf(self.temperature) else f"{self.temperature:g}"
        return f"temperature {t}" + (f", top {self.top_k}" if self.top_k else "")

    def mistake_text(self) -> str:
        """The mistakes this level makes, in words (as docs/difficulty.md reads them)."""
        made = [
            f"{MISTAKE_TEXT[m]} ({self.mistakes[m]:.0%})"
            for m in MISTAKES
            if self.mistakes.get(m, 0.0) > 0
        ]
        if self.blunder > 0:
            made.append(f"blunders ({self.blunder:.0%} of decisions at random)")
        return ", ".join(made) or "none"


class LevelsFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)

    levels: dict[int, Level]


_READ: dict[tuple[str, int], dict[int, Level]] = {}
"""Levels by (file, mtime): a tournament builds a fresh agent for every game."""


def load_levels(path: str | Path = LEVELS_FILE) -> dict[int, Level]:
    """The levels of ``path`` (ConfigError naming the file and field if invalid); level 0
    must be the plain agent."""
    key = (str(path), Path(path).stat().st_mtime_ns)
    if key not in _READ:
        _READ[key] = _read_levels(path)
    return _READ[key]


def _read_levels(path: str | Path) -> dict[int, Level]:
    doc = read_yaml_file(path)
    levels = validate(LevelsFile, Origin(doc), doc.data).levels
    plain = levels.get(0)
    if plain is None or plain.temperature or plain.mistakes:
        raise DifficultyError(f"{path}: level 0 must exist and be the plain agent")
    return dict(sorted(levels.items()))


class DifficultyConfig(BaseModel):
    """What a difficulty agent is (its fingerprint in tournaments)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base: str
    level: int
    settings: Level


class DifficultyAgent:
    """``base`` played at a difficulty :class:`Level` (module text)."""

    def __init__(self, base: Agent, spec: str, level: int, settings: Level) -> None:
        self.base = base
        self.name = f"{spec}{SEPARATOR}{level}"
        self.config = DifficultyConfig(base=spec, level=level, settings=settings)
        self.description = (
            f"{getattr(base, 'description', '') or spec}, level {level}: "
            f"{settings.description or settings.mistake_text()}"
        )
        self.mistake_text = settings.mistake_text()
        self.sampling_text = settings.sampling_text()
        self.level_text = settings.description
        self.rulesets = getattr(base, "rulesets", ("cw",))
        self.last_mistakes: list[Mistake] = []
        """The mistakes made at the last decision (for tests and the table)."""

    def prepare(self, game: Any) -> None:
        prepare = getattr(self.base, "prepare", None)
        if callable(prepare):
            prepare(game)

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        level = self.config.settings
        self.last_mistakes = []
        if level.blunder > 0 and len(legal) > 1 and rng.random() < level.blunder:
            return legal[rng.randrange(len(legal))]  # a blunder: no thought at all
        chosen = self._sampled(view, legal, rng, level)
        if level.mistakes and len(legal) > 1:
            chosen, self.last_mistakes = make_mistakes(view, legal, chosen, level.mistakes, rng)
        return chosen

    def _sampled(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random, level: Level
    ) -> Action:
        base = self.base
        if level.temperature <= 0 or len(legal) == 1 or not isinstance(base, Scoring):
            return base.act(view, legal, rng)
        found = base.scores(view, legal, rng)
        if found is None:
            return base.act(view, legal, rng)
        values = {a: v for a, v in found.values.items() if a in legal}
        if found.chosen not in values:
            return found.chosen  # decided by rule, not by value: the agent's own choice
        weights = sampling_weights(
            values, level.temperature, level.top_k, found.kind_en == PROBABILITY_KIND
        )
        return draw(weights, rng)


def sampling_weights(
    values: dict[Action, float], temperature: float, top_k: int | None, log_of: bool
) -> dict[Action, float]:
    """Unnormalised weights of the scored actions (module text); ``log_of``: the values
    are probabilities, sampled by their logarithm. Ties in the top k keep the given order."""
    ranked = sorted(values, key=lambda a: -values[a])  # stable: equal values keep order
    if top_k is not None:
        ranked = ranked[:top_k]
    if math.isinf(temperature):
        return dict.fromkeys(ranked, 1.0)
    if log_of:
        scale = {a: math.log(max(values[a], 1e-300)) for a in ranked}
        best, spread = max(scale.values()), 1.0
    else:
        scale = {a: values[a] for a in ranked}
        best = max(scale.values())
        spread = best - min(values.values()) or 1.0
    return {a: math.exp((scale[a] - best) / spread / temperature) for a in ranked}


def draw(weights: dict[Action, float], rng: random.Random) -> Action:
    """One action, with probability proportional to its weight (one draw of ``rng``)."""
    total = sum(weights.values())
    x = rng.random() * total
    last = next(iter(weights))
    for action, w in weights.items():
        last = action
        x -= w
        if x < 0:
            return action
    return last


def split_spec(spec: str) -> tuple[str, str] | None:
    """``BASE@LEVEL`` → (base, level text); None for a spec without ``@``."""
    if SEPARATOR not in spec:
        return None
    base, _, level = spec.rpartition(SEPARATOR)
    return base, level


def difficulty_agent(spec: str, levels: dict[int, Level] | None = None) -> Agent:
    """The agent of a ``BASE@LEVEL`` spec; :class:`DifficultyError` naming the allowed
    levels for a level that is not one, and the base's own error for an unknown base."""
    parts = split_spec(spec)
    if parts is None:
        raise DifficultyError(f"{spec!r} is not a difficulty spec BASE{SEPARATOR}LEVEL")
    base, text = parts
    known = load_levels() if levels is None else levels
    allowed = ", ".join(str(n) for n in known)
    if not base:
        raise DifficultyError(
            f"difficulty spec {spec!r} names no agent: write BASE{SEPARATOR}LEVEL, e.g. "
            f"taktiker{SEPARATOR}2 (levels: {allowed})"
        )
    level = int(text) if text.isdigit() else None
    if level is None or level not in known:
        raise DifficultyError(
            f"unknown difficulty level {text!r} in {spec!r}; allowed levels: {allowed} "
            f"(configs/difficulty/levels.yaml)"
        )
    if split_spec(base) is not None:
        raise DifficultyError(f"difficulty spec {spec!r} names a level twice")
    return DifficultyAgent(make_agent(base), base, level, known[level])
