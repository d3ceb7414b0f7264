"""Property tests: mutated and truncated content raises ConfigError and nothing else.

Valid shipped documents are mutated (keys dropped, values replaced by junk of another
type, junk keys added) and written back; loading must then either succeed or raise a
:class:`ConfigError` whose every issue names the file and a message, and a field path
unless the whole document is the problem.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from cwenv.content import ConfigError, library_files, validate_file
from cwenv.yamlio import read_yaml_file

SOURCES: list[tuple[str, Any, str]] = [
    (p.parent.name, read_yaml_file(p).data, p.read_text(encoding="utf-8"))
    for p in library_files()
    if p.parent.name != "rules"
]

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.lists(st.integers(min_value=-3, max_value=40), max_size=3),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=2),
)

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.extend(_paths(value, (*prefix, i)))
    return out


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, Any]:
    kind, data, _ = draw(st.sampled_from(SOURCES))
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = _parent(data, path)
        op = draw(st.sampled_from(["drop", "retype", "junk_key"]))
        if op == "drop":
            del parent[path[-1]]
        elif op == "retype":
            parent[path[-1]] = draw(JUNK)
        else:
            target = parent if isinstance(parent, dict) else data
            target[draw(st.text(min_size=1, max_size=8))] = draw(JUNK)
    return kind, data


def _check(kind: str, text: str, *, name_fields: bool = False) -> None:
    """Load ``text`` as a file of ``kind``: success or ConfigError, nothing else; with
    ``name_fields`` every issue must name a field path."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / kind / "fuzz.yaml"
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        try:
            validate_file(path)
        except ConfigError as exc:
            assert exc.issues
            for issue in exc.issues:
                assert issue.message
                assert issue.file.endswith(".yaml")
                assert issue.line is None or issue.line >= 1
                if name_fields:
                    assert issue.path, str(issue)


@FUZZ
@given(mutated())
def test_mutated_documents_raise_only_config_errors(case: tuple[str, Any]) -> None:
    kind, data = case
    _check(kind, yaml.safe_dump(data, allow_unicode=True, sort_keys=False), name_fields=True)


@FUZZ
@given(st.sampled_from(SOURCES), st.floats(min_value=0.0, max_value=1.0))
def test_truncated_documents_raise_only_config_errors(
    source: tuple[str, Any, str], fraction: float
) -> None:
    kind, _, text = source
    _check(kind, text[: int(len(text) * fraction)])


@FUZZ
@given(st.sampled_from(SOURCES), st.text(max_size=40), st.integers(min_value=0))
def test_spliced_garbage_raises_only_config_errors(
    source: tuple[str, Any, str], garbage: str, where: int
) -> None:
    kind, _, text = source
    at = where % (len(text) + 1)
    _check(kind, text[:at] + garbage + text[at:])
