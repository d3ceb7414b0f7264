"""Canonical JSON and short content hashes (they live in :mod:`cwenv.hashing`, below the
rulesets, which hash their game records with them)."""

from cwenv.hashing import canonical_json, content_hash

__all__ = ["canonical_json", "content_hash"]
