"""EvidenceStore and KeywordIndex contract, on every backend: idempotent and atomic batches,
space isolation, session order, date windows, mentions and keyword search."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from eywa.contract import SpaceUsage, turn_bytes
from eywa.ids import entity_id
from eywa.models import Entity, Evidence, SignalKind
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.batches import PreparedBatch, coerce_turns, prepare_batch

UTC = timezone.utc
RECORDED = datetime(2024, 1, 1, tzinfo=UTC)
SESSION: list[dict[str, Any]] = [
    {"text": "I started a new job at Acme last Monday.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-05-25T10:00:00", "metadata": {"dia_id": "D1:1"}},
    {"text": "Congrats Ana! What do you do there?", "speaker": "Ben", "session": "s1",
     "observed_at": "2023-05-25T10:01:00"},
    {"text": "I'm a data engineer. It pays $1,200 more a month.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-05-25T10:02:00"},
    {"text": "We are going hiking in the Alps on 4 July 2023.", "speaker": "Ben", "session": "s1",
     "observed_at": "2023-05-25T10:03:00"},
    {"text": "Sounds lovely, send photos.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-05-25T10:04:00"},
]  # fmt: skip


def prepare(stores: Stores, space: str, turns: list[dict[str, Any]]) -> PreparedBatch:
    return prepare_batch(space, coerce_turns(turns), stores.evidence, detect_signals, now=RECORDED)


def write(stores: Stores, space: str, turns: list[dict[str, Any]]) -> list[str]:
    batch = prepare(stores, space, turns)
    stores.evidence.add(batch.new, batch.mentions)
    return batch.ids


def test_add_round_trips_and_is_idempotent(stores: Stores) -> None:
    batch = prepare(stores, "ana", SESSION)
    assert stores.evidence.add(batch.new, batch.mentions) == batch.ids
    assert stores.evidence.add(batch.new, batch.mentions) == []
    assert stores.evidence.get("ana", list(reversed(batch.ids))) == list(reversed(batch.new))
    assert stores.evidence.count("ana") == len(SESSION)
    assert stores.evidence.ids("ana") == batch.ids and stores.evidence.ids() == batch.ids
    assert stores.evidence.existing("ana", [batch.ids[0], "ev_missing"]) == {batch.ids[0]}
    assert stores.evidence.next_seq("ana", "s1") == len(SESSION)
    assert stores.evidence.next_seq("ana", "s2") == 0
    signals = stores.evidence.count_signals("ana")
    assert signals[SignalKind.MONEY.value] == 1 and signals[SignalKind.DATE.value] >= 2


def test_speakers_are_read_alone_within_the_space(stores: Stores) -> None:
    ids = write(stores, "ana", [*SESSION[:2], {"text": "A note to self.", "session": "s1"}])
    assert stores.evidence.speakers("ana", [ids[1], "ev_missing", ids[0], ids[2]]) == {
        ids[0]: "Ana", ids[1]: "Ben", ids[2]: None
    }
    assert stores.evidence.speakers("zed", ids) == {} and stores.evidence.speakers("ana", []) == {}


def test_a_failing_batch_writes_nothing(stores: Stores) -> None:
    batch = prepare(stores, "ana", SESSION[:3])
    broken = batch.new[2].model_copy(update={"metadata": {"bad": object()}})
    with pytest.raises((TypeError, ValueError)):
        stores.evidence.add([*batch.new[:2], broken], batch.mentions)
    assert stores.evidence.count("ana") == 0
    assert stores.evidence.entities("ana") == [] and stores.evidence.spaces() == []
    assert stores.evidence.add(batch.new, batch.mentions) == batch.ids  # the retry goes through


def test_spaces_are_isolated(stores: Stores) -> None:
    ana = write(stores, "ana", SESSION[:2])
    zed = write(stores, "zed", [{"text": "Acme hired me too.", "speaker": "Zed", "session": "s1"}])
    assert stores.evidence.spaces() == ["ana", "zed"]
    assert stores.evidence.get("zed", ana) == [] and stores.evidence.existing("zed", ana) == set()
    assert stores.evidence.next_seq("zed", "s1") == 1
    names = [e.name for e in stores.evidence.entities("zed")]
    assert "Zed" in names and "Ana" not in names and "Ben" not in names
    assert stores.evidence.mentions("zed", ana) == {}
    hits = stores.keyword.search("zed", "Acme job", 10)
    assert [h[1] for h in hits] == zed
    assert {h[1] for h in stores.keyword.search("ana", "Acme job", 10)} <= set(ana)


def test_neighbours_follow_the_session_order(stores: Stores) -> None:
    ids = write(stores, "ana", SESSION)
    write(stores, "ana", [{"text": "Another chat entirely.", "session": "s2"}])
    around = stores.evidence.neighbours("ana", ids[2], before=1, after=1)
    assert [e.id for e in around] == [ids[1], ids[3]]
    assert [e.seq for e in stores.evidence.neighbours("ana", ids[0], 0, 10)] == [1, 2, 3, 4]
    assert stores.evidence.neighbours("ana", "ev_missing", 2, 2) == []
    assert stores.evidence.neighbours("other", ids[2], 2, 2) == []


def test_recall_turns_read_what_a_recall_shows_with_mentions(stores: Stores) -> None:
    ids = write(stores, "ana", SESSION)
    write(stores, "zed", SESSION[:1])
    turns = stores.evidence.recall_turns("ana", [ids[2], "ev_missing", ids[0], ids[2]])
    assert [t.id for t in turns] == [ids[2], ids[0], ids[2]]  # the order asked, missing left out
    full = {e.id: e for e in stores.evidence.get("ana", ids)}
    mentions = stores.evidence.mentions("ana", ids)
    for turn in stores.evidence.recall_turns("ana", ids):
        stored = full[turn.id]
        assert (turn.session, turn.seq, turn.speaker, turn.observed_at, turn.text, turn.metadata) == (
            stored.session, stored.seq, stored.speaker, stored.observed_at, stored.text, stored.metadata
        )
        assert turn.mentions == tuple(sorted(mentions.get(turn.id, ())))
    assert turns[1].metadata == {"dia_id": "D1:1"} and len(turns[1].mentions) >= 2  # Ana, Acme
    assert stores.evidence.recall_turns("zed", ids[1:]) == []  # another space's turns stay there
    assert stores.evidence.recall_turns("ana", []) == []


def test_recall_neighbours_read_every_anchor_at_once_like_neighbours(stores: Stores) -> None:
    ids = write(stores, "ana", SESSION)
    (lone,) = write(stores, "ana", [{"text": "Another chat entirely.", "session": "s2"}])
    anchors = [ids[0], ids[2], ids[4], lone, "ev_missing"]
    around = stores.evidence.recall_neighbours("ana", anchors, 1, 1)
    assert {a: [t.id for t in turns] for a, turns in around.items()} == {
        ids[0]: [ids[1]], ids[2]: [ids[1], ids[3]], ids[4]: [ids[3]], lone: []
    }
    for anchor in (ids[0], ids[2], ids[4]):  # the same turns as one ``neighbours`` read each
        assert [t.id for t in around[anchor]] == [e.id for e in stores.evidence.neighbours("ana", anchor, 1, 1)]
        assert around[anchor] == stores.evidence.recall_turns("ana", [t.id for t in around[anchor]])
    wider = stores.evidence.recall_neighbours("ana", [ids[2]], 2, 0)
    assert [t.seq for t in wider[ids[2]]] == [0, 1]
    assert stores.evidence.recall_neighbours("zed", ids, 1, 1) == {}
    assert stores.evidence.recall_neighbours("ana", [], 1, 1) == {}


def test_date_windows_and_date_signals(stores: Stores) -> None:
    ids = write(stores, "ana", SESSION)
    july = stores.evidence.with_dates_between(
        "ana", datetime(2023, 7, 1, tzinfo=UTC), datetime(2023, 8, 1, tzinfo=UTC), 10
    )
    assert july == [ids[3]]  # the signal "4 July 2023", not when it was said
    may = stores.evidence.with_dates_between(
        "ana", datetime(2023, 5, 22, tzinfo=UTC), datetime(2023, 5, 23, tzinfo=UTC), 10
    )
    assert may == [ids[0]]  # "last Monday" resolved against 25 May
    said = stores.evidence.with_dates_between(
        "ana", datetime(2023, 5, 25, 10, 1, tzinfo=UTC), datetime(2023, 5, 25, 10, 3, tzinfo=UTC), 10
    )
    assert said == [ids[1], ids[2]]  # observed in [start, end), oldest first
    dated = stores.evidence.with_date_signals("ana", 10)
    assert set(dated) == {ids[0], ids[3]} and dated == [ids[3], ids[0]]  # newest first
    assert stores.evidence.with_date_signals("ana", 1) == [ids[3]]
    # Which candidates carry a date, without loading them: the same as their signals say.
    asked = [ids[4], "ev_missing", ids[3], ids[0], ids[1]]
    assert stores.evidence.dated("ana", asked) == {
        e.id for e in stores.evidence.get("ana", asked) if e.signals_of(SignalKind.DATE)
    } == {ids[0], ids[3]}
    assert stores.evidence.dated("zed", ids) == set() and stores.evidence.dated("ana", []) == set()
    assert stores.evidence.with_dates_between(
        "zed", datetime(2023, 1, 1, tzinfo=UTC), datetime(2024, 1, 1, tzinfo=UTC), 10
    ) == []


def test_mentions_and_entities_merge(stores: Stores) -> None:
    ids = write(stores, "ana", SESSION[:2])
    entities = {e.name: e for e in stores.evidence.entities("ana")}
    assert {"Ana", "Ben"} <= set(entities) and entities["Ana"].kind == "person"
    mentions = stores.evidence.mentions("ana", ids)
    assert entities["Ana"].id in mentions[ids[0]] and entities["Ana"].id in mentions[ids[1]]
    assert stores.evidence.evidence_mentioning("ana", [entities["Ben"].id], 10) == [ids[1]]
    newest_first = stores.evidence.evidence_mentioning("ana", [entities["Ana"].id], 10)
    assert newest_first == [ids[1], ids[0]]
    assert stores.evidence.evidence_mentioning("ana", [entities["Ana"].id], 1) == [ids[1]]
    again = write(stores, "ana", [{"text": "Ana again.", "speaker": "Ana"}])
    assert len([e for e in stores.evidence.entities("ana") if e.name == "Ana"]) == 1
    assert entities["Ana"].id in stores.evidence.mentions("ana", again)[again[0]]


def test_keyword_search_ranks_and_limits(stores: Stores) -> None:
    ids = write(stores, "ana", SESSION)
    hits = stores.keyword.search("ana", "data engineer salary", 3)
    assert hits[0][:2] == ("evidence", ids[2]) and hits[0][2] > 0
    assert [h[2] for h in hits] == sorted((h[2] for h in hits), reverse=True)
    assert len(stores.keyword.search("ana", "Ana Acme engineer hiking photos", 2)) == 2
    assert stores.keyword.search("ana", "?!", 5) == []
    assert stores.keyword.search("ana", 'engineer" OR text:*', 5)[0][1] == ids[2]  # no syntax leaks
    assert stores.keyword.search("ana", "engineer", 5, kinds=("unknown",)) == []


def test_keyword_search_limits_within_its_space(stores: Stores) -> None:
    # The other space holds more (and better) matches than the limit: the space is filtered
    # before the limit is applied, so the asked space's one match is still found.
    write(stores, "crowd", [
        {"text": f"Kayak trip number {n}: kayak, kayak, kayak!", "speaker": "Cy", "session": f"s{n}"}
        for n in range(8)
    ])  # fmt: skip
    (alone,) = write(stores, "ana", [{"text": "I sold my old kayak.", "speaker": "Ana", "session": "s1"}])
    assert [h[:2] for h in stores.keyword.search("ana", "kayak", 2)] == [("evidence", alone)]
    assert len(stores.keyword.search("crowd", "kayak", 3)) == 3
    assert alone not in {h[1] for h in stores.keyword.search("crowd", "kayak", 20)}


def test_keyword_search_reaches_a_turn_through_its_neighbours(stores: Stores) -> None:
    question = write(stores, "ana", [
        {"text": "We got a puppy last week!", "speaker": "Ana", "session": "s1"},
        {"text": "What did you name the puppy?", "speaker": "Ben", "session": "s1"},
    ])  # fmt: skip
    # The reply arrives in a later batch: the question's context must be updated too.
    (reply,) = write(stores, "ana", [
        {"text": "Biscuit, after my grandmother's terrier.", "speaker": "Ana", "session": "s1"},
    ])  # fmt: skip
    write(stores, "ana", [{"text": "Any plans for the weekend?", "speaker": "Ben", "session": "s2"}])
    write(stores, "zed", [{"text": "What did you name the puppy?", "speaker": "Zed", "session": "s1"}])

    by_question = [h[1] for h in stores.keyword.search("ana", "puppy name", 10)]
    assert reply in by_question and set(by_question) <= {*question, reply}
    assert by_question[0] in question  # a turn's own words outrank its neighbours'
    assert question[1] in {h[1] for h in stores.keyword.search("ana", "grandmother terrier", 10)}
    assert stores.keyword.search("ana", "weekend plans", 10)[0][1] not in {*question, reply}
    assert stores.evidence.get("ana", [reply])[0].text.startswith("Biscuit")


def test_signals_keep_their_spans(stores: Stores) -> None:
    ids = write(stores, "ana", SESSION)
    stored: list[Evidence] = stores.evidence.get("ana", ids)
    for turn in stored:
        for signal in turn.signals:
            assert turn.text[signal.start : signal.end] == signal.text
    money = stored[2].signals_of(SignalKind.MONEY)
    assert money and money[0].normalized == "1200.00 USD"
    dates = stored[3].signals_of(SignalKind.DATE)
    assert dates and dates[0].window_start == datetime(2023, 7, 4, tzinfo=UTC)


def test_usage_counts_turns_and_their_bytes_per_space(stores: Stores) -> None:
    batch = prepare(stores, "ana", SESSION)
    stores.evidence.add(batch.new, batch.mentions)
    assert stores.evidence.usage("ana") == SpaceUsage(
        turns=len(SESSION), bytes=sum(turn_bytes(e.text, e.metadata) for e in batch.new)
    )
    assert stores.evidence.usage("nobody") == SpaceUsage(turns=0, bytes=0)
    write(stores, "ben", [{"text": "é" * 3, "metadata": {"k": "ü"}}])
    assert stores.evidence.usage("ben") == SpaceUsage(turns=1, bytes=6 + len('{"k": "ü"}'.encode()))


def test_entities_named_finds_names_and_aliases_by_key_within_the_space(stores: Stores) -> None:
    write(stores, "ana", SESSION[:2])
    write(stores, "zed", [{"text": "Ana? Never met her.", "speaker": "Zed", "session": "s1"}])
    alias = Entity(id=entity_id("ana", "Robert Smith"), space="ana", name="Robert Smith", aliases=("Bob",))
    ev = prepare(stores, "ana", [{"text": "Robert called.", "speaker": "Ana", "session": "s9"}])
    stores.evidence.add(ev.new, [(ev.ids[0], alias)])
    assert [e.name for e in stores.evidence.entities_named("ana", ["ben", "  ANA ", "nobody"])] == ["Ana", "Ben"]
    assert [e.name for e in stores.evidence.entities_named("ana", ["bob"])] == ["Robert Smith"]
    assert [e.name for e in stores.evidence.entities_named("zed", ["ben", "zed"])] == ["Zed"]
    assert stores.evidence.entities_named("ana", []) == []
