"""The manifest of a policy bundle: a strict model of every field and its checksum.

Every field has a type and a range: a bundle is data from anywhere, and a field such as
``training.move_radius: 1000000000`` would otherwise size the env's action layout (an
exabyte allocation) before anything noticed. The ranges follow the training config
(radii 1..63) and cap the network so that a manifest cannot ask for more than
:data:`MAX_PARAMETERS` weights.

Format versions:

* ``1`` (bundles exported before issue #19): ``weights_sha256`` covers the weights only;
  still read, and verified by that rule.
* ``2``: in addition ``manifest_sha256`` covers the whole manifest (every field but
  itself, weights' sha256 included), so an edited manifest is refused as well.
  :func:`agents.policy.bundle.upgrade_bundle` rewrites a version-1 manifest.

Encodings (``observation_encoding``/``action_encoding``, issue #14):

* ``1``: the unpadded encoding; no record. Refused at load with the upgrade command,
  which pads the weights onto encoding 2 (:mod:`agents.policy.migrate`).
* ``2``: ``encoding`` holds the record of :mod:`cwenv.envs.encoding` (action sections,
  observation features, capacities, the members of the padded slots) and its
  fingerprint; a bundle whose fingerprint differs from the env's is refused, naming what
  changed.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

FORMAT_VERSION: Literal[2] = 2
MAX_MANIFEST_BYTES = 1_000_000
MAX_FEATURES = 1 << 20
"""Widest layer (and largest observation key) a manifest may declare."""
MAX_PARAMETERS = 64 << 20
"""At most 64 Mi float32 weights (256 MiB): the shipped bundles hold under 0.3 Mi."""
MAX_LAYERS = 16
MAX_RADIUS = 63
"""The training config's limit on ``move_radius`` and ``drag_radius``."""
DEFAULT_MOVE_RADIUS = 24  # cwenv.envs.layout's defaults (not imported: numpy only here)
DEFAULT_DRAG_RADIUS = 8
DIGEST_FIELD = "manifest_sha256"

Activation = Literal["tanh", "relu", "identity"]
Dim = Annotated[int, Field(ge=1, le=MAX_FEATURES)]
Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


class ObservationKey(BaseModel):
    model_config = _STRICT

    name: str = Field(pattern=r"^[a-z_][a-z0-9_]*$", max_length=64)
    shape: list[Dim] = Field(min_length=1, max_length=4)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @model_validator(mode="after")
    def _bounded(self) -> ObservationKey:
        if self.size > MAX_FEATURES:
            raise ValueError(f"shape {self.shape} has {self.size} values (max {MAX_FEATURES})")
        return self


class Layer(BaseModel):
    """A dense layer ``y = act(x @ W.T + b)``; tensors ``<name>.weight`` and ``<name>.bias``."""

    model_config = _STRICT

    name: str = Field(pattern=r"^[a-z_][a-z0-9_.]*$", max_length=64)
    kind: Literal["linear"] = "linear"
    in_features: Dim
    out_features: Dim
    activation: Activation


Name = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[!-~]+$")]
"""A section, feature or member name: printable ASCII without spaces."""
Count = Annotated[int, Field(ge=0, le=MAX_FEATURES)]


class EncodedSection(BaseModel):
    """One action section in index order: the action kind, its field layout, its size."""

    model_config = _STRICT

    name: Name
    field: Name
    size: Dim


class EncodedKey(BaseModel):
    """One observation key: its shape and the names of its last axis (grid: channels)."""

    model_config = _STRICT

    key: str = Field(pattern=r"^[a-z_][a-z0-9_]*$", max_length=64)
    shape: list[Dim] = Field(min_length=1, max_length=4)
    features: list[Name] = Field(min_length=1, max_length=4096)


class EncodingRecord(BaseModel):
    """What the policy's inputs and outputs mean (:func:`cwenv.envs.encoding.encoding_record`)."""

    model_config = _STRICT

    version: int = Field(ge=2, le=1000)
    fingerprint: Sha256
    actions: list[EncodedSection] = Field(min_length=1, max_length=1024)
    observation: list[EncodedKey] = Field(min_length=1, max_length=32)
    capacities: dict[Name, Count] = Field(max_length=64)
    members: dict[Name, Annotated[list[Name], Field(max_length=4096)]] = Field(max_length=64)


