"""cwenv: the Corporate Wars combat simulator and AI-opponent training ground."""

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


def register_envs() -> None:
    """Register ``cwenv/Kampfrunde-v0`` with Gymnasium (idempotent; imports gymnasium)."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENV_ENTRY_POINT)


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
    ``gymnasium.make("cwenv/Kampfrunde-v0")`` works."""

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
