"""A whole ``cwenv stress variants`` run: variants (given or generated), games, report.

Writes into the output folder: ``report.md`` with its PNG figures, ``summary.json`` (every
estimate and comparison), ``config.json`` (the resolved sweep: every variant's options,
agents, seeds, the command) and, with ``--all-options``, ``variants/*.yaml``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cwenv.runner.atomic import atomic_write_text
from cwenv.runner.hashing import canonical_json
from cwenv.stress.outcomes import SweepAnalysis, analyse
from cwenv.stress.readings import alternative_readings, write_reading_variants
from cwenv.stress.report import write_report
from cwenv.stress.variants import SweepConfig, SweepRun, VariantSweepError, run_sweep


@dataclass(frozen=True)
class SweepRequest:
    base: str
    variants: tuple[str, ...]
    scenarios: tuple[str, ...]
    runners: str
    nscs: str
    games: int
    seed: int
    db: Path
    out: Path
    all_options: bool = False
    jobs: int = 1
    name: str = "variants"


@dataclass(frozen=True)
class SweepOutcome:
    run: SweepRun
    analysis: SweepAnalysis
    report: Path


def generated_variants(base: str, out: Path) -> tuple[tuple[str, ...], list[str]]:
    """Write one variant per alternative reading into ``out/variants``; return their paths and
    a note per option without a concrete alternative."""
    from cwenv.rules.variants import load_rule_variant
    from cwenv.yamlio import ConfigError

    try:
        options = load_rule_variant(base)
    except ConfigError as exc:
        raise VariantSweepError(f"base rule variant {base!r} cannot be read:\n{exc}") from None
    readings, skipped = alternative_readings(options)
    paths = write_reading_variants(readings, out / "variants", base)
    notes = [f"{s.x} {s.name} not swept: {s.reason}" for s in skipped]
    return tuple(str(p) for p in paths), notes


def sweep_and_report(
    request: SweepRequest,
    command: str,
    *,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[], None] | None = None,
) -> SweepOutcome:
    """Run (or resume) the sweep and write its report, config and summary into ``out``."""
    variants = request.variants
    notes: list[str] = []
    if request.all_options:
        generated, notes = generated_variants(request.base, request.out)
        variants = (*variants, *generated)
    config = SweepConfig(
        request.base,
        variants,
        request.scenarios,
        request.runners,
        request.nscs,
        request.games,
        request.seed,
        request.name,
    )
    run = run_sweep(config, request.db, jobs=request.jobs, on_start=on_start, on_game=on_game)
    resolved = {"command": command, "db": str(request.db), **run.plan.config_json()}
    atomic_write_text(request.out / "config.json", canonical_json(resolved) + "\n")
    analysis = analyse(run.records, run.plan.labels, request.scenarios)
    infos = run.plan.variant_infos
    setup = [
        f"base: `{infos[0].label}` ({infos[0].spec}); variants: "
        + ", ".join(f"`{v.label}`" for v in infos[1:]),
        f"scenarios: {', '.join(request.scenarios)}",
        f"agents: Runner side `{request.runners}`, Gegner side `{request.nscs}`",
        f"games per variant and scenario: {request.games}; seed {request.seed} (game *i* uses "
        "the dice seed game_seed(seed, i) under every variant)",
        f"results: `{request.db}` (tournament id {run.plan.tournament_id}), "
        f"{run.games_done}/{len(run.plan.games)} games; resolved config: `config.json`",
    ]
    if run.conflicts:
        notes.append(f"{len(run.conflicts)} games replayed with a different result")
    report = write_report(
        analysis,
        request.out,
        title=f"Rule-variant sweep: {request.name}",
        command=command,
        setup=setup,
        notes=notes,
    )
    return SweepOutcome(run, analysis, report)
