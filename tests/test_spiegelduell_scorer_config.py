"""The mirrored duel's encoding-2 run (#18, study experiments/rl-spiegelduell-scorer).

A user runs ``cwenv train configs/training/spiegelduell-scorer.yaml``: the file must pass
the whole pre-flight check (every name resolves) and train what the study says — the
candidate scorer in the Gegner seat of ``spiegelduell`` against the MLP study's league.
"""

from __future__ import annotations

from pathlib import Path

from agents.training.config import load_training_config

ROOT = Path(__file__).resolve().parent.parent


def test_the_spiegelduell_scorer_config_passes_preflight_as_the_study_describes() -> None:
    cfg = load_training_config(ROOT / "configs" / "training" / "spiegelduell-scorer.yaml")
    mlp = load_training_config(ROOT / "configs" / "training" / "spiegelduell-nsc.yaml")
    assert cfg.encoding == 2 and cfg.pool is None
    assert (cfg.scenario, cfg.side) == ("spiegelduell", "gegner")
    members = {(m.agent, m.weight) for m in cfg.league.members}
    assert members == {(m.agent, m.weight) for m in mlp.league.members}
    assert cfg.evaluation.opponents == ["schuetze"]
    assert cfg.checkpoint_every == 25_000
