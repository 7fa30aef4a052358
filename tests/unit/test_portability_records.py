"""The export format alone: lines are validated one by one and a refusal names its line
number (blank lines counted); beliefs are ordered so that each comes after the belief it
supersedes, whatever the supersession chains (cycles included) and the input order."""

from __future__ import annotations

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
