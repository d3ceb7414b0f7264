"""Agent specs, YAML configurations, their errors, and ``cwenv agents``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents.config import AGENT_CONFIG_DIR
from agents.registry import BUILTIN, describe_agents, library_files
from agents.schuetze import Schuetze
from agents.stuermer import Stuermer, StuermerConfig
from agents.taktiker import Taktiker
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.cli.agents import app
from cwenv.yamlio import ConfigError


@pytest.mark.parametrize("name", BUILTIN)
def test_every_builtin_name_builds(name: str) -> None:
    agent = make_agent(name)
    assert agent.name
    assert callable(agent.act)


def test_library_files_all_validate() -> None:
    names = library_files()
    assert {"stuermer", "schuetze", "taktiker", "mcts", "lookahead"} <= set(names)
    for name in names:
        make_agent(name)  # raises ConfigError if a shipped file is invalid


def test_doctrines_read_their_yaml() -> None:
    assert isinstance(make_agent("stuermer"), Stuermer)
    assert isinstance(make_agent("schuetze"), Schuetze)
    taktiker = make_agent("taktiker")
    assert isinstance(taktiker, Taktiker)
    assert taktiker.config.focus_weight > 0
    assert make_agent(str(AGENT_CONFIG_DIR / "stuermer.yaml")).name == "stuermer"


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "agent.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _issue(exc: pytest.ExceptionInfo[ConfigError]) -> tuple[int | None, tuple[str | int, ...], str]:
    issue = exc.value.issues[0]
    return issue.line, issue.path, issue.message


def test_unknown_field_names_file_line_and_field(tmp_path: Path) -> None:
    path = _write(tmp_path, "kind: stuermer\nmelee_bonus: 2.0\nmum_value: 3\n")
    with pytest.raises(ConfigError) as exc:
        make_agent(path)
    line, where, message = _issue(exc)
    assert (line, where) == (3, ("mum_value",))
    assert "unknown field" in message and "mumm_value" in message
    assert path in str(exc.value)


def test_wrong_type_and_range_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as exc:
        make_agent(_write(tmp_path, "kind: taktiker\nfocus_weight: viel\n"))
    assert _issue(exc)[:2] == (2, ("focus_weight",))
    with pytest.raises(ConfigError) as exc:
        make_agent(_write(tmp_path, "kind: mcts\niterations: 0\n"))
    assert _issue(exc)[:2] == (2, ("iterations",))
    with pytest.raises(ConfigError) as exc:
        make_agent(_write(tmp_path, "kind: stuermer\nmaneuvers: [Umreissen, Salto]\n"))
    assert _issue(exc)[1] == ("maneuvers", 1)


def test_missing_or_unknown_kind(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as exc:
        make_agent(_write(tmp_path, "mumm_value: 3\n"))
    assert _issue(exc)[1] == ("kind",)
    with pytest.raises(ConfigError) as exc:
        make_agent(_write(tmp_path, "kind: berserker\n"))
    assert "berserker" in str(exc.value) and "stuermer" in str(exc.value)
    with pytest.raises(ConfigError):
        make_agent(_write(tmp_path, "kind: [stuermer\n"))  # not YAML


def test_a_bad_rollout_spec_is_reported(tmp_path: Path) -> None:
    # at the field of the file that names it (issue #19), not as a bare unknown agent
    with pytest.raises(ConfigError, match=r"agent\.yaml:2: rollout: unknown agent 'niemand'"):
        make_agent(_write(tmp_path, "kind: mcts\nrollout: niemand\n"))


def test_a_missing_policy_bundle_is_named_in_the_error(tmp_path: Path) -> None:
    with pytest.raises(UnknownAgentError) as exc:
        make_agent(f"policy:{tmp_path / 'fehlt'}")
    assert "fehlt" in str(exc.value) and "manifest" in str(exc.value)


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownAgentError) as exc:
        make_agent("berserker")
    assert "taktiker" in str(exc.value) and "mcts" in str(exc.value)


def test_defaults_without_yaml() -> None:
    agent = Stuermer()
    assert agent.config == StuermerConfig()
    assert agent.config.maneuvers == ("Festsetzen", "Umreissen")


def test_describe_agents_one_line_each() -> None:
    rows = describe_agents()
    names = [name for name, _ in rows]
    assert names[: len(BUILTIN)] == list(BUILTIN)
    for name, text in rows:
        assert text and "\n" not in text, name


def test_cli_lists_every_agent() -> None:
    result = CliRunner().invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    for name in BUILTIN:
        assert name in result.output
    assert "policy:" in result.output


def test_cli_show_and_its_errors() -> None:
    result = CliRunner().invoke(app, ["show", "taktiker"])
    assert result.exit_code == 0, result.output
    assert "focus_weight" in result.output
    result = CliRunner().invoke(app, ["show", "policy:x"])
    assert result.exit_code == 1


def test_an_edited_agent_file_is_read_again(tmp_path: Path) -> None:
    """Agent files are parsed once per version (tournaments build one agent per game), yet
    an edit takes effect and every game still gets its own agent."""
    import os

    path = _write(tmp_path, "kind: stuermer\nmumm_value: 2.0\n")
    first, second = make_agent(path), make_agent(path)
    assert first is not second and first.config.mumm_value == 2.0  # type: ignore[attr-defined]
    Path(path).write_text("kind: stuermer\nmumm_value: 3.5\n", encoding="utf-8")
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert make_agent(path).config.mumm_value == 3.5  # type: ignore[attr-defined]
    Path(path).write_text("kind: stuermer\nmum_value: 3.5\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        make_agent(path)
