"""Eywa's exceptions: one root, a shallow tree, structured fields, a stable ``code``.

    EywaError
    ├── InvalidInputError (also ValueError)   bad turns, queries, parameters, limits
    │   └── InvalidTurnError                  names the offending turn of a batch
    ├── QuotaExceededError                    a space is full (EYWA_SPACE_MAX_*)
    ├── NotFoundError (also KeyError)         an id that is not in the space
    ├── ClosedError                           a Memory used after close()
    ├── StoreError                            a backend failed; chained from the driver error
    │   └── DirectoryInUseError               another process holds the embedded directory
    ├── ErasedError                           a turn whose id was erased (tombstoned) was sent again
    ├── ConflictError                         the item's state forbids it (a belief already retracted)
    │   └── SpaceNotEmptyError                an import into a space that already holds data
    ├── OverloadedError                       the Level 1 or embedding backlog is over its bound (backpressure)
    ├── ExtractorError                        an extractor (LLM or rules) failed
    ├── EmbedderError                         an embedding endpoint failed or answered badly
    └── ConfigurationError                    settings that cannot work together

Input errors subclass ``ValueError`` so callers who catch the builtin still see them.
Every error builds its own message from its fields, so the CLI and the services can
print one clear line without a traceback.

Every error carries a ``code`` (:data:`ErrorCode`) that is the same on every surface: the
Python API raises it, the HTTP API answers it in problem+json, the MCP server prefixes its
tool errors with it, the CLI prints it and ``eywa.Client`` raises it back. Input errors
also carry ``problems``: the offending fields as dotted paths (``turns.3.text``, ``k``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

ErrorCode = Literal[
    "invalid_input",
    "invalid_turn",
    "too_many_turns",
    "turn_too_long",
    "limit_exceeded",
    "quota_exceeded",
    "not_found",
    "erased",
    "conflict",
    "session_busy",
    "overloaded",
    "unavailable",
    "store_unavailable",
    "directory_in_use",
    "upstream_error",
    "configuration_error",
]
"""The machine-readable codes of every error (HTTP statuses per code: ``docs/service.md``)."""

InputCode = Literal["invalid_input", "invalid_turn", "too_many_turns", "turn_too_long", "limit_exceeded"]
"""The codes of input errors: malformed input, or input over a configured limit."""


class EywaError(Exception):
    """Root of every error Eywa raises on purpose."""

    code: ErrorCode = "upstream_error"


@dataclass(frozen=True)
class FieldProblem:
    """One refused field: its dotted path in the call (``turns.0.text``, ``k``) and why."""

    field: str
    message: str


class InvalidInputError(EywaError, ValueError):
    """The caller passed something Eywa cannot accept.

    Args:
        message: the whole sentence, printed as is.
        code: ``invalid_input`` for malformed input, or the code of the limit exceeded.
        problems: the offending fields (empty when the input as a whole is wrong).
    """

    def __init__(self, message: str, *, code: InputCode = "invalid_input", problems: Sequence[FieldProblem] = ()) -> None:
        super().__init__(message)
        self.code: InputCode = code
        self.problems = tuple(problems)

    @classmethod
    def at(cls, field: str, message: str, *, code: InputCode = "invalid_input") -> InvalidInputError:
        """The error of one field: ``"<field>: <message>"``."""
        return cls(f"{field}: {message}", code=code, problems=(FieldProblem(field, message),))

    @classmethod
    def of(cls, problems: Sequence[FieldProblem], *, code: InputCode = "invalid_input") -> InvalidInputError:
        """The error of several fields at once, in the order given."""
        return cls("; ".join(f"{p.field}: {p.message}" for p in problems), code=code, problems=problems)


class InvalidTurnError(InvalidInputError):
    """One turn of a ``remember`` batch is invalid; nothing of the batch was written.

    ``reason`` reads ``"<field>: <why>"`` when a field is named; the problem's path is
    ``turns.<index>.<field>``.
    """

    def __init__(self, index: int, reason: str, *, field: str | None = None, code: InputCode = "invalid_turn") -> None:
        self.index = index
        self.turn_field = field
        self.reason = f"{field}: {reason}" if field else reason
        path = f"turns.{index}.{field}" if field else f"turns.{index}"
        super().__init__(f"turn {index}: {self.reason}", code=code, problems=(FieldProblem(path, reason),))


class QuotaExceededError(EywaError):
    """A batch would take a space over its quota (``EYWA_SPACE_MAX_TURNS`` / ``_BYTES``).

    Nothing of the batch was written. Not a ``ValueError``: the input is fine, the space
    is full.
    """

    code: ErrorCode = "quota_exceeded"

    def __init__(self, space: str, quota: Literal["turns", "bytes"], limit: int, used: int, wanted: int) -> None:
        self.space = space
        self.quota = quota
        self.limit = limit
        self.used = used
        self.wanted = wanted
        super().__init__(
            f"space {space!r} holds {used} {quota} of its quota of {limit}; this batch adds {wanted}"
        )


class NotFoundError(EywaError, KeyError):
    """An id that does not exist in the given space."""

    code: ErrorCode = "not_found"

    def __init__(self, kind: str, space: str, item_id: str) -> None:
        self.kind = kind
        self.space = space
        self.item_id = item_id
        # Keys and jobs belong to no one space ("*"): "api key 'x' not found in space '*'"
        # read as if a space named "*" had been searched.
        where = "" if space == "*" else f" in space {space!r}"
        super().__init__(f"{kind} {item_id!r} not found{where}")

    def __str__(self) -> str:  # KeyError quotes its argument; keep the sentence readable
        return str(self.args[0])


class ClosedError(EywaError):
    """The resource was closed and refuses further use."""

    code: ErrorCode = "unavailable"

    def __init__(self, what: str = "Memory") -> None:
        super().__init__(f"{what} is closed")


class StoreError(EywaError):
    """A storage backend failed. The driver's exception is chained as ``__cause__``."""

    code: ErrorCode = "store_unavailable"

    def __init__(self, backend: str, operation: str, detail: str = "") -> None:
        self.backend = backend
        self.operation = operation
        message = f"{backend} store failed during {operation}"
        super().__init__(f"{message}: {detail}" if detail else message)


