"""A hand-edited export is imported whole or refused by its line — never imported broken.

README, "Portability": an import writes back what an export holds, and a bad line is
refused with its number before anything is written. Found by editing exports (one value of
one record changed at a time, 500 exports): a dimension's ``state`` is a JSON document the
engine writes and trusts, so a state of the wrong shape (a probability that is an object, a
time that is a list or has no UTC instant, citations that are not ids) was imported, and
from then on every read that folded or listed the space's dimensions (recall, ``dimensions``,
``stats``, the next ``remember``) raised ``TypeError``, ``ValueError``, ``OverflowError`` or
pydantic's ``ValidationError`` — a 500 over HTTP. A NaN in a delta's, a dimension's or a
merge's number was SQLite's NOT NULL failure at the write (``StoreError``: a 503
``store_unavailable`` for a bad file). Both are now refused as the line's
``InvalidInputError`` (``eywa.nous.state_json``, ``eywa.portability.records``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from eywa.errors import EywaError, InvalidInputError
from eywa.memory import Memory
from tests.contract.conftest import open_memory

TURNS = [
    {"text": "I work at Acme now.", "speaker": "Zed", "observed_at": "2024-01-01"},
    {"text": "I moved to Porto in May.", "speaker": "Zed", "observed_at": "2024-06-01"},
    {"text": "I work at Initech now.", "speaker": "Zed", "observed_at": "2024-08-01"},
]
_SPACES = itertools.count()


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """The memory exports are imported into (the ``memory`` fixture writes and exports them)."""
    mem = open_memory(tmp_path_factory.mktemp("import-target") / "mem")
    yield mem
    mem.close()


def _exported(source: Memory) -> tuple[str, list[dict[str, Any]]]:
    space = f"edited-{next(_SPACES)}"  # ids derive from the space: one export per import
    source.remember(space, TURNS)
    return space, [json.loads(record.model_dump_json()) for record in source.export_space(space)]


def _record(records: list[dict[str, Any]], kind: str, attribute: str = "employer") -> dict[str, Any]:
    return next(r for r in records if r["kind"] == kind and attribute in (r.get("attribute"), r.get(kind, {}).get("attribute")))


def _lines(records: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(record).replace('"NAN"', "NaN") for record in records]


def _set(document: dict[str, Any], path: tuple[str, ...], value: object) -> None:
    for part in path[:-1]:
        document = document[part]
    document[path[-1]] = value


@pytest.mark.parametrize(
    ("kind", "path", "value", "fragment"),
    [
        ("dimension", ("dimension", "state", "probabilities", "Initech"), {"a": None}, "state.probabilities.Initech"),
        ("dimension", ("dimension", "state", "held", "since"), "0001-01-01T00:00:00+23:59", "state.held.since"),
        ("dimension", ("dimension", "state", "citations", "latest_positive"), [None], "state.citations.latest_positive"),
        ("dimension", ("dimension", "state", "citations", "previous"), {}, "state.citations.previous"),
        ("dimension", ("dimension", "state", "citations", "now_at"), "single", "state.citations.now_at"),
        ("dimension", ("dimension", "state", "last", "said_at"), [None], "state.last.said_at"),
        ("dimension", ("dimension", "state", "counts"), "x", "state.counts"),
        ("dimension", ("dimension", "state", "cardinality"), "multi", "state.cardinality"),
        ("dimension", ("dimension", "entropy_bits"), "NAN", "dimension.entropy_bits"),
        ("delta", ("delta", "surprise_bits"), "NAN", "delta.surprise_bits"),
        ("delta", ("delta", "reliability"), "NAN", "delta.reliability"),
    ],
)  # fmt: skip
def test_an_edited_value_no_read_can_take_is_refused_by_its_line(
    memory: Memory, target: Memory, kind: str, path: tuple[str, ...], value: object, fragment: str
) -> None:
    space, records = _exported(memory)
    edited = _record(records, kind)
    _set(edited, path, value)
    with pytest.raises(InvalidInputError) as refused:
        target.import_space(space, _lines(records))
    assert refused.value.problems[0].field == f"line.{records.index(edited) + 1}", refused.value
    assert fragment in str(refused.value)
    assert target.stats(space)["evidence"] == 0 and space not in target.spaces()


@pytest.mark.parametrize("field", ["id", "belief_id"])
def test_a_delta_whose_id_is_not_derived_from_its_belief_is_refused(memory: Memory, target: Memory, field: str) -> None:
    # Found the same way: imported, and the next retraction in the space raised KeyError
    # from the replay, which looks each delta up by the id its dimension and belief derive.
    space, records = _exported(memory)
    _record(records, "delta")["delta"][field] = "retracted"
    with pytest.raises(InvalidInputError) as refused:
        target.import_space(space, _lines(records))
    assert refused.value.problems[0].field == "delta" and "is not the id of its dimension" in str(refused.value)
    assert space not in target.spaces()


HOSTILE = st.one_of(
    st.sampled_from([None, "", "NAN", 0, -1, 2**63, 1e308, True, [], {}, [None], {"a": None}, "ev_x", "single",
                     "0001-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59", "2024-01-01"]),
    st.text(max_size=4), st.floats(allow_nan=False),
)  # fmt: skip


def _paths(document: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if path:
        yield path
    items = document.items() if isinstance(document, dict) else enumerate(document) if isinstance(document, list) else ()
    for key, inner in items:
        yield from _paths(inner, (*path, key))


READS: list[Callable[[Memory, str], object]] = [
    lambda mem, space: mem.recall(space, "Where does Zed work?"),
    lambda mem, space: mem.recall(space, "Where did Zed work?", as_of="2024-07-01"),
    lambda mem, space: [mem.deltas(space, d.entity, d.attribute) for d in mem.dimensions(space)],
    lambda mem, space: mem.stats(space),
    lambda mem, space: mem.remember(space, [{"text": "I work at Hooli now.", "speaker": "Zed"}]),
    lambda mem, space: mem.propose_merges(space),
]


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_an_edited_dimension_is_refused_or_read_like_any_other(memory: Memory, target: Memory, data: st.DataObject) -> None:
    space, records = _exported(memory)
    edited = _record(records, "dimension", data.draw(st.sampled_from(["employer", "residence"])))
    path = data.draw(st.sampled_from(list(_paths(edited["dimension"]["state"]))))
    document: Any = edited["dimension"]["state"]
    for part in path[:-1]:
        document = document[part]
    document[path[-1]] = data.draw(HOSTILE)
    try:
        target.import_space(space, _lines(records))
    except EywaError as exc:
        event(f"refused: {exc.code}")
        assert target.stats(space)["evidence"] == 0
        return
    event("imported")
    for read in READS:
        try:
            read(target, space)
        except EywaError:
            pass  # a refusal is an answer; anything from below fails the test
