"""README, Erasure: a user's turns are erased "and everything derived from them" — counted in
every place the store can hold them, not only in the places the erasure proof names.

Two spaces: in ``north`` Ivo and Pia talk, in ``south`` Ruth and Sol. Level 1 (the rules
extractor, plus a fact the validator refuses) makes beliefs, dimensions, a refused
candidate, support links, entities, mentions and co-mention edges; a job lists every turn
of ``north`` and a retraction of one of Pia's beliefs quotes her words. Pia is erased
through ``Memory.forget`` and through ``POST /v1/spaces/{space}/erase``. Then:

- embedded: every table of the SQLite file, read from ``sqlite_master`` (so a table added
  later is covered without editing this test: FTS5 shadow tables, ledger, jobs, runs,
  support and evidence links...), every FTS5 index's vocabulary, the in-memory copy of the
  keyword index, and the bytes of every file under the data directory (the README promises
  the erased words are gone from disk, "On disk");
- Neo4j: every node of every label of ``db.labels()`` and every relationship of every type
  of ``db.relationshipTypes()``, all their properties;
- both: the vector points of the erased turns and beliefs,

hold no erased turn id, no id of a belief or candidate citing one, no id of an entity only
Pia named, and no distinctive word of hers — except the audit trail the README keeps on
purpose (erasure records, tombstones, the correction records' target ids). Ivo's and the
other space's data is left as it was.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.extraction.context import Earlier
from eywa.extraction.rules.extractor import RuleExtractor
from eywa.ids import entity_id, entity_key
from eywa.models import CandidateFact, Evidence
from eywa.portability.records import EntityLine
from eywa.stores.embedded.keyword import SqliteKeywordIndex
from tests.conformance.conftest import MemoryFactory
from tests.services.conftest import build_service

SPACE, OTHER = "north", "south"
# Said only in Pia's turns (their stems' first six letters, so FTS5's porter forms match too).
WORDS = ("Quenderby", "Odrenka", "Tavishor", "theorbo")
NORTH = [
    ("Ivo", "I work at Harbourlight Studios as an animator.", "s1"),
    ("Pia", "I live in Grellport with my sister Odrenka.", "s1"),
    ("Ivo", "Pia, is Grellport still rainy all year?", "s1"),
    ("Pia", "I work at Quenderby Mills as a weaver now.", "s1"),
    ("Pia", "My brother Tavishor plays the theorbo in Grellport.", "s2"),
    ("Ivo", "I moved to Sandmere last spring with Lotte.", "s2"),
]
SOUTH = [
    ("Ruth", "I work at Copperfield Dairy as a cheesemaker.", "t1"),
    ("Sol", "I live in Marrowdale with my cousin Bram.", "t1"),
]
# The audit trail the README keeps after an erasure: which tables / labels may hold an
# erased id (None: every column), and no erased word anywhere.
EMBEDDED_AUDIT: dict[str, frozenset[str] | None] = {
    "erasures": None, "erased_turns": None, "tombstones": None, "corrections": frozenset({"target_id", "belief_id"}),
}  # fmt: skip
NEO4J_AUDIT: dict[str, frozenset[str] | None] = {
    "Erasure": None, "Tombstone": None, "Correction": frozenset({"target_id", "belief_id"}),
}  # fmt: skip


class Extractor(RuleExtractor):
    """The rules, plus a fact about the theorbo turn that the validator refuses (a
    candidate kept with its cited turn)."""

    def propose_after(self, space: str, evidence: Sequence[Evidence], earlier: Earlier) -> Iterable[CandidateFact]:
        yield from super().propose_after(space, evidence, earlier)
        for turn in evidence:
            if "theorbo" in turn.text:
                yield CandidateFact(evidence_ids=(turn.id,), statement="Pia owns a theorbo workshop.", subject="Pia",
                                    attribute="owns", value="theorbo workshop")  # fmt: skip


def turns(rows: Sequence[tuple[str, str, str]], day: int) -> list[dict[str, Any]]:
    return [
        {"text": text, "speaker": speaker, "session": session, "observed_at": f"2024-03-{day:02d}T09:{i:02d}:00"}
        for i, (speaker, text, session) in enumerate(rows)
    ]


def text_of(value: object) -> str:
    """A stored value as searchable text (blobs as latin-1, so any byte sequence is kept)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("latin-1")
    if isinstance(value, list | tuple):
        return " ".join(text_of(v) for v in value)
    return str(value)


Rows = dict[str, list[dict[str, str]]]  # table or label or relationship type -> rows (column -> text)


