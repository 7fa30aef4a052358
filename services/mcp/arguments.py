"""The types of the MCP tools' arguments that reach ``Memory`` as sent.

The SDK builds a pydantic model of each tool's signature and checks a call's arguments
against it before the tool runs, in lax mode: typed, ``true``, ``"5"`` and ``5.0`` were read
as the integers 1 and 5, and a space, id or name of another JSON type was refused with the
SDK's ``validation_error`` where ``Memory`` and the HTTP API say ``invalid_input`` (a turn
that is no object: ``invalid_turn``). Annotated ``Any`` with the documented schema, the value
reaches the core's input contract (``eywa.contract``), which refuses it with the code every
surface uses. A missing argument or one the tool does not take stays ``validation_error``.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema

from eywa.models import Turn

__all__ = ["Names", "OptionalText", "Text", "TurnsArgument", "checked_by_the_core"]


def checked_by_the_core(schema: dict[str, Any]) -> WithJsonSchema:
    """The schema of an argument that reaches ``Memory`` as sent (annotate it ``Any``): the
    SDK's arguments model is pydantic in lax mode, which read ``true``, ``"5"`` and ``5.0`` as
    the integers 1 and 5 (and ``true`` as the score 1.0), where ``Memory`` refuses each; the
    core's input contract checks the value instead, with the code every surface uses. Typed
    as ``str``, a space, id or name of another JSON type was the SDK's ``validation_error``
    where ``Memory`` (and the HTTP API) say ``invalid_input``."""
    return WithJsonSchema(schema)


TurnsArgument = Annotated[
    Any,
    checked_by_the_core({"type": "array", "items": Turn.model_json_schema(), "description": "Turns, stored atomically."}),
]
"""Turns as the agent sends them: the schema documents a ``Turn``, and ``Memory`` checks them
(so a bad turn is refused with the code every surface uses, ``invalid_turn``, not by the SDK)."""
Text = Annotated[Any, checked_by_the_core({"type": "string"})]
"""A space, id or name, checked by ``Memory`` (``invalid_input`` for another JSON type)."""
OptionalText = Annotated[Any, checked_by_the_core({"anyOf": [{"type": "string"}, {"type": "null"}], "default": None})]
Names = Annotated[
    Any, checked_by_the_core({"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}], "default": None})
]
