"""When a single-valued attribute's previous value last held (``last_change``): the moment
"Where did Ana use to live?" is read just before."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from eywa.models import Delta
from eywa.read.routes.dimension import last_change

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


def delta(n: int, observed: str, positive: bool, said: int, began: int | None = None,
          modality: str = "asserted") -> Delta:
    return Delta.model_validate(dict(
        id=f"d{n}", space="s", entity="ana", attribute="residence", observed=observed,
        polarity="positive" if positive else "negative", modality=modality, prior={}, posterior={},
        surprise_bits=0.0, hazard=0.0, reliability=1.0, at=day(said), recorded_at=day(said), belief_id=f"b{n}",
        evidence_ids=(f"e{n}",), valid_from=day(began) if began is not None else None,
    ))  # fmt: skip


def test_a_new_value_began_when_its_run_began() -> None:
    # Leeds, Leeds again, then Manchester said twice: the change is Manchester's first saying.
    deltas = [delta(1, "Leeds", True, 0), delta(2, "Leeds", True, 5), delta(3, "Manchester", True, 20),
              delta(4, "manchester", True, 30)]  # fmt: skip
    assert last_change(deltas, None) == day(20)
    # Its stated start, when said ("we moved last month").
    assert last_change([delta(1, "Leeds", True, 0), delta(2, "Manchester", True, 40, began=31)], None) == day(31)


def test_a_value_said_to_end_ended_the_state_and_an_end_before_the_next_comes_first() -> None:
    # Left Initech with nothing since: the end.
    assert last_change([delta(1, "Initech", True, 0), delta(2, "Initech", False, 10)], None) == day(10)
    # Sara, the split, then Julia: the state before the split held Sara.
    sara_then_julia = [delta(1, "Sara", True, 0), delta(2, "Sara", False, 10), delta(3, "Julia", True, 30)]
    assert last_change(sara_then_julia, None) == day(10)
    # As of before Julia, the split is still the last change; as of before the split, none.
    assert last_change(sara_then_julia, day(20)) == day(10)
    assert last_change(sara_then_julia, day(5)) is None


def test_no_change_when_the_first_value_still_holds_or_only_plans_were_said() -> None:
    assert last_change([delta(1, "Leeds", True, 0), delta(2, "Leeds", True, 9)], None) is None
    assert last_change([delta(1, "Leeds", True, 0), delta(2, "Paris", True, 9, modality="planned")], None) is None
    assert last_change([], None) is None


@given(st.lists(st.tuples(st.sampled_from(["Leeds", "Paris", "Rome"]), st.booleans(), st.integers(0, 60)),
                max_size=12),
       st.one_of(st.none(), st.integers(0, 60)))  # fmt: skip
def test_the_change_is_never_after_the_read_time_nor_before_the_first_value(
    rows: list[tuple[str, bool, int]], as_of: int | None
) -> None:
    deltas = [delta(n, value, positive, said) for n, (value, positive, said) in enumerate(rows)]
    change = last_change(deltas, day(as_of) if as_of is not None else None)
    if change is not None:
        known = [d for d in deltas if as_of is None or d.at <= day(as_of)]
        assert min(d.at for d in known if d.polarity == "positive") <= change
        assert as_of is None or change <= day(as_of)
