"""``cwenv stress variants``: a planted degenerate variant is caught, an identical copy of the
base is not, games pair up on common dice seeds, a killed sweep resumes to the same result,
and bad input fails with a message naming what is wrong."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cwenv.cli.main import app
from cwenv.rules.options import RuleOptions
from cwenv.rules.variants import RULES_DIR, load_rule_variant, options_to_mapping
from cwenv.runner.seeds import game_seed
from cwenv.runner.task import load_game, play_combat, record_of
from cwenv.stress.readings import alternative_readings, write_reading_variants
from cwenv.stress.variants import SweepConfig, VariantSweepError, build_sweep_plan, run_sweep

DATA = Path(__file__).parent / "data" / "stress"
SCENARIO = str(DATA / "fernduell.yaml")
PLANTED = str(DATA / "zielen-entfesselt.yaml")
GAMES, SEED = 150, 3


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One sweep through the CLI: default vs the planted variant vs a copy of default."""
    tmp = tmp_path_factory.mktemp("sweep")
    copy = tmp / "default-kopie.yaml"
    shutil.copy(RULES_DIR / "default.yaml", copy)
    args = ["stress", "variants", "--variant", PLANTED, "--variant", str(copy)]
    args += ["--scenarios", SCENARIO, "--agents", "schuetze,greedy", "--games", str(GAMES)]
    args += ["--seed", str(SEED), "--db", str(tmp / "s.sqlite"), "--out", str(tmp / "out")]
    result = CliRunner().invoke(app, [*args, "--no-progress"])
    assert result.exit_code == 0, result.output
    out = tmp / "out"
    return {
        "tmp": tmp,
        "out": out,
        "summary": json.loads((out / "summary.json").read_text()),
        "output": result.output,
    }


def _comparisons(summary: dict[str, Any], variant: str) -> list[dict[str, Any]]:
    return [c for c in summary["comparisons"] if c["variant"] == variant]


def test_planted_variant_is_flagged(sweep: dict[str, Any]) -> None:
    planted = {c["metric"]: c for c in _comparisons(sweep["summary"], "zielen-entfesselt")}
    win = planted["win_runner"]  # the aiming Schütze plays the Runner side
    assert win["significant_holm"] and win["diff"] > 0.08 and win["ci95"][0] > 0
    assert win["test"] == "McNemar exact" and win["n_pairs"] == GAMES
    assert planted["damage_per_round"]["significant_holm"]
    assert planted["damage_per_round"]["diff"] > 0
    assert "zielen-entfesselt" in sweep["output"]


def test_identical_variant_is_not_flagged(sweep: dict[str, Any]) -> None:
    same = _comparisons(sweep["summary"], "default-kopie")
    assert len(same) == 11
    assert not any(c["significant_holm"] for c in same)
    assert all(c["diff"] == 0 and c["p_value"] == 1.0 for c in same)  # the very same games


def test_report_config_and_figures(sweep: dict[str, Any]) -> None:
    out: Path = sweep["out"]
    report = (out / "report.md").read_text()
    assert "zielen-entfesselt" in report and "✱" in report and "McNemar" in report
    for png in ("fernduell-outcomes.png", "fernduell-differences.png"):
        assert (out / png).read_bytes().startswith(b"\x89PNG")
        assert f"]({png})" in report
    config = json.loads((out / "config.json").read_text())
    labels = [v["label"] for v in config["variants"]]
    assert labels == ["default", "zielen-entfesselt", "default-kopie"]
    assert config["variants"][1]["options"]["zielen_max_stacks"] == 99
    assert config["command"].startswith("cwenv stress variants --base default")
    assert (sweep["tmp"] / "s.config.json").is_file()  # beside the database too


def test_common_random_numbers(sweep: dict[str, Any]) -> None:
    """Game i has the dice seed game_seed(seed, i) under every variant; the copy of the base
    plays exactly the base's games."""
    conn = sqlite3.connect(sweep["tmp"] / "s.sqlite")
    rows = conn.execute(
        "SELECT p.idx, p.seed, p.rules, r.digest FROM plan p JOIN results r USING (game_id)"
    ).fetchall()
    conn.close()
    assert len(rows) == 3 * GAMES
    by_rules: dict[str, dict[int, tuple[int, str]]] = {}
    for idx, seed, rules, digest in rows:
        assert seed == game_seed(SEED, idx)
        by_rules.setdefault(Path(rules).stem, {})[idx] = (seed, digest)
    base, copy, planted = (by_rules[k] for k in ("default", "default-kopie", "zielen-entfesselt"))
    assert base == copy
    assert {i: s for i, (s, _) in base.items()} == {i: s for i, (s, _) in planted.items()}
    assert sum(base[i][1] != planted[i][1] for i in base) > GAMES // 2


