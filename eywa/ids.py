"""Deterministic identifiers: the same input always yields the same id, so writes are idempotent."""

from __future__ import annotations

import hashlib


def stable_id(prefix: str, *parts: str) -> str:
    """A short, collision-resistant id from its defining parts.

    The parts are length-prefixed before hashing so ("ab", "c") and ("a", "bc") differ.
    """
    digest = hashlib.sha256()
    for part in parts:
        encoded = part.encode("utf-8")
        digest.update(len(encoded).to_bytes(8, "big"))
        digest.update(encoded)
    return f"{prefix}_{digest.hexdigest()[:24]}"


def content_hash(text: str) -> str:
    """sha256 of a turn's text, stored on the evidence for audits and drift checks."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
