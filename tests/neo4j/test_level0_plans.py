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

from eywa.stores.neo4j import evidence, level0
from eywa.stores.neo4j.records import epoch_parts
from tests.neo4j.plans import planned
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
