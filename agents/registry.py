"""Agent specs usable wherever the CLI takes an agent.

A spec is

* a built-in name: ``random``, ``greedy``, ``stuermer``, ``schuetze``, ``taktiker``,
  ``lookahead``, ``mcts`` (the named ones read their ``configs/agents/<name>.yaml``);
* the name of any other file in ``configs/agents/`` (``mcts-schnell``), or a path to a YAML
  file; the file names its ``kind`` and that kind's parameters;
* ``policy:PATH`` — a saved RL policy bundle (a folder with ``manifest.json`` and
  ``policy.safetensors``), played with numpy only;
* ``scorer:PATH`` — a candidate-scorer bundle of encoding 2 (issue #18, the same files,
  format ``cwenv-scorer``): one network for any scenario and either side, numpy only;
* ``SPEC@LEVEL`` — any of these at a difficulty level of ``configs/difficulty/levels.yaml``
  (``taktiker@2``; level 0 is the agent itself, :mod:`agents.difficulty`).

``cwenv`` finds these through :data:`resolver`, registered in ``pyproject.toml`` under the
entry-point group ``cwenv.agents``; build agents with :func:`cwenv.agent_registry.make_agent`,
which also knows the agents of other installed packages.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.config import (
    AGENT_CONFIG_DIR,
    AgentConfig,
    PlainConfig,
    agent_file,
    kind_of,
    load_document,
    read_config,
)
from agents.greedy import GreedyAgent
from agents.uniform import RandomAgent
from cwenv.agent import Agent
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.content.library import looks_like_path
from cwenv.yamlio import ConfigError, YamlDocument


def _plain(factory: Callable[[], Agent]) -> Callable[[Any], Agent]:
    def build(config: Any) -> Agent:
        agent = factory()
        if isinstance(config, AgentConfig) and config.name:
            agent.name = config.name
        return agent

    return build


def _kinds() -> dict[str, tuple[type[AgentConfig], Callable[[Any], Agent]]]:
    """Every agent kind: its config model and its constructor (imported lazily)."""
    from agents.lookahead import LookaheadAgent, LookaheadConfig
    from agents.mcts import MCTSAgent, MCTSConfig
    from agents.schuetze import Schuetze, SchuetzeConfig
    from agents.stuermer import Stuermer, StuermerConfig
    from agents.taktiker import Taktiker, TaktikerConfig

    return {
        "random": (PlainConfig, _plain(RandomAgent)),
        "greedy": (PlainConfig, _plain(GreedyAgent)),
        "stuermer": (StuermerConfig, Stuermer),
        "schuetze": (SchuetzeConfig, Schuetze),
        "taktiker": (TaktikerConfig, Taktiker),
        "lookahead": (LookaheadConfig, LookaheadAgent),
        "mcts": (MCTSConfig, MCTSAgent),
    }


BUILTIN = ("random", "greedy", "stuermer", "schuetze", "taktiker", "lookahead", "mcts")

BUILTIN_DESCRIPTIONS = {
    "random": RandomAgent.description,
    "greedy": GreedyAgent.description,
    "stuermer": "Doktrin Stürmer: stürmt in den Nahkampf, Kampfmanöver und Blockadeangriffe",
    "schuetze": "Doktrin Schütze: kämpft aus der Deckung, zielt, nimmt den gefährlichsten Gegner",
    "taktiker": "Doktrin Taktiker: Fokusfeuer, Reaktionen und Mumm nach exakten Chancen",
    "lookahead": "Suche: ein Zug voraus, jede Kandidatenaktion mit gewürfelten Rollouts bewertet",
    "mcts": "Suche: Open-Loop-MCTS über die Entscheidungen der eigenen Seite",
}


_FILES: dict[tuple[str, int, int], tuple[Any, Any]] = {}
"""Validated agent files by (path, mtime, size): tournaments and env resets build a fresh
agent per game, and parsing the YAML each time cost a fifth of a training env's time."""

