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
