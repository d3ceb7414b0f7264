"""Hostile YAML gets one clean ConfigError in every loader (issue #19, item 5).

Recursive aliases and deep nesting ended in RecursionError, ``/dev/zero`` filled memory,
a FIFO hung, ``base: /etc/shadow`` printed the file's lines as unknown fields, ``base:``
chains recursed without end, and agent and reward files coerced ``'4'`` to 4 and ``yes``
to true.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents.registry import load_agent_file
from cwenv.content import load_scenario
from cwenv.envs.rewards import load_reward_config
from cwenv.rules.variants import load_rule_variant
from cwenv.yamlio import MAX_DEPTH, ConfigError, parse_yaml, read_yaml_file

LOADERS: dict[str, Callable[[Path], Any]] = {
    "scenario": load_scenario,
    "rule variant": load_rule_variant,
    "agent": load_agent_file,
    "reward": load_reward_config,
}

HOSTILE = {
    "recursive mapping alias": "extra: &a {k: *a}\n",
    "recursive list alias": "extra: &a [1, *a]\n",
    "recursive merge key": "extra: &a {<<: *a}\n",
    "deep brackets": "extra: " + "[" * 20_000 + "]" * 20_000 + "\n",
    "deep mappings": "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 5)) + "  x: 1\n",
    "mapping as key": "? {a: 1}\n: 2\n",
}


@pytest.mark.parametrize("loader", sorted(LOADERS))
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_documents_are_config_errors_in_every_loader(
    tmp_path: Path, loader: str, case: str
) -> None:
    path = tmp_path / "boese.yaml"
    path.write_text(HOSTILE[case], encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        LOADERS[loader](path)
    assert str(path) in str(err.value)


def test_recursive_alias_names_the_field() -> None:
    with pytest.raises(ConfigError, match=r"extra\.k: an alias refers to a value that contains"):
        parse_yaml("extra: &a {k: *a}\n", "x.yaml")


def test_the_cli_reports_a_recursive_alias_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "boese.yaml"
    path.write_text(HOSTILE["recursive mapping alias"], encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "cwenv.cli.main", "fight", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0
    assert "Traceback" not in out.stderr + out.stdout
    assert "alias" in out.stderr + out.stdout


def test_devices_and_fifos_are_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    # In a subprocess with a timeout: reading a FIFO nobody writes to blocks forever.
    code = (
        "import sys; from cwenv.yamlio import read_yaml_file, ConfigError\n"
        "for p in sys.argv[1:]:\n"
        "    try: read_yaml_file(p)\n"
        "    except ConfigError as e: print(e)\n"
    )
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    out = subprocess.run(
        [sys.executable, "-c", code, str(fifo), str(zero)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    assert all("not a regular file" in line for line in lines)


def test_a_non_yaml_file_is_never_echoed(tmp_path: Path) -> None:
    secret = tmp_path / "shadow"
    secret.write_text("geheim_token: abc123\nroot: x\n", encoding="utf-8")
    variant = tmp_path / "v.yaml"
    variant.write_text(f"base: {secret}\n", encoding="utf-8")
    for spec in (variant, secret):
        with pytest.raises(ConfigError) as err:
            load_rule_variant(spec)
        text = str(err.value)
        assert "geheim_token" not in text and "abc123" not in text
        assert "rule variant file (.yaml or .yml)" in text
    with pytest.raises(ConfigError, match=r"ends in \.yaml or \.yml"):
        read_yaml_file(secret)


def test_base_chains_are_capped(tmp_path: Path) -> None:
    for i in range(40):
        (tmp_path / f"v{i}.yaml").write_text(f"base: v{i + 1}.yaml\n", encoding="utf-8")
    (tmp_path / "v40.yaml").write_text("options: {}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="variants built on each other"):
        load_rule_variant(tmp_path / "v0.yaml")


def test_agent_files_naming_each_other_are_a_cycle_error(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("kind: mcts\nbase: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("kind: mcts\nrollout: a.yaml\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="cycle") as err:
        load_agent_file(tmp_path / "a.yaml")
    assert f"{tmp_path / 'a.yaml'}:2: base:" in str(err.value)


def test_an_agent_files_bad_base_names_that_file_and_field(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("kind: mcts\nbase: nixda\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"a\.yaml:2: base: unknown agent 'nixda'"):
        load_agent_file(tmp_path / "a.yaml")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("kind: taktiker\nko_bonus: '4'\n", "ko_bonus"),
        ("kind: taktiker\nalways_blockade: yes\n", "always_blockade"),
        ("kind: mcts\niterations: '40'\n", "iterations"),
    ],
)
def test_agent_files_are_strict(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=f"{field}:"):
        load_agent_file(path)


@pytest.mark.parametrize("text", ["win: '1'\n", "step_cost: '-0.5'\n"])
def test_reward_files_are_strict(tmp_path: Path, text: str) -> None:
    path = tmp_path / "reward.yaml"
    path.write_text("name: r\n" + text, encoding="utf-8")
    with pytest.raises(ConfigError):
        load_reward_config(path)


def test_yes_and_no_stay_words() -> None:
    assert parse_yaml("a: yes\nb: no\nc: true\nd: off\n").data == {
        "a": "yes",
        "b": "no",
        "c": True,
        "d": "off",
    }
