"""``cwenv scenarios``: list, show, validate and render the YAML scenario library, and
generate new scenarios from a seed (:mod:`cwenv.content.generate`)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cwenv.content import (
    KINDS,
    ConfigError,
    Library,
    Scenario,
    library_files,
    load_scenario,
    read_scenario,
    stale_schemas,
    validate_file,
    write_schemas,
)
from cwenv.content.library import Kind
from cwenv.content.lint import scenario_warnings
from cwenv.content.markers import SIDE_STYLE, Placed, draw_map, fighter_marker, legend
from cwenv.content.schema import SCHEMA_DIR
from cwenv.engine.game import Game, VictoryKind
from cwenv.engine.narration import rounds_text
from cwenv.extras import MissingExtraError
from cwenv.model.specs import FighterSpec
from cwenv.model.types import Side, Skill

app = typer.Typer(help="Scenarios, stat blocks and maps (configs/).", no_args_is_help=True)


def _load(name: str, root: Path | None) -> Scenario:
    try:
        return read_scenario(name, root=root)
    except ConfigError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None


@app.command("list")
def list_cmd(
    root: Path | None = typer.Option(None, help="A configs/ folder other than the shipped one."),
) -> None:
    """List the scenarios with their size and description."""
    table = Table(title="Szenarien")
    for col in ("Name", "Karte", "Kämpfer", "Beschreibung"):
        table.add_column(col)
    for name in Library(root).names("scenarios"):
        try:
            sc = read_scenario(name, root=root)
        except ConfigError as exc:
            table.add_row(name, "-", "-", f"[red]ungültig: {exc.issues[0].message}[/red]")
            continue
        bm = sc.game.battlemap
        sides = [sum(1 for f in sc.game.roster if f.side is s) for s in Side]
        count = " / ".join(str(n) for n in sides if n)
        table.add_row(name, f"{bm.width}×{bm.height}", count, sc.description)
    Console().print(table)


def _marks(game: Game) -> list[Side]:
    return [spec.side for spec in game.roster]


def map_text(game: Game) -> Text:
    """The map at the start, in the terminal marker scheme (cwenv.content.markers), with its
    legend."""
    roster = _marks(game)
    placed = [
        Placed(k, pos, side)
        for k, (pos, side) in enumerate(zip(game.positions, roster, strict=True))
    ]
    drawn = draw_map(game.battlemap, placed, roster)
    return drawn.append_text(legend(game.battlemap, roster)).append("\n")


def _mark(game: Game, k: int) -> Text:
    return Text(fighter_marker(_marks(game), k), style=SIDE_STYLE[game.roster[k].side])


def _skills(spec: FighterSpec) -> str:
    best = sorted(Skill, key=lambda s: -spec.skill(s))[:3]
    return ", ".join(f"{s.label} {spec.skill(s)}" for s in best)


def _gear(spec: FighterSpec) -> str:
    gear = [w.name for w in spec.weapons] + [h.name for h in spec.hacks]
    gear += [c.name for c in spec.cyberware] + [i.name for i in (*spec.items, *spec.backpack)]
    return ", ".join(gear) or "-"


def fighter_table(game: Game) -> Table:
    """Stat blocks of the roster (X13), numbered like their marks on the map."""
    table = Table(title="Kämpfer")
    table.add_column("#", justify="right")
    table.add_column("Name", no_wrap=True)
    for col in ("Seite", "LP", "Rü", "Bew", "ASW", "FW", "Ini", "Mumm"):
        table.add_column(col, justify="left" if col == "Seite" else "right")
    for k, spec in enumerate(game.roster):
        asw = spec.ausweichen if spec.ausweichen is not None else spec.skill(Skill.REFLEXE)
        table.add_row(
            _mark(game, k),
            spec.name,
            spec.side.label,
            str(spec.lp),
            str(spec.armour),
            str(spec.movement),
            str(asw),
            str(spec.firewall),
            str(spec.initiative_grundwert),
            f"{spec.mumm}/{spec.mumm_max}",
        )
    return table


def fighter_details(game: Game) -> list[Text]:
    """One paragraph per fighter: best skills, gear and damage-form traits (D04)."""
    out = []
    for k, spec in enumerate(game.roster):
        line = _mark(game, k).append(" ")
        line.append(f"{spec.name}: ", style="bold")
        line.append(f"{_skills(spec)}; {_gear(spec)}")
        for label, forms in (
            ("resistent", spec.resistances),
            ("verwundbar", spec.vulnerabilities),
            ("immun", spec.immunities),
        ):
            if forms:
                line.append(f"; {label}: {', '.join(sorted(forms))}")
        out.append(line)
    return out


def _victory_lines(game: Game) -> list[str]:
    lines = []
    for v in game.victory:
        if v.kind is VictoryKind.SURVIVE:
            survived = rounds_text(v.rounds).replace("Runde", "überstandenen Runde")
            lines.append(f"{v.side.label} gewinnt nach {survived}")
        elif v.kind is VictoryKind.REACH_EXIT:
            lines.append(f"{v.side.label} gewinnt, wenn {v.count} den Ausgang erreichen")
        elif v.kind is VictoryKind.PROTECT_VIP:
            lines.append(f"{v.side.label} verliert, wenn {game.roster[v.vip].name} fällt")
        else:
            lines.append("Ausschalten: wer als Letzter steht, gewinnt")
    return lines


@app.command("show")
def show(
    name: str = typer.Argument(..., help="Scenario name or path to a YAML file."),
    root: Path | None = typer.Option(None, help="A configs/ folder other than the shipped one."),
) -> None:
    """Show a scenario: its stat blocks and its map with the fighters on it."""
    sc = _load(name, root)
    game = sc.game
    console = Console()
    console.print(f"[bold]{game.name}[/bold]  ({sc.source})")
    if sc.description:
        console.print(sc.description)
    limit = game.round_limit if game.round_limit is not None else "keins"
    console.print(f"Rundenlimit: {limit}; Sieg: " + "; ".join(_victory_lines(game)))
    if game.ambushed:
        console.print("Überrascht (X45): " + ", ".join(s.label for s in sorted(game.ambushed)))
    console.print(fighter_table(game))
    for line in fighter_details(game):
        console.print(line)
    console.print(map_text(game))


@app.command("validate")
def validate(
    files: list[Path] = typer.Argument(None, help="YAML files; none: the whole library."),
    kind: str | None = typer.Option(None, help=f"File kind: {', '.join(KINDS)}."),
    root: Path | None = typer.Option(None, help="A configs/ folder other than the shipped one."),
) -> None:
    """Validate content files; print every error; exit 1 if any file is invalid."""
    if kind is not None and kind not in KINDS:
        typer.echo(f"unknown kind {kind!r}; allowed: {', '.join(KINDS)}", err=True)
        raise typer.Exit(2)
    chosen: Kind | None = next((k for k in KINDS if k == kind), None)
    paths = list(files) if files else list(library_files(root))
    failed = 0
    for path in paths:
        try:
            found = validate_file(path, kind=chosen, root=root)
        except ConfigError as exc:
            failed += 1
            for issue in exc.issues:
                typer.echo(f"error {issue}", err=True)
            continue
        typer.echo(f"ok {path} ({found})")
        if found == "scenarios":
            for warning in scenario_warnings(load_scenario(path, root=root)):
                typer.echo(f"warning {path}: {warning}", err=True)
    if failed:
        typer.echo(f"{failed} of {len(paths)} files invalid", err=True)
        raise typer.Exit(1)


@app.command("render")
def render(
    name: str = typer.Argument(..., help="Scenario name or path to a YAML file."),
    out: Path = typer.Option(Path("map.png"), "--out", "-o", help="PNG file to write."),
    cell_px: int = typer.Option(40, min=8, max=200, help="Pixels per 1 m cell."),
    root: Path | None = typer.Option(None, help="A configs/ folder other than the shipped one."),
) -> None:
    """Draw the scenario's map with its fighters as a PNG."""
    from cwenv.content.render import render_map

    sc = _load(name, root)
    try:
        path = render_map(sc.game, out, cell_px=cell_px)
    except MissingExtraError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    except OSError as exc:
        typer.echo(f"{out}: cannot write the picture: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"wrote {path}")


@app.command("generate")
def generate_cmd(
    seed: int = typer.Option(..., "--seed", help="Seed: the same seed, the same scenario."),
    out: Path | None = typer.Option(None, "--out", "-o", help="YAML file (default: stdout)."),
    size: str | None = typer.Option(None, help="Map size: small, medium or large."),
    family: str | None = typer.Option(None, help="Map family: rooms, streets or rooftops."),
    players: int | None = typer.Option(None, help="Fighters a side, 1-6 (both sides)."),
    runners: int | None = typer.Option(None, help="Runner fighters, 1-6."),
    gegner: int | None = typer.Option(None, help="Gegner fighters, 1-6 (drones, boss count)."),
    victory: str | None = typer.Option(
        None, help="Victory: eliminate, survive, protect_vip or reach_exit."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing --out file."),
) -> None:
    """Generate a random scenario from a seed and write it as YAML (docs/scenarios.md)."""
    from cwenv.content.generate import GeneratorError, GeneratorKnobError, generate_yaml

    if out is not None and out.suffix not in (".yaml", ".yml"):
        typer.echo(f"--out {out}: must end in .yaml or .yml (scenarios load only those)", err=True)
        raise typer.Exit(2)
    if out is not None and out.exists() and not force:
        typer.echo(f"--out {out}: the file exists; pass --force to overwrite it", err=True)
        raise typer.Exit(1)
    knobs = {"size": size, "family": family, "players": players, "runners": runners}
    knobs.update(gegner=gegner, victory=victory)
    try:
        text = generate_yaml(seed, **knobs)
    except GeneratorKnobError as exc:
        typer.echo(f"--{exc}", err=True)
        raise typer.Exit(2) from None
    except GeneratorError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    if out is None:
        typer.echo(text, nl=False)
        return
    tmp = out.with_name(f".{out.name}.tmp")
    try:  # write beside, then rename: a failed write never leaves half a scenario
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        typer.echo(f"--out {out}: cannot write the scenario: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"wrote {out}")


@app.command("schema")
def schema(
    out: Path = typer.Option(SCHEMA_DIR, help="Folder for the *.schema.json files."),
    check: bool = typer.Option(False, help="Only check that the files are up to date."),
) -> None:
    """Write (or --check) the JSON Schema of every content file kind."""
    if check:
        stale = stale_schemas(out)
        if stale:
            typer.echo(f"stale: {', '.join(stale)}; run `cwenv scenarios schema`", err=True)
            raise typer.Exit(1)
        typer.echo("schemas up to date")
        return
    for path in write_schemas(out):
        typer.echo(f"wrote {path}")
