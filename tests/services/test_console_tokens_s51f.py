"""A console form's CSRF token is compared whatever characters it holds (s51 fuzzing).

The sign-in and sign-out forms compared the token sent with the one expected by
``hmac.compare_digest`` on ``str``, which raises ``TypeError`` for a non-ASCII string: a form
posting ``csrf=é`` (or a sign-in cookie holding one, which any client can send) was a 500
``internal_error``, where a token that is not the session's is a 403 page.
"""

from __future__ import annotations

import pytest

from services.console.auth import LOGIN_CSRF_COOKIE, same_token
from tests.services.conftest import Service

SPACE = "console-tokens"


def _secret(service: Service) -> str:
    return service.headers([SPACE], "read")["Authorization"].removeprefix("Bearer ")


# as the form carries them: é, a snowman thirty times, a Latin-1 byte, an encoded lone surrogate
@pytest.mark.parametrize(
    "token", ["%C3%A9", "%E2%98%83" * 30, "%FC-not-it", "%ED%B3%BF"], ids=["e-acute", "snowmen", "latin1", "surrogate"]
)
def test_a_sign_in_token_of_any_characters_is_refused_as_a_foreign_form(service: Service, token: str) -> None:
    service.client.get("/console/login")
    body = f"key={_secret(service)}&csrf={token}".encode()
    response = service.client.post(
        "/console/login", content=body, headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )  # fmt: skip
    assert response.status_code == 403, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "came from elsewhere" in response.text


def test_a_sign_in_cookie_holding_latin1_bytes_is_refused_as_a_foreign_form(service: Service) -> None:
    secret = _secret(service)
    service.client.cookies.clear()
    response = service.client.post(
        "/console/login", content=f"key={secret}&csrf=abc".encode(),
        headers={b"Content-Type": b"application/x-www-form-urlencoded", b"Cookie": f"{LOGIN_CSRF_COOKIE}=\u00e9t\u00e9".encode("latin-1")},
        follow_redirects=False,
    )  # fmt: skip
    assert response.status_code == 403, response.text


def test_a_sign_out_token_of_any_characters_is_refused_as_a_foreign_form(service: Service) -> None:
    service.client.get("/console/login")
    signed = service.client.post(
        "/console/login", data={"key": _secret(service), "csrf": service.client.cookies[LOGIN_CSRF_COOKIE]},
        follow_redirects=False,
    )  # fmt: skip
    assert signed.status_code == 303
    out = service.client.post("/console/logout", data={"csrf": "é"}, follow_redirects=False)
    assert out.status_code == 403, out.text
    assert service.client.get("/console", follow_redirects=False).status_code == 200  # still signed in


def test_same_token_holds_for_equal_tokens_of_any_characters() -> None:
    assert same_token("é\u2603", "é\u2603") and same_token("\udcff", "\udcff")
    assert not same_token("é", "e") and not same_token("é", None) and not same_token("", "")