def sqlite_rows(path: Path) -> Rows:
    """Every row of every table ``sqlite_master`` lists (FTS5 shadow tables included), and
    every FTS5 index's terms (``fts5vocab``: its segments compress terms by prefix)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        found: Rows = {}
        tables = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
        for name, sql in tables:
            cursor = conn.execute(f'SELECT * FROM "{name}"')  # noqa: S608 - names from sqlite_master
            columns = [d[0] for d in cursor.description]
            found[name] = [{c: text_of(v) for c, v in zip(columns, row, strict=True)} for row in cursor]
            if "USING FTS5" in (sql or "").upper() and "FTS5VOCAB" not in sql.upper():
                conn.execute(f'CREATE VIRTUAL TABLE temp."{name}_terms" USING fts5vocab(main, "{name}", row)')
                found[f"{name} (terms)"] = [{"term": t} for (t,) in conn.execute(f'SELECT term FROM temp."{name}_terms"')]
        return found
    finally:
        conn.close()


def graph_rows(driver: Any, database: str) -> Rows:
    """Every node of every label and every relationship of every type, with its properties."""
    found: Rows = {}
    labels = [r["label"] for r in driver.execute_query("CALL db.labels()", database_=database).records]
    for label in labels:
        records = driver.execute_query(f"MATCH (n:`{label}`) RETURN properties(n) AS p", database_=database).records
        found[label] = [{k: text_of(v) for k, v in r["p"].items()} for r in records]
    types = [r["relationshipType"] for r in driver.execute_query("CALL db.relationshipTypes()", database_=database).records]
    for kind in types:
        records = driver.execute_query(
            f"MATCH (a)-[r:`{kind}`]->(b) RETURN properties(r) AS p, a.id AS a, b.id AS b", database_=database
        ).records  # the ends' ids too: an edge is the pair it joins
        found[kind] = [{"from": text_of(r["a"]), "to": text_of(r["b"])} | {k: text_of(v) for k, v in r["p"].items()}
                       for r in records]  # fmt: skip
    return found


def leftovers(rows: Rows, ids: set[str], audit: dict[str, frozenset[str] | None]) -> list[str]:
    """``table: column = value`` for each stored value holding an erased id or word, beside
    the audit trail's own columns."""
    stems = [w.lower()[:6] for w in WORDS]
    found = []
    for table, table_rows in rows.items():
        for row in table_rows:
            for column, value in row.items():
                lowered = value.lower()
                word = any(s in lowered for s in stems)
                allowed = table in audit and (audit[table] is None or column in (audit[table] or ()))
                if word or (not allowed and any(i in value for i in ids)):
                    found.append(f"{table}: {column} = {value[:120]!r}")
    return found


def about(rows: Rows, needles: set[str]) -> dict[str, list[dict[str, str]]]:
    """The rows holding any of ``needles`` (the other space's ids), per table."""
    out: dict[str, list[dict[str, str]]] = {}
    for table, table_rows in rows.items():
        held = [row for row in table_rows if any(n in v for v in row.values() for n in needles)]
        if held:
            out[table] = sorted(held, key=repr)
    return out


def raw_hits(directory: Path, needles: Iterable[str]) -> dict[str, list[str]]:
    """File (relative) -> needles found in its bytes, any case as written, lower or upper."""
    spellings = {s.encode() for n in needles for s in (n, n.lower(), n.upper())}
    hits = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            held = sorted(s.decode() for s in spellings if s in data)
            if held:
                hits[str(path.relative_to(directory))] = held
    return hits


def entity_names(mem: Memory, space: str) -> set[str]:
    return {r.entity.name for r in mem.export_space(space) if isinstance(r, EntityLine)}


