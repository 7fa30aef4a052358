"""Pure planning of an erasure: selector checks, keyed hashes, the report. No store, no I/O.

The keyed hash scheme. A turn's ``content_hash`` is the plain sha256 of its text; kept in an
erasure record, it would let anyone holding the record confirm a guess of a short turn
("yes", "I'm pregnant") by hashing it. So the record keeps
``content_mac = HMAC-SHA256(secret, content_hash)`` instead, with a per-deployment secret
(``EYWA_ERASURE_SECRET``, else one generated beside the store: ``erasure.key`` mode 0600 in
the embedded data directory, a ``:StoreMeta`` node in Neo4j). Confirming a guess then needs
the secret too. The proof recomputes nothing from content (the content is gone): it checks
that no stored item carries an erased id, and that no remaining turn's ``content_hash``,
keyed the same way, equals an erased turn's ``content_mac``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime

from eywa.errors import InvalidInputError
from eywa.models import Frozen, as_utc
from eywa.stores.erasure import ErasureSelector

__all__ = ["ErasureProof", "ErasureReport", "content_mac", "merge_counts", "new_erasure_id", "selector_of"]


class ErasureReport(Frozen):
    """What one erasure removed, per kind, and its id. Never any erased content."""

    erasure_id: str
    space: str
    state: str
    counts: dict[str, int]


class ErasureProof(Frozen):
    """The residue of one erasure per kind (every value must be 0) and how many turns it covers."""

    erasure_id: str
    space: str
    turns: int
    residue: dict[str, int]
    same_text_kept: int = 0

    @property
    def total(self) -> int:
        """All residue together: 0 proves the erasure."""
        return sum(self.residue.values())


def content_mac(secret: bytes, content_hash: str) -> str:
    """The keyed hash the erasure record keeps instead of ``content_hash``."""
    return hmac.new(secret, content_hash.encode("ascii"), hashlib.sha256).hexdigest()


def new_erasure_id() -> str:
    """A fresh erasure id (``er_`` + 24 hex digits)."""
    return f"er_{secrets.token_hex(12)}"


def selector_of(
    *,
    evidence_ids: Sequence[str] | None = None,
    external_ids: Sequence[str] | None = None,
    speaker: str | None = None,
    session: str | None = None,
    before: datetime | None = None,
    recorded_before: datetime | None = None,
) -> ErasureSelector:
    """The checked selector of a ``forget`` call.

    Raises:
        InvalidInputError: no field given (erasing a whole space is ``drop_space``), an empty
            id list, or a blank speaker/session.
    """
    for name, values in (("evidence_ids", evidence_ids), ("external_ids", external_ids)):
        if values is not None and (isinstance(values, str) or not values or not all(isinstance(v, str) and v for v in values)):
            raise InvalidInputError(f"forget: {name} must be a non-empty list of non-empty strings")
    for name, value in (("speaker", speaker), ("session", session)):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise InvalidInputError(f"forget: {name} must be a non-empty string")
    selector = ErasureSelector(
        evidence_ids=tuple(dict.fromkeys(evidence_ids)) if evidence_ids is not None else None,
        external_ids=tuple(dict.fromkeys(external_ids)) if external_ids is not None else None,
        speaker=speaker, session=session,
        before=as_utc(before) if before is not None else None,
        recorded_before=as_utc(recorded_before) if recorded_before is not None else None,
    )  # fmt: skip
    if selector.empty:
        raise InvalidInputError(
            "forget needs at least one selector (evidence_ids, external_ids, speaker, session, before); "
            "to erase a whole space use drop_space"
        )
    return selector


def merge_counts(*parts: Mapping[str, int]) -> dict[str, int]:
    """Counts per kind added up, in a stable key order."""
    total: dict[str, int] = {}
    for part in parts:
        for kind, n in part.items():
            total[kind] = total.get(kind, 0) + n
    return dict(sorted(total.items()))
