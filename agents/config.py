"""Agent configurations: pydantic models read from YAML files in ``configs/agents/``.

Every file names its ``kind`` (``stuermer``, ``schuetze``, ``taktiker``, ``lookahead``,
``mcts``, ``random``, ``greedy``) and that kind's parameters. Unknown fields, wrong types
and out-of-range values are :class:`~cwenv.yamlio.ConfigError` issues naming the file, the
line and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from cwenv.content.errors import Origin, validate
from cwenv.content.fields import Name, Text
from cwenv.rules.variants import CONFIG_ROOT
from cwenv.yamlio import ConfigError, YamlDocument, read_yaml_file

AGENT_CONFIG_DIR = CONFIG_ROOT / "agents"

M = TypeVar("M", bound=BaseModel)


class AgentConfig(BaseModel):
    """Fields every agent file has."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

    kind: str
    name: Name | None = Field(default=None, description="Display name (default: the file's name).")
    description: Text = Field(default="", description="One line for `cwenv agents list`.")


class PlainConfig(AgentConfig):
    """``random`` and ``greedy`` take no parameters."""


class PromptConfig(AgentConfig):
    """How a doctrine answers prompts and spends Mumm (M01–M09, R02–R06).

    Values are in LP-equivalents: a spend or a reaction is made when the exact expected
    LP it saves (or deals) is at least its worth.
    """

    mumm_value: float = Field(default=4.0, ge=0, description="Worth of one Mumm point in LP.")
    reaction_value: float = Field(
        default=1.0, ge=0, description="Worth of keeping a reaction for later in the round, in LP."
    )
    ko_bonus: float = Field(
        default=8.0, ge=0, description="Extra worth of knocking a fighter out (LP ≤ 0), in LP."
    )
    always_blockade: bool = Field(
        default=False, description="R04: strike every passing enemy when a reaction is free."
    )
    prone_cost: float = Field(
        default=6.0, ge=0, description="R06: cost of lying prone (−2 defence, Aufstehen), in LP."
    )
    condition_horizon: float = Field(
        default=2.0, ge=0, description="Turns a condition is expected to last if not shaken off."
    )


def read_config(model: type[M], doc: YamlDocument) -> M:
    """Validate a parsed agent file against ``model`` (ConfigError naming file/line/field)."""
    return validate(model, Origin(doc), doc.data)


def kind_of(doc: YamlDocument, known: list[str]) -> str:
    """The ``kind`` a parsed agent file names; ConfigError if missing or unknown."""
    data: Any = doc.data
    if not isinstance(data, dict):
        raise ConfigError([doc.issue((), "expected a mapping of fields with a 'kind'")])
    kind = data.get("kind")
    if kind is None:
        message = f"required field is missing; one of: {', '.join(known)}"
        raise ConfigError([doc.issue(("kind",), message)])
    if not isinstance(kind, str) or kind not in known:
        raise ConfigError(
            [doc.issue(("kind",), f"unknown agent kind {kind!r}; known: {', '.join(known)}")]
        )
    return kind


def agent_file(name: str) -> Path:
    """The file of a library agent configuration (``configs/agents/<name>.yaml``)."""
    return AGENT_CONFIG_DIR / f"{name}.yaml"


def load_document(path: str | Path) -> YamlDocument:
    return read_yaml_file(path)
