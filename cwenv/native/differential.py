"""The differential test of whole games (issue #16, docs/native.md "The differential
test"): one seeded game played twice in lockstep, once under the Python reference and once
under the native core, with the same random legal choice at every step.

At every step both combats must offer the same legal actions (in the same order) and, after
the choice, emit the same events and the same outcome; on a sample of steps both encodings
of the env (encoding 1's observation and action mask, encoding 2's observation and
candidate mask, and encoding 2's stages of a decision above a small K) must give the same
arrays. The first difference is a :class:`Divergence` naming the case (scenario, rules,
readings), the seed and the step, so that
``python -m cwenv.native.differential --pool P --game I`` replays it alone.

Each combat has its own copy of the game (:meth:`Case.game`), and the engine is switched
around every call on it (:func:`cwenv.battlemap.los.use_engine`): what either engine
caches (a map's lines and step tables, a turn's search) is filled by that engine alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from cwenv.battlemap import los
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.native.cases import Case

ENGINES = ("python", "native")
T = TypeVar("T")
Encoder = Callable[[Combat], dict[str, np.ndarray]]


class DivergenceError(ValueError):
    """The two engines disagreed; ``divergence`` says where and how."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.describe())
        self.divergence = divergence


class NativeCoreMissingError(RuntimeError):
    """The differential test needs the native core (``cwenv._core``), which is not built."""


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first difference between the engines in one game."""

    case: Case
    pool: str
    step: int  # decisions taken before it (0: at the first decision)
    what: str  # "legal actions", "events", "outcome", "encoding 1 mask", "error", ...
    python: str
    native: str

    def describe(self) -> str:
        where, replay = whereabouts(self.case, self.pool, self.step)
        return (
            f"the engines diverge in {where}: {self.what}\n  python: {self.python}\n"
            f"  native: {self.native}\n  replay: {replay}"
        )


def whereabouts(case: Case, pool: str, step: int) -> tuple[str, str]:
    """Where in a run a step is, and the command that replays its game alone."""
    replay = f"python -m cwenv.native.differential --pool {pool} --game {case.index}"
    return f"game {case.index} ({case.label}, seed {case.seed}) at step {step}", replay


@dataclass(slots=True)
class Tally:
    """What a differential run compared."""

    games: int = 0
    steps: int = 0
    events: int = 0
    encoded: int = 0  # steps whose observations and masks were compared
    by_source: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.steps += other.steps
        self.events += other.events
        self.encoded += other.encoded
        for k, v in other.by_source.items():
            self.by_source[k] = self.by_source.get(k, 0) + v


@dataclass(frozen=True, slots=True)
class Play:
    """How the game is played and sampled: ``bias`` > 0 prefers attacks and moves (the
    actions that ask the search and the lines the most) over the rest of the legal list;
    ``encode_every``: compare the encodings at every n-th step (0: never); ``max_steps``:
    stop a game early (0: play it to its end)."""

    bias: float = 0.0
    encode_every: int = 10
    max_steps: int = 0


def require_core() -> None:
    """Raise :class:`NativeCoreMissingError` unless the native core is built."""
    try:
        from cwenv import _core  # noqa: F401
    except ImportError as exc:
        raise NativeCoreMissingError(
            f"the differential test compares the native core with the reference, and the "
            f"core is not built ({exc}); see docs/native.md"
        ) from None


@contextmanager
def engine_as(choice: str) -> Iterator[None]:
    """Run the block under one engine, then give back the one chosen before (not simply
    'native': under ``CWENV_ENGINE=python`` the rest of the process stays on the reference)."""
    before = los.engine()
    los.use_engine(choice)
    try:
        yield
    finally:
        los.use_engine(before)


@dataclass(frozen=True, slots=True)
class _Answer:
    value: Any = None
    error: str | None = None  # the exception's type and message, when it raised

    def shown(self, show: Callable[[Any], str] = repr) -> str:
        return f"raised {self.error}" if self.error is not None else show(self.value)


class _Twin:
    """The same game under both engines; every call is made under each combat's engine."""

    def __init__(self, case: Case, pool: str) -> None:
        self.case = case
        self.pool = pool
        self.games = {e: case.game(e) for e in ENGINES}
        self.step = 0
        made = self.both(lambda e: self.games[e].new_combat(case.seed))
        self.combats: dict[str, Combat] = {e: made[e].value for e in ENGINES}
        self.seen = {e: 0 for e in ENGINES}

    def both(self, call: Callable[[str], T], what: str = "error") -> dict[str, _Answer]:
        """``call(engine)`` under each engine; an error in either is a divergence unless
        both raise the same (then it is the reference's own error, raised as such)."""
        out: dict[str, _Answer] = {}
        caught: Exception | None = None
        for e in ENGINES:
            with engine_as(e):
                try:
                    out[e] = _Answer(call(e))
                except Exception as exc:  # any error: either engine's, reported as one
                    out[e] = _Answer(error=f"{type(exc).__name__}: {exc}")
                    caught = exc
        errors = {out[e].error for e in ENGINES}
        if errors == {None}:
            return out
        if len(errors) == 1 and caught is not None:  # the same error: the game's, not a diff
            caught.add_note("under both engines, in {}; replay: {}".format(*self.where()))
            raise caught
        self.diverge(what, out["python"].shown(), out["native"].shown())
        return out

    def where(self) -> tuple[str, str]:
        return whereabouts(self.case, self.pool, self.step)

    def diverge(self, what: str, python: str, native: str) -> None:
        raise DivergenceError(Divergence(self.case, self.pool, self.step, what, python, native))

    def legal(self) -> list[Action]:
        lists = self.both(lambda e: list(self.combats[e].legal_actions()), "legal actions")
        a, b = lists["python"].value, lists["native"].value
        if a != b:
            i = _first_difference(a, b)
            self.diverge(
                f"legal actions (python {len(a)}, native {len(b)}; first differing #{i})",
                repr(a[i]) if i < len(a) else "(none)",
                repr(b[i]) if i < len(b) else "(none)",
            )
        return list(a)

    def apply(self, index: int) -> int:
        """Take legal action ``index`` in both; the new events must match. Their count."""
        self.both(lambda e: self.combats[e].apply(self.combats[e].legal_actions()[index]))
        self.step += 1
        new = {e: self.combats[e].events[self.seen[e] :] for e in ENGINES}
        if new["python"] != new["native"]:
            i = _first_difference(new["python"], new["native"])
            at = f"event #{self.seen['python'] + i} of the log"
            self.diverge(f"events ({at})", *(_nth(new[e], i) for e in ENGINES))
        self.seen = {e: len(self.combats[e].events) for e in ENGINES}
        outcomes = [repr(self.combats[e].outcome) for e in ENGINES]
        if outcomes[0] != outcomes[1]:
            self.diverge("outcome", *outcomes)
        return len(new["python"])

    def encodings(self, encoders: dict[str, dict[str, Encoder]]) -> None:
        """The same observation and mask arrays from each encoding under both engines."""
        for name in encoders["python"]:

            def encode(e: str, name: str = name) -> dict[str, np.ndarray]:
                return encoders[e][name](self.combats[e])

            arrays = self.both(encode, name)
            a, b = arrays["python"].value, arrays["native"].value
            for key in a:
                if not np.array_equal(a[key], b[key]):
                    where = np.argwhere(a[key] != b[key])[0]
                    at = tuple(int(x) for x in where)
                    self.diverge(f"{name} {key!r} at {at}", repr(a[key][at]), repr(b[key][at]))


