"""JSON Schema of every content file kind, committed under ``docs/schema/``.

Editors (VS Code's YAML extension, for one) use these to complete and check files as
they are typed. :func:`write_schemas` regenerates them; a test fails when the committed
files are stale (:func:`stale_schemas`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cwenv.content.api import MODELS

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "docs" / "schema"


def json_schemas() -> dict[str, dict[str, Any]]:
    """One JSON Schema per file kind, keyed by the kind's folder name."""
    out = {}
    for kind, model in MODELS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"cwenv/{kind}.schema.json"
        out[kind] = schema
    return out


def _text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write_schemas(folder: str | Path = SCHEMA_DIR) -> list[Path]:
    """Write ``<kind>.schema.json`` for every kind into ``folder``; return the paths."""
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, schema in json_schemas().items():
        path = out_dir / f"{kind}.schema.json"
        path.write_text(_text(schema), encoding="utf-8")
        written.append(path)
    return written


def stale_schemas(folder: str | Path = SCHEMA_DIR) -> list[str]:
    """Kinds whose schema file in ``folder`` is missing or differs from the models."""
    out_dir = Path(folder)
    stale = []
    for kind, schema in json_schemas().items():
        path = out_dir / f"{kind}.schema.json"
        if not path.is_file() or path.read_text(encoding="utf-8") != _text(schema):
            stale.append(kind)
    return stale
