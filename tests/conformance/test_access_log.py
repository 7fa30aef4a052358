"""AccessLog contract, on every backend: events come back newest first, filtered by space,
key and time, bounded by a limit, and pruned by age."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from eywa.stores.access import AccessEvent
from eywa.stores.bundle import Stores

T0 = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)


def _event(minute: int, key: str | None, space: str | None, status: int = 200) -> AccessEvent:
    return AccessEvent(
        at=T0 + timedelta(minutes=minute), key_id=key, surface="http" if minute % 2 else "mcp",
        route="POST /v1/spaces/{space}/recall" if minute % 2 else "mcp recall", space=space, status=status,
    )  # fmt: skip


EVENTS = [
    _event(0, "k1", "home"), _event(1, "k2", "home", 403), _event(2, None, "home", 401),
    _event(3, "k1", "work"), _event(4, "k1", None),
]  # fmt: skip


def test_events_come_back_newest_first_and_filtered(stores: Stores) -> None:
    stores.access.record(EVENTS)
    assert stores.access.events() == list(reversed(EVENTS))
    assert stores.access.events(space="home") == [EVENTS[2], EVENTS[1], EVENTS[0]]
    assert stores.access.events(key_id="k1") == [EVENTS[4], EVENTS[3], EVENTS[0]]
    assert stores.access.events(space="home", key_id="k1") == [EVENTS[0]]
    assert stores.access.events(since=T0 + timedelta(minutes=3)) == [EVENTS[4], EVENTS[3]]
    assert stores.access.events(limit=2) == [EVENTS[4], EVENTS[3]]
    assert stores.access.events(space="elsewhere") == []


def test_prune_deletes_what_is_older_than_the_bound(stores: Stores) -> None:
    stores.access.record(EVENTS)
    assert stores.access.prune(T0 + timedelta(minutes=2)) == 2
    assert stores.access.events() == list(reversed(EVENTS[2:]))
    assert stores.access.prune(T0) == 0
    stores.access.record([])  # nothing to write is no write
    assert len(stores.access.events()) == 3
