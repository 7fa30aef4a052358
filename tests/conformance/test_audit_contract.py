"""The audit contract: every named audit answers the same question on every backend.

One history is seeded through the public ``Memory`` API, a turn at a time under a frozen
clock: a scripted extractor proposes two employer facts (accepted: beliefs, a supersession
and dimension deltas) and two facts the turns do not support (refused: candidates with
reason codes); the identity functions of ``eywa.nous`` add a SAME_AS merge and an undone
one. Every audit must return the rows that explain that history, on each backend, and the
embedded and Neo4j answers must be equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import time_machine

from eywa import Memory
from eywa.embedding import Embedder
from eywa.errors import InvalidInputError
from eywa.models import CandidateFact, Evidence
from eywa.stores.access import AccessEvent
from eywa.nous.identity import accept_merge, undo_merge
from eywa.stores.audit import AuditResult
from tests.conformance.conftest import MemoryFactory, server_settings

SPACE = "home"
UTC = timezone.utc
SEEDED_AT = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)  # the frozen clock of the first turn
STEP = timedelta(minutes=1)  # the clock moves one step before each later write
TURNS = [
    {"text": "I work at Google as an engineer.", "speaker": "Cecilia", "session": "s1",
     "observed_at": "2023-03-01T09:00:00"},
    {"text": "Actually I quit Google, now I work at Acme.", "speaker": "Cecilia", "session": "s2",
     "observed_at": "2023-08-01T09:00:00"},
    {"text": "I never eat meat.", "speaker": "Cecilia", "session": "s2",
     "observed_at": "2023-08-01T09:01:00"},
]  # fmt: skip
FACTS = {
    TURNS[0]["text"]: [("Cecilia works at Google.", "employer", "Google"),
                       ("Cecilia owns a yacht.", "owns", "yacht")],
    TURNS[1]["text"]: [("Cecilia works at Acme.", "employer", "Acme")],
    TURNS[2]["text"]: [("Cecilia loves steak dinners.", "diet", "steak")],
}  # fmt: skip


class ScriptedExtractor:
    """Proposes the facts of ``FACTS`` for the turns it is shown."""

    name = "scripted"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        for turn in evidence:
            for statement, attribute, value in FACTS.get(turn.text, []):
                yield CandidateFact(statement=statement, subject="Cecilia", attribute=attribute,
                                    value=value, evidence_ids=(turn.id,))  # fmt: skip


ACCESS = [
    AccessEvent(at=SEEDED_AT + timedelta(seconds=10), key_id="k1", surface="http",
                route="POST /v1/spaces/{space}/turns", space=SPACE, status=201),
    AccessEvent(at=SEEDED_AT + timedelta(seconds=20), key_id=None, surface="mcp", route="mcp recall",
                space=SPACE, status=401),
    AccessEvent(at=SEEDED_AT + timedelta(seconds=20), key_id="k2", surface="http",
                route="GET /v1/spaces/{space}/beliefs", space=SPACE, status=403),
    AccessEvent(at=SEEDED_AT + timedelta(seconds=30), key_id="k1", surface="mcp", route="mcp recall",
                space="elsewhere", status=200),
]  # fmt: skip
"""Calls the services would have recorded (the access log is written by them, not by Memory)."""


@dataclass(frozen=True)
class History:
    """What the seed wrote: evidence ids in turn order, belief ids by statement."""

    ids: list[str]
    beliefs: dict[str, str]


def seed(mem: Memory) -> History:
    """Write the history: turn i at ``SEEDED_AT + i·STEP``, then the merges."""
    ids: list[str] = []
    with time_machine.travel(SEEDED_AT, tick=False) as clock:
        for index, turn in enumerate(TURNS):
            if index:
                clock.shift(STEP)
            ids += mem.remember(SPACE, [turn], wait=True)
        clock.shift(STEP)
        dimensions = mem._stores.dimensions  # merges are made by the identity functions
        accept_merge(dimensions, SPACE, "Cecilia", "Ceci", score=0.9)
        clock.shift(STEP)
        accept_merge(dimensions, SPACE, "Cecilia", "Cecil", score=0.7)
        clock.shift(STEP)
        undo_merge(dimensions, SPACE, "Cecil", "Cecilia")
        mem.access_log.record(ACCESS)
    beliefs = {b.statement: b.id for b in mem.beliefs(SPACE, status=None)}
    assert set(beliefs) == {"Cecilia works at Google.", "Cecilia works at Acme."}
    assert {c.fact.statement for c in mem.candidates(SPACE)} == {
        "Cecilia owns a yacht.", "Cecilia loves steak dinners.",
    }  # fmt: skip
    return History(ids=ids, beliefs=beliefs)


def at(step: int) -> datetime:
    """The frozen clock's reading at ``step``."""
    return SEEDED_AT + step * STEP