def _first_difference(a: Sequence[object], b: Sequence[object]) -> int:
    pairs = enumerate(zip(a, b, strict=False))
    return next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))


def _nth(items: Sequence[object], i: int) -> str:
    return repr(items[i]) if i < len(items) else "(no more events)"


STAGED_K = 16
"""Encoding 2's K for the comparison of its stages (cwenv/envs/stages.py)."""


def _encoders(game: Game) -> dict[str, Encoder]:
    """Encoding 1's and 2's observation+mask of the decider, where the game fits them."""
    from cwenv.envs.encoding2 import CANDIDATE_KEYS, Session2
    from cwenv.envs.errors import EnvError
    from cwenv.envs.game_encoder import Session

    out: dict[str, Encoder] = {}
    try:
        one = Session(game)
    except (EnvError, ValueError):
        pass  # a map or roster beyond encoding 1's limits: nothing to compare
    else:

        def first(c: Combat) -> dict[str, np.ndarray]:
            enc = one.encode(c)
            obs = one.observe(c, enc.fighter, enc, len(c.history))
            return {**obs, "mask": enc.mask, "indices": enc.indices}

        out["encoding 1"] = first
    try:
        two = Session2(game)
    except (EnvError, ValueError):
        pass
    else:
        staged = Session2(game, k=STAGED_K, over_k="stage")

        def second(c: Combat) -> dict[str, np.ndarray]:
            enc = two.encode(c)
            arrays = {**enc.obs, "mask": enc.mask}
            n = len(enc.legal)
            if n > STAGED_K:  # its stages under a small K: stage 1, its first group's stage
                whole = {k: v[:n] if k in CANDIDATE_KEYS else v for k, v in enc.obs.items()}
                first = staged.first_stage(enc.fighter, enc.legal, whole)
                groups = (staged.narrow(first, row) for row in range(STAGED_K))
                after = next((e for e in groups if e is not None), first)
                for name, e in (("stage 1", first), ("stage 2", after)):
                    arrays.update({f"{name} {key}": e.obs[key] for key in CANDIDATE_KEYS})
                    arrays[f"{name} mask"] = e.mask
            return arrays

        out["encoding 2"] = second
    return out


_PREFERRED = frozenset({ActionKind.MOVE, ActionKind.ATTACK})


def _choose(rng: random.Random, legal: list[Action], bias: float) -> int:
    """A random legal index; with ``bias`` > 0, moves and attacks weigh 1 + bias each."""
    if bias <= 0:
        return rng.randrange(len(legal))
    weights = [1.0 + bias if a.kind in _PREFERRED else 1.0 for a in legal]
    return rng.choices(range(len(legal)), weights)[0]


def play_case(case: Case, pool: str, play: Play = Play()) -> Tally:
    """Play ``case`` under both engines in lockstep; a :class:`DivergenceError` at the
    first difference, else what was compared."""
    require_core()
    twin = _Twin(case, pool)
    rng = random.Random(case.seed)
    encoders: dict[str, dict[str, Encoder]] = {}
    if play.encode_every:
        made = twin.both(lambda e: _encoders(twin.games[e]), "encoders")
        encoders = {e: made[e].value for e in ENGINES}
    tally = Tally(games=1, by_source={case.source.split(":")[0]: 1})
    tally.events = len(twin.combats["python"].events)
    while twin.combats["python"].outcome is None:
        if play.max_steps and twin.step >= play.max_steps:
            break
        legal = twin.legal()
        if encoders and twin.step % play.encode_every == 0:
            twin.encodings(encoders)
            tally.encoded += 1
        tally.events += twin.apply(_choose(rng, legal, play.bias))
        tally.steps += 1
    return tally


if __name__ == "__main__":
    from cwenv.native.command import main

    raise SystemExit(main())
