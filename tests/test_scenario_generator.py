"""The scenario generator (issue #18): seeded maps and rosters that are normal scenarios.

Same seed, same bytes in any process; every generated file loads through the content
models, passes ``cwenv scenarios validate`` without a warning, fits the RL env and plays to
the end with random agents; over 100 seeds every map family, roster size and feature
turns up; bad knobs are one clear message.
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cwenv.agent import play_out
from cwenv.agent_registry import make_agent
from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.cli.main import app as main_app
from cwenv.content import load_scenario
from cwenv.content.generate import (
    Generated,
    GeneratorKnobError,
    generate,
    generate_game,
    generate_yaml,
    generated,
)
from cwenv.content.generate.knobs import SIZE_DIMS
from cwenv.content.generate.reach import playable_problems
from cwenv.content.lint import scenario_warnings, sides_connected
from cwenv.engine.game import Game, VictoryKind
from cwenv.model.specs import FighterSpec
from cwenv.model.types import Side, WeaponKind
from cwenv.runner.seeds import side_rngs

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(200)
cli = CliRunner()


@cache
def made(seed: int) -> Generated:
    return generated(seed)


def _family(g: Generated) -> str:
    return str(g.document["map"]["name"]).rsplit("(", 1)[1].rstrip(")")


# -- determinism -------------------------------------------------------------------------


def _yaml_in_subprocess(hash_seed: str) -> str:
    code = (
        "import sys\n"
        "from cwenv.content.generate import generate_yaml\n"
        "for s in (0, 1, 7, 123456789):\n"
        "    sys.stdout.write(generate_yaml(s))\n"
        "sys.stdout.write(generate_yaml(5, size='large', family='rooftops', players=6))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, env=env, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode("utf-8")


def test_same_seed_gives_the_same_bytes_in_two_processes() -> None:
    first, second = _yaml_in_subprocess("1"), _yaml_in_subprocess("2")
    assert first == second
    here = "".join(generate_yaml(s) for s in (0, 1, 7, 123456789))
    here += generate_yaml(5, size="large", family="rooftops", players=6)
    assert first == here
    assert generate_yaml(0) != generate_yaml(1)


def test_generate_returns_the_yaml_ready_mapping_with_the_map_inline() -> None:
    doc = generate(11)
    assert isinstance(doc["map"], dict) and isinstance(doc["map"]["grid"], str)
    assert doc == made(11).document
    game = generate_game(11)
    assert game.name == doc["name"]
    assert len(game.roster) == sum(1 for _ in doc["fighters"])


# -- legality ----------------------------------------------------------------------------


def test_the_written_file_loads_and_validates_without_a_warning(tmp_path: Path) -> None:
    paths = []
    for seed in (3, 4, 5):
        path = tmp_path / f"gen{seed}.yaml"
        path.write_text(generate_yaml(seed), encoding="utf-8")
        paths.append(str(path))
        game = load_scenario(path)
        assert game.name == made(seed).game.name
        assert game.positions == made(seed).game.positions
    result = cli.invoke(main_app, ["scenarios", "validate", *paths])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    assert result.output.count("ok ") == 3


def _play_to_the_end(game: Game, seed: int) -> None:
    combat = game.new_combat(seed)
    agent = make_agent("random")
    play_out(combat, {int(s): agent for s in Side}, side_rngs(seed))
    assert combat.is_terminal()
    assert combat.outcome is not None


def test_200_seeds_load_connect_and_play_to_the_end_with_random_agents() -> None:
    for seed in SEEDS:
        g = made(seed)
        game = g.game
        assert playable_problems(game) == [], seed
        assert sides_connected(game), seed
        assert scenario_warnings(game) == [], seed
        assert game.round_limit is not None
        _play_to_the_end(game, seed)


def test_generated_scenarios_fit_the_env_layout(tmp_path: Path) -> None:
    pytest.importorskip("gymnasium")
    from cwenv.envs import KampfrundeEnv
    from cwenv.envs.capacity import check_limits
    from cwenv.envs.layout import ActionLayout

    layout = ActionLayout()
    for seed in SEEDS:
        check_limits(made(seed).game, layout)  # LimitError would name what does not fit
    largest = max(SEEDS, key=lambda s: made(s).game.battlemap.size)
    crowded = max(SEEDS, key=lambda s: len(made(s).game.roster))
    for seed in (0, largest, crowded):
        path = tmp_path / f"gen{seed}.yaml"
        path.write_text(made(seed).text, encoding="utf-8")
        env = KampfrundeEnv(scenario=str(path))
        env.reset(seed=seed)
        env.close()


def test_the_strict_check_catches_a_roof_one_can_only_jump_down_from() -> None:
    """``sides_connected`` lets any height be climbed; the generator's check follows the
    engine's steps: from the street nobody gets back onto a 6 m roof without a fire escape
    of ledges 2 m apart (B03)."""
    rows = ["....", "....", "....", "...."]
    elevation = ["6600", "6600", "6600", "6600"]
    bm = BattleMap.from_rows(rows, elevation_rows=elevation)
    base = made(0).game
    runner = next(s for s in base.roster if s.side is Side.RUNNER)
    gegner = next(s for s in base.roster if s.side is Side.GEGNER)
    game = Game(
        battlemap=bm,
        roster=(runner, gegner),
        positions=(bm.index(0, 0), bm.index(3, 3)),
        options=base.options,
        round_limit=5,
    )
    assert sides_connected(game)
    # The runner on the roof can drop to the street; the gegner cannot climb up.
    assert playable_problems(game) == [f"{gegner.name} at [3, 3] is cut off from the others"]
    with_ledge = BattleMap.from_rows(
        ["..H.", "..H.", "..H.", "...."], elevation_rows=["6660", "6640", "6620", "6600"]
    )
    assert playable_problems(Game(
        battlemap=with_ledge,
        roster=(runner, gegner),
        positions=(with_ledge.index(0, 0), with_ledge.index(3, 3)),
        options=base.options,
        round_limit=5,
    )) == []  # fmt: skip


# -- variety -----------------------------------------------------------------------------


def _melee_only(spec: FighterSpec) -> bool:
    return bool(spec.weapons) and all(w.kind is WeaponKind.MELEE for w in spec.weapons)


def test_100_seeds_show_every_family_size_and_feature() -> None:
    sample = [made(seed) for seed in range(100)]
    assert {_family(g) for g in sample} == {"Innenräume", "Strassen", "Dächer"}
    per_side = {
        sum(1 for f in g.game.roster if f.side is side and "vip" not in f.tags)
        for g in sample
        for side in (Side.RUNNER, Side.GEGNER)
    }
    assert per_side == {1, 2, 3, 4, 5, 6}
    roster = [f for g in sample for f in g.game.roster]
    assert any(f.hacks and f.side is Side.RUNNER for f in roster)
    assert any(f.hacks and f.side is Side.GEGNER for f in roster)
    assert any("drohne" in f.tags for f in roster)
    assert any("boss" in f.tags for f in roster)
    assert any(_melee_only(f) for f in roster)
    assert any(f.weapons and f.weapons[0].kind is WeaponKind.RANGED for f in roster)
    entries = [e for g in sample for e in g.document["fighters"]]
    assert any("cyberware" in e for e in entries)  # cyberware beyond the archetype's
    maps = [g.game.battlemap for g in sample]
    assert any(max(bm.elevation) >= 6 for bm in maps)
    terrain = {t for bm in maps for t in bm.terrain}
    assert terrain == set(Terrain)  # doors both ways, ledges, water, fire, both covers
    kinds = {v.kind for g in sample for v in g.game.victory}
    assert kinds == set(VictoryKind)
    sizes = {bm.width for bm in maps}
    assert min(sizes) <= SIZE_DIMS["small"][0][1] and max(sizes) >= SIZE_DIMS["large"][0][0]
    assert sum(1 for g in sample if g.game.victory[0].kind is VictoryKind.ELIMINATE) >= 40


def test_knobs_are_honoured() -> None:
    g = generated(21, size="small", family="rooms", players=6, victory="reach_exit")
    bm = g.game.battlemap
    (wlo, whi), (hlo, hhi) = SIZE_DIMS["small"]
    assert wlo <= bm.width <= whi and hlo <= bm.height <= hhi
    assert _family(g) == "Innenräume"
    assert sum(1 for f in g.game.roster if f.side is Side.RUNNER) == 6
    assert sum(1 for f in g.game.roster if f.side is Side.GEGNER) == 6
    assert [v.kind for v in g.game.victory] == [VictoryKind.REACH_EXIT] and bm.exits
    assert "--players 6" in g.document["description"]
    g = generated(22, runners=2, gegner=5, victory="protect_vip", family="rooftops")
    sides = [f.side for f in g.game.roster if "vip" not in f.tags]
    assert sides.count(Side.RUNNER) == 2 and sides.count(Side.GEGNER) == 5
    assert VictoryKind.PROTECT_VIP in {v.kind for v in g.game.victory}
    assert max(g.game.battlemap.elevation) > 0


# -- bad knobs and the command line --------------------------------------------------------


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"size": "huge"}, "size: 'huge' is not allowed; allowed: small, medium, large"),
        ({"family": "sewer"}, "family: 'sewer' is not allowed; allowed: rooms, streets, rooftops"),
        ({"players": 7}, "players: 7 fighters per side is not allowed; allowed: 1..6"),
        ({"runners": 0}, "runners: 0 fighters per side is not allowed; allowed: 1..6"),
        ({"gegner": "3"}, "gegner: '3' is not a whole number; allowed: 1..6"),
        ({"players": True}, "players: True is not a whole number; allowed: 1..6"),
        ({"victory": "flee"}, "allowed: eliminate, survive, protect_vip, reach_exit"),
        ({"colour": "red"}, "unknown knob 'colour'; allowed knobs: size, family, players"),
        ({"players": 2, "gegner": 3}, "gegner: 3 contradicts players: 2"),
    ],
)
def test_bad_knobs_name_the_knob_and_the_allowed_values(
    knobs: dict[str, object], message: str
) -> None:
    with pytest.raises(GeneratorKnobError) as exc:
        generate(1, **knobs)
    assert message in str(exc.value)
    assert isinstance(exc.value, ValueError)


def test_a_negative_seed_is_refused_not_folded_onto_its_positive() -> None:
    with pytest.raises(GeneratorKnobError, match=r"seed: -5 is not allowed; allowed: a whole"):
        generate(-5)
    biggest = 2**64 - 1
    assert generate_game(biggest).name.startswith(f"Zufall {biggest}: ")
    with pytest.raises(GeneratorKnobError, match=rf"allowed: a whole number 0..{biggest}"):
        generate(biggest + 1)


def test_cli_writes_the_same_yaml_to_stdout_and_to_a_file(tmp_path: Path) -> None:
    result = cli.invoke(main_app, ["scenarios", "generate", "--seed", "9", "--size", "small"])
    assert result.exit_code == 0, result.output
    assert result.stdout == generate_yaml(9, size="small")
    out = tmp_path / "zufall.yaml"
    args = ["scenarios", "generate", "--seed", "9", "--size", "small", "--out", str(out)]
    result = cli.invoke(main_app, args)
    assert result.exit_code == 0 and f"wrote {out}" in result.output
    assert out.read_text(encoding="utf-8") == generate_yaml(9, size="small")
    fight = cli.invoke(main_app, ["fight", str(out), "--quiet", "--runners", "random",
                                  "--nscs", "random"])  # fmt: skip
    assert fight.exit_code == 0, fight.output
    assert fight.output.startswith("Ergebnis: ")


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--size", "huge"], 2, "--size: 'huge' is not allowed; allowed: small, medium, large"),
        (["--players", "9"], 2, "--players: 9 fighters per side is not allowed; allowed: 1..6"),
        (["--victory", "x"], 2, "allowed: eliminate, survive, protect_vip, reach_exit"),
        (["--out", "fight.txt"], 2, "--out fight.txt: must end in .yaml or .yml"),
    ],
)
def test_cli_bad_knobs_are_one_clean_message(args: list[str], code: int, message: str) -> None:
    result = cli.invoke(main_app, ["scenarios", "generate", "--seed", "1", *args])
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_never_overwrites_a_file_without_force(tmp_path: Path) -> None:
    out = tmp_path / "mine.yaml"
    out.write_text("name: meins\n", encoding="utf-8")
    args = ["scenarios", "generate", "--seed", "2", "--out", str(out)]
    result = cli.invoke(main_app, args)
    assert result.exit_code == 1
    assert "the file exists; pass --force to overwrite it" in result.output
    assert out.read_text(encoding="utf-8") == "name: meins\n"
    assert cli.invoke(main_app, [*args, "--force"]).exit_code == 0
    assert out.read_text(encoding="utf-8") == generate_yaml(2)
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left behind
