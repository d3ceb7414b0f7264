"""Rule variants (configs/rules/*.yaml): loading, error reports and round trips."""

from __future__ import annotations

import dataclasses
import re
import tempfile
import textwrap
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from cwenv.model.types import CheckValue, Skill
from cwenv.rules.options import (
    DEFAULT_OPTIONS,
    DeathThreshold,
    DifferenceQS,
    InitiativeSystem,
    ReactionBasis,
    RuleOptions,
    TieOrder,
    VolltrefferQS,
)
from cwenv.rules.variants import (
    RULES_DIR,
    load_rule_variant,
    options_from_mapping,
    options_to_mapping,
)
from cwenv.yamlio import ConfigError

SHIPPED = sorted(RULES_DIR.glob("*.yaml"))
FIELDS = [f.name for f in dataclasses.fields(RuleOptions)]
HINTS = typing.get_type_hints(RuleOptions)

# The readings each shipped variant stands for: exactly these fields differ from the default.
EXPECTED_CHANGES: dict[str, dict[str, Any]] = {
    "default": {},
    "passes": {"initiative": InitiativeSystem.PASSES},
    "passes-zufall": {"initiative": InitiativeSystem.PASSES, "tie_order": TieOrder.RANDOM},
    "zielen-stapelbar": {"zielen_max_stacks": 3},
    "reaktionen-grundwert": {"reactions_basis": ReactionBasis.GRUNDWERT},
    "tod-unter": {"death_threshold": DeathThreshold.BELOW},
    "volltreffer-wurf": {"volltreffer_qs": VolltrefferQS.ROLL_BAND},
    "differenz-roh": {"defended_hit_qs": DifferenceQS.RAW},
}


def changes(options: RuleOptions) -> dict[str, Any]:
    return {
        name: getattr(options, name)
        for name in FIELDS
        if getattr(options, name) != getattr(DEFAULT_OPTIONS, name)
    }


def write(directory: Path, text: str, name: str = "variante.yaml") -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def load_error(path: Path) -> ConfigError:
    with pytest.raises(ConfigError) as exc:
        load_rule_variant(path)
    return exc.value


# --- shipped variants -----------------------------------------------------------------------