def test_resume_after_interruption_gives_identical_results(tmp_path: Path) -> None:
    config = SweepConfig("default", ("passes",), (SCENARIO,), "greedy", "greedy", 30, 5)
    reference = run_sweep(config, tmp_path / "ref.sqlite", batch=4)
    seen = 0

    def stop_after_some() -> None:
        nonlocal seen
        seen += 1
        if seen == 25:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(config, tmp_path / "cut.sqlite", batch=4, on_game=stop_after_some)
    resumed = run_sweep(config, tmp_path / "cut.sqlite", batch=4)
    assert 0 < resumed.played_now < 60 and resumed.games_done == 60
    digests = {k: {i: r.digest for i, r in v.items()} for k, v in resumed.records.items()}
    assert digests == {k: {i: r.digest for i, r in v.items()} for k, v in reference.records.items()}
    again = run_sweep(config, tmp_path / "cut.sqlite")
    assert again.played_now == 0 and not again.conflicts


@pytest.mark.parametrize(
    ("option", "value", "named"),
    [
        ("--variant", "keine-solche-variante", ["keine-solche-variante", "passes", "default"]),
        ("--variant", "fehlt/variante.yaml", ["fehlt/variante.yaml", "passes"]),
        ("--scenarios", "nirgendwo", ["nirgendwo", "duell", "feuergefecht"]),
        ("--agents", "niemand", ["niemand", "greedy", "schuetze"]),
    ],
)
def test_bad_input_names_the_culprit(
    tmp_path: Path, option: str, value: str, named: list[str]
) -> None:
    args = {"--variant": "passes", "--scenarios": "duell", "--agents": "greedy"}
    args[option] = value
    flat = [x for kv in args.items() for x in kv]
    result = CliRunner().invoke(
        app,
        ["stress", "variants", *flat, "--games", "1", "--db", str(tmp_path / "x.sqlite")]
        + ["--out", str(tmp_path / "out"), "--no-progress"],
    )
    assert result.exit_code == 1
    for word in named:
        assert word in result.output
    assert not (tmp_path / "out" / "report.md").exists()


def test_plan_rejects_duplicate_names() -> None:
    with pytest.raises(VariantSweepError, match="twice: default"):
        build_sweep_plan(SweepConfig("default", ("default",), ("duell",), "greedy", "greedy", 1))


def test_all_option_readings_are_valid_single_changes(tmp_path: Path) -> None:
    defaults = RuleOptions()
    readings, skipped = alternative_readings(defaults)
    labels = {r.label for r in readings}
    assert {
        "x01-reactions-basis-grundwert",
        "x01-reactions-basis-reflexe",
        "x03-zielen-max-stacks-2",
        "x03-zielen-lost-at-round-end-true",
        "x16-tie-order-random",
        "x19-escalation-steps-0",
    } <= labels
    assert {s.name for s in skipped} >= {"mental_checks", "zehrend_checks"}
    assert not any(r.name in ("initiative", "friendly_fire") for r in readings)  # not X
    base = options_to_mapping(defaults)
    for path, reading in zip(
        write_reading_variants(readings, tmp_path, "default"), readings, strict=True
    ):
        changed = options_to_mapping(load_rule_variant(path))
        assert {k for k in base if base[k] != changed[k]} == {reading.name}, path.name


def test_all_options_sweep_runs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app,
        ["stress", "variants", "--all-options", "--scenarios", "duell", "--agents", "greedy"]
        + ["--games", "1", "--db", str(tmp_path / "a.sqlite"), "--out", str(out)]
        + ["--no-progress"],
    )
    assert result.exit_code == 0, result.output
    generated = sorted(p.stem for p in (out / "variants").glob("*.yaml"))
    assert len(generated) == len(alternative_readings(RuleOptions())[0])
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["variants"]) == {"default", *generated}
    assert "mental_checks not swept" in (out / "report.md").read_text()


def test_derived_counters() -> None:
    """turns:SIDE add up to the engine's turn count; a fight decided by a Volltreffer had one
    and a winner."""
    game = load_game(SCENARIO)
    decided = 0
    for i in range(40):
        record = record_of(play_combat(game, "greedy", "greedy", game_seed(11, i)))
        c = record.counters
        assert c.get("turns:RUNNER", 0) + c.get("turns:GEGNER", 0) == c["turns"]
        if c.get("decided:volltreffer"):
            decided += 1
            assert c.get("volltreffer", 0) >= 1 and record.winner is not None
    assert 0 < decided < 40
