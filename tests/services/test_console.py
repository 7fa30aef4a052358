"""The console over HTTP (no browser): sign-in, the session cookie, CSRF, scoping, escaping,
and the JSON browse routes its pages are built on. The real-browser test is
``test_console_browser.py``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from fastapi.testclient import TestClient

from eywa.memory import Memory
from services.console.auth import LOGIN_CSRF_COOKIE, SESSION_COOKIE, SESSION_MAX_AGE_S
from tests.services.conftest import Service

SPACE = "console-http"
OTHER = "console-other"
HOSTILE = "I moved to <script>alert('x')</script> Lyon last May, not Paris."


@pytest.fixture(scope="module")
def spaces(memory: Memory) -> Iterator[None]:
    memory.remember(SPACE, [
        {"text": "I work at Acme as an engineer.", "speaker": "Dana", "session": "a", "observed_at": "2024-01-05T10:00:00Z"},
        {"text": HOSTILE, "speaker": "Dana", "session": "a", "observed_at": "2024-01-05T10:01:00Z"},
        {"text": "Nice, congratulations!", "speaker": "Lee", "session": "b", "observed_at": "2024-02-01T09:00:00Z"},
    ], wait=True)  # fmt: skip
    memory.remember(OTHER, [{"text": "Secret plans of another tenant.", "speaker": "Kim"}], wait=True)
    yield


def _sign_in(service: Service, secret: str) -> None:
    service.client.get("/console/login")
    token = service.client.cookies.get(LOGIN_CSRF_COOKIE)
    response = service.client.post("/console/login", data={"key": secret, "csrf": token}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/console"


def _secret(service: Service, spaces: list[str], scopes: str = "read") -> str:
    return service.headers(spaces, scopes)["Authorization"].removeprefix("Bearer ")


def test_sign_in_sets_a_strict_httponly_cookie_without_the_secret(service: Service, spaces: None) -> None:
    assert service.client.get("/console", follow_redirects=False).headers["location"] == "/console/login"
    secret = _secret(service, [SPACE])
    service.client.get("/console/login")
    response = service.client.post("/console/login", data={"key": secret, "csrf": service.client.cookies[LOGIN_CSRF_COOKIE]},
                                   follow_redirects=False)  # fmt: skip
    cookie = next(c for c in response.headers.get_list("set-cookie") if c.startswith(SESSION_COOKIE + "="))
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/console" in cookie
    assert secret.split("_", 2)[2] not in cookie  # the cookie names the key; it never carries the secret (eyw_<id>_<secret>)
    page = service.client.get("/console")
    assert page.status_code == 200 and f'data-space="{SPACE}"' in page.text and OTHER not in page.text
    row = page.text.split(f'data-space="{SPACE}"', 1)[1].split("</tr>", 1)[0]  # its own backlog, drained
    assert '<td class="not-embedded">0</td>' in row and '<td class="level1-pending">0</td>' in row
    assert "default-src 'self'" in page.headers["content-security-policy"]


def test_sign_in_refuses_a_foreign_form_and_a_bad_key(service: Service, spaces: None) -> None:
    secret = _secret(service, [SPACE])
    service.client.get("/console/login")
    forged = service.client.post("/console/login", data={"key": secret, "csrf": "guessed"}, follow_redirects=False)
    assert forged.status_code == 403 and SESSION_COOKIE not in forged.headers.get("set-cookie", "")
    wrong = service.client.post("/console/login", data={"key": secret[:-2] + "xx", "csrf": service.client.cookies[LOGIN_CSRF_COOKIE]})
    assert wrong.status_code == 401 and "unknown, revoked, expired" in wrong.text


def test_a_key_opens_only_its_spaces_and_loses_the_console_when_revoked(service: Service, spaces: None) -> None:
    secret = _secret(service, [SPACE])
    _sign_in(service, secret)
    assert service.client.get(f"/console/spaces/{SPACE}").status_code == 200
    refused = service.client.get(f"/console/spaces/{OTHER}")
    assert refused.status_code == 403 and "Secret plans" not in refused.text
    service.keys.revoke(service.keys.list()[-1].id)
    assert service.client.get(f"/console/spaces/{SPACE}", follow_redirects=False).headers["location"] == "/console/login"


def test_a_forged_cookie_is_no_session_and_bearer_needs_no_cookie(service: Service, spaces: None) -> None:
    service.client.cookies.set(SESSION_COOKIE, "eyJrIjoiYWRtaW4ifQ.forged.sig", path="/console")
    assert service.client.get("/console", follow_redirects=False).status_code == 303
    service.client.cookies.clear()
    headers = service.headers([SPACE], "read")
    assert service.client.get(f"/console/spaces/{SPACE}/entities", headers=headers).status_code == 200
    assert service.client.get(f"/console/spaces/{OTHER}", headers=headers).status_code == 403
    assert service.client.get("/console", headers={"Authorization": "Bearer eyw_nope_nope"}).status_code == 401


def test_sign_out_needs_the_session_token(service: Service, spaces: None) -> None:
    _sign_in(service, _secret(service, [SPACE]))
    page = service.client.get("/console").text
    token = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    assert service.client.post("/console/logout", data={"csrf": "not-it"}).status_code == 403
    out = service.client.post("/console/logout", data={"csrf": token}, follow_redirects=False)
    assert out.status_code == 303 and f'{SESSION_COOKIE}=""' in out.headers["set-cookie"]


def test_turn_text_is_escaped_and_signals_are_marked(service: Service, spaces: None) -> None:
    page = service.client.get(f"/console/spaces/{SPACE}", headers=service.headers([SPACE], "read")).text
    assert "<script>alert" not in page and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert '<mark class="sig sig-date" title="date: 2023-05">last May</mark>' in page  # resolved against the turn's date
    assert '<mark class="sig sig-negation" title="negation: negation">not</mark>' in page


def test_browse_routes_page_the_timeline_and_list_only_the_keys_spaces(service: Service, spaces: None) -> None:
    headers = service.headers([SPACE], "read")
    listed = service.client.get("/v1/spaces", headers=headers).json()
    assert [s["space"] for s in listed["items"]] == [SPACE] and listed["items"][0]["turns"] == 3
    first = service.client.get(f"/v1/spaces/{SPACE}/timeline", params={"limit": 2}, headers=headers).json()
    assert [t["session"] for t in first["items"]] == ["a", "a"] and first["next_offset"] == 2
    rest = service.client.get(f"/v1/spaces/{SPACE}/timeline", params={"offset": 2}, headers=headers).json()
    assert [t["speaker"] for t in rest["items"]] == ["Lee"] and rest["next_offset"] is None
    lee = service.client.get(f"/v1/spaces/{SPACE}/timeline", params={"speaker": "Lee"}, headers=headers).json()
    assert [t["text"] for t in lee["items"]] == ["Nice, congratulations!"]
    window = service.client.get(f"/v1/spaces/{SPACE}/timeline", params={"since": "2024-02-01T00:00:00Z"}, headers=headers)
    assert [t["speaker"] for t in window.json()["items"]] == ["Lee"]
    entities = service.client.get(f"/v1/spaces/{SPACE}/entities", headers=headers).json()["items"]
    assert any(e["entity"] == "Dana" and "employer" in e["attributes"] for e in entities)
    assert service.client.get(f"/v1/spaces/{OTHER}/timeline", headers=headers).status_code == 403


def test_the_recall_inspector_draws_the_plan_routes_fusion_and_context(service: Service, spaces: None, memory: Memory) -> None:
    headers = service.headers([SPACE], "read")
    question = "Where does Dana work?"
    page = service.client.get(f"/console/spaces/{SPACE}/recall", params={"q": question}, headers=headers).text
    trace = memory.recall(SPACE, question, k=5).trace
    assert f'<dd class="shape">{trace["plan"]["shape"]}</dd>' in page
    assert trace["routes"] and all(f'data-route="{route}"' in page for route in trace["routes"])
    assert page.count('<tr><td>', page.index('class="fused"')) >= len(trace["fused"])
    assert "Acme" in page.split('class="context"', 1)[1]  # the packed context holds the answer
    empty = service.client.get(f"/console/spaces/{SPACE}/recall", headers=headers).text
    assert 'class="context"' not in empty  # no question, no recall


def test_console_errors_are_pages_and_the_as_of_control_cuts_the_delta_log(service: Service, spaces: None, memory: Memory) -> None:
    headers = service.headers([SPACE], "read")
    missing = service.client.get(f"/console/spaces/{SPACE}/beliefs/bel_nope", headers=headers)
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert "bel_nope" in missing.text
    bad = service.client.get(f"/console/spaces/{SPACE}/entities/Dana/dimensions/employer", params={"as_of": "soon"}, headers=headers)
    assert bad.status_code == 400 and "as_of must be an ISO-8601" in bad.text
    before = service.client.get(f"/console/spaces/{SPACE}/entities/Dana/dimensions/employer", params={"as_of": "2023-12-31"}, headers=headers)
    assert before.status_code == 404  # nothing was observed by then
    now = service.client.get(f"/console/spaces/{SPACE}/entities/Dana/dimensions/employer", params={"as_of": "2024-03-01"}, headers=headers)
    rows = now.text.count('<tr id="delta-')
    assert rows == len(memory.deltas(SPACE, "Dana", "employer")) >= 1 and "Acme" in now.text
    assert service.client.get(f"/v1/spaces/{SPACE}/beliefs/bel_nope/explain", headers=headers).headers["content-type"] == "application/problem+json"


def test_beliefs_and_candidates_page_with_offset_and_limit(service: Service, spaces: None, memory: Memory) -> None:
    headers = service.headers([SPACE], "read")
    every = memory.beliefs(SPACE, status=None)
    assert every
    pages = [service.client.get(f"/v1/spaces/{SPACE}/beliefs", params={"status": "any", "offset": i, "limit": 1},
                                headers=headers).json() for i in range(len(every) + 1)]  # fmt: skip
    assert [b["id"] for page in pages for b in page] == [b.id for b in every] and pages[-1] == []
    whole = service.client.get(f"/v1/spaces/{SPACE}/candidates", params={"status": "any"}, headers=headers).json()
    assert service.client.get(f"/v1/spaces/{SPACE}/candidates", params={"status": "any", "offset": len(whole)},
                              headers=headers).json() == []  # fmt: skip
    assert service.client.get(f"/v1/spaces/{SPACE}/beliefs", params={"limit": 0}, headers=headers).status_code == 422


def test_the_entities_page_shows_a_page_of_entities_and_links_the_next(service: Service, memory: Memory) -> None:
    space = "console-entities"
    memory.remember(space, [
        {"text": f"I work at {firm} as an engineer.", "speaker": name, "session": "a", "observed_at": f"2024-01-0{n}T10:00:00Z"}
        for n, (name, firm) in enumerate([("Ines", "Acme"), ("Omar", "Globex"), ("Priya", "Initech")], start=1)
    ], wait=True)  # fmt: skip
    headers = service.headers([space], "read")
    named = [e["entity"] for e in service.client.get(f"/v1/spaces/{space}/entities", headers=headers).json()["items"]]
    assert len(named) >= 3

    def shown(text: str) -> list[str]:
        return [part.split("</h2>", 1)[0].split(">", 1)[1] for part in text.split('<h2 id="entity-')[1:]]

    first = service.client.get(f"/console/spaces/{space}/entities", params={"limit": 2}, headers=headers).text
    assert shown(first) == named[:2] and 'href="?offset=2&amp;limit=2">Next</a>' in first and "Previous" not in first
    last_offset = (len(named) - 1) // 2 * 2
    last = service.client.get(f"/console/spaces/{space}/entities", params={"offset": last_offset, "limit": 2}, headers=headers)
    assert shown(last.text) == named[last_offset:] and ">Next</a>" not in last.text and ">Previous</a>" in last.text
    bad = service.client.get(f"/console/spaces/{space}/entities", params={"limit": 0}, headers=headers)
    assert bad.status_code == 422


def test_a_turn_page_lists_the_beliefs_that_cite_it(service: Service, spaces: None, memory: Memory) -> None:
    headers = service.headers([SPACE], "read")
    cited = {i for b in memory.beliefs(SPACE, status=None) for i in b.evidence_ids}
    turn_id = sorted(cited)[0]
    page = service.client.get(f"/console/spaces/{SPACE}/turns/{turn_id}", headers=headers).text
    citing = [b for b in memory.beliefs(SPACE, status=None) if turn_id in b.evidence_ids]
    assert citing and all(f"/beliefs/{b.id}" in page for b in citing)
    assert {b.id for b in memory.beliefs_citing(SPACE, turn_id)} == {b.id for b in citing}


def test_the_audit_page_lists_refusals_merges_and_erasures_without_erased_content(service: Service, memory: Memory) -> None:
    space = "console-audit"
    ids = memory.remember(space, [
        {"text": "I work at Initech now.", "speaker": "Robin", "session": "a", "observed_at": "2024-03-01T10:00:00Z"},
        {"text": "My passport number is ZX-4471.", "speaker": "Robin", "session": "a", "observed_at": "2024-03-01T10:01:00Z"},
        {"text": "Yesterday I met Rob at the Initech office.", "speaker": "Robin", "session": "a", "observed_at": "2024-03-01T10:02:00Z"},
    ], wait=True)  # fmt: skip  # "Rob" must be an entity of the space to be merged
    memory.accept_merge(space, "Robin", "Rob", 0.9, author="key_a")
    memory.undo_merge(space, "Robin", "Rob", author="key_b")
    erased = memory.forget(space, evidence_ids=[ids[1]], author="auditor")
    page = service.client.get(f"/console/spaces/{space}/refused", headers=service.headers([space], "read")).text
    assert f"<code>{erased.erasure_id}</code>" in page and "auditor" in page
    assert "ZX-4471" not in page and "passport" not in page  # the record never shows erased words
    merges = page.split('class="merges"', 1)[1].split("</table>", 1)[0]
    assert "<td>robin</td><td>rob</td><td>0.90</td>" in merges and merges.count("<tr>") == 2  # header and the undone merge
    assert "<td></td></tr>" not in merges  # its undo time is shown
    assert "<td>key_a</td>" in merges and "<td>key_b</td></tr>" in merges  # who merged, who undid
    for candidate in memory.candidates(space, None):
        assert all(f'<code class="reason">{r.value}</code>' in page for r in candidate.reasons)


def test_the_session_cookie_is_secure_over_https_and_ends_after_eight_hours(service: Service, spaces: None) -> None:
    secure = TestClient(service.app, base_url="https://testserver")
    secure.get("/console/login")
    signed = secure.post("/console/login", data={"key": _secret(service, [SPACE]), "csrf": secure.cookies[LOGIN_CSRF_COOKIE]},
                         follow_redirects=False)  # fmt: skip
    assert "Secure" in next(c for c in signed.headers.get_list("set-cookie") if c.startswith(SESSION_COOKIE + "="))
    assert secure.get("/console", follow_redirects=False).status_code == 200
    with time_machine.travel(datetime.now(timezone.utc) + timedelta(seconds=SESSION_MAX_AGE_S + 60)):
        assert secure.get("/console", follow_redirects=False).headers["location"] == "/console/login"
    secure.close()
