"""Field values of evidence and signals, shared by the embedded and the Neo4j mapping.

The SQLite rows and the Neo4j node properties of a turn and its signals carry the same
fields under the same names; only how a datetime is stored differs (epoch seconds in
SQLite, native ``DATETIME`` in Neo4j), and how the metadata JSON is produced. So each
backend passes its own datetime conversion and keeps its own extra fields, and the field
list lives here once: a new field added to one backend cannot be forgotten in the other.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from eywa.models import Evidence, Signal

TimeField = Callable[[datetime | None], Any]
"""A backend's storage form of a datetime (``None`` stays ``None``)."""


def evidence_fields(evidence: Evidence, when: TimeField, metadata: str) -> dict[str, Any]:
    """The stored fields of one turn; ``metadata`` is its metadata already as JSON text."""
    return {
        "id": evidence.id,
        "space": evidence.space,
        "session": evidence.session,
        "seq": evidence.seq,
        "speaker": evidence.speaker,
        "role": evidence.role,
        "text": evidence.text,
        "observed_at": when(evidence.observed_at),
        "recorded_at": when(evidence.recorded_at),
        "content_hash": evidence.content_hash,
        "metadata": metadata,
        "external_id": evidence.external_id,
        "author": evidence.author,
    }


def signal_fields(evidence: Evidence, index: int, signal: Signal, when: TimeField) -> dict[str, Any]:
    """The stored fields of the ``index``-th signal of ``evidence``."""
    return {
        "evidence_id": evidence.id,
        "space": evidence.space,
        "idx": index,
        "kind": signal.kind.value,
        "text": signal.text,
        "start": signal.start,
        "end": signal.end,
        "normalized": signal.normalized,
        "granularity": signal.granularity,
        "window_start": when(signal.window_start),
        "window_end": when(signal.window_end),
    }
