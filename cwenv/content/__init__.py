"""Scenarios, stat blocks and maps as validated YAML (issue #3).

Game masters describe fights in ``configs/``: weapons, hacks, cyberware, fighter
archetypes, maps and scenarios. Every file is validated by a pydantic model (unknown
fields are errors); every error names file, line, field path and what was expected.

Public API::

    load_scenario("feuergefecht") -> Game          # or a path to a YAML file
    read_scenario(name) -> Scenario                # Game plus description and source
    list_scenarios() -> ["boss", "dach", ...]
    load_fighter / load_weapon / load_hack / load_cyberware / load_map
    validate_file(path) -> kind                    # raises ConfigError
    json_schemas() / write_schemas(folder)         # docs/schema/*.json
"""

from cwenv.content.api import (
    Scenario,
    kind_of,
    library_files,
    list_content,
    list_scenarios,
    load_cyberware,
    load_fighter,
    load_hack,
    load_map,
    load_scenario,
    load_weapon,
    read_scenario,
    validate_file,
)
from cwenv.content.library import KINDS, Library
from cwenv.content.schema import SCHEMA_DIR, json_schemas, stale_schemas, write_schemas
from cwenv.yamlio import ConfigError, ConfigIssue

__all__ = [
    "KINDS",
    "SCHEMA_DIR",
    "ConfigError",
    "ConfigIssue",
    "Library",
    "Scenario",
    "json_schemas",
    "kind_of",
    "library_files",
    "list_content",
    "list_scenarios",
    "load_cyberware",
    "load_fighter",
    "load_hack",
    "load_map",
    "load_scenario",
    "load_weapon",
    "read_scenario",
    "stale_schemas",
    "validate_file",
    "write_schemas",
]