class DirectoryInUseError(StoreError):
    """Another process (or another open Memory) writes the embedded directory.

    One writer process per directory: its Qdrant Edge shards cannot be shared. The message
    names the holder's pid (when it could be read) and the ways forward.
    """

    code: ErrorCode = "directory_in_use"

    def __init__(self, path: str, pid: int | None) -> None:
        self.path = path
        self.pid = pid
        holder = f"process {pid}" if pid is not None else "another process"
        super().__init__(
            "embedded", "open",
            f"{path} is in use by {holder} (one writer per directory): send requests to that "
            "process (eywa serve / eywa mcp), stop it first, or use the server backends "
            "(EYWA_NEO4J_URI) for several processes",
        )  # fmt: skip
class ErasedError(EywaError):
    """Turns whose ids are tombstoned (erased) were sent again; nothing of the batch was written.

    An erased turn stays erased: re-sending it (same ``external_id``, or the same space,
    session, speaker, time and text) is refused rather than silently bringing it back.
    """

    code: ErrorCode = "erased"

    def __init__(self, space: str, evidence_ids: tuple[str, ...]) -> None:
        self.space = space
        self.evidence_ids = evidence_ids
        shown = ", ".join(evidence_ids[:3]) + (" …" if len(evidence_ids) > 3 else "")
        super().__init__(f"{len(evidence_ids)} turn(s) of space {space!r} were erased and cannot be written again: {shown}")


class ConflictError(EywaError):
    """The operation does not apply to the item in its current state (retracting a belief
    already retracted, accepting a candidate already dismissed); nothing was changed."""

    code: ErrorCode = "conflict"

    def __init__(self, kind: str, space: str, item_id: str, state: str) -> None:
        self.kind = kind
        self.space = space
        self.item_id = item_id
        self.state = state
        super().__init__(f"{kind} {item_id!r} of space {space!r} is {state}")


class SpaceNotEmptyError(ConflictError):
    """An import was refused because its target space already holds data (``held``: what,
    by kind) other than just this export (a repeat of an import that landed is answered as
    done); nothing was written."""

    def __init__(self, space: str, held: Mapping[str, int]) -> None:
        self.held = dict(held)
        what = f" ({', '.join(f'{n} {kind}' for kind, n in self.held.items())})" if self.held else ""
        self.kind, self.space, self.item_id, self.state = "space", space, space, "not empty"
        EywaError.__init__(
            self, f"space {space!r} is not empty{what}: an export is imported into an empty space "
            "(or again, as done, into the space an import of the very same export left unchanged)",
        )  # fmt: skip


class SessionBusyError(EywaError):
    """Another writer (another API replica, another worker) added turns to a session of the
    batch after the batch was numbered; nothing of the batch was written.

    A batch's new turns are numbered after the turns their session holds (``seq``), read
    before the write; the store checks in the write transaction, once it holds the session's
    lock, that each session's first new turn still comes next in it. ``Memory`` prepares
    the batch again from a fresh read and writes it again a few times
    (``eywa.session_locks.NUMBERING_ATTEMPTS``) before it lets this error out: sending the batch
    again later (same ids) is safe and numbers it after what the session then holds.
    """

    code: ErrorCode = "session_busy"

    def __init__(self, space: str, sessions: Sequence[str], *, attempts: int = 1) -> None:
        self.space = space
        self.sessions = tuple(sessions)
        self.attempts = attempts
        names = ", ".join(repr(s) for s in self.sessions[:3]) + (" …" if len(self.sessions) > 3 else "")
        tries = f" (tried {attempts} times)" if attempts > 1 else ""
        super().__init__(
            f"session(s) {names} of space {space!r} received turns from another writer while this "
            f"batch was being numbered{tries}; nothing was written: send it again"
        )


BacklogStage = Literal["level1", "embed"]
"""The backlogs writes are bounded by: turns owing Level 1 (and their dimension update), or
turns owing their embedding."""


class OverloadedError(EywaError):
    """A backlog is further behind than its bound allows; nothing was written.

    Backpressure: writers are asked to come back later (``retry_after_s``) instead of
    growing a backlog the stages after Level 0 cannot absorb. ``stage`` names the backlog:
    ``level1`` (``EYWA_MAX_BACKLOG``) or ``embed`` (``EYWA_MAX_EMBED_BACKLOG``: turns of the
    whole deployment not yet embedded, the ceiling of a write burst).
    """

    code: ErrorCode = "overloaded"

    def __init__(self, backlog: int, limit: int, retry_after_s: int, stage: BacklogStage = "level1") -> None:
        self.backlog = backlog
        self.limit = limit
        self.retry_after_s = retry_after_s
        self.stage: BacklogStage = stage
        what = "Level 1 backlog" if stage == "level1" else "embedding backlog"
        super().__init__(f"{what} of {backlog} turns is over the bound of {limit}; retry in {retry_after_s}s")


class ExtractorError(EywaError):
    """An extractor could not produce candidates (endpoint down, malformed answer)."""

    code: ErrorCode = "upstream_error"


class EmbedderError(EywaError):
    """An embedding endpoint failed (after retries) or returned something unusable."""

    code: ErrorCode = "upstream_error"


class ConfigurationError(EywaError):
    """Settings that cannot work together."""

    code: ErrorCode = "configuration_error"
