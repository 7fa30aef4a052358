"""Request and response bodies of the HTTP API that are not domain models.

Domain objects (``RecallResult``, ``Evidence``, ``Belief``…) travel as the models of
``eywa.models`` themselves, so the Python client parses exactly what ``Memory`` returns.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, WithJsonSchema

from eywa.jobs import JobState
from eywa.models import Turn
from eywa.stores.keys import ApiKey

__all__ = [
    "CreateKeyRequest", "CreatedKey", "JobRef", "RecallRequest", "RememberRequest", "RememberResponse",
    "RotateKeyRequest",
]


class _Body(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


_TURNS_SCHEMA: dict[str, Any] = {
    "type": "array", "minItems": 1, "items": Turn.model_json_schema(),
    "description": "The turns, stored atomically. Every value is checked by the core's input "
    "contract (eywa.contract): at most EYWA_MAX_TURNS_PER_BATCH turns (413 too_many_turns), "
    "EYWA_MAX_CHARS_PER_TURN characters of text (422 turn_too_long), valid Unicode, times in "
    "the supported range, JSON-safe metadata (422 invalid_turn / limit_exceeded).",
}  # fmt: skip


class RememberRequest(_Body):
    """A batch of turns; stored atomically (all or nothing).

    The turns travel to ``Memory.remember`` as sent, so they are refused by the same checks
    with the same codes as in Python; the schema documents their shape.
    """

    turns: Annotated[list[Any], WithJsonSchema(_TURNS_SCHEMA)]


class JobRef(_Body):
    """The Level 1 job started by a batch."""

    id: str
    status: JobState


class RememberResponse(_Body):
    """Evidence ids in the order of the turns sent, the Level 1 job and who wrote them."""

    ids: list[str]
    job: JobRef
    author: str


class RecallRequest(_Body):
    """``Memory.recall``'s parameters, checked by the core (limits from settings).

    The values travel to ``Memory.recall`` as sent, like a batch's turns: the schema
    documents their types and the core's input contract checks them, so a value is accepted
    or refused over HTTP exactly as in Python, with the same code and field. Typed here,
    pydantic's lax mode read ``true``, ``"5"`` and ``5.0`` as the integers 1 and 5, which
    ``Memory.recall`` refuses.
    """

    query: Annotated[Any, WithJsonSchema(
        {"type": "string", "description": "The question; not blank, at most EYWA_MAX_QUERY_CHARS characters."}
    )]  # fmt: skip
    k: Annotated[Any, WithJsonSchema(
        {"type": "integer", "default": 10, "description": "Items wanted; 1 to EYWA_MAX_K."}
    )] = 10  # fmt: skip
    budget_tokens: Annotated[Any, WithJsonSchema(
        {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None,
         "description": "Context token budget; 1 to EYWA_MAX_BUDGET_TOKENS."}
    )] = None  # fmt: skip
    policy: Annotated[Any, WithJsonSchema(
        {"type": "string", "default": "balanced", "description": "strict, balanced or advanced."}
    )] = "balanced"  # fmt: skip
    as_of: Annotated[Any, WithJsonSchema(
        {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}], "default": None,
         "description": "Recall as the memory stood then (ISO-8601, within the supported range)."}
    )] = None  # fmt: skip


class CreateKeyRequest(_Body):
    """An API key to create (admin scope)."""

    # As sent, checked by the route and the key store as ``eywa keys create`` is checked: typed
    # here, an unknown scope, no space or a name over 200 characters was the schema's
    # ``validation_error`` where the CLI says ``invalid_input`` / ``limit_exceeded``.
    spaces: Annotated[Any, WithJsonSchema({
        "type": "array", "items": {"type": "string"}, "minItems": 1, "description": 'Spaces the key may use; "*" for all.'
    })]  # fmt: skip
    scopes: Annotated[Any, WithJsonSchema(
        {"type": "array", "items": {"enum": ["read", "write", "admin", "erase"]}, "minItems": 1}
    )]  # fmt: skip
    name: Annotated[Any, WithJsonSchema(
        {"anyOf": [{"type": "string", "maxLength": 200}, {"type": "null"}], "default": None}
    )] = None  # fmt: skip
    # As sent, for the route's time check (README, "Values are not converted on the way"):
    # typed as a datetime, pydantic read ``1900000000`` as Unix time.
    expires_at: Annotated[Any, WithJsonSchema(
        {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}], "default": None,
         "description": "When the key stops working (ISO-8601)."}
    )] = None  # fmt: skip


class RotateKeyRequest(_Body):
    """A rotation: the current secret keeps working for ``grace_seconds`` (at most 30 days)."""

    # As sent, for the route's check (``invalid_input``, as ``eywa keys rotate --grace 31d``).
    grace_seconds: Annotated[Any, WithJsonSchema(
        {"type": "integer", "minimum": 0, "maximum": 30 * 86400, "default": 3600}
    )] = 3600  # fmt: skip


class CreatedKey(_Body):
    """A new key (or a rotated one): its record and the secret, shown this once."""

    key: ApiKey
    secret: str


def _optional(schema: dict[str, Any], description: str) -> WithJsonSchema:
    """The documented schema of a value that travels as sent: ``schema`` or null."""
    return WithJsonSchema({"anyOf": [schema, {"type": "null"}], "default": None, "description": description})


_NAMES: Final[dict[str, Any]] = {"type": "array", "items": {"type": "string"}}


class EraseRequest(_Body):
    """``POST /v1/spaces/{space}/erase``: which turns to erase; the given fields combine with AND.

    The values travel to ``Memory.forget`` as sent, as a recall's do (``RecallRequest``): the
    core's input contract checks them, so a selector is refused over HTTP exactly as in
    Python, with its code and field. Typed here, pydantic's lax mode read a ``before`` of
    ``1700000000``, ``1700000000.5`` or ``"1700000000"`` as Unix time and erased every turn
    observed before 14 Nov 2023, where ``Memory.forget`` refuses each and erases nothing.
    """

    evidence_ids: Annotated[Any, _optional(_NAMES, "Evidence ids (ev_...).")] = None
    external_ids: Annotated[Any, _optional(_NAMES, "The external ids given when the turns were sent.")] = None
    speaker: Annotated[Any, _optional({"type": "string"}, "The turns this speaker said.")] = None
    session: Annotated[Any, _optional({"type": "string"}, "The turns of this session.")] = None
    before: Annotated[Any, _optional(
        {"type": "string", "format": "date-time"}, "Turns observed before this time (ISO-8601, within the supported range)."
    )] = None  # fmt: skip
