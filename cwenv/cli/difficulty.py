"""``cwenv difficulty``: measure the difficulty ladder and write it into docs/difficulty.md.

Every level of the base agent (``BASE@LEVEL``, docs/difficulty.md) plays a round robin
with the reference parties on the config's scenarios, through the tournament runner: the
same results database, the same resume (kill it and run the same command again), the same
paired dice seeds for every pairing and side. The table gives each level's openskill
rating as μ ± 2σ, its win rate against the reference parties with its Wilson 95 % interval,
and the mistakes it makes; the resolved config is saved beside the database.
Exit codes: 0 done, 1 error, 130 interrupted (results so far are kept).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import typer
from pydantic import BaseModel, ConfigDict, Field

from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.cli.common import resumable_run
from cwenv.content.errors import Origin, validate
from cwenv.extras import MissingExtraError
from cwenv.runner.backends import MAX_JOBS
from cwenv.runner.errors import RunnerError
from cwenv.runner.plan import TournamentConfig
from cwenv.runner.progress import progress_bar
from cwenv.runner.ratings import Record
from cwenv.runner.tournament import TournamentRun, config_path, run_tournament
from cwenv.yamlio import ConfigError, read_yaml_file

DEFAULT_CONFIG = Path("configs/difficulty/ladder.yaml")
DEFAULT_DB = Path("experiments/difficulty/results.sqlite")
DEFAULT_DOC = Path("docs/difficulty.md")
BEGIN = "<!-- difficulty-table:begin -->"
END = "<!-- difficulty-table:end -->"
"""The table's place in the document: everything between the markers is rewritten."""


class LadderConfig(BaseModel):
    """What ``cwenv difficulty`` measures (configs/difficulty/ladder.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    base: str = Field(description="The agent whose levels are measured.")
    levels: list[int] = Field(min_length=1, description="The levels (BASE@LEVEL).")
    references: list[str] = Field(min_length=1, description="The reference parties.")
    scenarios: list[str] = Field(min_length=1, description="Scenarios (or job:NAME).")
    games: int = Field(ge=1, description="Games per pairing, side and scenario.")
    seed: int = Field(default=0, description="Tournament seed (the paired dice seeds).")
    name: str = Field(default="difficulty", description="Tournament name.")

    def specs(self) -> list[str]:
        return [f"{self.base}@{level}" for level in self.levels]


def read_ladder(path: Path) -> LadderConfig:
    doc = read_yaml_file(path)
    return validate(LadderConfig, Origin(doc), doc.data)


def ladder_rows(run: TournamentRun, ladder: LadderConfig) -> list[dict[str, Any]]:
    """One row per level: rating, μ ± 2σ, record against the reference parties, text."""
    data = run.to_json()
    rows = []
    for level, spec in zip(ladder.levels, ladder.specs(), strict=True):
        rating = data["ratings"][spec]
        rec = Record()
        for ref in ladder.references:
            got = data["win_rates"][spec][ref]
            rec.wins, rec.losses = rec.wins + got["wins"], rec.losses + got["losses"]
            rec.draws += got["draws"]
        games = sum(r["games"] for r in data["win_rates"][spec].values())
        agent = make_agent(spec)
        rows.append(
            {
                "level": level,
                "agent": spec,
                "mu": rating["mu"],
                "sigma": rating["sigma"],
                "low": rating["mu"] - 2 * rating["sigma"],
                "high": rating["mu"] + 2 * rating["sigma"],
                "games": games,
                "vs_references": rec.to_json(),
                "mistakes": str(getattr(agent, "mistake_text", "") or "none"),
                "sampling": str(getattr(agent, "sampling_text", "") or "none"),
                "text": str(getattr(agent, "level_text", "")),
            }
        )
    return rows


def separated(rows: list[dict[str, Any]]) -> int:
    """How many levels, from level 0 on, are rated in order with μ ± 2σ intervals that do
    not overlap the next one's (the issue's done-when wants at least four)."""
    count = 1
    for better, worse in itertools.pairwise(rows):
        if worse["high"] >= better["low"]:
            break
        count += 1
    return count


def ladder_markdown(rows: list[dict[str, Any]], ladder: LadderConfig, run: TournamentRun) -> str:
    """The table and the level descriptions."""
    refs = ", ".join(f"`{r}`" for r in ladder.references)
    lines = [
        BEGIN,
        f"Measured by `cwenv difficulty` ({run.games_done} games, tournament "
        f"`{run.plan.tournament_id}`, resolved config `{config_path(run.db)}`): base "
        f"`{ladder.base}`, reference parties {refs}, scenarios "
        f"{', '.join(f'`{s}`' for s in ladder.scenarios)}, {ladder.games} games per pairing, "
        f"side and scenario, seed {ladder.seed} (paired dice seeds).",
        "",
        "| Level | Agent | μ ± 2σ | Interval | Wins vs reference parties (Wilson 95 %) "
        "| Games | Sampling | Mistakes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        v = r["vs_references"]
        lines.append(
            f"| {r['level']} | `{r['agent']}` | {r['mu']:.2f} ± {2 * r['sigma']:.2f} | "
            f"[{r['low']:.2f}, {r['high']:.2f}] | {_rate(v, '[', ']')} "
            f"({v['wins']}/{v['games']}) | {r['games']} | {r['sampling']} | {r['mistakes']} |"
        )
    ratings = run.to_json()["ratings"]
    refs_rated = ", ".join(
        f"`{r}` {ratings[r]['mu']:.2f} ± {2 * ratings[r]['sigma']:.2f}" for r in ladder.references
    )
    lines += [
        "",
        f"Reference parties: {refs_rated}. Levels from 0 on rated in order with "
        f"non-overlapping μ ± 2σ intervals: {separated(rows)}.",
        "",
    ]
    for r in rows:
        lines.append(
            f"- **Level {r['level']}** ({r['text'] or 'no description'}): wins "
            f"{_rate(r['vs_references'], '(95 %: ', ')')} of its games against the "
            f"reference parties; sampling: {r['sampling']}; mistakes: {r['mistakes']}."
        )
    return "\n".join([*lines, END]) + "\n"


def _rate(record: dict[str, Any], before: str, after: str) -> str:
    """``45% [40%–50%]``: a record's win rate and its Wilson interval."""
    low, high = record["ci95"]
    return f"{record['win_rate']:.0%} {before}{low:.0%}–{high:.0%}{after}"