class PaddedFrom(BaseModel):
    """Set by the upgrade: the encoding the weights were trained on and their old sha256
    (the padded weights are those plus zeros)."""

    model_config = _STRICT

    encoding: int = Field(ge=1, le=1000)
    weights_sha256: Sha256


class BundleRules(BaseModel):
    model_config = _STRICT

    variant: str | None = Field(None, max_length=500)  # the rule variant it was trained with


class TrainingInfo(BaseModel):
    """How the policy was trained; the radii fix the env's action window at use."""

    model_config = _STRICT

    move_radius: int = Field(DEFAULT_MOVE_RADIUS, ge=1, le=MAX_RADIUS)
    drag_radius: int = Field(DEFAULT_DRAG_RADIUS, ge=1, le=MAX_RADIUS)
    timesteps: int | None = Field(None, ge=0)
    git_revision: str | None = Field(None, max_length=100)
    checkpoint: str | None = Field(None, max_length=200)
    league_draws: dict[str, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    config: dict[str, JsonValue] | None = None  # the run's resolved config (a record only)


class Manifest(BaseModel):
    model_config = _STRICT

    format: Literal["cwenv-policy"] = "cwenv-policy"
    format_version: Literal[1, 2] = FORMAT_VERSION
    algorithm: Literal["MaskablePPO"]
    observation_encoding: int = Field(ge=1, le=1000)  # 1: unpadded (upgrade); 2: padded
    action_encoding: int = Field(ge=1, le=1000)
    encoding: EncodingRecord | None = None  # required from encoding 2 on
    padded_from: PaddedFrom | None = None
    action_size: Dim
    observation: list[ObservationKey] = Field(min_length=1, max_length=32)
    policy: list[Layer] = Field(min_length=1, max_length=MAX_LAYERS)
    scenario: str = Field(min_length=1, max_length=500)
    side: Literal["gegner", "runner"]
    rules: BundleRules = Field(default_factory=BundleRules)
    training: TrainingInfo = Field(default_factory=TrainingInfo)
    weights_sha256: Sha256
    manifest_sha256: Sha256 | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Manifest:
        for what, names in (
            ("observation key", [k.name for k in self.observation]),
            ("layer", [layer.name for layer in self.policy]),
        ):
            if len(set(names)) != len(names):
                raise ValueError(f"duplicate {what} names: {names}")
        weights = sum(x.in_features * x.out_features + x.out_features for x in self.policy)
        if weights > MAX_PARAMETERS:
            raise ValueError(f"the layers hold {weights} weights (max {MAX_PARAMETERS})")
        if self.format_version == 1 and self.manifest_sha256 is not None:
            raise ValueError("manifest_sha256 is a field of format_version 2")
        if self.observation_encoding != self.action_encoding:
            raise ValueError(
                f"observation_encoding {self.observation_encoding} and action_encoding "
                f"{self.action_encoding} differ; one record describes both"
            )
        if self.observation_encoding == 1 and self.encoding is not None:
            raise ValueError("encoding: encoding 1 has no record")
        if self.observation_encoding >= 2:
            if self.encoding is None:
                raise ValueError(f"encoding: encoding {self.observation_encoding} needs it")
            if self.encoding.version != self.observation_encoding:
                raise ValueError(
                    f"encoding.version {self.encoding.version} differs from "
                    f"observation_encoding {self.observation_encoding}"
                )
        return self


def manifest_digest(data: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of every manifest field but ``manifest_sha256``
    (sorted keys, no whitespace: reformatting the file keeps it, editing a value does not)."""
    body = {k: v for k, v in data.items() if k != DIGEST_FIELD}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_manifest_json(raw: bytes) -> dict[str, Any]:
    """The manifest's JSON object; ValueError for anything but plain, finite JSON."""
    try:
        data = json.loads(
            raw.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_no_constant
        )
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    return data
