"""``cwenv train`` and ``cwenv export``: RL training of NSC policies (needs the rl extra)."""

from __future__ import annotations

from pathlib import Path

import typer

from cwenv.yamlio import ConfigError


def train(
    config: Path = typer.Argument(..., help="Training file, e.g. configs/training/duell.yaml."),
    resume: bool = typer.Option(False, "--resume", help="Continue from the newest checkpoint."),
    runs: Path = typer.Option(Path("runs"), "--runs", help="Folder holding the runs."),
) -> None:
    """Train a MaskablePPO policy on the Kampfrunde env against a league of opponents."""
    try:
        from agents.training.train import train as run_training
    except ImportError as exc:  # torch / sb3 are the rl extra
        typer.echo(f"training needs the rl extra (pip install -e '.[rl]'): {exc}", err=True)
        raise typer.Exit(1) from None
    try:
        run = run_training(config, resume=resume, runs=runs)
    except (ConfigError, FileExistsError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    typer.echo(f"run finished: {run} (bundle in {run / 'bundle'}, curve in {run / 'eval.png'})")


def export(
    run: Path = typer.Argument(..., help="A run folder under runs/."),
    out: Path = typer.Option(..., "--out", help="Bundle folder, e.g. agents/policies/NAME/."),
    checkpoint: int | None = typer.Option(
        None, "--checkpoint", min=0, help="Timesteps of the checkpoint to export (default: newest)."
    ),
) -> None:
    """Export a checkpoint of RUN (the newest by default) as a safe policy bundle
    (safetensors + manifest)."""
    try:
        from agents.training.train import export_run
    except ImportError as exc:
        typer.echo(f"export needs the rl extra (pip install -e '.[rl]'): {exc}", err=True)
        raise typer.Exit(1) from None
    try:
        path = export_run(run, out, checkpoint)
    except (ConfigError, FileNotFoundError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    typer.echo(f"exported {path}")