def test_every_expected_variant_is_shipped() -> None:
    assert set(EXPECTED_CHANGES) <= {p.stem for p in SHIPPED}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_variant_loads_and_documents_itself(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["name"] == path.stem
    assert isinstance(data["description"], str) and len(data["description"]) > 20
    assert isinstance(data.get("options", {}), dict)
    by_path, by_name = load_rule_variant(path), load_rule_variant(path.stem)
    assert by_path == by_name
    for key in data.get("options") or {}:
        assert key in FIELDS
    if path.stem in EXPECTED_CHANGES:
        assert changes(by_name) == EXPECTED_CHANGES[path.stem]


def test_default_variant_is_the_default() -> None:
    assert load_rule_variant("default") == DEFAULT_OPTIONS == RuleOptions()


# --- errors name the file, the line and the field --------------------------------------------

# (file text, line, field, fragments the message must contain)
BAD_FILES = [
    ("unknown option", "name: x\noptions:\n  initiative: passes\n  zielen_stacks: 3\n",
     4, "options.zielen_stacks", ["unknown option", "zielen_max_stacks", "volltreffer_qs"]),
    ("wrong enum", "name: x\noptions:\n  volltreffer_qs: hoechste\n",
     3, "options.volltreffer_qs", ["hoechste", "probenwert_band", "roll_band", "max_ordinary"]),
    ("wrong int-enum", "options:\n  benommen_check: mumm\n",
     2, "options.benommen_check", ["mumm", "coolness", "unbeugsamkeit", "firewall"]),
    ("wrong bool", "options:\n  zielen_lost_on_move: ja\n",
     2, "options.zielen_lost_on_move", ["ja", "true", "false"]),
    ("bool given a number", "options:\n  nsc_mumm: 1\n",
     2, "options.nsc_mumm", ["true", "false"]),
    ("wrong int type", "options:\n  zielen_max_stacks: drei\n",
     2, "options.zielen_max_stacks", ["drei", "integer"]),
    ("int given a bool", "options:\n  zielen_max_stacks: true\n",
     2, "options.zielen_max_stacks", ["integer"]),
    ("int out of range", "options:\n  zielen_max_stacks: 0\n",
     2, "options.zielen_max_stacks", [">= 1"]),
    ("set not a list", "options:\n  mental_checks: hacking\n",
     2, "options.mental_checks", ["hacking", "wahrnehmung"]),
    ("duplicate option", "name: x\noptions:\n  initiative: passes\n  initiative: steps\n",
     4, "options.initiative", ["duplicate"]),
    ("duplicate top key", "name: x\nname: y\n", 2, "name", ["duplicate"]),
    ("unknown top key", "name: x\nopitons:\n  initiative: passes\n",
     2, "opitons", ["unknown field", "options", "description", "base"]),
    ("options not a mapping", "name: x\noptions:\n  - initiative\n",
     2, "options", ["mapping"]),
    ("list file", "- initiative\n- passes\n", 1, "(top level)", ["mapping"]),
    ("scalar file", "nur text\n", 1, "(top level)", ["mapping"]),
    ("broken yaml", "name: x\noptions: {initiative: passes\n", 3, "(top level)", ["invalid YAML"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "line", "field", "fragments"),
    [b[1:] for b in BAD_FILES],
    ids=[b[0] for b in BAD_FILES],
)
def test_bad_variant_reports_file_line_field(
    tmp_path: Path, text: str, line: int, field: str, fragments: list[str]
) -> None:
    path = write(tmp_path, text)
    err = load_error(path)
    message = str(err)
    assert f"{path}:{line}: {field}:" in message, message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert len(err.issues) == 1


def test_several_bad_options_are_reported_at_once(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        name: viele-fehler
        options:
          initiative: phasen
          zielen_max_stacks: viele
          gibt_es_nicht: 1
          death_threshold: below
          armour_floor_zero: vielleicht
        """,
    )
    err = load_error(path)
    reported = {(issue.line, ".".join(map(str, issue.path))) for issue in err.issues}
    assert reported == {
        (3, "options.initiative"),
        (4, "options.zielen_max_stacks"),
        (5, "options.gibt_es_nicht"),
        (7, "options.armour_floor_zero"),
    }
    assert all(issue.file == str(path) for issue in err.issues)
    assert str(err).count(str(path)) == 4


def test_top_level_and_option_problems_are_reported_together(tmp_path: Path) -> None:
    """'every problem in the file is reported at once' (variants.py docstring)."""
    path = write(tmp_path, "name: x\nbeschreibung: y\noptions:\n  initiative: phasen\n")
    err = load_error(path)
    fields = {".".join(map(str, issue.path)) for issue in err.issues}
    assert fields == {"beschreibung", "options.initiative"}, str(err)


def test_error_in_base_names_the_base_file(tmp_path: Path) -> None:
    base = write(tmp_path, "name: basis\noptions:\n  tie_order: wuerfeln\n", "basis.yaml")
    child = write(tmp_path, f"name: kind\nbase: {base}\n", "kind.yaml")
    message = str(load_error(child))
    assert f"{base}:3: options.tie_order:" in message and "side_chooses" in message


def test_base_chain_applies_in_order(tmp_path: Path) -> None:
    base = write(tmp_path, "name: b\nbase: passes\noptions:\n  zielen_max_stacks: 2\n", "b.yaml")
    child = write(tmp_path, f"name: c\nbase: {base}\noptions:\n  zielen_max_stacks: 4\n")
    assert changes(load_rule_variant(child)) == {
        "initiative": InitiativeSystem.PASSES,
        "zielen_max_stacks": 4,
    }


def test_base_cycle_is_a_config_error_with_line(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(f"name: a\nbase: {b}\n", encoding="utf-8")
    b.write_text(f"name: b\nbase: {a}\n", encoding="utf-8")
    err = load_error(a)
    message = str(err)
    assert "cycle" in message
    assert re.search(r"[ab]\.yaml:2: base:", message), message


def test_self_base_is_a_cycle(tmp_path: Path) -> None:
    path = tmp_path / "selbst.yaml"
    path.write_text(f"name: selbst\nbase: {path}\n", encoding="utf-8")
    message = str(load_error(path))
    assert "cycle" in message and re.search(r"selbst\.yaml:2: base:", message), message


@pytest.mark.parametrize("base", ['""', "."])
def test_base_naming_a_directory_is_a_config_error(tmp_path: Path, base: str) -> None:
    path = write(tmp_path, f"name: x\nbase: {base}\n")
    with pytest.raises(ConfigError):
        load_rule_variant(path)


@pytest.mark.parametrize("text", ["name: x\x1f\n", "\x00", "options:\n  initiative: \x07\n"])
def test_control_characters_are_a_config_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "steuerzeichen.yaml"
    path.write_text(text, encoding="utf-8")
    assert str(path) in str(load_error(path))


def test_unknown_base_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nbase: gibt-es-nicht\n")
    message = str(load_error(path))
    assert f"{path}:2: base:" in message and "gibt-es-nicht" in message and "passes" in message
    assert "cannot read" in str(load_error(tmp_path / "fehlt.yaml"))


def test_empty_file_and_empty_options_are_the_default(tmp_path: Path) -> None:
    assert load_rule_variant(write(tmp_path, "", "leer.yaml")) == DEFAULT_OPTIONS
    assert load_rule_variant(write(tmp_path, "name: x\noptions:\n")) == DEFAULT_OPTIONS


# --- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["default", *[p.stem for p in SHIPPED]])
def test_options_mapping_round_trip_for_shipped_variants(spec: str, tmp_path: Path) -> None:
    options = load_rule_variant(spec)
    mapping = options_to_mapping(options)
    assert set(mapping) == set(FIELDS)
    assert options_from_mapping(mapping) == options
    # the mapping is what is saved beside a run's results: it must load back from YAML
    saved = tmp_path / "saved.yaml"
    saved.write_text(yaml.safe_dump({"name": "saved", "options": mapping}), encoding="utf-8")
    assert load_rule_variant(saved) == options


def _field_strategy(name: str) -> st.SearchStrategy[Any]:
    hint = HINTS[name]
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(1, 9)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from(list(hint))
    if typing.get_origin(hint) is frozenset:
        return st.frozensets(st.sampled_from(list(CheckValue)))
    pairs = st.dictionaries(st.text(min_size=1, max_size=8), st.sampled_from(list(Skill)))
    return pairs.map(lambda d: tuple(d.items()))


ANY_OPTIONS = st.fixed_dictionaries({n: _field_strategy(n) for n in FIELDS}).map(
    lambda kw: RuleOptions(**kw)
)


@given(ANY_OPTIONS)
def test_options_mapping_round_trip_for_any_options(options: RuleOptions) -> None:
    assert options_from_mapping(options_to_mapping(options)) == options


# --- junk never escapes as anything but ConfigError ------------------------------------------

ENUM_WORDS = sorted(
    {str(m.value) for h in HINTS.values() if isinstance(h, type) and issubclass(h, Enum) for m in h}
    | {m.name.lower() for m in CheckValue}
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=10)
    | st.sampled_from(ENUM_WORDS)
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
KEYS = st.sampled_from(FIELDS) | st.text(max_size=12) | st.integers(-5, 5)
TOP_JUNK_KEYS = st.text(max_size=6).filter(lambda k: k != "base")  # base: tested above


@given(st.dictionaries(KEYS, JUNK, max_size=6))
def test_junk_mapping_raises_only_config_error(values: dict[Any, Any]) -> None:
    try:
        options = options_from_mapping(values)
    except ConfigError as exc:
        assert exc.issues
        for issue in exc.issues:
            assert issue.path[0] == "options" and issue.path[1] in values
            assert str(issue)
    else:
        assert set(values) <= set(FIELDS)
        assert options_from_mapping(options_to_mapping(options)) == options


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60)
@given(
    st.dictionaries(st.sampled_from(["name", "description", "options"]) | TOP_JUNK_KEYS, JUNK)
    | st.dictionaries(st.just("options"), st.dictionaries(KEYS, JUNK, max_size=5), min_size=1)
)
def test_junk_variant_file_raises_only_config_error(document: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "junk.yaml"
        path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
        try:
            load_rule_variant(path)
        except ConfigError as exc:
            assert str(path) in str(exc)


@settings(max_examples=80)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=80))
def test_junk_text_raises_only_config_error(text: str) -> None:
    """Printable junk; control characters have their own test above."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "junk.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            load_rule_variant(path)
        except ConfigError as exc:
            assert exc.issues
