"""The audit cookbook against a graph seeded through ``Memory.connect``.

A scripted extractor proposes two employer facts (accepted: beliefs, a supersession and
dimension deltas) and two unsupported ones (refused: candidates with reason codes); an
identity merge adds a SAME_AS edge. Every audit then has to return the rows that explain
that history.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from neo4j import Driver
from pydantic import SecretStr

from eywa import Memory
from eywa.audit import list_audits, parse_audit, run_audit
from eywa.embedding import Embedder
from eywa.embedding.minilm import MiniLMEmbedder
from eywa.errors import InvalidInputError, StoreError
from eywa.models import CandidateFact, Evidence
from eywa.nous.identity import accept_merge, undo_merge
from eywa.settings import EywaSettings
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

TURNS = [
    {"text": "I work at Google as an engineer.", "speaker": "Caroline", "session": "s1",
     "observed_at": "2023-03-01T09:00:00"},
    {"text": "Actually I quit Google, now I work at Acme.", "speaker": "Caroline", "session": "s2",
     "observed_at": "2023-08-01T09:00:00"},
    {"text": "I never eat meat.", "speaker": "Caroline", "session": "s2",
     "observed_at": "2023-08-01T09:01:00"},
]  # fmt: skip
FACTS = {
    TURNS[0]["text"]: [("Caroline works at Google.", "employer", "Google"),
                       ("Caroline owns a yacht.", "owns", "yacht")],
    TURNS[1]["text"]: [("Caroline works at Acme.", "employer", "Acme")],
    TURNS[2]["text"]: [("Caroline loves steak dinners.", "diet", "steak")],
}  # fmt: skip


class ScriptedExtractor:
    """Proposes the facts of ``FACTS`` for the turns it is shown."""

    name = "scripted"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        for turn in evidence:
            for statement, attribute, value in FACTS.get(turn.text, []):
                yield CandidateFact(statement=statement, subject="Caroline", attribute=attribute,
                                    value=value, evidence_ids=(turn.id,))  # fmt: skip


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return MiniLMEmbedder()


@pytest.fixture
def seeded(
    neo4j_server: Neo4jServer, neo4j_driver: Driver, neo4j_space: str, tmp_path: Path, embedder: Embedder
) -> Iterator[tuple[str, list[str], datetime]]:
    """(space, evidence ids, time before the writes) of a freshly seeded space."""
    settings = EywaSettings(
        neo4j_uri=neo4j_server.uri, neo4j_user=neo4j_server.user,
        neo4j_password=SecretStr(neo4j_server.password), neo4j_database=neo4j_server.database,
        qdrant_path=tmp_path / "qdrant",
    )  # fmt: skip
    started = datetime.now(timezone.utc) - timedelta(seconds=1)
    with Memory.connect(settings, embedder=embedder, extractor=ScriptedExtractor()) as mem:
        ids = mem.remember(neo4j_space, TURNS, wait=True)
        assert len(mem.beliefs(neo4j_space, status=None)) == 2, "both employer facts are accepted"
        assert len(mem.candidates(neo4j_space)) == 2, "yacht and steak are refused"
        accept_merge(mem._stores.dimensions, neo4j_space, "Caroline", "Caro", score=0.9)
        accept_merge(mem._stores.dimensions, neo4j_space, "Caroline", "Carol", score=0.7)
        undo_merge(mem._stores.dimensions, neo4j_space, "Caroline", "Carol")
    yield neo4j_space, ids, started


def _rows(driver: Driver, database: str, name: str, **params: str) -> list[dict[str, object]]:
    columns, rows = run_audit(driver, database, name, params)
    return [dict(zip(columns, row, strict=True)) for row in rows]


def test_the_cookbook_lists_every_audit_with_purpose_and_space() -> None:
    audits = {a.name: a for a in list_audits()}
    assert set(audits) == {
        "why_believed", "derived_from_turn", "dimension_history", "rejected_by_reason",
        "touched_between", "merged_entities",
    }  # fmt: skip
    for audit in audits.values():
        assert audit.purpose and audit.param_names[0] == "space" and "$space" in audit.cypher
    assert audits["dimension_history"].param_names == ("space", "entity", "attribute")


def test_why_believed_returns_the_supporting_turn(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, seeded: tuple[str, list[str], datetime]
) -> None:
    space, ids, _ = seeded
    beliefs = _rows(neo4j_driver, neo4j_server.database, "derived_from_turn", space=space, evidence_id=ids[0])
    google = next(r for r in beliefs if r["statement"] == "Caroline works at Google.")
    (why,) = _rows(neo4j_driver, neo4j_server.database, "why_believed", space=space, belief_id=str(google["belief"]))
    assert why["evidence"] == ids[0] and why["text"] == TURNS[0]["text"]
    assert why["status"] == "superseded" and '"accepted":true' in str(why["report"])
    assert isinstance(why["observed_at"], datetime) and why["score"] > 0  # type: ignore[operator]
    assert _rows(neo4j_driver, neo4j_server.database, "why_believed", space="elsewhere",
                 belief_id=str(google["belief"])) == []  # fmt: skip


def test_derived_from_turn_reaches_deltas_and_dimensions(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, seeded: tuple[str, list[str], datetime]
) -> None:
    space, ids, _ = seeded
    rows = _rows(neo4j_driver, neo4j_server.database, "derived_from_turn", space=space, evidence_id=ids[1])
    (acme,) = rows
    assert acme["statement"] == "Caroline works at Acme." and acme["status"] == "active"
    assert acme["delta"] and acme["attribute"] == "employer" and acme["observed"] == "Acme"
    (nothing,) = _rows(neo4j_driver, neo4j_server.database, "derived_from_turn", space=space, evidence_id=ids[2])
    assert nothing["belief"] is None  # the steak claim was refused, so nothing derives from it


def test_dimension_history_is_in_event_time_with_surprise(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, seeded: tuple[str, list[str], datetime]
) -> None:
    space, _, _ = seeded
    rows = _rows(neo4j_driver, neo4j_server.database, "dimension_history",
                 space=space, entity="caroline", attribute="employer")  # fmt: skip
    assert [r["observed"] for r in rows] == ["Google", "Acme"]
    assert rows[0]["at"] < rows[1]["at"]  # type: ignore[operator]
    assert rows[1]["surprise_bits"] > 0 and rows[1]["statement"] == "Caroline works at Acme."  # type: ignore[operator]


def test_rejected_by_reason_groups_candidates(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, seeded: tuple[str, list[str], datetime]
) -> None:
    space, _, _ = seeded
    rows = _rows(neo4j_driver, neo4j_server.database, "rejected_by_reason", space=space)
    assert rows and sum(int(str(r["candidates"])) for r in rows) >= 2
    examples = {e for r in rows for e in r["examples"]}  # type: ignore[attr-defined]
    assert {"Caroline owns a yacht.", "Caroline loves steak dinners."} <= examples
    assert _rows(neo4j_driver, neo4j_server.database, "rejected_by_reason", space="elsewhere") == []


def test_touched_between_lists_what_was_recorded(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, seeded: tuple[str, list[str], datetime]
) -> None:
    space, ids, started = seeded
    end = datetime.now(timezone.utc) + timedelta(seconds=1)
    rows = _rows(neo4j_driver, neo4j_server.database, "touched_between",
                 space=space, **{"from": started.isoformat(), "to": end.isoformat()})  # fmt: skip
    labels = {r["label"] for r in rows}
    assert {"Evidence", "Belief", "Candidate", "Dimension", "Delta"} <= labels
    assert set(ids) <= {r["id"] for r in rows}
    assert _rows(neo4j_driver, neo4j_server.database, "touched_between",
                 space=space, **{"from": "2000-01-01", "to": "2000-01-02"}) == []  # fmt: skip


def test_merged_entities_shows_active_and_undone_edges(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, seeded: tuple[str, list[str], datetime]
) -> None:
    space, _, _ = seeded
    rows = _rows(neo4j_driver, neo4j_server.database, "merged_entities", space=space)
    assert {(r["target"], r["active"]) for r in rows} == {("caro", True), ("carol", False)}


def test_bad_names_and_parameters_are_refused(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> None:
    with pytest.raises(InvalidInputError, match="unknown audit"):
        run_audit(neo4j_driver, neo4j_server.database, "drop_everything", {"space": "x"})
    with pytest.raises(InvalidInputError, match="belief_id"):
        run_audit(neo4j_driver, neo4j_server.database, "why_believed", {"space": "x"})
    with pytest.raises(InvalidInputError, match="unknown: limit"):
        run_audit(neo4j_driver, neo4j_server.database, "merged_entities", {"space": "x", "limit": "1"})


def test_malformed_audit_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="purpose"):
        parse_audit("x.cypher", "MATCH (n) WHERE n.space = $space RETURN n")
    with pytest.raises(StoreError, match=r"\$space"):
        parse_audit("x.cypher", "// purpose: p\n// param: id - i\nMATCH (n {id: $id}) RETURN n")
    with pytest.raises(StoreError, match="uses"):
        parse_audit("x.cypher", "// purpose: p\n// param: space - s\nMATCH (n {id: $id, space: $space}) RETURN n")


def test_audit_cli_prints_the_table(
    seeded: tuple[str, list[str], datetime], neo4j_server: Neo4jServer
) -> None:
    from typer.testing import CliRunner

    from eywa.cli.app import app

    space, _, _ = seeded
    env = {"EYWA_NEO4J_URI": neo4j_server.uri, "EYWA_NEO4J_USER": neo4j_server.user,
           "EYWA_NEO4J_PASSWORD": neo4j_server.password, "EYWA_NEO4J_DATABASE": neo4j_server.database}
    runner = CliRunner()
    result = runner.invoke(app, ["audit", "rejected_by_reason", "--param", f"space={space}"], env=env)
    assert result.exit_code == 0, result.output
    assert "unsupported" in result.output
    bad = runner.invoke(app, ["audit", "rejected_by_reason", "--param", "nospace"], env=env)
    assert bad.exit_code != 0
    applied = runner.invoke(app, ["schema", "apply"], env=env)
    assert applied.exit_code == 0 and "up to date" in applied.output
