"""Packing: budgets are respected, sessions grouped and ordered by time."""

from __future__ import annotations

from datetime import datetime, timezone

from eywa.models import EvidenceRef, RecallItem
from eywa.read.packing import estimate_tokens, pack


def _item(i: int, session: str, day: int, text: str) -> RecallItem:
    at = datetime(2023, 5, day, 12, 0, tzinfo=timezone.utc)
    ref = EvidenceRef(id=f"ev{i}", session=session, speaker="Ana", observed_at=at)
    return RecallItem(kind="evidence", id=f"ev{i}", text=text, score=1.0 / (i + 1),
                      provenance=(ref,), session=session, observed_at=at)


ITEMS = [_item(0, "s2", 20, "second session line"), _item(1, "s1", 3, "first session line"),
         _item(2, "s2", 20, "x" * 400)]


def test_sessions_are_ordered_by_date_with_weekday_headers() -> None:
    kept, context, tokens = pack(ITEMS[:2], None)
    assert context.index("Wednesday 03 May 2023") < context.index("Saturday 20 May 2023")
    assert "Ana: first session line" in context and tokens == estimate_tokens(context)


def test_budget_skips_items_that_do_not_fit_but_keeps_later_small_ones() -> None:
    kept, context, tokens = pack([ITEMS[2], ITEMS[0], ITEMS[1]], budget_tokens=60)
    assert [i.id for i in kept] == ["ev0", "ev1"]
    assert tokens <= 60


def test_no_budget_keeps_everything() -> None:
    kept, _, _ = pack(ITEMS, None)
    assert len(kept) == 3
