"""Property-based fuzzing of ``remember`` and ``recall`` (hypothesis) on the embedded store.

Whatever a caller passes — arbitrary Unicode including lone surrogates, times at the edges
of the calendar with any offset, metadata nested, huge, non-finite or keyed by non-strings,
k and budgets of any size — the call is accepted, or refused with an ``EywaError``; and a
refused batch writes nothing (the evidence count does not move). An accepted turn reads
back with its text and metadata exactly as given.

Example counts are bounded (``MAX_EXAMPLES``) so the reliability suite stays fast; the
hashing embedder keeps MiniLM out of the loop, the rule extractor stays in it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from eywa.errors import EywaError, InvalidInputError
from eywa.memory import Memory

MAX_EXAMPLES = 60
SPACE = "fuzz"
UNICODE = st.characters(exclude_categories=())  # surrogates included (hypothesis excludes them by default)
ZONES = st.sampled_from(
    [None, timezone.utc, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12)),
     timezone(timedelta(hours=5, minutes=45)), timezone(timedelta(hours=-23, minutes=59))]
)  # fmt: skip
EDGES = st.sampled_from(
    [datetime.min, datetime.max, datetime(1, 1, 2), datetime(9999, 12, 30, 23, 59, 59, 999999),
     datetime(1970, 1, 1), datetime(2024, 2, 29, 12)]
)  # fmt: skip


def mostly(good: st.SearchStrategy[Any], hostile: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Good values seven times in eight, so accepted calls are explored as well as refusals
    (a batch has many fields: each hostile at 1/8 already refuses about half the batches)."""
    return st.integers(min_value=0, max_value=7).flatmap(lambda draw: hostile if draw == 0 else good)


GOOD_TIMES = st.builds(
    lambda moment, zone: moment.replace(tzinfo=zone),
    st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1)), ZONES,
)


def times() -> st.SearchStrategy[object]:
    moments = st.one_of(EDGES, st.datetimes(min_value=datetime.min, max_value=datetime.max))
    aware = st.builds(lambda moment, zone: moment.replace(tzinfo=zone), moments, ZONES)
    hostile = st.one_of(aware, aware.map(lambda moment: moment.isoformat()), st.text(max_size=12))
    return mostly(st.one_of(GOOD_TIMES, GOOD_TIMES.map(lambda moment: moment.isoformat())), hostile)


def texts(max_size: int = 40) -> st.SearchStrategy[str]:
    good = st.one_of(st.text(min_size=1, max_size=max_size).filter(str.strip), st.just("I work at Acme now."))
    return mostly(good, st.text(UNICODE, max_size=max_size))


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1), st.floats(allow_nan=False,
    allow_infinity=False), st.text(max_size=12),
)  # fmt: skip
HOSTILE_SCALARS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(UNICODE, max_size=12),
)  # fmt: skip


def documents() -> st.SearchStrategy[Any]:
    keys = mostly(st.text(max_size=8), st.one_of(st.text(UNICODE, max_size=8), st.integers(-3, 3)))
    return st.recursive(
        mostly(SCALARS, HOSTILE_SCALARS),
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
        max_leaves=12,
    )


def deep(levels: int) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for _ in range(levels):
        document = {"a": document}
    return document


METADATA = mostly(
    st.dictionaries(st.text(max_size=8), documents(), max_size=4),
    st.one_of(st.integers(1, 40).map(deep), documents(), st.dictionaries(st.integers(0, 3), SCALARS, min_size=1)),
)
TURNS = st.fixed_dictionaries(
    {"text": texts(60)},
    optional={
        "speaker": st.one_of(st.none(), texts(12)), "session": st.one_of(st.none(), texts(8)),
        "role": st.one_of(st.none(), texts(6)), "external_id": texts(10), "observed_at": times(),
        "metadata": METADATA,
    },
)  # fmt: skip
FUZZ = settings(
    max_examples=MAX_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


_SPACES = itertools.count()


def _evidence_count(memory: Memory, space: str = SPACE) -> int:
    count: int = memory.stats(space)["evidence"]
    return count


@FUZZ
@given(batch=st.lists(mostly(TURNS, HOSTILE_SCALARS), max_size=4))
def test_remember_accepts_or_refuses_and_never_writes_part_of_a_batch(memory: Memory, batch: list[Any]) -> None:
    space = f"{SPACE}-{next(_SPACES)}"  # a fresh space: every accepted turn is new
    memory.remember(space, [{"text": "a turn that was there before"}])
    try:
        ids = memory.remember(space, batch)
    except EywaError as exc:
        event(f"refused: {exc.code}")
        assert _evidence_count(memory, space) == 1, "a refused batch wrote something"
        return
    event("accepted")
    assert len(ids) == len(batch)
    assert _evidence_count(memory, space) == 1 + len(set(ids))
    for turn, evidence_id in zip(batch, ids, strict=True):
        stored = memory.evidence(space, evidence_id)
        if "external_id" not in turn:  # a repeated external id names its first turn, which wins
            assert (stored.text, stored.metadata) == (turn["text"], turn.get("metadata", {}))


@FUZZ
@given(
    query=mostly(texts(80), st.one_of(st.integers(), st.none(), st.text(min_size=4001, max_size=4100))),
    k=mostly(st.integers(min_value=1, max_value=100), st.one_of(st.integers(-5, 10**6), st.booleans(), st.floats())),
    budget=mostly(st.one_of(st.none(), st.integers(1, 32_000)), st.integers(min_value=-5, max_value=10**7)),
    policy=mostly(st.sampled_from(["strict", "balanced", "advanced"]), texts(8)),
    as_of=st.one_of(st.none(), times()),
)
def test_recall_answers_or_refuses_with_an_input_error(
    memory: Memory, query: object, k: object, budget: int | None, policy: str, as_of: object
) -> None:
    memory.remember(SPACE, [{"text": "I moved to Lyon last May.", "speaker": "Ana", "observed_at": "2024-06-01"}])
    try:
        result = memory.recall(SPACE, query, k=k, budget_tokens=budget, policy=policy, as_of=as_of)  # type: ignore[arg-type]
    except InvalidInputError as exc:
        event(f"refused: {exc.code} ({exc.problems[0].field if exc.problems else '-'})")
        assert exc.problems and all(p.field in ("query", "k", "budget_tokens", "policy", "as_of") for p in exc.problems)
        return
    event("answered")
    assert isinstance(k, int) and len(result.items) <= k
    assert math.isfinite(sum(item.score for item in result.items))


@FUZZ
@given(entity=texts(20), attribute=texts(20), as_of=st.one_of(st.none(), times()), evidence_id=texts(20))
def test_read_methods_answer_or_refuse(memory: Memory, entity: str, attribute: str, as_of: object, evidence_id: str) -> None:
    calls: list[Callable[[], object]] = [
        lambda: memory.dimensions(SPACE, entity, as_of),  # type: ignore[arg-type]
        lambda: memory.dimension(SPACE, entity, attribute, as_of),  # type: ignore[arg-type]
        lambda: memory.deltas(SPACE, entity, attribute),
        lambda: memory.beliefs(SPACE, entity, attribute),
        lambda: memory.evidence(SPACE, evidence_id),
        lambda: memory.audit("dimension_history", {"space": SPACE, "entity": entity, "attribute": attribute}),
    ]
    for call in calls:
        try:
            call()
        except EywaError:
            pass  # refused or not found: both are answers
