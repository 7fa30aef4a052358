"""The export format alone: lines are validated one by one and a refusal names its line
number (blank lines counted); beliefs are ordered so that each comes after the belief it
supersedes, whatever the supersession chains (cycles included) and the input order."""

from __future__ import annotations

import json
import random
from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.errors import InvalidInputError
from eywa.models import Belief
from eywa.portability import ExportHeader, parse_lines, record_json
from eywa.portability.export import superseded_first

AT = datetime(2024, 1, 1, tzinfo=timezone.utc)
HEADER = record_json(ExportHeader(space="s", exported_at=AT, embedder="hash"))


def belief(n: int, supersedes: int | None) -> Belief:
    return Belief(
        id=f"bel_{n:02d}", space="s", statement=f"fact {n}", subject="Ana", attribute="a", value=str(n),
        polarity="positive", modality="asserted", valid_from=None, valid_to=None, recorded_at=AT,
        status="active", extractor="rules", evidence_ids=("ev_1",),
        supersedes=None if supersedes is None else f"bel_{supersedes:02d}",
    )  # fmt: skip


def test_a_refused_line_is_named_by_its_number() -> None:
    header, records = parse_lines([HEADER, "", '{"kind": "entity", "entity": {"id": "e", "space": "s", "name": "Ana"}}',
                                   '{"kind": "rumour"}'])  # fmt: skip
    assert header.space == "s"
    with pytest.raises(InvalidInputError) as refused:
        list(records)
    assert refused.value.problems[0].field == "line.4"
    with pytest.raises(InvalidInputError, match="line.1"):
        parse_lines(['{"kind": "turn"}'])
    with pytest.raises(InvalidInputError, match="line.1"):
        parse_lines([])


@given(st.lists(st.one_of(st.none(), st.integers(0, 11)), min_size=1, max_size=12), st.randoms())
def test_each_belief_comes_after_the_one_it_supersedes(links: list[int | None], rnd: random.Random) -> None:
    beliefs = [belief(n, link if link is not None and link < len(links) and link != n else None)
               for n, link in enumerate(links)]  # fmt: skip
    shuffled = list(beliefs)
    rnd.shuffle(shuffled)
    ordered = superseded_first(shuffled)
    assert sorted(b.id for b in ordered) == sorted(b.id for b in beliefs)
    position = {b.id: i for i, b in enumerate(ordered)}
    by_id = {b.id: b for b in beliefs}
    for b in beliefs:
        if b.supersedes is None:
            continue
        chain, current = {b.id}, by_id[b.supersedes]  # a belief on a cycle cannot be ordered
        while current.supersedes is not None and current.id not in chain:
            chain.add(current.id)
            current = by_id[current.supersedes]
        if current.supersedes is None:
            assert position[b.supersedes] < position[b.id]


def _turn_line(**changes: object) -> str:
    evidence = {
        "id": "ev_1", "space": "s", "session": "default", "seq": 0, "speaker": "Ana", "role": None,
        "text": "I live in Lyon.", "observed_at": "2024-01-01T10:00:00Z", "recorded_at": "2024-01-01T10:00:00Z",
        "content_hash": "0" * 64, "metadata": {}, **changes,
    }  # fmt: skip
    return json.dumps({"kind": "turn", "evidence": evidence}).replace('"NAN"', "NaN")


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"observed_at": "0001-01-01T00:00:00+01:00"}, "evidence.observed_at"),  # ValueError "year 0 is out of range"
        ({"recorded_at": "9999-12-31T23:59:59.999999Z"}, "evidence.recorded_at"),
        ({"seq": 2**70}, "evidence.seq"),  # OverflowError from SQLite
        ({"metadata": {"x": "NAN"}}, "evidence.metadata"),  # stored as NaN, which remember refuses
    ],
)
def test_a_turn_line_no_store_can_write_is_refused_by_its_number(changes: dict[str, object], fragment: str) -> None:
    # Found by probing Memory.import_space with edited exports: each line validated as a
    # record and then failed inside the write (or, for NaN, was stored).
    assert json.loads(_turn_line())["evidence"]["seq"] == 0  # the unedited line is a valid record
    list(parse_lines([HEADER, _turn_line()])[1])
    with pytest.raises(InvalidInputError) as refused:
        list(parse_lines([HEADER, _turn_line(**changes)])[1])
    assert refused.value.problems[0].field == "line.2" and fragment in str(refused.value)



def test_a_time_at_the_calendars_edge_travels_but_one_without_a_utc_instant_does_not() -> None:
    # A dropped space's erasure selects recorded_before 9999-12-31T23:59:59.999999Z (see
    # tests/contract/test_memory_contract.py for the round trip): the edge is carried.
    edge = '{"kind": "merge", "edge": {"space": "s", "source": "Ana", "target": "Ana Lima", "score": 1.0, ' \
        '"author": "local", "at": "9999-12-31T23:59:59.999999Z"}}'
    assert len(list(parse_lines([HEADER, edge])[1])) == 1
    with pytest.raises(InvalidInputError) as refused:
        list(parse_lines([HEADER, edge.replace("9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00+00:01")])[1])
    assert "no UTC instant" in str(refused.value)
