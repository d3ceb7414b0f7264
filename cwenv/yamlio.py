"""Safe YAML reading with line numbers, duplicate-key rejection and size limits.

``yaml.safe_load`` alone keeps the last of two duplicate keys silently and forgets where
each value stood; configuration errors must name the file, the line and the field path, so
this module composes the node tree with the safe loader and builds values itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 200_000

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


def read_yaml_file(path: str | Path) -> YamlDocument:
    """Read and parse a YAML file; raise :class:`ConfigError` on any problem."""
    p = Path(path)
    name = str(path)
    if p.is_dir():
        raise ConfigError([ConfigIssue(name, None, (), "is a directory, not a file")])
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise ConfigError(
            [ConfigIssue(name, None, (), f"cannot read file: {exc.strerror}")]
        ) from None
    if size > MAX_FILE_BYTES:
        raise ConfigError(
            [ConfigIssue(name, None, (), f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")]
        )
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            [ConfigIssue(name, None, (), f"cannot read file: {exc.strerror}")]
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError([ConfigIssue(name, None, (), f"not UTF-8 text: {exc.reason}")]) from None
    return parse_yaml(text, name)


def parse_yaml(text: str, source: str = "<string>") -> YamlDocument:
    """Parse YAML text safely (no tags beyond the safe set, no duplicate keys)."""
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise ConfigError([ConfigIssue(source, None, (), f"more than {MAX_FILE_BYTES} bytes")])
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
        builder = _Builder(loader, source, lines)
        data = builder.build(node, ())
        return YamlDocument(source, data, lines)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError([ConfigIssue(source, line, (), f"invalid YAML: {problem}")]) from None
    except yaml.YAMLError as exc:
        raise ConfigError([ConfigIssue(source, None, (), f"invalid YAML: {exc}")]) from None
    finally:
        loader.dispose()


class _Builder:
    def __init__(self, loader: yaml.SafeLoader, source: str, lines: dict[Location, int]) -> None:
        self.loader = loader
        self.source = source
        self.lines = lines
        self.count = 0

    def build(self, node: yaml.Node, path: Location) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise ConfigError(
                [
                    ConfigIssue(
                        self.source,
                        node.start_mark.line + 1,
                        path,
                        f"document expands to more than {MAX_NODES} values",
                    )
                ]
            )
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            self.loader.flatten_mapping(node)
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = self.loader.construct_object(key_node, deep=True)
                if not isinstance(key, str | int) or key is None:
                    raise ConfigError(
                        [
                            ConfigIssue(
                                self.source,
                                key_node.start_mark.line + 1,
                                path,
                                f"mapping key {key!r} must be a plain scalar",
                            )
                        ]
                    )
                if key in result:
                    raise ConfigError(
                        [
                            ConfigIssue(
                                self.source,
                                key_node.start_mark.line + 1,
                                (*path, key),
                                "duplicate key (each field may appear once)",
                            )
                        ]
                    )
                child = (*path, key)
                self.lines[child] = key_node.start_mark.line + 1
                result[key] = self.build(value_node, child)
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        return self.loader.construct_object(node, deep=True)
