"""docs/service.md, Console: "the key is looked up on every request, so revoking *or
expiring* it ends the session at once" (audit of s14; revocation was tested, expiry not).
A session is signed for eight hours, so only the key lookup can end it one hour in."""

from __future__ import annotations

import re
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


def test_every_console_page_loads_its_assets_from_the_console_itself(service: Service, memory: Memory) -> None:
    """README, Console: "Server-rendered pages with every asset in the package (no CDN, works
    offline)" (audit of s21: only the headless-browser test, which needs Chromium, looked).
    Each page's ``src``, ``href`` and CSS ``url()`` stay on the console's own origin, and
    the assets it names are served."""
    memory.remember(SPACE, [{"text": "I work at Acme as an engineer.", "speaker": "Dana",
                             "observed_at": "2024-01-05T10:00:00Z"}], wait=True)  # fmt: skip
    headers = service.headers([SPACE], "read")
    pages = ["/console/login", "/console", f"/console/spaces/{SPACE}", f"/console/spaces/{SPACE}/entities",
             f"/console/spaces/{SPACE}/beliefs", f"/console/spaces/{SPACE}/refused",
             f"/console/spaces/{SPACE}/recall?q=Where+does+Dana+work%3F",
             f"/console/spaces/{SPACE}/entities/Dana/dimensions/employer"]  # fmt: skip
    assets: set[str] = set()
    for page in pages:
        answer = service.client.get(page, headers=headers)
        assert answer.status_code == 200, (page, answer.status_code)
        links = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)["']|url\(\s*["']?([^"')]*)""", answer.text)
        for link in (a or b for a, b in links):
            assert not re.match(r"^(?:[a-z][a-z0-9+.-]*:)?//", link, re.IGNORECASE), (page, link)
            if link.startswith("/console/static/"):
                assets.add(link)
    assert assets  # the pages do name their stylesheet
    for asset in sorted(assets):
        served = service.client.get(asset)
        assert served.status_code == 200 and served.content, asset
        assert not re.search(r"""url\(\s*["']?(?:https?:)?//""", served.text), asset
