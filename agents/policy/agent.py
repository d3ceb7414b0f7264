"""A saved policy playing through the common agent interface (``policy:PATH``).

The bundle's numpy network sees exactly what the Gymnasium env showed it in training:
the env's own encoders turn the decision into the observation dict and the action mask,
and decode the chosen index back into the engine's action. Neither torch nor gymnasium
is imported.

At use the bundle is checked against the game: one it cannot play (the scenario does not
fit its action window, the env's layout or observation keys differ) raises
:class:`PolicyMismatchError`, a :class:`BundleError` (a bundle of another encoding is
refused earlier, at load: :mod:`agents.policy.compat`); a scenario, rule variant or side
other than the one it was trained for, or rules in padded slots it never saw, play, with
one :class:`PolicyMismatchWarning` per bundle and difference in a process.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import numpy as np

from agents.policy.bundle import BundleError, PolicyBundle, load_bundle
from cwenv.agent import ActionScores, DecisionView
from cwenv.engine.actions import Action

if TYPE_CHECKING:
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat
    from cwenv.envs.game_encoder import Session

_BUNDLES: dict[tuple[Path, str], Any] = {}
B = TypeVar("B", bound="LoadedBundle")
_WARNED: set[tuple[str, str]] = set()
_TRAINED_GAMES: dict[tuple[str, str | None], Game | None] = {}


class PolicyMismatchError(BundleError):
    """The policy cannot play this game (its action window or encoding does not fit)."""


class PolicyMismatchWarning(UserWarning):
    """The policy plays a scenario, rule variant or side it was not trained for."""


def cached(path: str | Path, load: Callable[[str | Path], B]) -> B:
    """Load a bundle with ``load`` once per process (tournament games build fresh agents
    every game); the MLP policies' loader and the scorers' are cached apart."""
    try:
        key = (Path(path).resolve(), load.__qualname__)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python < 3.13)
        raise BundleError(f"{path}: cannot resolve the path ({exc})") from None
    if key not in _BUNDLES:
        _BUNDLES[key] = load(path)  # messages name the path as the user wrote it
    bundle: B = _BUNDLES[key]
    return bundle


def cached_bundle(path: str | Path) -> PolicyBundle:
    """:func:`cached` for an MLP policy bundle."""
    return cached(path, load_bundle)


def warn_once(path: Path, what: str, message: str) -> None:
    """One PolicyMismatchWarning per bundle (``path``) and difference (``what``) in a
    process (the MLP policies and the candidate scorers)."""
    key = (str(path), what)
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(f"{path}: {message}", PolicyMismatchWarning, stacklevel=3)


def trained_game(scenario: str, variant: str | None) -> Game | None:
    """The game a bundle was trained on, if it can be loaded here (else None; cached)."""
    key = (scenario, variant)
    if key not in _TRAINED_GAMES:
        from cwenv.content import load_scenario

        try:
            _TRAINED_GAMES[key] = load_scenario(scenario, rules=variant)
        except (ValueError, OSError):  # ConfigError: renamed or absent here
            _TRAINED_GAMES[key] = None
    return _TRAINED_GAMES[key]


def fitted_session(bundle: PolicyBundle, game: Game) -> Session:
    """The env session through which ``bundle`` plays ``game``, or PolicyMismatchError."""
    from agents.policy.compat import unseen_members
    from cwenv.envs.errors import LimitError
    from cwenv.envs.game_encoder import Session
    from cwenv.envs.observe import SHAPES

    m = bundle.manifest
    trained = f"trained on {m.scenario!r} with move_radius {m.training.move_radius}, " + (
        f"drag_radius {m.training.drag_radius}"
    )
    try:
        session = Session(
            game, move_radius=m.training.move_radius, drag_radius=m.training.drag_radius
        )
    except LimitError as exc:
        raise PolicyMismatchError(
            f"{bundle.path}: cannot play {game.name!r} ({trained}; its action window is "
            f"fixed): {exc}"
        ) from None
    if session.layout.size != m.action_size:
        raise PolicyMismatchError(
            f"{bundle.path}: the policy has {m.action_size} actions, the env layout "
            f"{session.layout.size}; the action encoding changed"
        )
    ours = {k.name: tuple(k.shape) for k in m.observation}
    if ours != SHAPES:
        raise PolicyMismatchError(
            f"{bundle.path}: observation keys {ours} do not match the env's {SHAPES}; "
            "the observation encoding changed"
        )
    unseen = unseen_members(m)
    if unseen:
        warn_once(
            bundle.path,
            "unseen members",
            "trained before these rules existed, it never saw them (they sit in padded "
            f"slots): {', '.join(unseen)}",
        )
    known = trained_game(m.scenario, m.rules.variant)
    if known is None:
        if m.scenario != game.name:
            warn_once(bundle.path, f"scenario {game.name}", f"{trained}, plays {game.name!r}")
    elif known.name != game.name:
        warn_once(bundle.path, f"scenario {game.name}", f"{trained}, plays {game.name!r}")
    elif known.options != game.options:
        warn_once(
            bundle.path,
            f"rules {game.name}",
            f"trained with rule variant {m.rules.variant or '(none)'}, plays "
            f"{game.name!r} with other rule options",
        )
    return session


class _Manifest(Protocol):
    @property
    def side(self) -> str: ...
    @property
    def weights_sha256(self) -> str: ...


class LoadedBundle(Protocol):
    """What the agents read of a loaded bundle (an MLP policy or a candidate scorer)."""

    path: Path

    @property
    def manifest(self) -> _Manifest: ...


class BundleAgent(Generic[B]):
    """The part of a bundle agent common to every bundle format: its spec (``prefix`` +
    path), its config record, and one warning per side it was not trained for."""

    prefix = ""

    def __init__(self, bundle: B, *, sample: bool = False, warn: bool = True) -> None:
        self.bundle = bundle
        self.sample = sample
        self.warn = warn  # off for self-play snapshots, which play the other side on purpose
        self.name = f"{self.prefix}{bundle.path}"
        self.config = {
            "bundle": str(bundle.path),
            "sha256": bundle.manifest.weights_sha256,
            "sample": sample,
        }

    def check_side(self, view: DecisionView) -> None:
        side, trained = view.fighter.side.label.lower(), self.bundle.manifest.side
        if self.warn and side != trained:
            warn_once(
                self.bundle.path,
                f"side {side}",
                f"trained for the {trained} side, plays the {side} side",
            )


class PolicyAgent(BundleAgent[PolicyBundle]):
    """Chooses the highest-scoring legal action of a trained policy (or samples it)."""

    description = "ein trainiertes Netz (Policy-Bündel), gerechnet mit numpy"
    prefix = "policy:"

    def __init__(self, bundle: PolicyBundle, *, sample: bool = False, warn: bool = True) -> None:
        super().__init__(bundle, sample=sample, warn=warn)
        # The objects themselves are held (not their id(): a freed combat's id is reused
        # by the next one, which would inherit the step count).
        self._game: Game | None = None
        self._session_for_game: Session | None = None
        self._combat: Combat | None = None
        self._step = 0

    def prepare(self, game: Game) -> None:
        """Check now that the policy can play ``game`` (PolicyMismatchError if not)."""
        self._session(game)

    def _session(self, game: Game) -> Session:
        if self._session_for_game is None or game is not self._game:
            self._session_for_game = fitted_session(self.bundle, game)
            self._game = game
        return self._session_for_game

    def observation(self, view: DecisionView) -> tuple[dict[str, Any], np.ndarray, Any]:
        """The observation dict, the action mask and the encoded decision for ``view``."""
        combat = view.combat
        session = self._session(view.game)
        self.check_side(view)
        enc = session.encode(combat)
        if combat is not self._combat:
            self._combat, self._step = combat, 0
        step = self._step
        self._step += 1
        obs = session.observe(combat, enc.fighter, enc, step)
        return obs, enc.mask, enc

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        obs, mask, enc = self.observation(view)
        np_rng = np.random.default_rng(rng.getrandbits(64)) if self.sample else None
        index = self.bundle.choose(obs, mask, np_rng)
        return self._session(view.game).decode(enc, index)

    def scores(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> ActionScores:
        """The policy's probability of each legal action and the one it plays (the
        argmax, or its sample with ``rng`` as :meth:`act` draws it)."""
        obs, mask, enc = self.observation(view)
        probs = self.bundle.probabilities(obs, mask)
        np_rng = np.random.default_rng(rng.getrandbits(64)) if self.sample else None
        chosen = self._session(view.game).decode(enc, self.bundle.choose(obs, mask, np_rng))
        values = {
            action: float(probs[i])
            for action, i in zip(enc.legal, enc.indices.tolist(), strict=True)
        }
        return ActionScores(chosen, values, "Wahrscheinlichkeit", "probability")


def policy_agent(spec: str) -> PolicyAgent:
    """Build the agent for ``policy:PATH`` (a bundle folder)."""
    path = spec.split(":", 1)[1] if spec.startswith("policy:") else spec
    return PolicyAgent(cached_bundle(path))
