"""The delta a state answer cites for a value is the last one observing it (case-blind),
positive only or up to a time when asked: grouping the deltas by value once gives exactly
what scanning all of them per value gave."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from eywa.models import Delta
from eywa.read.answers import _by_value, _latest

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
VALUES = ["hiking", "Hiking", "chess", "CHESS", "piano"]


def delta(n: int, observed: str, positive: bool, day: int) -> Delta:
    at = T0 + timedelta(days=day)
    return Delta(
        id=f"d{n}", space="s", entity="ana", attribute="hobbies", observed=observed,
        polarity="positive" if positive else "negative", prior={}, posterior={}, surprise_bits=0.0,
        hazard=0.0, reliability=1.0, at=at, recorded_at=at, belief_id=f"b{n}", evidence_ids=(f"e{n}",),
    )  # fmt: skip


def scanned(deltas: list[Delta], value: str, positive: bool, until: datetime | None) -> Delta | None:
    """The reference: every delta looked at for the value."""
    found = [
        d for d in deltas
        if d.observed.casefold() == value.casefold()
        and (not positive or d.polarity == "positive") and (until is None or d.at <= until)
    ]  # fmt: skip
    return found[-1] if found else None


@given(
    rows=st.lists(st.tuples(st.sampled_from(VALUES), st.booleans(), st.integers(0, 30)), max_size=40),
    value=st.sampled_from([*VALUES, "violin"]),
    positive=st.booleans(),
    until=st.one_of(st.none(), st.integers(0, 30)),
)
def test_the_last_delta_of_a_value_is_the_one_a_full_scan_finds(
    rows: list[tuple[str, bool, int]], value: str, positive: bool, until: int | None
) -> None:
    deltas = [delta(n, observed, pos, day) for n, (observed, pos, day) in enumerate(rows)]
    cut = None if until is None else T0 + timedelta(days=until)
    assert _latest(_by_value(deltas), value, positive=positive, until=cut) == scanned(deltas, value, positive, cut)
