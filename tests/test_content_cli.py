"""``cwenv scenarios``: list, show, validate (exit codes), render (PNG) and schema."""

from __future__ import annotations

from pathlib import Path

import matplotlib.image as mpimg
import pytest
from typer.testing import CliRunner

from cwenv.cli.main import app as main_app
from cwenv.cli.scenarios import app
from cwenv.content import list_scenarios, load_scenario, stale_schemas, write_schemas
from cwenv.content.render import LEGEND_PX, render_size
from cwenv.rules.variants import CONFIG_ROOT

runner = CliRunner()


def test_registered_under_the_main_cli() -> None:
    result = runner.invoke(main_app, ["scenarios", "list"])
    assert result.exit_code == 0, result.output
    for name in list_scenarios():
        assert name in result.output


def test_show_prints_stat_blocks_and_the_map() -> None:
    result = runner.invoke(app, ["show", "feuergefecht"])
    assert result.exit_code == 0, result.output
    assert "Schichtleiterin Brandt" in result.output and "Konzernwache 3" in result.output
    game = load_scenario("feuergefecht")
    assert "#" * game.battlemap.width in result.output  # the map's top wall
    assert "##A B " in result.output  # Runners A and B in their start cells (cwenv.content.markers)
    assert "A, B … Runner" in result.output  # the legend


def test_show_unknown_scenario_fails() -> None:
    result = runner.invoke(app, ["show", "nirgendwo"])
    assert result.exit_code == 1
    assert "unknown scenario" in result.output


def test_validate_ok_files() -> None:
    files = [str(CONFIG_ROOT / "scenarios" / "duell.yaml"), str(CONFIG_ROOT / "maps" / "dach.yaml")]
    result = runner.invoke(app, ["validate", *files])
    assert result.exit_code == 0, result.output
    assert result.output.count("ok ") == 2


def test_validate_the_whole_library() -> None:
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 0, result.output
    assert "(scenarios)" in result.output and "(weapons)" in result.output


def test_validate_reports_every_error_and_exits_1(tmp_path: Path) -> None:
    good = CONFIG_ROOT / "weapons" / "messer.yaml"
    bad = tmp_path / "weapons" / "bad.yaml"
    bad.parent.mkdir()
    bad.write_text("name: X\nkind: schwert\ndamage: W6\nfoo: 1\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"ok {good}" in result.output
    for field in ("kind", "damage", "foo"):
        assert f"{bad}:" in result.output and f": {field}: " in result.output
    assert "1 of 2 files invalid" in result.output


def test_validate_with_an_explicit_kind(tmp_path: Path) -> None:
    loose = tmp_path / "loose.yaml"
    loose.write_text("name: Stim\nkind: stimulans\n", encoding="utf-8")
    assert runner.invoke(app, ["validate", "--kind", "weapons", str(loose)]).exit_code == 1
    assert runner.invoke(app, ["validate", "--kind", "nonsense", str(loose)]).exit_code == 2


@pytest.mark.parametrize("name", list_scenarios())
def test_render_writes_a_png_with_the_maps_aspect(name: str, tmp_path: Path) -> None:
    out = tmp_path / f"{name}.png"
    result = runner.invoke(app, ["render", name, "--out", str(out), "--cell-px", "16"])
    assert result.exit_code == 0, result.output
    image = mpimg.imread(out)
    game = load_scenario(name)
    height, width = image.shape[:2]
    # 16 px per cell, plus the margins for the cell numbers and the legend column
    assert (width, height) == render_size(game, 16)
    assert width >= game.battlemap.width * 16 + LEGEND_PX
    assert height >= game.battlemap.height * 16


def test_committed_json_schemas_are_up_to_date() -> None:
    assert stale_schemas() == [], "run `cwenv scenarios schema` and commit docs/schema/"


def test_schema_command_writes_and_checks(tmp_path: Path) -> None:
    result = runner.invoke(app, ["schema", "--out", str(tmp_path)])
    assert result.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        p.name for p in write_schemas(tmp_path / "again")
    )
    assert runner.invoke(app, ["schema", "--out", str(tmp_path), "--check"]).exit_code == 0
    (tmp_path / "maps.schema.json").write_text("{}")
    result = runner.invoke(app, ["schema", "--out", str(tmp_path), "--check"])
    assert result.exit_code == 1 and "maps" in result.output