def rows(mem: Memory, name: str, **params: str) -> list[dict[str, Any]]:
    return mem.audit(name, {"space": SPACE, **params}).records()


@pytest.fixture
def seeded(open_memory: MemoryFactory) -> tuple[Memory, History]:
    mem = open_memory(ScriptedExtractor())
    return mem, seed(mem)


def test_the_registry_is_listed_with_purpose_params_and_columns(memory: Memory) -> None:
    specs = {spec.name: spec for spec in memory.audits()}
    assert set(specs) == {
        "why_believed", "derived_from_turn", "dimension_history", "rejected_by_reason",
        "touched_between", "merged_entities", "access_log", "erasure_proof", "timeline",
    }  # fmt: skip
    assert all(spec.purpose and spec.param_names[0] == "space" for spec in specs.values())
    assert specs["dimension_history"].param_names == ("space", "entity", "attribute")
    assert specs["touched_between"].column_names == ("label", "id", "recorded_at", "summary")


def test_why_believed_returns_the_supporting_turn(seeded: tuple[Memory, History]) -> None:
    mem, history = seeded
    google = history.beliefs["Cecilia works at Google."]
    (why,) = rows(mem, "why_believed", belief_id=google)
    assert why["evidence"] == history.ids[0] and why["text"] == TURNS[0]["text"]
    assert why["status"] == "superseded" and why["report"]["accepted"] is True
    assert why["observed_at"] == datetime(2023, 3, 1, 9, 0, tzinfo=UTC)
    assert why["span"] == [0, len(TURNS[0]["text"])] and why["score"] > 0
    assert why["session"] == "s1" and why["speaker"] == "Cecilia" and why["anchors"] == []
    other = mem.audit("why_believed", {"space": "elsewhere", "belief_id": google})
    assert other.rows == () and other.columns == mem.audit("why_believed", {"space": SPACE, "belief_id": google}).columns


def test_derived_from_turn_reaches_deltas_and_dimensions(seeded: tuple[Memory, History]) -> None:
    mem, history = seeded
    (google,) = rows(mem, "derived_from_turn", evidence_id=history.ids[0])
    assert google["belief"] == history.beliefs["Cecilia works at Google."]
    assert (google["status"], google["entity"], google["attribute"], google["observed"]) == (
        "superseded", "Cecilia", "employer", "Google",
    )  # fmt: skip
    assert google["at"] == datetime(2023, 3, 1, 9, 0, tzinfo=UTC) and google["delta"].startswith("dl_")
    (acme,) = rows(mem, "derived_from_turn", evidence_id=history.ids[1])
    assert acme["statement"] == "Cecilia works at Acme." and acme["status"] == "active"
    assert acme["observed"] == "Acme" and acme["surprise_bits"] > google["surprise_bits"]
    (nothing,) = rows(mem, "derived_from_turn", evidence_id=history.ids[2])
    assert nothing["evidence"] == history.ids[2]  # the turn itself is shown...
    assert {k: v for k, v in nothing.items() if k not in ("evidence", "text")} == dict.fromkeys(
        ("belief", "statement", "status", "delta", "entity", "attribute", "observed", "surprise_bits", "at")
    )  # ...but the steak claim was refused, so nothing derives from it


def test_dimension_history_is_in_event_time_with_surprise(seeded: tuple[Memory, History]) -> None:
    mem, _ = seeded
    log = rows(mem, "dimension_history", entity=" CECILIA ", attribute="employer")
    assert [r["observed"] for r in log] == ["Google", "Acme"]
    assert [r["at"] for r in log] == [datetime(2023, 3, 1, 9, 0, tzinfo=UTC), datetime(2023, 8, 1, 9, 0, tzinfo=UTC)]
    assert [r["change_signal"] for r in log] == [False, True]  # "Actually I quit ..."
    assert log[1]["surprise_bits"] > log[0]["surprise_bits"] and log[1]["hazard"] > 0
    assert max(log[1]["posterior"], key=log[1]["posterior"].get) == "Acme"
    assert log[1]["statement"] == "Cecilia works at Acme."
    assert rows(mem, "dimension_history", entity="Cecilia", attribute="city") == []


