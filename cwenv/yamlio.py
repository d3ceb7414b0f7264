"""Safe YAML reading with line numbers, duplicate-key rejection and size limits.

``yaml.safe_load`` alone keeps the last of two duplicate keys silently and forgets where
each value stood; configuration errors must name the file, the line and the field path, so
this module composes the node tree with the safe loader and builds values itself.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 200_000


@dataclass(frozen=True, slots=True)
class Limits:
    """How big a document may be: bytes on disk and values after aliases are expanded."""

    max_bytes: int = MAX_FILE_BYTES
    max_nodes: int = MAX_NODES


CONFIG_LIMITS = Limits()
"""Hand-written configs: 1 MB, 200 000 values."""
SAVE_LIMITS = Limits(16_000_000, 2_000_000)
"""Files the tool writes itself (saved games: one entry per decision, up to a scenario's
largest ``decision_cap``)."""
MAX_DEPTH = 64
"""Deepest nesting of mappings and lists a config may have (the deepest shipped file has
six levels); deeper documents, and aliases that contain themselves, are refused."""

Location = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class ConfigIssue:
    """One problem in a configuration file."""

    file: str
    line: int | None
    path: Location
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        field = ".".join(str(p) for p in self.path) or "(top level)"
        return f"{where}: {field}: {self.message}"


class ConfigError(ValueError):
    """A configuration file is invalid; ``issues`` lists every problem found."""

    def __init__(self, issues: Sequence[ConfigIssue]) -> None:
        self.issues = tuple(issues)
        super().__init__("\n".join(str(i) for i in self.issues))


@dataclass(frozen=True, slots=True)
class YamlDocument:
    """Parsed data plus the line of every field path."""

    source: str
    data: Any
    lines: dict[Location, int]

    def line(self, path: Sequence[str | int]) -> int | None:
        """The line of ``path`` or of its nearest ancestor that has one."""
        key = tuple(path)
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return self.lines.get((), None)

    def issue(self, path: Sequence[str | int], message: str) -> ConfigIssue:
        return ConfigIssue(self.source, self.line(path), tuple(path), message)


def read_yaml_file(path: str | Path, limits: Limits = CONFIG_LIMITS) -> YamlDocument:
    """Read and parse a YAML file; raise :class:`ConfigError` on any problem."""
    return parse_yaml(read_config_text(path, limits=limits), str(path), limits)


CONFIG_SUFFIXES = (".yaml", ".yml")


def read_config_text(
    path: str | Path, suffixes: Sequence[str] = CONFIG_SUFFIXES, limits: Limits = CONFIG_LIMITS
) -> str:
    """The UTF-8 text of a regular file of at most ``limits.max_bytes``.

    Only files named like configs (``suffixes``) are read: errors quote field names, so
    reading ``/etc/shadow`` as a rule variant would print its lines as unknown fields.
    Devices, FIFOs and sockets are refused before they are opened (``/dev/zero`` would
    fill memory, a FIFO block forever); at most one byte beyond the limit is ever read.
    """
    name = str(path)
    try:
        info = os.stat(path)  # reads no content: safe for any path
    except OSError as exc:
        raise ConfigError([ConfigIssue(name, None, (), _os_reason(exc))]) from None
    if stat.S_ISDIR(info.st_mode):
        raise ConfigError([ConfigIssue(name, None, (), "is a directory, not a file")])
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError(
            [ConfigIssue(name, None, (), "is not a regular file (a device, FIFO or socket)")]
        )
    target = Path(path).resolve()  # a link named x.yaml to /etc/passwd is no config either
    if Path(path).suffix.lower() not in suffixes or target.suffix.lower() not in suffixes:
        raise ConfigError(
            [
                ConfigIssue(
                    name,
                    None,
                    (),
                    f"not read: a config file's name ends in {' or '.join(suffixes)}",
                )
            ]
        )
    if info.st_size > limits.max_bytes:
        raise ConfigError(
            [
                ConfigIssue(
                    name, None, (), f"file is {info.st_size} bytes; the limit is {limits.max_bytes}"
                )
            ]
        )
    try:
        with open(path, "rb") as fh:
            raw = fh.read(limits.max_bytes + 1)
    except OSError as exc:
        raise ConfigError([ConfigIssue(name, None, (), _os_reason(exc))]) from None
    if len(raw) > limits.max_bytes:  # grew since stat
        raise ConfigError([ConfigIssue(name, None, (), f"more than {limits.max_bytes} bytes")])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError([ConfigIssue(name, None, (), f"not UTF-8 text: {exc.reason}")]) from None


def _os_reason(exc: OSError) -> str:
    return f"cannot read file: {exc.strerror or exc}"


def parse_yaml(text: str, source: str = "<string>", limits: Limits = CONFIG_LIMITS) -> YamlDocument:
    """Parse YAML text safely (no tags beyond the safe set, no duplicate keys)."""
    if len(text.encode("utf-8")) > limits.max_bytes:
        raise ConfigError([ConfigIssue(source, None, (), f"more than {limits.max_bytes} bytes")])
    try:
        # The reader rejects control characters already when the loader is built.
        loader = yaml.SafeLoader(text)
    except yaml.YAMLError as exc:
        raise ConfigError([ConfigIssue(source, None, (), f"invalid YAML: {exc}")]) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return YamlDocument(source, None, {(): 1})
        lines: dict[Location, int] = {}
        builder = _Builder(loader, source, lines, limits.max_nodes)
        data = builder.build(node, ())
        return YamlDocument(source, data, lines)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError([ConfigIssue(source, line, (), f"invalid YAML: {problem}")]) from None
    except yaml.YAMLError as exc:
        raise ConfigError([ConfigIssue(source, None, (), f"invalid YAML: {exc}")]) from None
    except RecursionError:
        # PyYAML composes nested nodes recursively; our builder stops at MAX_DEPTH, but the
        # composer may give out first on a document of thousands of brackets.
        raise ConfigError(
            [ConfigIssue(source, None, (), f"nested more than {MAX_DEPTH} levels deep")]
        ) from None
    finally:
        loader.dispose()


class _Builder:
    def __init__(
        self, loader: yaml.SafeLoader, source: str, lines: dict[Location, int], max_nodes: int
    ) -> None:
        self.loader = loader
        self.max_nodes = max_nodes
        self.source = source
        self.lines = lines
        self.count = 0
        self.open: set[int] = set()  # ids of the collection nodes being built (an alias cycle)

    def _fail(self, node: yaml.Node, path: Location, message: str) -> ConfigError:
        return ConfigError([ConfigIssue(self.source, node.start_mark.line + 1, path, message)])

    def build(self, node: yaml.Node, path: Location) -> Any:
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode):
            if id(node) in self.open:
                raise self._fail(node, path, "an alias refers to a value that contains it")
            if len(self.open) >= MAX_DEPTH:
                raise self._fail(node, path, f"nested more than {MAX_DEPTH} levels deep")
            self.open.add(id(node))
            try:
                return self._build(node, path)
            finally:
                self.open.discard(id(node))
        return self._build(node, path)

    def _build(self, node: yaml.Node, path: Location) -> Any:
        self.count += 1
        if self.count > self.max_nodes:
            raise self._fail(node, path, f"document expands to more than {self.max_nodes} values")
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            self.loader.flatten_mapping(node)
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self._fail(key_node, path, "a mapping key must be a plain scalar")
                key = self.loader.construct_object(key_node, deep=True)
                if not isinstance(key, str | int) or isinstance(key, bool):
                    raise self._fail(key_node, path, f"mapping key {key!r} must be a plain scalar")
                if key in result:
                    raise self._fail(
                        key_node, (*path, key), "duplicate key (each field may appear once)"
                    )
                child = (*path, key)
                self.lines[child] = key_node.start_mark.line + 1
                result[key] = self.build(value_node, child)
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        if _yaml11_only(node):
            # YAML 1.1 reads yes/no/on/off as booleans, 010 as 8, 0x1F, 0b11 and 1:30 (= 90)
            # as numbers; configs write true/false and plain decimals (as YAML 1.2 does), so
            # such a scalar stays text and a typed field refuses it by name.
            return node.value
        return self.loader.construct_object(node, deep=True)


_BOOL_TAG = "tag:yaml.org,2002:bool"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9]*)")


def _yaml11_only(node: yaml.Node) -> bool:
    """Whether a plain scalar means something other than its text only under YAML 1.1."""
    if not isinstance(node, yaml.ScalarNode) or node.style:  # quoted: already text
        return False
    text = node.value
    if node.tag == _BOOL_TAG:
        return text.lower() not in ("true", "false")
    if node.tag == _INT_TAG:
        return _DECIMAL.fullmatch(text) is None
    if node.tag == _FLOAT_TAG:
        return ":" in text or "_" in text
    return False
