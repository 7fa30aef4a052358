"""How long a ``Retry-After`` header asks a client to wait, for every HTTP client of Eywa's.

RFC 9110 (10.2.3) allows delta-seconds or an HTTP-date; a proxy, or a server other than
Eywa's (an LLM endpoint behind ``eywa.extraction.clients``), may send either. The API's own
clients (``eywa.client_calls``) and the extractor's LLM client read it here, so a date is
honoured by both, with the same cap.
"""

from __future__ import annotations

import math
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Final

__all__ = ["MAX_RETRY_AFTER_S", "retry_after_seconds"]

MAX_RETRY_AFTER_S: Final = 60.0
"""The longest wait a header may ask for: a client that retries does not sleep for hours."""


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """The seconds a ``Retry-After`` header asks for, in [0, ``MAX_RETRY_AFTER_S``]; None when
    it says nothing usable. A date is read against ``now`` (default the clock; a date past is
    0). ``nan`` is no number of seconds: it passed the clamp as NaN and ``time.sleep`` raised
    ``ValueError`` from inside the Client. Pure given ``now``."""
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = _until(value, now)
    return None if math.isnan(seconds) else min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def _until(http_date: str, now: datetime | None) -> float:
    """Seconds from ``now`` to ``http_date`` (NaN when it is no date; one without a zone is UTC,
    as every HTTP-date is GMT)."""
    try:
        when = parsedate_to_datetime(http_date)
    except (TypeError, ValueError, IndexError):  # IndexError: some malformed dates on older Pythons
        return math.nan
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return (when - (now or datetime.now(timezone.utc))).total_seconds()