@pytest.mark.parametrize("surface", ["memory", "http"])
def test_an_erased_user_leaves_nothing_in_any_table_label_or_file(
    open_memory: MemoryFactory, request: pytest.FixtureRequest, tmp_path: Path, surface: str
) -> None:
    backend = request.node.callspec.params["open_memory"]
    mem = open_memory(Extractor())
    north = mem.remember(SPACE, turns(NORTH, 1), wait=True)
    south = mem.remember(OTHER, turns(SOUTH, 2), wait=True)
    mem.record_job(SPACE, north, author="k_test", request_id="req-north")
    pia = {i for i, (speaker, _, _) in zip(north, NORTH, strict=True) if speaker == "Pia"}
    kept = [i for i in north if i not in pia]
    beliefs = {b.id for b in mem.beliefs(SPACE, status=None) if set(b.evidence_ids) & pia}
    candidates = {c.id for c in mem.candidates(SPACE, status=None) if set(c.fact.evidence_ids) & pia}
    hers = {n for n in entity_names(mem, SPACE) if any(w.lower()[:6] in n.lower() for w in WORDS)}
    assert len(beliefs) >= 3 and candidates and {"Odrenka", "Tavishor"} <= hers, (beliefs, candidates, hers)
    retracted = sorted(beliefs)[0]
    mem.retract_belief(SPACE, retracted, reason=f"Odrenka is her cousin, not her sister ({WORDS[2]})", author="k_test")
    ids = pia | beliefs | candidates | {entity_id(SPACE, entity_key(n)) for n in hers}
    kept_beliefs = {b.id: b for b in mem.beliefs(SPACE) if not set(b.evidence_ids) & pia}
    other_view = (
        [b.model_dump_json() for b in mem.beliefs(OTHER, status=None)],
        [d.model_dump_json() for d in mem.dimensions(OTHER)],
        [e.model_dump_json() for e in mem._stores.evidence.get(OTHER, south)],
    )
    assert kept_beliefs and other_view[0] and other_view[1]

    def rows() -> Rows:
        if backend == "server":
            server = request.getfixturevalue("neo4j_server")
            return graph_rows(request.getfixturevalue("neo4j_driver"), server.database)
        return sqlite_rows(tmp_path / "mem" / "eywa.sqlite3")

    # A recall before the erasure: the embedded store ranks it from in-memory copies of its
    # keyword indexes, read now with Pia's turns and beliefs in them.
    assert mem.recall(SPACE, "Where does Pia work?", k=5).items
    keyword = mem._stores.keyword
    if isinstance(keyword, SqliteKeywordIndex):  # a copy is read at most once a second
        deadline = time.monotonic() + 10
        while not keyword.memory_terms() & ids and time.monotonic() < deadline:
            time.sleep(0.1)
            mem.recall(SPACE, "Where does Pia work?", k=5)
            keyword.wait_ready(10)
        assert keyword.memory_terms() & ids
    audit = NEO4J_AUDIT if backend == "server" else EMBEDDED_AUDIT
    before = rows()
    # The scan sees what it must: the erased ids and words where Level 0 and 1 put them.
    seen = {entry.split(":")[0] for entry in leftovers(before, ids, audit)}
    must = (
        {"Evidence", "Belief", "Candidate", "Entity", "Delta", "Job", "Correction", "SUPPORTED_BY", "CO_MENTIONED"}
        if backend == "server"
        else {"evidence", "beliefs", "belief_support", "candidates", "candidate_evidence", "level1_runs", "mentions",
              "entities", "entity_edges", "nous_deltas", "nous_dimensions", "jobs", "corrections", "evidence_fts_data",
              "evidence_fts (terms)", "belief_fts (terms)"}
    )  # fmt: skip
    assert must <= seen, must - seen
    other_before = about(before, set(south) | {OTHER})

    if surface == "http":
        service = build_service(mem, tmp_path / "service")
        erased = service.client.post(f"/v1/spaces/{SPACE}/erase", json={"speaker": "Pia"},
                                     headers=service.headers([SPACE], "erase"))  # fmt: skip
        assert erased.status_code == 200, erased.text
        erasure_id = erased.json()["erasure_id"]
    else:
        erasure_id = mem.forget(SPACE, speaker="Pia", author="k_test").erasure_id
    assert mem.erasure_proof(SPACE, erasure_id).total == 0

    after = rows()
    assert leftovers(after, ids, audit) == []
    assert about(after, set(south) | {OTHER}) == other_before  # the other space: row for row
    vectors = mem._stores.vectors
    assert vectors.missing("evidence", sorted(pia)) == pia
    assert vectors.missing("belief", sorted(beliefs)) == beliefs
    assert vectors.missing("evidence", [*kept, *south]) == set()
    assert {b.id: b for b in mem.beliefs(SPACE) if b.id in kept_beliefs} == kept_beliefs
    assert (
        [b.model_dump_json() for b in mem.beliefs(OTHER, status=None)],
        [d.model_dump_json() for d in mem.dimensions(OTHER)],
        [e.model_dump_json() for e in mem._stores.evidence.get(OTHER, south)],
    ) == other_view
    if backend == "embedded":
        data = tmp_path / "mem"
        assert raw_hits(data, WORDS) == {}  # the main file, its WAL and the FTS5 segments
        assert raw_hits(data / "vectors", ids) == {}
        assert isinstance(keyword, SqliteKeywordIndex)  # the in-memory copies of the FTS5 indexes
        keyword.wait_ready(10)  # a copy being read (the belief copy may be left to the next search)
        held = keyword.memory_terms()
        stems = [w.lower()[:6] for w in WORDS]
        assert [t for t in held if any(t.startswith(s) for s in stems)] == [] and not held & ids
