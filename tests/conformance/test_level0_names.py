"""Level 0 reads only the entities a batch can name (``eywa.batches.name_candidates``), with
its stored ids and every session's next seq, in one read (``EvidenceStore.prior``): on every
backend, the prepared batch equals the one computed the old way, against every entity of the
space, one ``existing`` and one ``next_seq`` read per session."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from eywa import Memory
from eywa.batches import MAX_NAME_CHARS, PreparedBatch, coerce_turns, name_candidates, prepare_batch
from eywa.ids import entity_id, entity_key
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.evidence import EvidenceStore, PriorState

UTC = timezone.utc
NOW = datetime(2024, 3, 1, tzinfo=UTC)

# Names of one, two and three words, a hyphenated one and speakers; the later batch names
# them in other cases, possessives, across line breaks, inside punctuation, and not at all.
FIRST = [
    {"text": "I met Cecilia and Mary Ann at the Golden Gate Bridge Club.", "speaker": "Melinda", "session": "a"},
    {"text": "Jean-Luc said New York was loud; Acme Corp hired him.", "speaker": "Dr. Oz", "session": "a"},
    {"text": "Yes, DIY groups met at Riverside Park in Portland.", "speaker": "Cecilia", "session": "b"},
    {"text": "Merci.", "speaker": "Jean-Luc", "session": "b"},
]
LATER = [
    {"text": "cecilia's dog and MARY  ANN's cat met melinda.", "speaker": "Ben", "session": "a"},
    {"text": "We went to the golden gate\nbridge club, (new york) and acme corp's office.", "speaker": "Ben", "session": "b"},
    {"text": "jean-luc? dr. oz! Riverside park, portland's best; Luc and Jean alone are not names.", "session": "c"},
    {"text": "Nothing here names anyone we know.", "speaker": "Ana", "session": "a"},
    {"text": "Ana told Zoe about Melinda.", "speaker": "Zoe", "session": "new"},
]


class _OldWay:
    """An evidence store answering Level 0's reads as they were made before: every entity of
    the space as the known names, one ``next_seq`` per session."""

    def __init__(self, store: EvidenceStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def prior(self, space: str, ids: Sequence[str], names: Sequence[str], sessions: Sequence[str]) -> PriorState:
        return PriorState(
            existing=self._store.existing(space, ids),
            entities=self._store.entities(space),
            next_seqs={session: self._store.next_seq(space, session) for session in sessions},
        )


def _prepare(store: Any, space: str, turns: list[dict[str, Any]]) -> PreparedBatch:
    return prepare_batch(space, coerce_turns(turns), store, detect_signals, now=NOW)


def test_a_batch_prepared_from_its_named_entities_equals_one_from_all(stores: Stores) -> None:
    first = _prepare(stores.evidence, "home", FIRST)
    stores.evidence.add(first.new, first.mentions)
    assert len(stores.evidence.entities("home")) >= 8
    new_way = _prepare(stores.evidence, "home", LATER)
    old_way = _prepare(_OldWay(stores.evidence), "home", LATER)
    assert new_way == old_way
    mentioned = {entity.name for _, entity in new_way.mentions}
    # The stored names were found in other cases and spellings, which the capitalisation rule
    # alone does not find.
    assert {"Cecilia", "Mary Ann", "Melinda", "Acme Corp", "Jean-Luc", "Dr. Oz", "Riverside Park"} <= mentioned
    assert [e.seq for e in new_way.new if e.session == "a"] == [2, 3]


def test_name_candidates_cover_every_span_the_matcher_can_take() -> None:
    spans = name_candidates("We saw MARY  Ann's dog, (new york) and jean-luc!")
    assert {"mary ann", "mary", "new york", "jean-luc", "jean-luc!", "(new york)"} <= spans
    assert "luc" not in spans and "jean" not in spans  # inside a hyphenated word: no match there
    assert entity_key("Mary\tAnn") in spans


def test_prior_reads_stored_ids_named_entities_and_next_seqs_within_the_space(stores: Stores) -> None:
    first = _prepare(stores.evidence, "home", FIRST)
    stores.evidence.add(first.new, first.mentions)
    elsewhere = _prepare(stores.evidence, "away", FIRST[:1])
    stores.evidence.add(elsewhere.new, elsewhere.mentions)
    prior = stores.evidence.prior("home", [first.ids[0], "ev_missing"], ["mary ann", "CECILIA", "nobody"], ["a", "b", "z"])
    assert prior.existing == {first.ids[0]}
    assert [(e.name, e.id) for e in prior.entities] == [
        ("Cecilia", entity_id("home", "Cecilia")), ("Mary Ann", entity_id("home", "Mary Ann"))
    ]
    assert prior.next_seqs == {"a": 2, "b": 2, "z": 0}
    # With more candidate spans than the space has entities (a batch of long turns in a small
    # space), the embedded store reads the space's entities and filters: the same answer.
    padded = ["mary ann", "CECILIA", "nobody", *(f"filler {i}" for i in range(40))]
    assert stores.evidence.prior("home", [first.ids[0]], padded, ["a"]).entities == prior.entities
    assert stores.evidence.prior("nowhere", first.ids, ["cecilia"], ["a"]) == PriorState(set(), [], {"a": 0})


def test_remember_job_acknowledges_the_state_job_reads(memory: Memory) -> None:
    """``remember_job`` records the job in the write's hold of the store and derives its
    state without reading it back: that state is the one ``job`` reads."""
    ids, job = memory.remember_job("home", FIRST[:2], author="k", wait=False)
    assert job.status == "pending" and job.detail["pending"] == len(ids)
    memory.wait()
    assert memory.job(job.id).status == "done"
    again, resent = memory.remember_job("home", FIRST[:2], author="k", wait=False)
    assert again == ids and resent.status == memory.job(resent.id).status == "done"
    mixed, both = memory.remember_job("home", FIRST[1:3], author="k", wait=False)
    assert mixed[0] == ids[1] and both.status == "pending"
    memory.wait()
    assert memory.job(both.id).status == "done"


def test_a_known_name_keeps_the_kind_the_space_holds_it_as(stores: Stores) -> None:
    """An organisation met in "I work at Acme" stays one when a later turn of the batch, or a
    later batch, names it where a given name could stand ("I heard Acme is hiring"): known
    names are matched as the kind the store holds, and a person's kind is never lost."""
    first = _prepare(stores.evidence, "kinds", [
        {"text": "I work at Acme.", "speaker": "Ana", "session": "a"},
        {"text": "I heard Acme is hiring.", "speaker": "Ben", "session": "a"},
    ])  # fmt: skip
    stores.evidence.add(first.new, first.mentions)
    later = _prepare(stores.evidence, "kinds", [{"text": "I heard acme is hiring, Ben.", "speaker": "Zoe"}])
    stores.evidence.add(later.new, later.mentions)
    assert [(s.kind.value, s.normalized) for s in later.new[0].signals if s.kind.value in ("person", "entity")] == [
        ("entity", "Acme"), ("person", "Ben")
    ]  # fmt: skip
    kinds = {e.name: e.kind for e in stores.evidence.entities("kinds")}
    assert kinds == {"Acme": "entity", "Ana": "person", "Ben": "person", "Zoe": "person"}


