"""cwenv: the Corporate Wars combat simulator and AI-opponent training ground.

Layers, lowest first: a module imports only from the lines before its own, and the modules
on one line are peers that do not import each other (``tests/test_layering.py`` checks
this list against the code):

    cwenv yamlio suggest invariants extras hashing  foundations: this module, small helpers
    ruleset              the Ruleset protocol a game system implements; the game record
    model                plain types and stat blocks
    rules                dice, probabilities, rule options, tables
    battlemap            grid, line of sight, cover, paths
    engine               combat state, the legality function, frames, events, narration
    agent                the agent interface: DecisionView, Agent, play_out, play_through
    agent_registry       agent specs to agents, through entry-point resolvers
    content              YAML content: fighters, equipment, maps, scenarios
    rulesets             Corporate Wars as a Ruleset; other rulesets through entry points
    envs runner play     RL encoding and environments; simulate and tournaments; table game
    stress service native  rule-variant sweeps, restricted play, exploit search; the HTTP
                         service (cwenv serve) and its browser view; the differential test
                         of the two engines (python -m cwenv.native.differential)
    cli                  the commands: the only layer that imports ``agents`` (concrete
                         agents, training), handing what the layers below need to them

``agents`` (outside this package) implements the agent interface and registers its agents
under the entry-point group ``cwenv.agents`` (:mod:`cwenv.agent_registry`). The runner and
the stress tools play any game system through :class:`cwenv.ruleset.Ruleset`; other systems
register under ``cwenv.rulesets`` (:mod:`cwenv.rulesets`, ``docs/rulesets.md``).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

__version__ = "0.1.0"

ENV_ID = "cwenv/Kampfrunde-v0"
ENV_ENTRY_POINT = "cwenv.envs.kampfrunde:KampfrundeEnv"
ENV2_ID = "cwenv/Kampfrunde2-v0"  # encoding 2 (#18): another encoding, not a v0 revision
ENV2_ENTRY_POINT = "cwenv.envs.env2:KampfrundeEnv2"


def register_envs() -> None:
    """Register ``cwenv/Kampfrunde-v0`` and ``cwenv/Kampfrunde2-v0`` with Gymnasium
    (idempotent; imports gymnasium)."""
    import gymnasium

    for env_id, entry_point in ((ENV_ID, ENV_ENTRY_POINT), (ENV2_ID, ENV2_ENTRY_POINT)):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point)


class _RegisteringLoader(importlib.abc.Loader):
    """Runs the real loader of ``gymnasium``, then registers our envs."""

    def __init__(self, real: importlib.abc.Loader) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        try:
            self.real.exec_module(module)
        finally:
            # Put the real loader back, so nothing later sees this wrapper.
            module.__loader__ = self.real
            if module.__spec__ is not None:
                module.__spec__.loader = self.real
        register_envs()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


class _GymnasiumHook(importlib.abc.MetaPathFinder):
    """One-shot import hook: the engine never imports gymnasium, but once anything does,
    ``gymnasium.make("cwenv/Kampfrunde-v0")`` (and ``cwenv/Kampfrunde2-v0``) works."""

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        _remove_hook()
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _RegisteringLoader(spec.loader)
        return spec


def _remove_hook() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _GymnasiumHook)]


if "gymnasium" in sys.modules:
    register_envs()
elif not any(isinstance(f, _GymnasiumHook) for f in sys.meta_path):
    sys.meta_path.insert(0, _GymnasiumHook())
