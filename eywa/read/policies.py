"""Answer policies: instructions for the answering model, kept apart from the context."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, get_args

from eywa.errors import InvalidInputError
from eywa.models import Policy

_STRICT = (
    "Answer only from the memory context. Each line is a remembered turn or fact with its "
    "date and speaker. If the context does not contain the answer, say that the memory does "
    "not contain it; do not guess. Quote dates as the context gives them."
)
_BALANCED = (
    "Use the memory context as your primary source. Prefer the most recent information when "
    "facts conflict, and mention the date when it matters. If the context does not support "
    "an answer, say so briefly rather than inventing one."
)
_ADVANCED = (
    "Use the memory context as your source and reason across it: combine facts from "
    "several turns or sessions (multi-hop), and resolve relative dates ('last week', 'two "
    "days ago') against the date of the session they were said in, doing the date "
    "arithmetic explicitly. Prefer later statements over earlier ones when they conflict. "
    "If the context does not support an answer, say that the memory does not contain it."
)

POLICIES: Final[MappingProxyType[Policy, str]] = MappingProxyType(
    {"strict": _STRICT, "balanced": _BALANCED, "advanced": _ADVANCED}
)
_NAMES: Final[dict[str, Policy]] = {name: name for name in get_args(Policy)}


def check_policy(policy: object) -> Policy:
    """``policy`` as a ``Policy``: callers that are not type-checked may pass any string.

    Raises:
        InvalidInputError: for an unknown policy name.
    """
    found = _NAMES.get(policy) if isinstance(policy, str) else None
    if found is None:
        raise InvalidInputError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    return found


def answer_instructions(policy: Policy) -> str:
    """The instruction text of ``policy``.

    Raises:
        InvalidInputError: for an unknown policy name (from an untyped caller).
    """
    return POLICIES[check_policy(policy)]