def test_rejected_by_reason_groups_candidates_oldest_first(seeded: tuple[Memory, History]) -> None:
    mem, _ = seeded
    assert rows(mem, "rejected_by_reason") == [
        {"reason": "unsupported", "candidates": 2, "first_status": "rejected",
         "examples": ["Cecilia owns a yacht.", "Cecilia loves steak dinners."]},
    ]  # fmt: skip
    assert mem.audit("rejected_by_reason", {"space": "elsewhere"}).rows == ()


def test_touched_between_lists_what_was_recorded_in_the_window(seeded: tuple[Memory, History]) -> None:
    mem, history = seeded
    everything = rows(mem, "touched_between", **{"from": at(0).isoformat(), "to": at(9).isoformat()})
    assert {r["label"] for r in everything} == {"Evidence", "Belief", "Candidate", "Dimension", "Delta"}
    assert set(history.ids) | set(history.beliefs.values()) <= {r["id"] for r in everything}
    assert [r["recorded_at"] for r in everything] == sorted(r["recorded_at"] for r in everything)
    second = rows(mem, "touched_between", **{"from": at(1).isoformat(), "to": "2024-06-01T14:02:00+02:00"})
    assert {r["recorded_at"] for r in second} == {at(1)}  # [from, to) in any offset
    assert [(r["label"], r["summary"]) for r in second if r["label"] != "Dimension"] == [
        ("Belief", "Cecilia works at Acme."),
        ("Delta", "Cecilia employer <- Acme"),
        ("Evidence", TURNS[1]["text"]),
    ]
    assert rows(mem, "touched_between", **{"from": "2000-01-01", "to": "2000-01-02"}) == []
    assert rows(mem, "touched_between", **{"from": "2024-06-01T13:59:00+02:00", "to": at(9).isoformat()}) == everything


def test_timeline_pages_turns_in_event_time_by_speaker_and_window(seeded: tuple[Memory, History]) -> None:
    mem, history = seeded
    every = {"speaker": "", "from": "", "to": "", "offset": "0", "limit": "50"}
    turns = rows(mem, "timeline", **every)
    assert [r["id"] for r in turns] == history.ids  # the seed's turns are in event order
    assert rows(mem, "timeline", offset="0", limit="50") == turns  # speaker, from and to are optional
    assert [r["observed_at"] for r in turns] == sorted(r["observed_at"] for r in turns)
    assert [r["id"] for r in rows(mem, "timeline", **{**every, "offset": "1", "limit": "1"})] == history.ids[1:2]
    assert rows(mem, "timeline", **{**every, "speaker": "Nobody"}) == []
    assert {r["speaker"] for r in rows(mem, "timeline", **{**every, "speaker": "Cecilia"})} == {"Cecilia"}
    window = rows(mem, "timeline", **{**every, "from": turns[1]["observed_at"].isoformat(),
                                      "to": turns[2]["observed_at"].isoformat()})  # fmt: skip
    assert [r["id"] for r in window] == history.ids[1:2]  # [from, to)


def test_merged_entities_shows_active_and_undone_edges(seeded: tuple[Memory, History]) -> None:
    mem, _ = seeded
    assert rows(mem, "merged_entities") == [
        {"source": "cecilia", "target": "ceci", "score": 0.9, "at": at(3), "removed_at": None, "active": True},
        {"source": "cecilia", "target": "cecil", "score": 0.7, "at": at(4), "removed_at": at(5), "active": False},
    ]


def test_access_log_lists_the_calls_on_a_space_newest_first(seeded: tuple[Memory, History]) -> None:
    mem, _ = seeded
    found = rows(mem, "access_log", **{"from": at(0).isoformat(), "to": at(9).isoformat()})
    assert [(r["at"], r["key_id"], r["surface"], r["route"], r["status"]) for r in found] == [
        (SEEDED_AT + timedelta(seconds=20), None, "mcp", "mcp recall", 401),
        (SEEDED_AT + timedelta(seconds=20), "k2", "http", "GET /v1/spaces/{space}/beliefs", 403),
        (SEEDED_AT + timedelta(seconds=10), "k1", "http", "POST /v1/spaces/{space}/turns", 201),
    ]
    assert rows(mem, "access_log", **{"from": at(0).isoformat(), "to": "2024-06-01T12:00:15Z"})[0]["key_id"] == "k1"


