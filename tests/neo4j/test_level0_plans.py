"""Level 0's statements (``EvidenceStore.prior``'s read, the batch's read and write, the
quota's count of the space) reach every node through a unique constraint or a composite
index, never a label scan, so their plans do not depend on what the store holds: that is
what lets them skip Neo4j's statistics-driven replanning (``level0.REPLAN_SKIP``). The
planner's plan (EXPLAIN, no data needed) of exactly the statements the store runs, with
parameters of a real batch's shape."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from neo4j import Driver

from eywa.batches import coerce_turns, prepare_batch
from eywa.signals import detect_signals
from eywa.stores.neo4j import evidence, level0
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import RelType
from eywa.stores.neo4j.records import epoch_parts
from tests.neo4j.plans import db_hits, operators_with_details, planned
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = epoch_parts(datetime(2024, 5, 1, 12, tzinfo=UTC))


def _write_params(space: str) -> dict[str, Any]:
    turn = {"id": "ev_2", "space": space, "session": "s", "seq": 2, "text": "Ana adopted a dog."}
    return {
        "spaces": [space],
        "sessions": [{"id": "ses_1", "space": space, "name": "s"}],
        "turns": [{"props": turn, "times": [_AT, _AT], "session_id": "ses_1"}],
        "pairs": [{"space": space, "a": "ev_1", "b": "ev_2"}],
        "contexts": [{"id": "ev_1", "space": space, "near_text": "Ana adopted a dog.", "far_text": ""}],
        "signals": [{"props": {"id": "sig_1", "evidence_id": "ev_2", "space": space, "kind": "date"}, "times": [_AT, None]}],
        "entities": [{"id": "ent_1", "space": space, "name": "Ana", "kind": "person", "aliases": []}],
        "mentions": [{"evidence_id": "ev_2", "entity_id": "ent_1", "space": space}],
        "weights": [{"space": space, "a": "ent_1", "b": "ent_2", "weight": 1}],
        "marks": [{"space": space, "stages": ["embed_evidence", "level1"], "items": ["ev_2"], "reason": "new", "at": 1}],
        "usage": [{"space": space, "ids": ["ev_2"]}],
    }


@pytest.mark.parametrize("statement", ["prior", "read batch", "write batch", "usage", "counted usage"])
def test_level0_statements_seek_and_skip_replanning(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, statement: str
) -> None:
    cases: dict[str, tuple[str, dict[str, Any]]] = {
        "prior": (evidence._PRIOR, {"b": {"space": neo4j_space, "ids": ["ev_1", "ev_2"], "entity_ids": ["ent_1"], "sessions": ["s"]}}),
        "read batch": (
            level0._READ_BATCH,
            {"b": {"ids": ["ev_1", "ev_2"], "groups": [{"space": neo4j_space, "ids": ["ev_1", "ev_2"]}],
                   "ranges": [{"space": neo4j_space, "session": "s", "lo": 0, "hi": 5}]}},
        ),  # fmt: skip
        "write batch": (level0._WRITE_BATCH, {"b": _write_params(neo4j_space)}),
        # the quota check inside the batch's transaction (and ``usage``): before, a scan of
        # every space's turns on a small store
        "usage": (evidence._USAGE, {"spaces": [neo4j_space]}),
        "counted usage": (evidence._COUNTED_USAGE, {"spaces": [neo4j_space]}),
    }
    query, params = cases[statement]
    assert query.startswith(level0.REPLAN_SKIP)
    found = planned(neo4j_driver, neo4j_server.database, query, params)
    assert any(op.endswith("IndexSeek") or op.endswith("IndexSeek(Locking)") for op in found)
    assert not [op for op in found if "Scan" in op], found


_NEW_TURN_LINKS = (RelType.HAS_TURN, RelType.NEXT, RelType.HAS_SIGNAL, RelType.MENTIONS)


def test_level0_creates_a_new_turns_links_without_looking_for_them(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    """The write statement creates the links of the turns it creates (``HAS_TURN`` from the
    session, ``NEXT`` to and from its neighbours, ``HAS_SIGNAL``, ``MENTIONS``) without a
    look for them first: a turn created in the statement has none. Merged, each was an
    ``Expand(Into)`` over the session's, the neighbour's or the entity's relationships
    (PROFILE of the bench's four-turn batches: 28-35% of the statement's db hits)."""
    with neo4j_driver.session(database=neo4j_server.database, notifications_min_severity="OFF") as session:
        summary = session.run("EXPLAIN " + level0._WRITE_BATCH, {"b": _write_params(neo4j_space)}).consume()
    assert summary.plan is not None
    looked = [
        (op, details) for op, details in operators_with_details(summary.plan)
        if op.startswith("Expand") and any(f":{link}]" in details for link in _NEW_TURN_LINKS)
    ]  # fmt: skip
    assert looked == []


def test_level0_links_each_turn_once_when_batches_come_again(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    """Created rather than merged, the links are still made once: batches of one session
    one after the other, one of them sent again and one sent again with a new turn, leave
    one ``HAS_TURN`` per turn, one ``NEXT`` per pair of neighbours, one ``MENTIONS`` per
    turn and name, one ``HAS_SIGNAL`` per signal."""
    store = Neo4jEvidenceStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
    texts = [
        ["Ana met Ben at the harbour on May 3, 2024.", "Ben said Ana should call Cleo."],
        ["Cleo joined them on Friday.", "Ana and Cleo left at noon."],
    ]

    def write(lines: list[str]) -> list[str]:
        turns = coerce_turns([{"text": t, "speaker": "Dov", "session": "pier"} for t in lines])
        batch = prepare_batch(neo4j_space, turns, store, detect_signals)
        store.add(batch.new, batch.mentions)
        return batch.ids

    first = write(texts[0])
    second = write(texts[1])
    assert write(texts[0]) == first  # sent again: nothing new
    third = write([*texts[1], "Ben waved from the pier."])  # two stored, one new
    ids = first + second + third[2:]
    turns = store.get(neo4j_space, ids)
    assert [t.seq for t in turns] == [0, 1, 2, 3, 4]
    mentions = store.mentions(neo4j_space, ids)
    with neo4j_driver.session(database=neo4j_server.database) as session:
        (row,) = session.run(
            f"""
            MATCH (e:Evidence) WHERE e.id IN $ids AND e.space = $space
            RETURN sum(COUNT {{ ()-[:{RelType.HAS_TURN}]->(e) }}) AS has_turn,
                   sum(COUNT {{ (e)-[:{RelType.NEXT}]->() }}) AS next,
                   sum(COUNT {{ (e)-[:{RelType.MENTIONS}]->() }}) AS mentions,
                   sum(COUNT {{ (e)-[:{RelType.HAS_SIGNAL}]->() }}) AS has_signal,
                   sum(size(COLLECT {{ MATCH (e)-[:{RelType.HAS_SIGNAL}]->(s) RETURN DISTINCT s.id }})) AS signals
            """,
            ids=ids, space=neo4j_space,
        ).data()  # fmt: skip
    assert row["has_turn"] == 5 and row["next"] == 4
    assert row["mentions"] == sum(len(v) for v in mentions.values()) == sum(len(set(v)) for v in mentions.values())
    assert row["mentions"] >= 5  # Ana, Ben, Cleo and the speaker are named
    assert row["has_signal"] == row["signals"] == sum(len(t.signals) for t in turns) > 0


def _next_seq_hits(driver: Driver, database: str, space: str, turns: int) -> dict[str, int]:
    """The db hits of ``prior`` and of the batch read (PROFILE, rolled back) for a batch of
    one session that holds ``turns`` turns (made directly, as Level 0 stores their seqs)."""
    session = f"talk-{turns}"
    cases = {
        "prior": (evidence._PRIOR, {"space": space, "ids": ["ev_new"], "entity_ids": [], "sessions": [session]}),
        "read batch": (level0._READ_BATCH, {
            "ids": ["ev_new"], "groups": [], "ranges": [],
            "sessions": [{"id": f"ses_{session}", "space": space, "name": session}],
        }),
    }  # fmt: skip
    hits: dict[str, int] = {}
    with driver.session(database=database, notifications_min_severity="OFF") as db:
        db.run(
            "UNWIND range(0, $n - 1) AS i"
            " CREATE (:Evidence {id: $space + '-' + $session + '-' + i, space: $space, session: $session, seq: i})",
            n=turns, session=session, space=space,
        ).consume()  # fmt: skip
        for name, (query, params) in cases.items():
            with db.begin_transaction() as tx:
                result = tx.run("PROFILE " + query, {"b": params})
                found = result.single(strict=True)
                summary = result.consume()
                tx.rollback()
            assert summary.profile is not None
            nexts = found["seqs"] if name == "prior" else [row[1:] for row in found["nexts"]]
            assert nexts == [[session, turns]]  # where the session continues
            hits[name] = db_hits(summary.profile)
    return hits


def test_where_a_session_continues_is_read_from_the_top_of_its_index(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    """``prior`` and the batch read find each session's highest seq by reading the
    (space, session, seq) index from its top, one entry, whatever the session holds.
    Ordered by ``seq`` alone, the planner sorted every turn of the session (``Top``): a
    write to a session of 5,000 turns cost 5,002 and 5,009 db hits in those two reads,
    against 3 and 9 for an empty one, so each write to a long session (an agent that
    never names one writes to ``default``) read all of it, twice."""
    short = _next_seq_hits(neo4j_driver, neo4j_server.database, neo4j_space, 3)
    long = _next_seq_hits(neo4j_driver, neo4j_server.database, neo4j_space, 3000)
    assert long == short, (short, long)
