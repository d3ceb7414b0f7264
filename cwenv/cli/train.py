"""``cwenv train`` and ``cwenv export``: RL training of NSC policies (needs the rl extra).

``train`` checks the whole config (every field, every name it refers to) and the run folder
before torch is imported: a mistake costs a second, not the import of torch, and leaves
no half-made ``runs/NAME``. ``export`` reads safetensors and JSON only (no torch).
"""

from __future__ import annotations

from pathlib import Path

import typer

from cwenv.yamlio import ConfigError


def train(
    config: Path = typer.Argument(
        ..., help="Training file, e.g. configs/training/duell-nsc.yaml (or smoke.yaml)."
    ),
    resume: bool = typer.Option(False, "--resume", help="Continue from the newest checkpoint."),
    runs: Path = typer.Option(Path("runs"), "--runs", help="Folder holding the runs."),
) -> None:
    """Train a MaskablePPO policy on the Kampfrunde env against a league of opponents."""
    from agents.policy.bundle import BundleError
    from agents.training.checkpoint import CheckpointError, latest_checkpoint
    from agents.training.config import load_training_config

    try:  # no torch yet: the config, the names it uses and the run folder first
        cfg = load_training_config(config)
        run = runs / cfg.name
        if not resume and run.exists() and (not run.is_dir() or any(run.iterdir())):
            raise FileExistsError(f"{run} exists; pass --resume to continue it")
        if resume:
            latest_checkpoint(run)  # refuses an old pickled checkpoint by name
    except (ConfigError, FileExistsError, CheckpointError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    try:
        from agents.training.train import train as run_training
    except ImportError as exc:  # torch / sb3 are the rl extra
        typer.echo(f"training needs the rl extra (pip install -e '.[rl]'): {exc}", err=True)
        raise typer.Exit(1) from None
    try:
        run = run_training(config, resume=resume, runs=runs, progress=typer.echo)
    except (ConfigError, FileExistsError, CheckpointError, BundleError) as exc:
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
    from agents.policy.bundle import BundleError
    from agents.training.checkpoint import CheckpointError
    from agents.training.runs import export_run

    try:
        path = export_run(run, out, checkpoint)
    except (ConfigError, FileNotFoundError, CheckpointError, BundleError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    from agents.registry import bundle_prefix

    typer.echo(f"exported {path} (play it as {bundle_prefix(path)}:{path})")