def write_table(doc: Path, table: str) -> None:
    """Put ``table`` between the markers of ``doc`` (appended where it has none)."""
    text = doc.read_text(encoding="utf-8") if doc.is_file() else "# Difficulty levels\n\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + table + rest.split(END, 1)[1].lstrip("\n")
    else:
        text = text.rstrip("\n") + "\n\n" + table
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text, encoding="utf-8")


def difficulty(
    config: Path = typer.Option(DEFAULT_CONFIG, "--config", help="The ladder to measure."),
    db: Path = typer.Option(DEFAULT_DB, "--db", help="SQLite results file (created or resumed)."),
    doc: Path = typer.Option(DEFAULT_DOC, "--doc", help="Markdown file the table goes into."),
    games: int | None = typer.Option(None, "--games", min=1, help="Override the config's games."),
    jobs: int = typer.Option(1, "--jobs", min=1, max=MAX_JOBS, help="Worker processes."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
) -> None:
    """Measure every difficulty level against the reference parties; write the table."""
    try:
        ladder = read_ladder(config)
        if games is not None:
            ladder = ladder.model_copy(update={"games": games})
        agents = (*ladder.specs(), *ladder.references)
        plan = TournamentConfig(agents, tuple(ladder.scenarios), ladder.games, ladder.seed, None,
                                ladder.name)  # fmt: skip
    except (ConfigError, OSError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    with resumable_run():
        try:
            with progress_bar("difficulty", progress) as bar:
                run = run_tournament(plan, db, jobs=jobs, on_start=bar.start, on_game=bar.advance)
            rows = ladder_rows(run, ladder)
        except (RunnerError, MissingExtraError, UnknownAgentError) as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(1) from None
    table = ladder_markdown(rows, ladder, run)
    write_table(doc, table)
    for r in rows:
        v = r["vs_references"]
        typer.echo(
            f"{r['agent']}: μ {r['mu']:.2f} ± {2 * r['sigma']:.2f}, "
            f"{v['win_rate']:.0%} against the reference parties ({v['games']} games)"
        )
    typer.echo(f"{separated(rows)} levels in order with separate intervals → {doc}")
