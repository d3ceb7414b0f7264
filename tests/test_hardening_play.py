"""Hardening of `cwenv play` and `cwenv advise` (issue #19, items 5, 6, 7 and 13).

Saved games and situation files are strict and checked against the rules; typed dice are
1 to 10 wherever they come from; a save that cannot be written is reported and the game
goes on; saves are atomic; every decision is autosaved; `q` and Ctrl-C ask first; a
situation that already decides the fight says so; bad files never show a traceback.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pexpect
import pytest
import yaml
from rich.console import Console
from typer.testing import CliRunner

from cwenv.agent import Agent, DecisionView
from cwenv.cli.main import app
from cwenv.content import load_scenario
from cwenv.engine.actions import Action
from cwenv.engine.narration import narrate_all
from cwenv.model.types import Side
from cwenv.play.advise import load_situation
from cwenv.play.table_game import PlaySession, SavedGame, TableDice, load_saved
from cwenv.play.tui import TerminalGame
from cwenv.rules.dice import InvalidDieError
from cwenv.yamlio import ConfigError

CWENV = shutil.which("cwenv") or f"{sys.executable} -m cwenv.cli.main"
runner = CliRunner()
SAVE_HEAD = "cwenv_save: 1\nscenario: duell\nseed: 1\nrunners: human\nnscs: greedy\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def lines(answers: list[str], then: str = "1"):  # type: ignore[no-untyped-def]
    """A scripted player: the answers in order, then ``then`` for ever."""
    queue = list(answers)

    def read(prompt: str) -> str:
        item = queue.pop(0) if queue else then
        if isinstance(item, BaseException):
            raise item
        return item

    return read


def human_session(seed: int = 3) -> PlaySession:
    saved = SavedGame(scenario="duell", seed=seed, runners="human", nscs="greedy")
    return PlaySession(load_scenario("duell"), saved)


def _default_sigint() -> None:
    """In the child: Ctrl-C raises SIGINT's default (Python's KeyboardInterrupt). A test run
    started in the background by a shell without job control ignores SIGINT, and an ignored
    signal stays ignored across exec, so the player's Ctrl-C would never arrive."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(args: str, cwd: Path) -> pexpect.spawn:
    return pexpect.spawn(
        f"{CWENV} {args}",
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
        cwd=str(cwd),
        preexec_fn=_default_sigint,
    )


# -- item 6: typed dice -------------------------------------------------------------------
@pytest.mark.parametrize("die", [0, 11, -3])
def test_a_typed_die_outside_1_to_10_in_a_save_is_refused(tmp_path: Path, die: int) -> None:
    """A save with a typed 0 gave "Wurf 0+0 → Volltreffer"; now the file and field name it."""
    path = write(tmp_path / "wurf.yaml", SAVE_HEAD + f"dice: table\ntyped_dice: [4, {die}]\n")
    with pytest.raises(ConfigError) as info:
        load_saved(path)
    assert "wurf.yaml:7: typed_dice.1" in str(info.value) and "1 to 10" in str(info.value)
    result = runner.invoke(app, ["play", "--load", str(path)])
    assert result.exit_code == 1 and "typed_dice.1" in result.output
    assert "Traceback" not in result.output and "Volltreffer" not in result.output


def test_table_dice_refuse_a_die_outside_1_to_10() -> None:
    with pytest.raises(InvalidDieError, match="1–10"):
        TableDice([5, 0], None)


def test_the_w10_prompt_asks_again_with_the_range(tmp_path: Path) -> None:
    """0, 11, '²' (a digit to str.isdigit, not to int) and words are asked again; Ctrl-C
    at the prompt asks whether to quit, and 'n' asks for the same W10 again."""
    child = spawn("play duell --seed 3 --dice table --no-autosave", tmp_path)
    child.expect("W10 .*?> ")
    for wrong in ["0", "11", "²", "drei"]:
        child.sendline(wrong)
        child.expect("eine ganze Zahl von 1 bis 10")
        child.expect("W10 .*?> ")
    child.sendintr()
    child.expect(r"beenden\? \(j/n\)")
    child.sendline("n")
    child.expect("W10 .*?> ")
    child.sendline("q")
    child.expect(r"beenden\? \(j/n\)")
    child.sendline("j")
    child.expect("Partie abgebrochen")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")


