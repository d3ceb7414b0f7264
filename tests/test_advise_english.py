"""English labels (issue #20, the advisor): `cwenv advise --english` names every choice in
English, not only its reason, from the one label table of cwenv/play/menu.py; the German
labels are what they were."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from typer.testing import CliRunner

from cwenv.cli.main import app
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.play.advise import _DECISIONS, load_situation
from cwenv.play.menu import LABELS, label

SITUATIONS = Path(__file__).resolve().parents[1] / "configs" / "situations"
runner = CliRunner()
GERMAN_WORDS = re.compile(r"\b(nach|mit|auf|Bewegen|Angriff|Treffer|beenden|Zug)\b")


def test_every_action_kind_has_a_german_and_an_english_label() -> None:
    """One table, both languages, the same fields: an English label never needs a value
    the German one does not name (or the other way round)."""
    fields = string.Formatter()
    assert set(LABELS) == set(ActionKind)
    assert set(_DECISIONS) == set(DecisionKind)  # the advice's heading, in both too
    for kind, (de, en) in LABELS.items():
        assert de and en, kind
        names_de = {f for _, f, _, _ in fields.parse(de) if f}
        names_en = {f for _, f, _, _ in fields.parse(en) if f}
        assert names_de == names_en, kind
        if "{" not in de:  # a fixed label: the English one is a translation
            assert de != en, kind


def test_advise_english_names_the_choices_in_english() -> None:
    path = SITUATIONS / "dach-scharfschuetze.yaml"
    result = runner.invoke(app, ["advise", str(path), "--agent", "taktiker", "--english"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"recommended → Move to \(\d+, \d+\)", out), out
    assert re.search(r"then 2\. Attack: Scharfschützengewehr → .+ \(hit \d+ %, Probenwert", out)
    assert "End turn" in out
    choices = [line for line in out.splitlines() if "→" in line or line.startswith("   - ")]
    assert choices and not any(GERMAN_WORDS.search(line) for line in choices), choices
    german = runner.invoke(app, ["advise", str(path), "--agent", "taktiker"]).output
    assert re.search(r"empfohlen → Bewegen nach \(\d+, \d+\)", german), german
    assert "Move to" not in german


def test_the_json_gives_both_labels() -> None:
    path = SITUATIONS / "nahkampf-duell.yaml"
    _, combat, _ = load_situation(path)
    result = runner.invoke(app, ["advise", str(path), "--agent", "taktiker", "--json"])
    data = json.loads(result.output)
    for o in (*data["options"], *data["plan"]):
        assert o["label"] and o["label_en"] and o["label"] != o["label_en"], o
    first = data["options"][0]
    assert first["label"].startswith("Angriff: ") and first["label_en"].startswith("Attack: ")
    # The English label of a prompt choice names it; its odds are in the English reason.
    mumm = next(o for o in data["plan"] if o["action"]["kind"] in ("PRE_NONE", "PRE_IMPROVE"))
    assert mumm["label_en"] in ("No Mumm", "Improve the check: +2 (1 Mumm)")
    assert re.search(r"hit \d+ %", mumm["reason_en"])
    end = next(a for a in combat.legal_actions() if a.kind is ActionKind.END_TURN)
    assert (label(combat, end), label(combat, end, english=True)) == ("Zug beenden", "End turn")
