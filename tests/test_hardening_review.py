"""What a second review of the hardening change found (issue #19), each pinned by a test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cwenv.play.savefile import SavedAction, SavedGame, load_saved, write_save
from cwenv.yamlio import ConfigError, parse_yaml, read_yaml_file
from tests.helpers import run_cwenv

ROOT = Path(__file__).resolve().parent.parent


def test_yaml_1_1_numbers_stay_text_so_typed_fields_refuse_them() -> None:
    data = parse_yaml("a: 010\nb: 0x1F\nc: 0b11\nd: 1:30\ne: 1_000\nf: 12\ng: -3\nh: 1.5\n").data
    assert data == {"a": "010", "b": "0x1F", "c": "0b11", "d": "1:30", "e": "1_000"} | {
        "f": 12,
        "g": -3,
        "h": 1.5,
    }


def test_a_situation_lp_written_as_octal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lage.yaml"
    path.write_text("scenario: duell\nround: 2\nturn: Akame\nfighters:\n  Kenji: {lp: 010}\n")
    out = run_cwenv("advise", str(path))
    assert out.returncode == 1 and "fighters.Kenji.lp" in out.stderr and "'010'" in out.stderr


def test_a_yaml_named_link_to_another_file_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "passwd"
    secret.write_text("root: x\n")
    link = tmp_path / "x.yaml"
    link.symlink_to(secret)
    with pytest.raises(ConfigError, match=r"ends in \.yaml or \.yml"):
        read_yaml_file(link)


def test_a_new_game_moves_the_last_autosave_aside(tmp_path: Path) -> None:
    first = run_cwenv("play", "duell", "--seed", "5", input="1\n1\nq\nj\n", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    autosave = tmp_path / ".cwenv-autosave.yaml"
    before = autosave.read_text()
    second = run_cwenv("play", "feuergefecht", "--seed", "9", input="q\nj\n", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    kept = [p for p in tmp_path.glob(".cwenv-autosave-*.yaml")]
    assert len(kept) == 1 and kept[0].read_text() == before
    assert "Der vorige Autosave liegt jetzt in" in " ".join(second.stdout.split())
    assert "feuergefecht" in autosave.read_text()


def test_a_save_as_long_as_the_decision_cap_allows_loads_again(tmp_path: Path) -> None:
    step = SavedAction(kind="END_TURN", actor=0)
    saved = SavedGame(scenario="duell", seed=1, runners="human", nscs="greedy")
    saved = saved.model_copy(update={"actions": [step] * 25_000})
    path = tmp_path / "lang.yaml"
    write_save(path, saved)
    assert os.path.getsize(path) > 1_000_000  # over the hand-written config limit
    assert len(load_saved(path).actions) == 25_000


def test_jobs_are_bounded() -> None:
    out = run_cwenv("simulate", "duell", "--games", "2", "--jobs", "100000")
    assert out.returncode == 2 and "--jobs" in out.stderr


def test_a_search_agent_built_on_an_unfit_policy_stops_before_the_first_decision(
    tmp_path: Path,
) -> None:
    agent = tmp_path / "suche.yaml"
    bundle = f"policy:{ROOT / 'agents' / 'policies' / 'duell-nsc'}"
    agent.write_text(f"kind: lookahead\nbase: '{bundle}'\nrollout: greedy\n")
    for args in (
        ["fight", "feuergefecht", "--nscs", str(agent), "--quiet"],
        ["simulate", "feuergefecht", "--nscs", str(agent), "--games", "2"],
        ["advise", "configs/situations/wache-am-zug.yaml", "--agent", str(agent)],
    ):
        out = run_cwenv(*args, cwd=ROOT)
        assert out.returncode == 1, (args, out.stdout[-500:], out.stderr[-500:])
        assert "cannot play" in out.stderr and "Traceback" not in out.stderr


def test_a_dying_fighter_at_full_lp_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lage.yaml"
    path.write_text(
        "scenario: duell\nround: 2\nturn: Akame\nfighters:\n  Kenji: {conditions: [sterbend]}\n"
    )
    out = run_cwenv("advise", str(path))
    assert out.returncode == 1
    assert "fighters.Kenji.conditions: sterbend needs LP 0 or below" in out.stderr
