"""A person's confirmation raises an observation's reliability, within bounds (pure math)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.nous import math as nm

rhos = st.floats(min_value=0.5001, max_value=0.9999, allow_nan=False)
ceilings = st.floats(min_value=0.5001, max_value=0.9999, allow_nan=False)


@given(rhos, ceilings)
def test_a_confirmation_never_lowers_reliability_and_never_reaches_certainty(rho: float, ceiling: float) -> None:
    confirmed = nm.confirmed_reliability(rho, ceiling)
    assert rho <= confirmed < 1.0
    assert confirmed <= max(rho, ceiling)
    if rho < ceiling:
        assert confirmed > rho  # below the ceiling, a confirmation always counts


@given(rhos, rhos, ceilings)
def test_a_more_reliable_report_stays_more_reliable_once_confirmed(a: float, b: float, ceiling: float) -> None:
    low, high = sorted((a, b))
    assert nm.confirmed_reliability(low, ceiling) <= nm.confirmed_reliability(high, ceiling)


@given(rhos, ceilings)
def test_repeated_confirmations_converge_to_the_ceiling(rho: float, ceiling: float) -> None:
    value = rho
    for _ in range(60):
        value = nm.confirmed_reliability(value, ceiling)
    assert value == pytest.approx(max(rho, ceiling), abs=1e-9)


@pytest.mark.parametrize(("rho", "ceiling"), [(0.5, 0.99), (1.0, 0.99), (0.9, 1.0), (0.9, 0.3)])
def test_reliabilities_outside_the_open_interval_are_refused(rho: float, ceiling: float) -> None:
    with pytest.raises(ValueError):
        nm.confirmed_reliability(rho, ceiling)