def test_name_candidates_stay_linear_in_a_turn_of_symbols() -> None:
    """In a chunk of symbols every position is a boundary: a turn of 2,000 emoji made about
    two million spans (1.5 s; 20,000, within the turn limit, took minutes and stalled Level
    0). Spans hold a word character (or a whole chunk) and stay within ``MAX_NAME_CHARS`` and
    ``MAX_NAME_PARTS`` runs of word characters, so a name beside symbols is still a span."""
    assert len(name_candidates("🙂" * 2_000)) == 0  # one chunk, longer than any name
    assert name_candidates("🙂" * 20_000) == set()
    assert name_candidates("🙂" * 150) == {"🙂" * 150}  # a name of symbols fills its chunk
    spans = name_candidates("🙂Ana🙂 " * 10 + "a." * 5_000)
    assert {"ana", "ana🙂", "🙂ana🙂"} <= spans
    assert len(spans) < 200
    assert all(len(span) <= MAX_NAME_CHARS for span in name_candidates(("word " * 50 + "x" * 300 + " ") * 3))


def test_a_turn_of_symbols_is_stored_and_a_name_beside_them_found(memory: Memory) -> None:
    memory.remember("symbols", [{"text": "I met Ana at noon.", "speaker": "Zoe"}], wait=True)
    ids = memory.remember("symbols", [{"text": "🙂" * 19_990 + " ana🙂", "speaker": "Zoe"}], wait=True)
    (stored,) = [memory.evidence("symbols", i) for i in ids]
    assert ("person", "Ana") in {(s.kind.value, s.normalized) for s in stored.signals}