_LOADING: list[str] = []
"""Agent files being built, outermost first: a ``base:`` or ``rollout:`` naming one of them
again is a cycle (it recursed until Python's stack ran out)."""

MAX_AGENT_NESTING = 8
"""Deepest chain of agent files naming each other in ``base:``/``rollout:``."""

SPEC_FIELDS = ("base", "rollout")
"""Config fields that name another agent spec."""


def load_agent_file(path: str | Path) -> Agent:
    """Build an agent from a YAML file naming its ``kind`` (ConfigError if invalid)."""
    try:
        stat = Path(path).stat()
        key = (str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = ("", 0, 0)  # not cached: reading it below reports what is wrong
    known = _FILES.get(key) if key[0] else None
    if known is None:
        kinds = _kinds()
        doc = load_document(path)
        kind = kind_of(doc, sorted(kinds))
        model, build = kinds[kind]
        config = read_config(model, doc)
        if config.name is None:
            config = config.model_copy(update={"name": Path(path).stem})
        config = _specs_from_here(config, Path(path).parent)
        _check_specs(doc, config, key[0] or str(path))
        known = (build, config)  # the config is a frozen model: shared
        if key[0]:
            _FILES[key] = known
    build, config = known
    return build(config)


def _specs_from_here(config: AgentConfig, folder: Path) -> AgentConfig:
    """A relative path in ``base:``/``rollout:`` is taken from the referring file's folder
    (as a rule variant's ``base:``), not from wherever the command runs."""
    update = {}
    for field in SPEC_FIELDS:
        spec = getattr(config, field, None)
        relative = isinstance(spec, str) and looks_like_path(spec) and not Path(spec).is_absolute()
        if relative and (folder / str(spec)).is_file():
            update[field] = str(folder / str(spec))
    return config.model_copy(update=update) if update else config


def _check_specs(doc: YamlDocument, config: AgentConfig, here: str) -> None:
    """Every agent a file names (``base:``, ``rollout:``) must build; a problem is reported
    at this file's field, with the inner file's reason."""
    if here in _LOADING:
        chain = " → ".join(Path(p).name for p in [*_LOADING[_LOADING.index(here) :], here])
        raise ConfigError([doc.issue((), f"agent files name each other in a cycle: {chain}")])
    if len(_LOADING) >= MAX_AGENT_NESTING:
        raise ConfigError(
            [doc.issue((), f"agent files nest more than {MAX_AGENT_NESTING} deep via base/rollout")]
        )
    _LOADING.append(here)
    try:
        for field in SPEC_FIELDS:
            spec = getattr(config, field, None)
            if not isinstance(spec, str):
                continue
            try:
                make_agent(spec)
            except ConfigError as exc:
                inner = "; ".join(str(i) for i in exc.issues)
                raise ConfigError(
                    [doc.issue((field,), f"agent {spec!r} is invalid: {inner}")]
                ) from None
            except UnknownAgentError as exc:
                raise ConfigError([doc.issue((field,), str(exc))]) from None
    finally:
        _LOADING.pop()


def resolve(spec: str) -> Agent | None:
    """Build the agent of ``spec`` if it is one of this package's (see the module text);
    None for a name it does not know (:func:`cwenv.agent_registry.make_agent` then asks
    the other resolvers and reports an unknown agent)."""
    if difficulty_spec(spec):
        from agents.difficulty import difficulty_agent

        return difficulty_agent(spec)
    if spec.startswith(("policy:", "scorer:")):
        from agents.policy.files import BundleError

        try:
            if spec.startswith("scorer:"):
                from agents.policy.scorer_agent import scorer_agent

                return scorer_agent(spec)
            from agents.policy.agent import policy_agent

            return policy_agent(spec)
        except (BundleError, OSError) as exc:
            raise UnknownAgentError(f"cannot load {spec!r}: {exc}") from exc
    if looks_like_path(spec):
        return load_agent_file(spec)
    path = agent_file(spec)
    if path.is_file():
        return load_agent_file(path)
    if spec in BUILTIN:
        model, build = _kinds()[spec]
        return build(model(kind=spec))
    return None


def library_files() -> list[str]:
    """Names of the agent files in ``configs/agents/``."""
    if not AGENT_CONFIG_DIR.is_dir():
        return []
    return sorted(p.stem for p in AGENT_CONFIG_DIR.glob("*.yaml"))


def known_specs() -> list[str]:
    return sorted(set(BUILTIN) | set(library_files()))


POLICY_DIR = Path(__file__).resolve().parent / "policies"
"""Where shipped policy bundles live (``policy:agents/policies/NAME``)."""


def shipped_policies() -> list[str]:
    """Agent specs of the bundles shipped in ``agents/policies/``: ``scorer:`` for encoding
    2's candidate scorers, ``policy:`` for the MLP policies (by the manifest's ``format``;
    an unreadable manifest is listed as ``policy:``, whose loader says what is wrong)."""
    if not POLICY_DIR.is_dir():
        return []
    return [
        f"{bundle_prefix(p.parent)}:agents/policies/{p.parent.name}"
        for p in sorted(POLICY_DIR.glob("*/manifest.json"))
    ]


def bundle_prefix(folder: Path) -> str:
    """``scorer`` or ``policy``: the agent prefix that plays the bundle in ``folder``."""
    from agents.policy.manifest import MAX_MANIFEST_BYTES, parse_manifest_json
    from agents.policy.scorer_bundle import FORMAT as SCORER_FORMAT

    manifest = folder / "manifest.json"
    try:
        data = parse_manifest_json(manifest.read_bytes()[: MAX_MANIFEST_BYTES + 1])
    except (OSError, ValueError):
        return "policy"
    return "scorer" if data.get("format") == SCORER_FORMAT else "policy"


def describe_agents() -> list[tuple[str, str]]:
    """Every usable agent spec with a one-line description (built-ins first; a file's own
    ``description`` wins)."""
    out: list[tuple[str, str]] = []
    files = library_files()
    for name in [*BUILTIN, *(f for f in files if f not in BUILTIN)]:
        text = BUILTIN_DESCRIPTIONS.get(name, "")
        if name in files:
            try:
                agent = load_agent_file(agent_file(name))
            except ValueError as exc:  # ConfigError: listed, with the reason it is unusable
                out.append((name, f"(fehlerhaft: {str(exc).splitlines()[0]})"))
                continue
            text = getattr(agent, "description", "") or text or f"configs/agents/{name}.yaml"
        out.append((name, text))
    for spec in shipped_policies():
        kind = "Kandidaten-Bewerter" if spec.startswith("scorer:") else "Policy-Bündel"
        out.append((spec, f"trainiertes Netz ({kind}), gerechnet mit numpy"))
    out.append(("AGENT@STUFE", "AGENT schwächer gespielt (Stufen: docs/difficulty.md)"))
    return out


def difficulty_spec(spec: str) -> bool:
    """Whether ``spec`` names a difficulty level (``taktiker@2``, :mod:`agents.difficulty`)."""
    return "@" in spec


def source(spec: str) -> str | None:
    """The file that defines the agent of ``spec`` (a path as given, or its library file)."""
    if looks_like_path(spec):
        return spec
    try:
        path = agent_file(spec)
    except (ValueError, OSError):
        return None
    return str(path) if path.is_file() else None


class ProjectAgents:
    """This package's agents as a :class:`cwenv.agent_registry.AgentResolver`."""

    def known(self) -> list[str]:
        return known_specs()

    def resolve(self, spec: str) -> Agent | None:
        return resolve(spec)

    def describe(self) -> list[tuple[str, str]]:
        return describe_agents()

    def source(self, spec: str) -> str | None:
        return source(spec)


resolver = ProjectAgents()
"""The entry point ``cwenv.agents: agents`` (``pyproject.toml``)."""
