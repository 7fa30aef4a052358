"""Eywa's exceptions: one root, a shallow tree, structured fields.

    EywaError
    ├── InvalidInputError (also ValueError)   bad turns, queries, parameters
    │   └── InvalidTurnError                  names the offending turn of a batch
    ├── NotFoundError (also KeyError)         an id that is not in the space
    ├── ClosedError                           a Memory used after close()
    ├── StoreError                            a backend failed; chained from the driver error
    ├── ErasedError                           a turn whose id was erased (tombstoned) was sent again
    ├── OverloadedError                       the Level 1 backlog is over its bound (backpressure)
    ├── ExtractorError                        an extractor (LLM or rules) failed
    ├── EmbedderError                         an embedding endpoint failed or answered badly
    └── ConfigurationError                    settings that cannot work together

Input errors subclass ``ValueError`` so callers who catch the builtin still see them.
Every error builds its own message from its fields, so the CLI and the services can
print one clear line without a traceback.
"""

from __future__ import annotations


class EywaError(Exception):
    """Root of every error Eywa raises on purpose."""


class InvalidInputError(EywaError, ValueError):
    """The caller passed something Eywa cannot accept."""


class InvalidTurnError(InvalidInputError):
    """One turn of a ``remember`` batch is invalid; nothing of the batch was written."""

    def __init__(self, index: int, reason: str) -> None:
        self.index = index
        self.reason = reason
        super().__init__(f"turn {index}: {reason}")


class NotFoundError(EywaError, KeyError):
    """An id that does not exist in the given space."""

    def __init__(self, kind: str, space: str, item_id: str) -> None:
        self.kind = kind
        self.space = space
        self.item_id = item_id
        super().__init__(f"{kind} {item_id!r} not found in space {space!r}")

    def __str__(self) -> str:  # KeyError quotes its argument; keep the sentence readable
        return str(self.args[0])


class ClosedError(EywaError):
    """The resource was closed and refuses further use."""

    def __init__(self, what: str = "Memory") -> None:
        super().__init__(f"{what} is closed")


class StoreError(EywaError):
    """A storage backend failed. The driver's exception is chained as ``__cause__``."""

    def __init__(self, backend: str, operation: str, detail: str = "") -> None:
        self.backend = backend
        self.operation = operation
        message = f"{backend} store failed during {operation}"
        super().__init__(f"{message}: {detail}" if detail else message)


class ErasedError(EywaError):
    """Turns whose ids are tombstoned (erased) were sent again; nothing of the batch was written.

    An erased turn stays erased: re-sending it (same ``external_id``, or the same space,
    session, speaker, time and text) is refused rather than silently bringing it back.
    """

    def __init__(self, space: str, evidence_ids: tuple[str, ...]) -> None:
        self.space = space
        self.evidence_ids = evidence_ids
        shown = ", ".join(evidence_ids[:3]) + (" …" if len(evidence_ids) > 3 else "")
        super().__init__(f"{len(evidence_ids)} turn(s) of space {space!r} were erased and cannot be written again: {shown}")


class OverloadedError(EywaError):
    """Level 1 is further behind than ``EYWA_MAX_BACKLOG`` allows; nothing was written.

    Backpressure: writers are asked to come back later (``retry_after_s``) instead of
    growing a backlog that Level 1 cannot absorb.
    """

    def __init__(self, backlog: int, limit: int, retry_after_s: int) -> None:
        self.backlog = backlog
        self.limit = limit
        self.retry_after_s = retry_after_s
        super().__init__(f"Level 1 backlog of {backlog} turns is over the bound of {limit}; retry in {retry_after_s}s")


class ExtractorError(EywaError):
    """An extractor could not produce candidates (endpoint down, malformed answer)."""


class EmbedderError(EywaError):
    """An embedding endpoint failed (after retries) or returned something unusable."""


class ConfigurationError(EywaError):
    """Settings that cannot work together."""