def test_a_superscript_digit_at_the_menu_is_not_a_crash() -> None:
    """'²'.isdigit() is true but int('²') raises: the menu prompt shows the help instead."""
    console = Console(record=True, width=200)
    game = TerminalGame(human_session(), console, lines(["²", "b ² 1"]))
    game.run()
    text = console.export_text()
    assert "Befehle:" in text and "Feld nicht auf der Karte" in text and "ERGEBNIS" in text


# -- item 5: strict saves with a format version ---------------------------------------------
@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('cwenv_save: 1\nscenario: duell\nseed: "4"\nrunners: human\nnscs: greedy\n', "seed"),
        (SAVE_HEAD + "actions:\n  - {kind: END_TURN, actor: '0'}\n", "actions.0.actor"),
        (SAVE_HEAD + "actions:\n  - {kind: END_TURN, actor: 0, mumm: 1.5}\n", "actions.0.mumm"),
        (SAVE_HEAD + "dice: table\ntyped_dice: ['4']\n", "typed_dice.0"),
        (SAVE_HEAD + "dice: wuerfelbecher\n", "dice"),
        (SAVE_HEAD + "rules: true\n", "rules"),
        (SAVE_HEAD + "spieler: 3\n", "spieler"),
    ],
)
def test_save_fields_are_strict(tmp_path: Path, text: str, field: str) -> None:
    path = write(tmp_path / "partie.yaml", text)
    with pytest.raises(ConfigError) as info:
        load_saved(path)
    assert "partie.yaml:" in str(info.value) and f" {field}:" in str(info.value)


def test_a_save_without_a_format_version_is_read_as_format_1(tmp_path: Path) -> None:
    path = write(tmp_path / "alt.yaml", SAVE_HEAD.replace("cwenv_save: 1\n", ""))
    saved = load_saved(path)
    assert saved.cwenv_save == 1 and saved.scenario == "duell"


@pytest.mark.parametrize("version", ["3", "0", "'1'", "true"])
def test_an_unknown_save_format_is_refused_by_name(tmp_path: Path, version: str) -> None:
    path = write(
        tmp_path / "neu.yaml", SAVE_HEAD.replace("cwenv_save: 1", f"cwenv_save: {version}")
    )
    result = runner.invoke(app, ["play", "--load", str(path)])
    assert result.exit_code == 1
    assert "neu.yaml:1: cwenv_save: save format" in result.output
    assert "reads formats 1 to 2" in result.output and "Traceback" not in result.output


