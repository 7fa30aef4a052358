"""The console's static assets answer any ``Range`` header with the whole file (s51 fuzzing).

Every refusal of the HTTP service is problem+json (README "Errors"), but the console's
assets are served by Starlette's ``StaticFiles``, which answered a malformed or
unsatisfiable ``Range`` itself in ``text/plain`` (400 "Range header: start must be less than
end", 416 with an empty body) — the one answer of the service outside that shape, like
uvicorn's 400 before ``services.http_protocol``. The assets are a few kilobytes: the console
ignores ``Range`` (RFC 9110 14.2 lets a server) and sends the whole file, 200.
"""

from __future__ import annotations

import pytest

from tests.services.conftest import Service

ASSET = "/console/static/console.css"


@pytest.mark.parametrize(
    "value", ["bytes=5-1", "bytes=abc", "bytes=99999999999-", "bytes=0-1,0-1,0-1", "bytes=0-3", "items=0-1", "bytes=-0"]
)
def test_a_range_on_a_console_asset_is_answered_with_the_whole_file(service: Service, value: str) -> None:
    whole = service.client.get(ASSET)
    assert whole.status_code == 200 and whole.headers["content-type"].startswith("text/css")
    ranged = service.client.get(ASSET, headers={"Range": value, "If-Range": whole.headers.get("etag", "x")})
    assert ranged.status_code == 200, (ranged.status_code, ranged.headers.get("content-type"), ranged.text[:80])
    assert ranged.content == whole.content
