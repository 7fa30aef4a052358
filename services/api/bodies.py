"""JSON bodies read with each object's keys named once (``eywa.json_text``).

FastAPI reads a JSON body with ``json.loads``, which keeps the last of two values given for
one key: ``{"query": "Where does Bo live?", "query": "Where does Tom live?"}`` was answered
for Tom, ``{"text": "a", "text": "b"}`` stored "b", ``{"spaces": ["a"], "spaces": ["*"]}``
made a key for every space — the caller's request read as one of its two values, chosen by
the parser. Every ``/v1`` router is made with ``route_class=UniqueKeysRoute``: its routes
read a JSON body through ``loads_unique`` (once; FastAPI is handed what was decoded) and
refuse a repeated key with 422 ``invalid_input`` naming ``body.<path>``, as a query
parameter given twice is refused.
"""

from __future__ import annotations

import email.message
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.datastructures import DefaultPlaceholder
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from eywa.errors import InvalidInputError
from eywa.json_text import loads_unique
from services.api.errors import ApiProblem

__all__ = ["UniqueKeysRoute"]

_UNREAD: Any = object()


class _DecodedRequest(Request):
    """A request whose JSON body was decoded before FastAPI asks for it."""

    decoded: Any = _UNREAD

    async def json(self) -> Any:
        """The body decoded by ``UniqueKeysRoute`` (else as Starlette decodes it)."""
        if self.decoded is not _UNREAD:
            return self.decoded
        return await super().json()


def _read_as_json(request: Request, strict: bool) -> bool:
    """Whether FastAPI reads this request's body as JSON: ``application/json`` or
    ``application/*+json``, or no ``Content-Type`` unless the route is ``strict`` about it
    (``fastapi.routing``'s own test)."""
    content_type = request.headers.get("content-type")
    if not content_type:
        return not strict
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))


class UniqueKeysRoute(APIRoute):
    """An API route whose JSON body must name each key of each object once (module docstring)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()
        if self.body_field is None:
            return handle  # no body to read: served as before
        strict = self.strict_content_type
        strict = strict.value if isinstance(strict, DefaultPlaceholder) else strict

        async def unique_keys(request: Request) -> Response:
            """Decode the JSON body refusing a repeated key, then serve the request.

            Raises:
                ApiProblem: 422 ``invalid_input``, a key named twice in one object.
            """
            decoded = _DecodedRequest(request.scope, request.receive)
            body = await decoded.body()
            if body and _read_as_json(decoded, strict):
                try:
                    decoded.decoded = loads_unique(body)
                except InvalidInputError as exc:
                    field = f"body.{exc.problems[0].field}"
                    message = exc.problems[0].message
                    raise ApiProblem(
                        422, "invalid_input", "Invalid input", f"{field}: {message}",
                        errors=[{"field": field, "message": message}],
                    ) from None  # fmt: skip
                except (ValueError, RecursionError):
                    pass  # no JSON: FastAPI decodes it again and refuses it as it always has
            return await handle(decoded)

        return unique_keys
