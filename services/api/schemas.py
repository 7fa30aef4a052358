"""Request and response bodies of the HTTP API that are not domain models.

Domain objects (``RecallResult``, ``Evidence``, ``Belief``…) travel as the models of
``eywa.models`` themselves, so the Python client parses exactly what ``Memory`` returns.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from eywa.models import Policy, Turn
from eywa.jobs import JobState
from eywa.stores.keys import ApiKey

__all__ = [
    "CreateKeyRequest", "CreatedKey", "JobRef", "RecallRequest", "RememberRequest", "RememberResponse",
]


class _Body(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RememberRequest(_Body):
    """A batch of turns; stored atomically (all or nothing)."""

    turns: list[Turn] = Field(min_length=1, description="Limited by EYWA_MAX_TURNS_PER_BATCH (413 beyond).")


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
    """``Memory.recall``'s parameters. ``k`` and ``budget_tokens`` are capped by settings."""

    query: str = Field(min_length=1, description="The question; must not be blank.")
    k: int = Field(default=10, ge=1, description="Items wanted; at most EYWA_MAX_RECALL_K.")
    budget_tokens: int | None = Field(default=None, ge=1, description="At most EYWA_MAX_BUDGET_TOKENS.")
    policy: Policy = "balanced"
    as_of: datetime | None = Field(default=None, description="Recall as the memory stood then (ISO-8601).")


class CreateKeyRequest(_Body):
    """An API key to create (admin scope)."""

    spaces: list[str] = Field(min_length=1, description='Spaces the key may use; "*" for all.')
    scopes: list[Literal["read", "write", "admin"]] = Field(min_length=1)
    name: str | None = Field(default=None, max_length=200)


class CreatedKey(_Body):
    """A new key: its record and the secret, shown this once."""

    key: ApiKey
    secret: str
