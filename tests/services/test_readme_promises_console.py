"""docs/service.md, Console: "the key is looked up on every request, so revoking *or
expiring* it ends the session at once" (audit of s14; revocation was tested, expiry not).
A session is signed for eight hours, so only the key lookup can end it one hour in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine

from eywa.memory import Memory
from services.console.auth import LOGIN_CSRF_COOKIE
from tests.services.conftest import Service

SPACE = "pr-console"


def test_an_expiring_key_ends_its_console_session_at_once(service: Service, memory: Memory) -> None:
    memory.remember(SPACE, [{"text": "I paint on Sundays.", "speaker": "Io"}])
    _, secret = service.keys.create([SPACE], ["read"], expires_at=datetime.now(UTC) + timedelta(minutes=30))
    service.client.get("/console/login")
    token = service.client.cookies.get(LOGIN_CSRF_COOKIE)
    signed = service.client.post("/console/login", data={"key": secret, "csrf": token}, follow_redirects=False)
    assert signed.status_code == 303
    assert service.client.get(f"/console/spaces/{SPACE}", follow_redirects=False).status_code == 200
    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=20)):  # still live
        assert service.client.get(f"/console/spaces/{SPACE}", follow_redirects=False).status_code == 200
    with time_machine.travel(datetime.now(UTC) + timedelta(hours=1)):  # expired, the cookie still signed
        gone = service.client.get(f"/console/spaces/{SPACE}", follow_redirects=False)
        assert gone.status_code in (302, 303, 307) and gone.headers["location"] == "/console/login"
        bearer = service.client.get(f"/console/spaces/{SPACE}", headers={"Authorization": f"Bearer {secret}"},
                                    follow_redirects=False)  # fmt: skip
        assert bearer.status_code == 401


def _sign_in(service: Service, secret: str) -> None:
    service.client.cookies.clear()
    service.client.get("/console/login")
    token = service.client.cookies.get(LOGIN_CSRF_COOKIE)
    signed = service.client.post("/console/login", data={"key": secret, "csrf": token}, follow_redirects=False)
    assert signed.status_code == 303


def _page(service: Service) -> int:
    return service.client.get(f"/console/spaces/{SPACE}", follow_redirects=False).status_code


def test_a_rotated_key_s_console_sessions_end_with_the_replaced_secret(service: Service, memory: Memory) -> None:
    """Rotating is how a leaked secret is locked out: a console session opened with it must
    not outlive it (the cookie holds the key id, which rotation keeps). A session opened
    with the new secret once the grace is over stays."""
    memory.remember(SPACE, [{"text": "I paint on Sundays.", "speaker": "Io"}])
    key, leaked = service.keys.create([SPACE], ["read"])
    _sign_in(service, leaked)
    assert _page(service) == 200

    _, second = service.keys.rotate(key.id, timedelta(0))
    assert _page(service) in (302, 303, 307)  # no grace: the leaked secret's session ends at once
    _sign_in(service, second)
    assert _page(service) == 200  # the new secret's session, opened after the rotation, stays

    _, third = service.keys.rotate(key.id, timedelta(minutes=10))
    assert _page(service) == 200  # the replaced secret works for the grace, and its session too
    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=11)):
        assert _page(service) in (302, 303, 307)  # the grace is over: so is the session
        _sign_in(service, third)
        assert _page(service) == 200