def test_bad_names_and_parameters_are_refused(memory: Memory) -> None:
    with pytest.raises(InvalidInputError, match="unknown audit 'drop_everything'; known: access_log, derived_from_turn"):
        memory.audit("drop_everything", {"space": SPACE})
    with pytest.raises(InvalidInputError, match="needs parameters: belief_id"):
        memory.audit("why_believed", {"space": SPACE})
    with pytest.raises(InvalidInputError, match="unknown: limit"):
        memory.audit("merged_entities", {"space": SPACE, "limit": "1"})
    with pytest.raises(InvalidInputError, match="must be a string"):
        memory.audit("merged_entities", {"space": 7})  # type: ignore[dict-item]
    with pytest.raises(InvalidInputError, match="space"):
        memory.audit("merged_entities", {"space": " "})


@pytest.mark.parametrize("value", ["yesterday", "", "*", "2024-13-01", "0001-01-01T00:00:00+14:00", "\x00"])
@pytest.mark.parametrize(("audit", "param"), [("touched_between", "from"), ("touched_between", "to"),
                                              ("access_log", "from"), ("timeline", "to")])  # fmt: skip
def test_a_time_parameter_that_is_no_time_is_refused_as_input(memory: Memory, audit: str, param: str, value: str) -> None:
    """Refused as the caller's mistake on every backend (Neo4j's ``datetime()`` failed with
    a general processing error and SQLite's ``utc_iso`` alike: a ``StoreError``, 503)."""
    params = {"space": SPACE, "from": "2024-01-01T00:00:00Z", "to": "2024-02-01T00:00:00Z"}
    if audit == "timeline" and value == "":
        assert memory.audit(audit, {"space": SPACE, param: value}).rows == ()  # optional: empty is "no bound"
        return
    with pytest.raises(InvalidInputError) as refused:
        memory.audit(audit, {**params, param: value} if audit != "timeline" else {"space": SPACE, param: value})
    assert refused.value.problems[0].field == f"params.{param}"


def _normalised(result: AuditResult) -> list[tuple[object, ...]]:
    """Rows with times as UTC ISO-8601 text, so the backends' answers compare as values."""

    def plain(value: object) -> object:
        return value.astimezone(UTC).isoformat() if isinstance(value, datetime) else value

    return [tuple(plain(v) for v in row) for row in result.rows]


@pytest.mark.neo4j
def test_embedded_and_neo4j_answer_alike(request: pytest.FixtureRequest, tmp_path: Path, embedder: Embedder) -> None:
    settings = server_settings(request, tmp_path)
    with (
        Memory.open(tmp_path / "embedded", embedder=embedder, extractor=ScriptedExtractor()) as embedded,
        Memory.connect(settings, embedder=embedder, extractor=ScriptedExtractor()) as server,
    ):
        history = seed(embedded)
        assert seed(server) == history  # deterministic ids on both backends
        assert embedded.audits() == server.audits()
        calls: list[tuple[str, dict[str, str]]] = [
            ("why_believed", {"belief_id": bid}) for bid in history.beliefs.values()
        ] + [("derived_from_turn", {"evidence_id": eid}) for eid in history.ids] + [
            ("dimension_history", {"entity": "cecilia", "attribute": "employer"}),
            ("rejected_by_reason", {}),
            ("touched_between", {"from": at(0).isoformat(), "to": at(9).isoformat()}),
            ("merged_entities", {}),
            ("access_log", {"from": at(0).isoformat(), "to": at(9).isoformat()}),
            ("timeline", {"speaker": "", "from": "", "to": "", "offset": "0", "limit": "50"}),
        ]
        # erasure_proof is compared below, once each backend has its own erasure id
        assert {name for name, _ in calls} | {"erasure_proof"} == {spec.name for spec in embedded.audits()}
        for name, params in calls:
            mine = embedded.audit(name, {"space": SPACE, **params})
            theirs = server.audit(name, {"space": SPACE, **params})
            assert mine.columns == theirs.columns
            assert mine.rows, f"{name} {params} found nothing to compare"
            assert _normalised(mine) == _normalised(theirs), f"{name} {params}"
        proofs = [m.audit("erasure_proof", {"space": SPACE, "erasure": m.forget(SPACE, evidence_ids=[history.ids[2]]).erasure_id})
                  for m in (embedded, server)]  # fmt: skip
        assert proofs[0].columns == proofs[1].columns and proofs[0].rows == proofs[1].rows
        assert len(proofs[0].rows) == 9 and all(row[1] == 0 for row in proofs[0].rows)  # one row per kind
