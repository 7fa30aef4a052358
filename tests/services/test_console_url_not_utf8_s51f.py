"""The console refuses a path or query value that is not UTF-8, as the API does (s51 fuzzing).

README, "The input contract": over HTTP a value whose percent-escapes are not UTF-8 is
refused by its name, not read as U+FFFD (``tests/services/test_url_not_utf8.py``). The API
checks that in its gate, which only sees ``/v1``: the console read ``/console/spaces/%FF``
as the space ``"\ufffd"`` (a timeline titled "Timeline of \ufffd"), ``?speaker=Jos%E9`` as
a speaker nobody sent and ``recall?q=%FF`` as a question of U+FFFD. Such a value is now the
console's 422 page naming the parameter; U+FFFD sent as its UTF-8 is a name like any other.
"""

from __future__ import annotations

import pytest

from tests.services.conftest import Service


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/console/spaces/%FF", "path.space"),
        ("/console/spaces/Jos%E9/recall?q=where", "path.space"),
        ("/console/spaces/cu8/turns/ev%ED%A0%80", "path.evidence_id"),
        ("/console/spaces/cu8/entities/Ren%E9e/dimensions/employer", "path.entity"),
        ("/console/spaces/cu8?speaker=Jos%E9", "query.speaker"),
        ("/console/spaces/cu8/recall?q=%FF&k=3", "query.q"),
        ("/console/spaces/cu8/beliefs?status=%C0%80", "query.status"),
    ],
)  # fmt: skip
def test_a_console_value_that_is_not_utf8_is_refused_by_its_name(service: Service, url: str, field: str) -> None:
    answer = service.client.get(url, headers=service.headers(["*"], "read"))
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("text/html")
    assert f"{field.partition('.')[2]}: not valid UTF-8" in answer.text, answer.text


def test_the_replacement_character_sent_as_utf8_is_a_console_name_like_any_other(service: Service) -> None:
    headers = service.headers(["*"], "read")
    page = service.client.get("/console/spaces/%EF%BF%BD?speaker=Z%C3%A9d", headers=headers)
    assert page.status_code == 200 and "Timeline of \ufffd" in page.text


def test_a_console_page_without_a_key_still_asks_to_sign_in_first(service: Service) -> None:
    answer = service.client.get("/console/spaces/%FF", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/console/login"
