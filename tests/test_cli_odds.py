"""``cwenv odds`` and ``cwenv rules`` as a user runs them (through typer's CliRunner)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cwenv.cli.main import app
from cwenv.rules.odds import ProbeOdds, probe_odds
from cwenv.rules.options import RuleOptions, VolltrefferQS
from cwenv.rules.variants import RULES_DIR, load_rule_variant, options_to_mapping

runner = CliRunner()
KEYS = {"probenwert", "success", "volltreffer", "patzer", "qs"}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def odds_json(*args: str) -> dict[str, object]:
    code, out, err = run("odds", *args, "--json")
    assert code == 0, err
    data = json.loads(out)  # the whole of stdout is one JSON document
    assert isinstance(data, dict)
    return data


def assert_matches(data: dict[str, object], probenwert: int, exact: ProbeOdds) -> None:
    assert set(data) == KEYS
    assert data["probenwert"] == probenwert
    for key in ("success", "volltreffer", "patzer"):
        assert data[key] == pytest.approx(float(getattr(exact, key)), abs=1e-12), key
    qs = data["qs"]
    assert isinstance(qs, dict)
    assert all(isinstance(k, str) and k.isdigit() for k in qs)
    nonzero = {k: v for k, v in qs.items() if v}
    assert nonzero == pytest.approx({str(k): float(v) for k, v in exact.qs.items() if v})
    assert sum(qs.values()) == pytest.approx(data["success"])


@pytest.mark.parametrize("probenwert", [1, 2, 7, 14, 19, 20, 25])
def test_odds_json_is_the_exact_enumeration(probenwert: int) -> None:
    assert_matches(odds_json(str(probenwert)), probenwert, probe_odds(probenwert))


def test_odds_14_json_hand_numbers() -> None:
    data = odds_json("14")
    assert data == {
        "probenwert": 14,
        "success": pytest.approx(0.79),
        "volltreffer": pytest.approx(0.07),
        "patzer": pytest.approx(0.03),
        "qs": {"1": pytest.approx(0.08), "2": pytest.approx(0.32), "3": pytest.approx(0.39)},
    }


def test_mumm_verbessern_adds_two() -> None:
    data = odds_json("14", "--mumm", "verbessern")
    assert data["success"] == pytest.approx(0.90)  # as Probenwert 16
    assert data["patzer"] == pytest.approx(0.02)
    assert data["qs"]["4"] == pytest.approx(0.12)  # type: ignore[index]


def test_mumm_wiederholen_rerolls_ordinary_failures() -> None:
    data = odds_json("14", "--mumm", "wiederholen")
    assert data["success"] == pytest.approx(0.9322)
    assert data["volltreffer"] == pytest.approx(0.0826)
    assert data["patzer"] == pytest.approx(0.03)  # a Patzer cannot be rerolled (M03)
    assert_matches(data, 14, probe_odds(14, reroll=True))


def test_mumm_grosser_wurf_is_a_certain_volltreffer() -> None:
    data = odds_json("14", "--mumm", "grosser-wurf")
    assert (data["success"], data["volltreffer"], data["patzer"]) == (1.0, 1.0, 0.0)
    assert data["qs"] == {"3": 1.0}


def test_mumm_spends_combine() -> None:
    data = odds_json("12", "--mumm", "verbessern", "--mumm", "wiederholen")
    assert_matches(data, 12, probe_odds(12, improve=1, reroll=True))


def test_two_verbessern_respect_the_one_spend_per_check_default(tmp_path: Path) -> None:
    """X38: the default allows one M02 spend per check (mumm_improve_per_check = 1).

    Twice ``--mumm verbessern`` must not silently give +4; with a variant allowing two
    spends it does.
    """
    code, out, _ = run("odds", "14", "--mumm", "verbessern", "--mumm", "verbessern", "--json")
    if code == 0:
        assert json.loads(out)["success"] == pytest.approx(0.90)  # capped at one spend
    else:
        assert code == 1 and out == ""  # or refused with a message
    variant = tmp_path / "zwei.yaml"
    variant.write_text("name: zwei\noptions:\n  mumm_improve_per_check: 2\n", encoding="utf-8")
    data = odds_json("14", "--mumm", "verbessern", "--mumm", "verbessern", "--rules", str(variant))
    assert data["success"] == pytest.approx(0.97)  # as Probenwert 18


def test_rules_variant_changes_the_odds() -> None:
    data = odds_json("14", "--rules", "volltreffer-wurf")
    roll_band = RuleOptions(volltreffer_qs=VolltrefferQS.ROLL_BAND)
    assert_matches(data, 14, probe_odds(14, roll_band))
    assert data["qs"]["1"] == pytest.approx(0.10)  # type: ignore[index]


def test_table_output_in_german() -> None:
    code, out, _ = run("odds", "14")
    assert code == 0
    for word in ("Probenwert 14", "Erfolg", "Volltreffer", "Patzer", "QS 3"):
        assert word in out
    assert re.search(r"Erfolg\D*79\.0\s*%", out)
    assert re.search(r"Patzer\D*3\.0\s*%", out)
    code, out, _ = run("odds", "14", "--mumm", "wiederholen")
    assert code == 0 and "93.2%" in out and "wiederholen" in out


@pytest.mark.parametrize("args", [["odds", "vierzehn"], ["odds", "14", "--mumm", "verbrennen"]])
def test_bad_arguments_are_usage_errors(args: list[str]) -> None:
    code, out, _ = run(*args)
    assert code == 2
    assert "{" not in out


def test_unknown_rule_variant_exits_1_with_message() -> None:
    code, out, err = run("odds", "14", "--rules", "gibt-es-nicht")
    assert code == 1 and out == ""
    assert "gibt-es-nicht" in err and "passes" in err  # lists the known variants


def test_invalid_variant_file_exits_1_naming_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "kaputt.yaml"
    bad.write_text("name: kaputt\noptions:\n  initiative: phasen\n", encoding="utf-8")
    code, out, err = run("odds", "14", "--rules", str(bad))
    assert code == 1 and out == ""
    assert f"{bad}:3" in err and "options.initiative" in err and "steps" in err


def test_directory_as_rule_variant_is_a_clean_error(tmp_path: Path) -> None:
    """A directory passed as --rules must be reported, not crash with a traceback."""
    result = runner.invoke(app, ["odds", "14", "--rules", str(tmp_path)])
    assert not isinstance(result.exception, IsADirectoryError), result.exception
    assert result.exit_code == 1
    assert str(tmp_path) in result.stderr


# --- cwenv rules ----------------------------------------------------------------------------


def test_rules_options_json_one_row_per_field() -> None:
    code, out, err = run("rules", "options", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["name"] for r in rows] == [f.name for f in dataclasses.fields(RuleOptions)]
    for row in rows:
        assert set(row) == {"name", "x", "default", "why", "alternatives"}
        assert re.fullmatch(r"X\d\d|[A-Z]\d\d|I", row["x"]), row
        assert row["why"] and row["alternatives"] and row["default"] != ""


def test_every_open_question_has_an_option() -> None:
    rows = json.loads(run("rules", "options", "--json")[1])
    covered = {r["x"] for r in rows}
    assert covered == {f.metadata["x"] for f in dataclasses.fields(RuleOptions)}
    required = {f"X{i:02d}" for i in range(1, 47)} - {"X37"}
    assert required <= covered, sorted(required - covered)


def test_rules_options_table() -> None:
    code, out, _ = run("rules", "options")
    assert code == 0 and "Regeloptionen" in out and "volltreffer_qs" in out


def test_rules_show_passes() -> None:
    code, out, err = run("rules", "show", "passes")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["initiative"] == "passes"
    assert shown == options_to_mapping(load_rule_variant("passes"))
    default = options_to_mapping(RuleOptions())
    assert {k for k in shown if shown[k] != default[k]} == {"initiative"}


def test_rules_show_unknown_exits_1() -> None:
    code, out, err = run("rules", "show", "gibt-es-nicht")
    assert code == 1 and out == "" and "no rule variant" in err


def test_rules_variants_lists_the_shipped_files() -> None:
    code, out, _ = run("rules", "variants")
    assert code == 0
    assert set(out.split()) == {p.stem for p in RULES_DIR.glob("*.yaml")}
    assert {"default", "passes"} <= set(out.split())
