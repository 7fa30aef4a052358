"""Identifiers: deterministic ids, the one entity normalisation, and space names.

Deterministic ids make writes idempotent: the same input always yields the same id, so a
re-sent turn or a re-run job finds its rows already there.

Entities are identified by name, case- and whitespace-insensitively (``entity_key``):
"Mary  Ann", "mary ann" and "Mary Ann " are one entity. Every entity id in every store
(``entity_id``) and every dimension key is derived from that one key. Stores written before
this rule hashed ``name.casefold()`` alone; each backend migrates them on open (the embedded
store's ``eywa.stores.embedded.migrations``, Neo4j's ``graph_schema`` migration 0005).
"""

from __future__ import annotations

import hashlib

from eywa.errors import InvalidInputError

__all__ = ["MAX_SPACE_LENGTH", "WILDCARD_SPACE", "check_space", "content_hash", "entity_id", "entity_key", "stable_id"]

MAX_SPACE_LENGTH = 200
WILDCARD_SPACE = "*"
"""What an API key lists to mean every space; never a space name itself."""


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


def entity_key(name: str) -> str:
    """The identity of an entity name: whitespace collapsed, then case-folded.

    Example:
        >>> entity_key("  Mary\\tAnn ")
        'mary ann'
    """
    return " ".join(name.split()).casefold()


def entity_id(space: str, name: str) -> str:
    """The id of the entity ``name`` names in ``space`` (see ``entity_key``)."""
    return stable_id("ent", space, entity_key(name))


def check_space(space: object) -> str:
    """``space`` itself if it is a valid space name: a non-empty printable string, not ``*``.

    ``*`` is refused because it is the API keys' wildcard for "every space": a space of
    that name could not be told apart from it in a key's scope.

    Raises:
        InvalidInputError: not a string, blank, ``*``, too long or not printable (a lone
            surrogate is not printable); the problem's field is ``space``.
    """
    if not isinstance(space, str) or not space.strip():
        raise InvalidInputError.at("space", "must be a non-empty string")
    if space == WILDCARD_SPACE:
        raise InvalidInputError.at("space", f"{WILDCARD_SPACE!r} is reserved: it means every space in an API key")
    if len(space) > MAX_SPACE_LENGTH or not space.isprintable():
        raise InvalidInputError.at("space", f"must be printable and at most {MAX_SPACE_LENGTH} characters")
    return space
