"""Fuzz every loader with random YAML documents and random bytes (issue #19, done-when).

Each loader gets documents built from its own field names (so the models' inner checks are
reached, not only the top-level "unknown field"), arbitrary YAML text and raw bytes, for a
bounded number of examples. The only exception any of them may raise is the project's own
``ConfigError`` (``BundleError`` for policy manifests): never a ``KeyError``, a
``RecursionError``, a pydantic ``ValidationError`` or a traceback of some other kind.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from agents.registry import load_agent_file
from agents.training.config import load_training_config
from cwenv.content import (
    load_cyberware,
    load_fighter,
    load_hack,
    load_map,
    load_scenario,
    load_weapon,
)
from cwenv.envs.rewards import load_reward_config
from cwenv.play.savefile import load_saved
from cwenv.play.situation import load_situation
from cwenv.rules.variants import load_rule_variant
from cwenv.yamlio import ConfigError

ROOT = Path(__file__).resolve().parent.parent

LOADERS: dict[str, Callable[[Path], Any]] = {
    "scenario": load_scenario,
    "fighter": load_fighter,
    "weapon": load_weapon,
    "hack": load_hack,
    "cyberware": load_cyberware,
    "map": load_map,
    "rule variant": load_rule_variant,
    "agent": load_agent_file,
    "reward": load_reward_config,
    "situation": load_situation,
    "save": load_saved,
    "training": load_training_config,
}
"""Every YAML loader (policy manifests are JSON: their own fuzz test is below)."""


def _vocabulary() -> list[str]:
    """Every key used in the shipped configs: fuzzed documents reach into the models."""
    words: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                words.add(str(key))
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for path in sorted((ROOT / "configs").rglob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return sorted(words)


KEYS = st.sampled_from(_vocabulary()) | st.text(max_size=8)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**15), max_value=10**15)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.sampled_from(["W10", "2W10+3", "runner", "gegner", "taktiker", "duell", "dojo"])
)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=30,
)

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _only_config_errors(loader: Callable[[Path], Any], content: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.yaml"
        path.write_bytes(content)
        try:
            loader(path)
        except ConfigError as exc:
            assert exc.issues, "a ConfigError names at least one issue"
            for issue in exc.issues:
                assert issue.file and issue.message


def _document_text(doc: Any) -> bytes:
    return yaml.safe_dump(doc, allow_unicode=True).encode("utf-8")


@FUZZ
@given(st.sampled_from(sorted(LOADERS)), DOCUMENTS)
def test_random_documents_raise_only_config_errors(loader: str, doc: Any) -> None:
    _only_config_errors(LOADERS[loader], _document_text(doc))


@FUZZ
@given(st.sampled_from(sorted(LOADERS)), st.text(max_size=300))
def test_random_text_raises_only_config_errors(loader: str, text: str) -> None:
    _only_config_errors(LOADERS[loader], text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(st.sampled_from(sorted(LOADERS)), st.binary(max_size=300))
def test_random_bytes_raise_only_config_errors(loader: str, data: bytes) -> None:
    _only_config_errors(LOADERS[loader], data)


@FUZZ
@given(
    st.sampled_from(sorted(LOADERS)),
    st.sampled_from(
        ["&a [*a]", "&a {k: *a}", "[" * 3000, "{" * 3000, "!!python/object:os.system x"]
    ),
)
def test_hostile_fragments_raise_only_config_errors(loader: str, fragment: str) -> None:
    _only_config_errors(LOADERS[loader], f"name: x\nextra: {fragment}\n".encode())


BUNDLE = ROOT / "agents" / "policies" / "spiegelduell-nsc"


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value[:3]):
            out += _paths(inner, (*prefix, i))
    return out


MANIFEST = json.loads((BUNDLE / "manifest.json").read_text(encoding="utf-8"))
MANIFEST_PATHS = _paths(MANIFEST)[1:]


def _bundle_with(manifest: bytes) -> Any:
    from agents.policy.bundle import BundleError, load_bundle

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "b"
        folder.mkdir()
        (folder / "policy.safetensors").symlink_to(BUNDLE / "policy.safetensors")
        (folder / "manifest.json").write_bytes(manifest)
        try:
            load_bundle(folder)
        except BundleError as exc:
            assert str(exc)


@FUZZ
@given(st.sampled_from(MANIFEST_PATHS), DOCUMENTS)
def test_mutated_manifests_raise_only_bundle_errors(path: tuple[Any, ...], junk: Any) -> None:
    data = copy.deepcopy(MANIFEST)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = junk
    _bundle_with(json.dumps(data, allow_nan=True).encode("utf-8"))


@FUZZ
@given(st.binary(max_size=400) | DOCUMENTS.map(lambda d: json.dumps(d).encode("utf-8")))
def test_random_manifests_raise_only_bundle_errors(data: bytes) -> None:
    _bundle_with(data)
