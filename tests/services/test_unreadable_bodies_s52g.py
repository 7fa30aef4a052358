"""A JSON body no decoder reads is refused saying why, not with "There was an error parsing the body".

FastAPI answers a body ``json.loads`` refuses for a reason other than its syntax with a 400
whose only words are "There was an error parsing the body": an integer of 5,000 digits (past
Python's conversion limit), bytes that are not UTF-8, arrays nested beyond the decoder. The
status and code stay (400 ``bad_request``, docs/service.md's errors table); the detail and
the ``body`` field now say what to fix. A body sent with a ``charset`` that reads its bytes
otherwise than UTF-8 (``Ã©`` in ISO-8859-1 is ``é`` in UTF-8) is refused the same way rather
than read as text its sender did not write. A syntax error is still 422 ``validation_error``.
"""

from __future__ import annotations

import sys

import pytest

from eywa.memory import Memory
from tests.services.conftest import Service

OWN = "unreadable-s52g"


@pytest.mark.parametrize(
    ("body", "content_type", "said"),
    [
        (b'{"query": "Where does Nadia work?", "k": ' + b"7" * 5000 + b"}", "application/json",
         f"holds an integer of more than {sys.get_int_max_str_digits()} digits"),
        ('{"query": "Où travaille Nadia ?"}'.encode("latin-1"), "application/json; charset=ISO-8859-1",
         "byte 0xf9 at offset 12 is not UTF-8; a JSON body is UTF-8 text (the charset=ISO-8859-1 its Content-Type names is not read)"),
        (b'{"query": "\xff\xfeWhere"}', "application/json; charset=utf-8", "byte 0xff at offset 11 is not UTF-8; a JSON body is UTF-8 text"),
        (b'{"query": "\xc0\x80"}', "application/json", "byte 0xc0 at offset 11 is not UTF-8"),
        ('{"query": "Ã©"}'.encode("latin-1"), "application/json; charset=latin-1",
         "sent as charset=latin-1, which reads its bytes otherwise than UTF-8 does"),
        (b'{"query": ' + b"[" * 200_000 + b"]" * 200_000 + b"}", "application/json",
         "arrays or objects nested deeper than the JSON decoder reads"),
    ],
    ids=["long integer", "latin-1 bytes", "not utf-8 with charset", "overlong utf-8", "latin-1 read as utf-8", "deep"],
)  # fmt: skip
def test_a_body_no_decoder_reads_is_refused_saying_why(
    service: Service, memory: Memory, body: bytes, content_type: str, said: str
) -> None:
    headers = {**service.headers([OWN], "read,write"), "Content-Type": content_type}
    refused = service.client.post(f"/v1/spaces/{OWN}/recall", content=body, headers=headers)
    assert refused.status_code == 400, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    problem = refused.json()
    assert problem["code"] == "bad_request" and problem["detail"].startswith(f"body: {said}"), problem
    assert problem["errors"][0]["field"] == "body" and "parsing the body" not in problem["detail"]


def test_a_turn_with_a_long_integer_writes_nothing(service: Service, memory: Memory) -> None:
    headers = {**service.headers([OWN], "read,write"), "Content-Type": "application/json"}
    body = b'{"turns": [{"text": "I work at Globex.", "speaker": "Tom", "metadata": {"n": ' + b"9" * 4400 + b"}}]}"
    refused = service.client.post(f"/v1/spaces/{OWN}/turns", content=body, headers=headers)
    assert refused.status_code == 400 and f"more than {sys.get_int_max_str_digits()} digits" in refused.json()["detail"], refused.text
    assert memory.stats(OWN)["evidence"] == 0


def test_readable_bodies_are_served_and_broken_syntax_is_refused_as_before(service: Service) -> None:
    headers = service.headers([OWN], "read,write")
    for content_type, body in [
        ("application/json", '{"query": "Où travaille Nadia ?"}'.encode()),
        ("application/json; charset=UTF-8", '{"query": "Où travaille Nadia ?"}'.encode()),
        ("application/json; charset=latin-1", b'{"query": "Where does Nadia work?"}'),  # ASCII: both read the same
        ("application/json; charset=utf-16", '{"query": "Où travaille Nadia ?"}'.encode("utf-16")),
    ]:
        answer = service.client.post(f"/v1/spaces/{OWN}/recall", content=body, headers={**headers, "Content-Type": content_type})
        assert answer.status_code == 200 and answer.json()["query"].endswith("Nadia work?" if body.isascii() else "Nadia ?")
    long = b'{"query": "Where does Nadia work?", "k": ' + b"7" * 300 + b"}"  # read, then the core's bound
    over = service.client.post(f"/v1/spaces/{OWN}/recall", content=long, headers={**headers, "Content-Type": "application/json"})
    assert over.status_code == 422 and over.json()["errors"][0]["field"] == "body.k", over.text
    broken = service.client.post(f"/v1/spaces/{OWN}/recall", content=b'{"query": "a",', headers={**headers, "Content-Type": "application/json"})
    assert broken.status_code == 422 and broken.json()["code"] == "validation_error", broken.text
