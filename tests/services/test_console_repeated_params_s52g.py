"""A console page refuses a parameter given twice, as ``/v1`` does (s52 fuzzing).

Every query parameter of a console page and every field of its forms takes one value, and
Starlette keeps the last of two: ``recall?q=Where does Priya work?&q=Where does Bo work?``
asked Bo's question, ``beliefs?status=retracted&status=any`` listed every belief, a sign-in
posting ``key`` twice tried the second one. ``/v1`` refuses a repeated query parameter with
422 ``invalid_input`` (``test_query_names_s51g``); the console now answers its own 422 page
naming the parameter. A page without a key still asks to sign in first.
"""

from __future__ import annotations

import pytest

from services.console.auth import LOGIN_CSRF_COOKIE
from tests.services.conftest import Service

SPACE = "console-twice-s52g"


@pytest.mark.parametrize(
    ("url", "name"),
    [
        (f"/console/spaces/{SPACE}/recall?q=Where+does+Priya+work%3F&q=Where+does+Bo+work%3F", "q"),
        (f"/console/spaces/{SPACE}/recall?q=Where+does+Priya+work%3F&k=3&k=30", "k"),
        (f"/console/spaces/{SPACE}/beliefs?status=retracted&status=any", "status"),
        (f"/console/spaces/{SPACE}?speaker=Priya&speaker=Bo", "speaker"),
        (f"/console/spaces/{SPACE}?from=2024-01-01&to=2024-02-01&from=2023-01-01", "from"),
        (f"/console/spaces/{SPACE}/entities?offset=0&offset=20", "offset"),
        (f"/console/spaces/{SPACE}/entities/Priya/dimensions/employer?as_of=2024-01-01&as_of=2025-01-01", "as_of"),
    ],
)  # fmt: skip
def test_a_console_parameter_given_twice_is_refused_by_its_name(service: Service, url: str, name: str) -> None:
    answer = service.client.get(url, headers=service.headers(["*"], "read"))
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("text/html")
    assert f"{name}: given more than once; give each parameter once" in answer.text, answer.text


def test_each_parameter_given_once_is_served(service: Service) -> None:
    headers = service.headers(["*"], "read")
    page = service.client.get(f"/console/spaces/{SPACE}/recall?q=Where+does+Priya+work%3F&k=3&as_of=", headers=headers)
    assert page.status_code == 200, page.text
    timeline = service.client.get(f"/console/spaces/{SPACE}?speaker=Priya&from=2024-01-01&to=2024-02-01", headers=headers)
    assert timeline.status_code == 200, timeline.text


def test_a_page_without_a_key_still_asks_to_sign_in_first(service: Service) -> None:
    answer = service.client.get(f"/console/spaces/{SPACE}/beliefs?status=a&status=b", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/console/login"


def test_a_sign_in_posting_its_key_twice_is_refused(service: Service) -> None:
    first = service.headers([SPACE], "read")["Authorization"].removeprefix("Bearer ")
    second = service.headers(["*"], "read")["Authorization"].removeprefix("Bearer ")
    service.client.get("/console/login")
    token = service.client.cookies[LOGIN_CSRF_COOKIE]
    refused = service.client.post(
        "/console/login", content=f"key={first}&csrf={token}&key={second}".encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"}, follow_redirects=False,
    )  # fmt: skip
    assert refused.status_code == 422, refused.text
    assert "key: given more than once" in refused.text and "eywa_console" not in refused.headers.get("set-cookie", "")
    signed = service.client.post("/console/login", data={"key": first, "csrf": token}, follow_redirects=False)
    assert signed.status_code == 303 and signed.headers["location"] == "/console"
