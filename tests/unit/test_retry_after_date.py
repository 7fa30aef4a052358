"""``Retry-After`` as RFC 9110 (10.2.3) allows it: delta-seconds or an HTTP-date. The clients
honoured the seconds form only; a date (a proxy's, a gateway's) fell back to the client's
own backoff, a tenth of a second where the server asked for minutes. Both forms are capped
at a minute, and a date already past is no wait. Both clients waiting the date they are
given: ``tests/services/test_client.py`` and ``test_async_client.py``."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import httpx
import pytest

from eywa.client import Client
from eywa.client_calls import retry_after_seconds, retry_delay
from eywa.errors import OverloadedError

NOW = datetime(2026, 12, 6, 0, 0, 0, tzinfo=timezone.utc)


def _date(after_s: float, now: datetime = NOW) -> str:
    return format_datetime(now + timedelta(seconds=after_s), usegmt=True)


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("Sun, 06 Dec 2026 00:00:30 GMT", 30.0),  # IMF-fixdate
        ("Sunday, 06-Dec-26 00:00:30 GMT", 30.0),  # obsolete RFC 850 form
        ("Sun Dec  6 00:00:30 2026", 30.0),  # obsolete asctime form (no zone: GMT)
        (_date(600), 60.0),  # capped as the seconds form is
        (_date(-30), 0.0),  # already past: no wait
        ("30", 30.0),
        ("600", 60.0),
        ("-5", 0.0),
        ("nan", None),
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_reads_seconds_and_dates(header: str | None, seconds: float | None) -> None:
    assert retry_after_seconds(header, now=NOW) == seconds


def test_a_date_the_header_cannot_carry_falls_back_to_backoff() -> None:
    assert retry_delay(0, "Sun, 06 Dec 2026 00:00:30 GMT", 0.1, now=NOW) == 30.0
    assert 0.1 <= retry_delay(0, "Sun, 32 Foo 2026 00:00:30 GMT", 0.1, now=NOW) <= 0.15


def test_an_overloaded_answer_without_its_body_reads_the_date_too() -> None:
    later = _date(5, datetime.now(timezone.utc))
    transport = httpx.MockTransport(lambda request: httpx.Response(503, headers={"Retry-After": later}, json={"code": "overloaded"}))
    with Client("http://eywa.test", "eyw_a_b", retries=0, transport=transport) as client:
        with pytest.raises(OverloadedError) as refused:
            client.remember("s", [{"text": "hi"}])
    assert 4 <= refused.value.retry_after_s <= 5  # it was 1, the default, for a date
