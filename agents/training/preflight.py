"""Everything a training config refers to, looked up before a run starts (no torch).

A name that does not resolve (a scenario, a rule variant, a reward file, a league or
evaluation agent, ``init_policy``) or a scenario that does not fit the action window would
otherwise fail after torch has loaded, the envs are built and the run folder is made.
Each problem becomes a :class:`~cwenv.yamlio.ConfigIssue` on the field that names it.
Agents are built through the registry, as the league builds them, but play no game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.content.errors import IssueList, Origin
from cwenv.yamlio import ConfigIssue, Location

if TYPE_CHECKING:
    from agents.training.config import TrainingConfig
    from cwenv.engine.game import Game


LayerShape = tuple[int, int, str]


def _reason(exc: Exception) -> str:
    return "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())


def expected_network(cfg: TrainingConfig) -> tuple[list[tuple[str, list[int]]], list[LayerShape]]:
    """The observation keys (SB3's order) and the actor's layers of a fresh run of ``cfg``:
    ``(in_features, out_features, activation)`` per layer, the action head last."""
    from cwenv.envs.layout import ActionLayout
    from cwenv.envs.observe import SHAPES

    keys = [(name, list(SHAPES[name])) for name in sorted(SHAPES)]  # gymnasium sorts a Dict
    width = sum(_size(shape) for _, shape in keys)
    layers: list[LayerShape] = []
    for out in cfg.hyperparams.net_arch:
        layers.append((width, out, cfg.hyperparams.activation))
        width = out
    layers.append((width, ActionLayout(cfg.move_radius, cfg.drag_radius).size, "identity"))
    return keys, layers


def _size(shape: list[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _check_agent(spec: str, game: Game | None, path: Location, where: Origin) -> list[ConfigIssue]:
    from agents.search import prepare_agents
    from cwenv.agent_registry import make_agent

    try:
        agent = make_agent(spec)
        if game is not None:
            prepare_agents([agent], game)
    except ValueError as exc:  # UnknownAgentError, ConfigError, BundleError
        return [where.issue(path, f"cannot use agent {spec!r}: {_reason(exc)}")]
    return []


def _check_init_policy(cfg: TrainingConfig, where: Origin) -> list[ConfigIssue]:
    from agents.policy.bundle import load_bundle

    if cfg.init_policy is None:
        return []
    if cfg.encoding == 2:
        from agents.training.scorer_run import init_issue

        problem = init_issue(cfg)
        return [] if problem is None else [where.issue(("init_policy",), problem)]
    try:
        bundle = load_bundle(cfg.init_policy)
    except ValueError as exc:  # BundleError
        return [where.issue(("init_policy",), f"cannot load the bundle: {_reason(exc)}")]
    m = bundle.manifest
    keys, layers = expected_network(cfg)
    theirs_keys = [(k.name, list(k.shape)) for k in m.observation]
    theirs = [(x.in_features, x.out_features, x.activation) for x in m.policy]
    if theirs_keys != keys or theirs != layers:
        return [
            where.issue(
                ("init_policy",),
                f"the bundle's actor {theirs} does not fit this run's network {layers} "
                "(net_arch, activation, move_radius and drag_radius must agree)",
            )
        ]
    return []


def _pool_issues(cfg: TrainingConfig, rules: str | None, where: Origin) -> tuple[
    list[ConfigIssue], Game | None
]:  # fmt: skip
    """Encoding 2: every pool and evaluation reference loads and has the pool's sides, and
    none is held out; returns a game of the pool for checking agents."""
    from agents.training.pool import held_out_issues, load_ref, pool_of

    pool = pool_of(cfg)
    issues: list[ConfigIssue] = []
    first: Game | None = None
    refs: list[tuple[Location, str]] = [
        (("pool", "scenarios", i), ref) for i, ref in enumerate(pool.scenarios)
    ]
    if cfg.pool is None:
        refs = [(("scenario",), cfg.scenario)]
    refs += [(("evaluation", "scenarios", i), r) for i, r in enumerate(cfg.evaluation.scenarios)]
    if pool.generated is not None:
        refs.append((("pool", "generated", "first"), f"generated:{pool.generated.first}"))
    for path, ref in refs:
        try:
            game = load_ref(ref, rules)
        except ValueError as exc:
            issues.append(where.issue(path, f"cannot load {ref!r}: {_reason(exc)}"))
            continue
        first = first or game
        present = {f.side.label.lower() for f in game.roster}
        missing = [side for side in pool.sides if side not in present]
        if missing:
            issues.append(where.issue(path, f"{ref!r} has no {' or '.join(missing)} fighters"))
    issues += [where.issue(path, msg) for path, msg in held_out_issues(pool, cfg.held_out, rules)]
    return issues, first


def check_references(cfg: TrainingConfig, where: Origin) -> None:
    """Raise one :class:`ConfigError` with every reference of ``cfg`` that fails."""
    from cwenv.content import load_scenario
    from cwenv.envs.errors import LimitError
    from cwenv.envs.layout import ActionLayout, check_limits
    from cwenv.envs.rewards import load_reward_config
    from cwenv.rules.variants import load_rule_variant

    issues = IssueList()
    game: Game | None = None
    rules = cfg.rules
    if rules is not None:
        try:
            load_rule_variant(rules)
        except ValueError as exc:  # ConfigError of the variant file
            issues.append(where.issue(("rules",), f"cannot load it: {_reason(exc)}"))
            rules = None
    if cfg.encoding == 2:
        found, game = _pool_issues(cfg, rules, where)
        issues.extend(found)
    else:
        try:
            game = load_scenario(cfg.scenario, rules=rules)
        except ValueError as exc:  # ConfigError of the scenario file (or an unknown name)
            issues.append(where.issue(("scenario",), f"cannot load it: {_reason(exc)}"))
    if game is not None and cfg.encoding == 1:
        try:
            check_limits(game, ActionLayout(cfg.move_radius, cfg.drag_radius))
        except LimitError as exc:
            field = "drag_radius" if "drag_radius" in str(exc) else "move_radius"
            issues.append(where.issue((field,), _reason(exc)))
            game = None  # no agent can be checked against a layout that does not fit
    try:
        load_reward_config(cfg.reward)
    except ValueError as exc:
        issues.append(where.issue(("reward",), f"cannot load it: {_reason(exc)}"))
    for i, member in enumerate(cfg.league.members):
        issues.extend(_check_agent(member.agent, game, ("league", "members", i, "agent"), where))
    for i, spec in enumerate(cfg.evaluation.opponents):
        issues.extend(_check_agent(spec, game, ("evaluation", "opponents", i), where))
    if cfg.imitation is not None:
        imit = cfg.imitation
        for key, members in (("teachers", imit.teachers), ("opponents", imit.opponents or [])):
            for i, m in enumerate(members):
                issues.extend(_check_agent(m.agent, game, ("imitation", key, i, "agent"), where))
    issues.extend(_check_init_policy(cfg, where))
    issues.raise_if_any()
