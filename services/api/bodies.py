"""JSON bodies read with each object's keys named once (``eywa.json_text``).

FastAPI reads a JSON body with ``json.loads``, which keeps the last of two values given for
one key: ``{"query": "Where does Bo live?", "query": "Where does Tom live?"}`` was answered
for Tom, ``{"text": "a", "text": "b"}`` stored "b", ``{"spaces": ["a"], "spaces": ["*"]}``
made a key for every space — the caller's request read as one of its two values, chosen by
the parser. Every ``/v1`` router is made with ``route_class=UniqueKeysRoute``: its routes
read a JSON body through ``loads_unique`` (once; FastAPI is handed what was decoded) and
refuse a repeated key with 422 ``invalid_input`` naming ``body.<path>``, as a query
parameter given twice is refused.

A body the decoder refuses for a reason other than its syntax (which FastAPI answers 422
``validation_error`` with the offset) got FastAPI's 400 "There was an error parsing the
body", which says nothing of what to fix. The same read answers 400 ``bad_request`` saying
why: bytes that are not UTF-8 (RFC 8259 8.1: JSON is UTF-8; a ``charset`` the Content-Type
names is not read), an integer longer than Python converts (``sys.get_int_max_str_digits``),
arrays or objects nested deeper than the decoder goes. A body whose ``charset`` is not UTF-8
and whose bytes that charset reads otherwise than UTF-8 does (``"Ã©"`` sent as ISO-8859-1
is ``"é"`` in UTF-8) is refused the same way, not read as text its sender did not write.
"""

from __future__ import annotations

import codecs
import email.message
import json
import sys
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


def _unreadable(detail: str) -> ApiProblem:
    """The 400 ``bad_request`` of a body no JSON decoder reads, saying why (``detail``)."""
    return ApiProblem(400, "bad_request", "Bad request", f"body: {detail}", errors=[{"field": "body", "message": detail}])


def _charset(content_type: str | None) -> str | None:
    """The ``charset`` parameter ``content_type`` names, None when it names none."""
    if not content_type:
        return None
    message = email.message.Message()
    message["content-type"] = content_type
    found = message.get_param("charset")
    return found if isinstance(found, str) and found else None


def _is_utf8(charset: str) -> bool:
    """Whether ``charset`` names UTF-8 (``utf8``, ``UTF-8``...); an unknown name does not."""
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return False


def _not_utf8(exc: UnicodeDecodeError, charset: str | None) -> ApiProblem:
    """The refusal of a body whose bytes do not decode as the JSON decoder reads them."""
    byte = exc.object[exc.start]
    read = "UTF-8" if exc.encoding.replace("_", "-").lower() in ("utf-8", "utf-8-sig") else exc.encoding.upper()
    said = f" (the charset={charset} its Content-Type names is not read)" if charset and not _is_utf8(charset) else ""
    return _unreadable(f"byte 0x{byte:02x} at offset {exc.start} is not {read}; a JSON body is UTF-8 text{said}")


def _other_charset(body: bytes, charset: str | None) -> ApiProblem | None:
    """The refusal of a body the ``charset`` it names reads as other text than UTF-8 does
    (None when no charset is named, it is UTF-8, or both read the same text: plain ASCII)."""
    if charset is None or body.isascii():
        return None
    if _is_utf8(charset):
        return None
    try:
        same = body.decode(charset) == body.decode(json.detect_encoding(body))
    except (LookupError, ValueError):
        same = False
    if same:
        return None
    return _unreadable(
        f"sent as charset={charset}, which reads its bytes otherwise than UTF-8 does; a JSON body is UTF-8 text: "
        "send it in UTF-8"
    )


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
                ApiProblem: 422 ``invalid_input``, a key named twice in one object; 400
                    ``bad_request``, a body that is not UTF-8 or that no decoder reads
                    (an integer too long, nesting too deep), saying which.
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
                except json.JSONDecodeError:
                    pass  # no JSON: FastAPI decodes it again and refuses it (422, the offset)
                except UnicodeDecodeError as exc:
                    raise _not_utf8(exc, _charset(decoded.headers.get("content-type"))) from None
                except ValueError:  # json.loads's one other ValueError: an integer past the digit limit
                    limit = sys.get_int_max_str_digits()
                    raise _unreadable(f"holds an integer of more than {limit} digits, longer than a number may be") from None
                except RecursionError:
                    raise _unreadable("arrays or objects nested deeper than the JSON decoder reads") from None
                if (refusal := _other_charset(body, _charset(decoded.headers.get("content-type")))) is not None:
                    raise refusal
            return await handle(decoded)

        return unique_keys