def test_a_save_for_another_scenario_names_the_file_and_the_action(tmp_path: Path) -> None:
    saved = SavedGame(scenario="feuergefecht", seed=2, runners="greedy", nscs="greedy")
    session = PlaySession(load_scenario("feuergefecht"), saved)
    for _ in range(8):
        session.agent_step()
    path = tmp_path / "fremd.yaml"
    session.save(path)
    write(
        path, path.read_text(encoding="utf-8").replace("scenario: feuergefecht", "scenario: duell")
    )
    result = runner.invoke(app, ["play", "--load", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "fremd.yaml:" in result.output and "actions." in result.output
    assert "not legal when replayed" in result.output


def test_a_save_naming_an_unknown_scenario_points_at_its_field(tmp_path: Path) -> None:
    path = write(tmp_path / "weg.yaml", SAVE_HEAD.replace("scenario: duell", "scenario: nirgendwo"))
    result = runner.invoke(app, ["play", "--load", str(path)])
    assert result.exit_code == 1
    assert "weg.yaml:2: scenario: unknown scenario 'nirgendwo'" in result.output


def test_a_save_naming_an_unknown_agent_points_at_its_field(tmp_path: Path) -> None:
    path = write(tmp_path / "agent.yaml", SAVE_HEAD.replace("nscs: greedy", "nscs: niemand"))
    result = runner.invoke(app, ["play", "--load", str(path)])
    assert result.exit_code == 1 and "agent.yaml:5: nscs: unknown agent" in result.output


def bad_files(tmp_path: Path) -> list[tuple[Path, str]]:
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(bytes(random.Random(5).randrange(256) for _ in range(400)))
    folder = tmp_path / "ordner.yaml"
    folder.mkdir()
    return [
        (folder, "ordner.yaml"),
        (tmp_path / "fehlt.yaml", "fehlt.yaml"),
        (junk, "junk.yaml"),
        (write(tmp_path / "leer.yaml", ""), "leer.yaml"),
        (write(tmp_path / "liste.yaml", "- 1\n- 2\n"), "liste.yaml"),
    ]


def test_bad_files_are_clean_errors_for_play_and_advise(tmp_path: Path) -> None:
    for path, name in bad_files(tmp_path):
        for args in (["play", "--load", str(path)], ["advise", str(path)]):
            result = runner.invoke(app, args)
            assert result.exit_code == 1, (args, result.output)
            assert name in result.output and "Traceback" not in result.output, result.output
            assert not isinstance(result.exception, Exception) or isinstance(
                result.exception, SystemExit
            ), (args, result.exception)


# -- item 7: saving, autosave, quitting -----------------------------------------------------
def test_saving_to_a_bad_path_reports_and_keeps_playing(tmp_path: Path) -> None:
    """A directory, a missing folder, a file as folder, a name --load would refuse: each is
    reported and the game goes on to its end."""
    (tmp_path / "datei.yaml").write_text("x", encoding="utf-8")
    bad = [tmp_path, tmp_path / "fehlt" / "p.yaml", tmp_path / "datei.yaml" / "p.yaml"]
    console = Console(record=True, width=300)
    answers = [f"s {p}" for p in bad] + [f"s {tmp_path / 'p.txt'}"]
    TerminalGame(human_session(), console, lines(answers)).run()
    text = console.export_text()
    assert text.count("Nicht gespeichert:") == 4 and "ERGEBNIS" in text
    assert not (tmp_path / "p.txt").exists()


def test_a_save_that_fails_half_way_leaves_the_old_file_whole(tmp_path: Path) -> None:
    """Saving over an old file when the disk is full (here: a file size limit) keeps the
    old file as it was, leaves no temporary file and the game goes on."""
    old = tmp_path / "partie.yaml"
    old.write_text("# the previous save\n", encoding="utf-8")
    script = textwrap.dedent(
        f"""
        import resource, signal
        from rich.console import Console
        from cwenv.content import load_scenario
        from cwenv.play.table_game import PlaySession, SavedGame
        from cwenv.play.tui import TerminalGame
        saved = SavedGame(scenario="duell", seed=3, runners="human", nscs="greedy")
        session = PlaySession(load_scenario("duell"), saved)
        answers = iter(["1", "1", "1", "s {old}", "q", "j"])
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
        TerminalGame(session, Console(), lambda prompt: next(answers)).run()
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "Nicht gespeichert" in done.stdout and "Partie abgebrochen" in done.stdout
    assert old.read_text(encoding="utf-8") == "# the previous save\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["partie.yaml"]


def test_q_asks_and_the_autosave_resumes_the_game(tmp_path: Path) -> None:
    """`q` then `n` plays on; `q` then `j` quits and says where the game is; `--load` of
    the autosave continues exactly there."""
    explicit = tmp_path / "vorher.yaml"
    child = spawn("play duell --nscs greedy --seed 3", tmp_path)
    child.expect("Kenji — ")
    child.expect("\n> ")
    child.sendline("q")
    child.expect(r"beenden\? \(j/n\)")
    child.sendline("n")
    child.expect("\n> ")
    child.sendline("1")
    child.expect("\n> ")
    child.sendline(f"s {explicit}")
    child.expect("Gespeichert")
    child.expect("\n> ")
    child.sendline("q")
    child.expect(r"beenden\? \(j/n\)")
    child.sendline("j")
    child.expect(r"cwenv play --load \.cwenv-autosave\.yaml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    autosave = tmp_path / ".cwenv-autosave.yaml"
    data = yaml.safe_load(autosave.read_text(encoding="utf-8"))
    assert data["actions"] == yaml.safe_load(explicit.read_text(encoding="utf-8"))["actions"]
    assert data["actions"]  # the decision taken before quitting is in it

    child = spawn("play --load .cwenv-autosave.yaml", tmp_path)
    child.expect("Kenji — ")
    child.expect("\n> ")
    child.sendline("q")
    child.expect(r"beenden\? \(j/n\)")
    child.sendline("j")
    child.expect(pexpect.EOF)
    resumed = yaml.safe_load(autosave.read_text(encoding="utf-8"))
    assert resumed["actions"] == data["actions"]


def test_ctrl_c_at_the_prompt_asks_and_loses_nothing(tmp_path: Path) -> None:
    child = spawn("play duell --nscs greedy --seed 3 --autosave stand.yaml", tmp_path)
    child.expect("Kenji — ")
    child.expect("\n> ")
    child.sendline("1")
    child.expect("\n> ")
    child.sendintr()
    child.expect(r"beenden\? \(j/n\)")
    child.sendline("n")
    child.expect("\n> ")
    child.sendintr()
    child.expect(r"beenden\? \(j/n\)")
    child.sendline("j")
    child.expect("Stand gespeichert in stand.yaml")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")
    saved = load_saved(tmp_path / "stand.yaml")
    assert saved.actions  # the first decision (and the agent's answer) survived
    PlaySession(load_scenario("duell"), saved)  # and it replays


def test_the_end_of_input_quits_without_hanging_and_keeps_the_autosave(tmp_path: Path) -> None:
    done = subprocess.run(
        [*CWENV.split(), "play", "duell", "--seed", "3"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0 and "Partie abgebrochen" in done.stdout, done.stderr
    assert load_saved(tmp_path / ".cwenv-autosave.yaml").scenario == "duell"


def test_an_autosave_that_cannot_be_written_is_reported_once(tmp_path: Path) -> None:
    console = Console(record=True, width=300)
    target = tmp_path / "fehlt" / "auto.yaml"
    TerminalGame(human_session(), console, lines([]), autosave=target).run()
    text = console.export_text()
    assert text.count("Automatisches Speichern") == 1 and "ERGEBNIS" in text


class _InterruptOnce(Agent):
    """Greedy, but the n-th call is cut off by Ctrl-C half-way through the rules."""

    name = "unterbrochen"

    def __init__(self, inner: Agent, at: int) -> None:
        self.inner = inner
        self.calls = 0
        self.at = at

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls += 1
        if self.calls == self.at:
            c = view.combat
            c.fighters[0].lp -= 5  # the rules were changing the state when Ctrl-C came
            c.history.append(legal[0])
            raise KeyboardInterrupt
        return self.inner.act(view, legal, rng)


def test_ctrl_c_while_an_agent_acts_goes_back_to_a_consistent_state() -> None:
    """Ctrl-C while the rules run, then 'n': the half-done step is undone and the game
    goes on; the finished game replays from its save to the same events."""
    session = human_session()
    session.agents[Side.GEGNER] = _InterruptOnce(session.agents[Side.GEGNER], at=2)
    console = Console(record=True, width=200)
    try:
        TerminalGame(session, console, lines(["1", "1", "n"])).run()
    except KeyboardInterrupt:  # would stop the whole test run
        pytest.fail("Ctrl-C escaped from the game")
    assert "ERGEBNIS" in console.export_text()
    again = PlaySession(load_scenario("duell"), session.saved())
    names = session.game.names
    assert narrate_all(again.combat.events, names) == narrate_all(session.combat.events, names)


def test_saves_are_replaced_in_their_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new file is written beside the old one and renamed over it (one file system)."""
    calls: list[tuple[str, str]] = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        calls.append((str(src), str(dst)))
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    human_session().save(tmp_path / "p.yaml")
    ((src, dst),) = calls
    assert Path(src).parent == Path(dst).parent == tmp_path and src != dst


# -- items 5 and 13: situations ----------------------------------------------------------------
SIT = "scenario: duell\nturn: Akame\n"


@pytest.mark.parametrize(
    ("fighters", "winner"),
    [
        ("  Kenji: {out: true}\n", "alle Runner ausgeschaltet"),
        ("  Kenji: {lp: -3}\n", "alle Runner ausgeschaltet"),
    ],
)
def test_a_decided_situation_says_so(tmp_path: Path, fighters: str, winner: str) -> None:
    path = write(tmp_path / "aus.yaml", SIT + "fighters:\n" + fighters)
    _, combat, _ = load_situation(path)
    assert combat.is_terminal()
    result = runner.invoke(app, ["advise", str(path)])
    assert result.exit_code == 1
    assert f"Der Kampf ist entschieden: {winner}" in result.output
    assert "Zug beenden" not in result.output


def test_a_situation_with_every_gegner_out_says_the_runners_won(tmp_path: Path) -> None:
    path = write(
        tmp_path / "sieg.yaml", "scenario: duell\nturn: Kenji\nfighters:\n  Akame: {out: true}\n"
    )
    result = runner.invoke(app, ["advise", str(path)])
    assert result.exit_code == 1 and "alle Gegner ausgeschaltet" in result.output


@pytest.mark.parametrize(
    ("fighters", "field", "allowed"),
    [
        ("  Kenji: {lp: 33}\n", "fighters.Kenji.lp", "-11 to 32"),
        ("  Kenji: {lp: -12}\n", "fighters.Kenji.lp", "-11 to 32"),
        ("  Kenji: {mumm: 5}\n", "fighters.Kenji.mumm", "at most 4"),
        ("  Kenji: {reactions: 12}\n", "fighters.Kenji.reactions", "at most 11"),
        ("  Kenji: {at: [0, 0]}\n", "fighters.Kenji.at", "wall"),
        ("  Kenji: {at: [9, 2]}\n", "fighters.Kenji.at", "taken by Akame"),
        ("  Kenji: {at: [12, 2]}\n", "fighters.Kenji.at", "x 0 to 11"),
        ("  Akame: {out: true}\n", "turn", "cannot act"),
    ],
)
def test_situation_values_are_capped(
    tmp_path: Path, fighters: str, field: str, allowed: str
) -> None:
    path = write(tmp_path / "lage.yaml", SIT + "fighters:\n" + fighters)
    with pytest.raises(ConfigError) as info:
        load_situation(path)
    assert "lage.yaml:" in str(info.value) and field in str(info.value)
    assert allowed in str(info.value)
    result = runner.invoke(app, ["advise", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_a_situation_round_after_the_limit_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "spaet.yaml", SIT + "round: 21\n")
    with pytest.raises(ConfigError, match=r"spaet.yaml:3: round: 21 is after the round limit 20"):
        load_situation(path)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (SIT + "fighters:\n  Kenji: {lp: '9'}\n", "fighters.Kenji.lp"),
        (SIT + "round: '2'\n", "round"),
        (SIT + "seed: 1.5\n", "seed"),
        (SIT + "fighters:\n  Kenji: {out: yes}\n", "fighters.Kenji.out"),
        (SIT + "fighters:\n  Kenji: {out: 'true'}\n", "fighters.Kenji.out"),
        (SIT + "fighters:\n  Kenji: {at: ['5', 5]}\n", "fighters.Kenji.at.0"),
        (SIT + "fighters:\n  Kenji: {at: [5, 5, 5]}\n", "fighters.Kenji.at"),
        (SIT + "fighters:\n  Kenji: {reactions: 1.0}\n", "fighters.Kenji.reactions"),
    ],
)
def test_situation_fields_are_strict(tmp_path: Path, text: str, field: str) -> None:
    path = write(tmp_path / "lage.yaml", text)
    with pytest.raises(ConfigError) as info:
        load_situation(path)
    assert "lage.yaml:" in str(info.value) and f" {field}:" in str(info.value)


def test_a_situation_rules_error_points_at_its_field(tmp_path: Path) -> None:
    path = write(tmp_path / "regeln.yaml", SIT + "rules: gibtsnicht\n")
    result = runner.invoke(app, ["advise", str(path)])
    assert result.exit_code == 1 and "regeln.yaml:3: rules:" in result.output
    assert "gibtsnicht" in result.output


def test_the_shipped_situations_still_load() -> None:
    root = Path(__file__).resolve().parents[1] / "configs" / "situations"
    for path in sorted(root.glob("*.yaml")):
        _, combat, _ = load_situation(path)
        assert not combat.is_terminal(), path


def test_the_situation_error_shown_in_docs_play_is_what_advise_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/play.md shows a situation file and the error for it; both come from here."""
    docs = Path(__file__).resolve().parents[1] / "docs" / "play.md"
    block = docs.read_text(encoding="utf-8").split("$ cat lage.yaml\n", 1)[1].split("```", 1)[0]
    situation, shown = block.split("$ cwenv advise lage.yaml\n")
    write(tmp_path / "lage.yaml", situation)
    monkeypatch.chdir(tmp_path)  # the file is named as typed: lage.yaml
    result = runner.invoke(app, ["advise", "lage.yaml"], catch_exceptions=False)
    assert result.exit_code == 1
    assert shown.strip() in result.output
