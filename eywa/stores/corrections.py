"""The correction aggregate: the audited record of every correction a person made.

A correction is a human decision about what the memory holds, as opposed to what Level 1
derived: retract a belief (with a reason), confirm one (its reliability rises), accept a
candidate the validator refused (it becomes a belief), or dismiss one from the repair queue.
``eywa.corrections`` makes the change; the store keeps one :class:`CorrectionRecord` per
decision — who (the key id over HTTP), when, what, why — beside the graph it describes, so
"who retracted this, and why?" is answerable from the store alone.

A record holds ids, the author, the reason the author gave and, for a confirmation, the
reliability before and after; never the text of a turn or a belief.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal, Protocol

from pydantic import Field

from eywa.models import Frozen

__all__ = ["CorrectionKind", "CorrectionLog", "CorrectionRecord"]

CorrectionKind = Literal["retract_belief", "confirm_belief", "accept_candidate", "dismiss_candidate"]


class CorrectionRecord(Frozen):
    """One audited correction (never content: ids, author, reason, reliabilities)."""

    id: str
    space: str
    kind: CorrectionKind
    target_id: str = Field(description="The belief or candidate the correction is about.")
    author: str | None
    reason: str | None = None
    at: datetime
    belief_id: str | None = Field(default=None, description="The belief an accepted candidate became.")
    reliability_before: float | None = None
    reliability_after: float | None = None


class CorrectionLog(Protocol):
    """Append and list correction records."""

    def record(self, correction: CorrectionRecord) -> None:
        """Append one record (a record whose id exists is left as it is).

        Raises:
            StoreError: the store cannot be written.
        """
        ...

    def forget_reasons(self, space: str, item_ids: Sequence[str], correction_ids: Sequence[str] = ()) -> int:
        """Clear the reason of every record about ``item_ids`` (as its target, or as the belief
        an accepted candidate became) and of the records ``correction_ids``; returns how many
        records had one.

        Erasure calls it for the beliefs and candidates it removes: a reason is the author's
        words, but it may quote the erased turns, so it goes with them (the record stays).

        Raises:
            StoreError: the store cannot be written.
        """
        ...

    def corrections(
        self, space: str, *, target_id: str | None = None, kinds: Sequence[CorrectionKind] | None = None
    ) -> list[CorrectionRecord]:
        """The records of ``space`` (of one target, of some kinds), oldest first.

        Raises:
            StoreError: the store cannot be read.
        """
        ...
