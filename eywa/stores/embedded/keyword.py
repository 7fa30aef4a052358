"""BM25 keyword search over the FTS5 tables (evidence text, belief statements)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from eywa.stores.embedded.belief_index import BeliefBm25
from eywa.stores.embedded.bm25_index import Bm25Index
from eywa.stores.embedded.database import SqliteDatabase

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Function words carry no retrieval signal and make every OR query match every turn.
_STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have he her
    hers him his how i if in into is it its me my of on or our she so than that the their
    them then there these they this to too us was we were what when where which who whom
    why will with would you your yours about after before doing just any""".split()
)
# The bm25 column weights of each FTS5 table (the UNINDEXED id and space columns count as
# columns too). A turn's own words and speaker weigh fully, its neighbours' words less, the
# turns two and three away less still: measured on the LoCoMo dev turns with BM25 alone, the
# adjacent columns add about five points of turn recall@10 over text and speaker, the
# farther ones three more.
_EVIDENCE_WEIGHTS: Final = "0, 0, 1.0, 1.0, 0.4, 0.25, 0.25, 0.15"
EVIDENCE_WEIGHTS: Final = tuple(float(w) for w in _EVIDENCE_WEIGHTS.split(","))
# One query per item kind and plan; table names never come from input. Ties in score are
# broken by rowid (the order turns were indexed), so both plans rank ties alike.
#
# Filtered plan, for a store holding several spaces. Turns: the space and id are read from
# the ``evidence`` row that shares the FTS row's rowid (``reindex_session`` keeps them
# equal), not from the FTS row's UNINDEXED columns: every matching row is tested for its
# space before ranking, and an FTS5 UNINDEXED column is read through the virtual table's
# content lookup, a statement per row (on the LoCoMo development turns in one space, every
# row matching ~200 of them per question, reading ``space`` that way cost about as much as
# ranking itself: 7.3 against 4.0 ms CPU per query with the join, same ids and scores).
# ``CROSS JOIN`` keeps the search outermost whatever the planner's statistics say (the
# other order would run the MATCH once per turn of the space).
_FILTERED: Final = {
    "evidence": (
        f"SELECT e.id AS id, e.space AS space, bm25(evidence_fts, {_EVIDENCE_WEIGHTS}) AS rank "  # noqa: S608
        "FROM evidence_fts CROSS JOIN evidence e ON e.rowid = evidence_fts.rowid "
        "WHERE evidence_fts MATCH ? AND e.space = ? ORDER BY rank, evidence_fts.rowid LIMIT ?"
    ),
    "belief": (
        "SELECT id, space, bm25(belief_fts, 0, 0, 1.0) AS rank FROM belief_fts "
        "WHERE belief_fts MATCH ? AND space = ? ORDER BY rank, rowid LIMIT ?"
    ),
}
# Sole-space plan, for a store whose only space is the one searched (the usual embedded
# directory): the MATCH ranks row ids alone, and only the ``limit`` best rows are looked up
# for their id and space. The per-row space test is most of what the filtered plan costs
# beyond ranking (10k synthetic turns, ~3,400 matching rows per question: 7.1 against 5.6 ms
# CPU). The spaces read back are checked all the same (``_ranked``): a row of another space,
# or an index row whose turn is gone (no space: ``LEFT JOIN``), sends the search to the
# filtered plan, so the sole-space plan serves exactly what the filtered one would.
_SOLE: Final = {
    "evidence": (
        "SELECT e.id AS id, e.space AS space, r.rank AS rank FROM ("  # noqa: S608 - constants
        f"SELECT rowid, bm25(evidence_fts, {_EVIDENCE_WEIGHTS}) AS rank FROM evidence_fts "
        "WHERE evidence_fts MATCH ? ORDER BY rank, rowid LIMIT ?) r "
        "LEFT JOIN evidence e ON e.rowid = r.rowid ORDER BY r.rank, r.rowid"
    ),
    # A belief's id and space are read from the FTS table's own content row
    # (``belief_fts_content``, the table FTS5 keeps its columns in: ``id`` is the rowid,
    # ``c0``/``c1`` the ``id``/``space`` columns), a plain rowid lookup, rather than through
    # the virtual table, which prepares a content lookup per row: 10k synthetic turns (4,460
    # beliefs, ~750 matching per question), 2.5 against 3.1 ms CPU, the same rows.
    "belief": (
        "SELECT f.c0 AS id, f.c1 AS space, r.rank AS rank FROM ("
        "SELECT rowid, bm25(belief_fts, 0, 0, 1.0) AS rank FROM belief_fts "
        "WHERE belief_fts MATCH ? ORDER BY rank, rowid LIMIT ?) r "
        "CROSS JOIN belief_fts_content f ON f.id = r.rowid ORDER BY r.rank, r.rowid"
    ),
}
# Whether a table holds a row of a space other than the given one: two seeks on an index
# led by ``space`` (a ``!=`` test would walk every row of the space first). The FTS tables
# are written and erased with their tables (``evidence``, ``beliefs``) in one transaction.
_OTHER_SPACE: Final = {
    kind: f"SELECT EXISTS (SELECT 1 FROM {t} WHERE space < ?) "  # noqa: S608 - constants
    f"OR EXISTS (SELECT 1 FROM {t} WHERE space > ?)"
    for kind, t in (("evidence", "evidence"), ("belief", "beliefs"))
}


def fts_query(text: str) -> str | None:
    """A safe FTS5 MATCH expression: content words, each quoted, joined with OR.

    Quoting every token means no user text is ever read as FTS syntax.
    """
    words = [w.lower() for w in _WORD.findall(text)]
    terms = list(dict.fromkeys(w for w in words if w not in _STOPWORDS and len(w) > 1))
    if not terms:
        return None
    return " OR ".join(f'"{term}"' for term in terms)


class SqliteKeywordIndex:
    """The embedded ``KeywordIndex``: one BM25 ranking per kind, merged by score."""

    def __init__(self, db: SqliteDatabase, memory: Bm25Index | None = None, beliefs: BeliefBm25 | None = None) -> None:
        self._db = db
        # Evidence searches are ranked from the in-memory index when it is current (the same
        # rows and ranks, ``bm25_index``), belief searches from the in-memory copy of
        # ``belief_fts`` when it is of the version read (``belief_index``), by FTS5 otherwise.
        self._memory = memory
        self._beliefs = beliefs

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait for the in-memory evidence index's build and the belief copy's read (benches
        time recalls with them, not with the FTS5 fallback); whether both are ready (False:
        switched off, or not built)."""
        beliefs = self._beliefs is not None and self._beliefs.wait_ready(timeout)
        return self._memory is not None and self._memory.wait_ready(timeout) and beliefs

    def memory_counts(self) -> dict[str, int]:
        """Evidence searches answered from the in-memory index and by FTS5 instead."""
        if self._memory is None:
            return {"memory": 0, "fts5": 0}
        return {"memory": self._memory.answered, "fts5": self._memory.fell_back}

    def memory_terms(self) -> set[str]:
        """The terms (and belief ids) the in-memory copies hold (tests: an erasure leaves
        none of the erased words)."""
        held = self._memory.terms() if self._memory is not None else set()
        return held | (self._beliefs.terms() if self._beliefs is not None else set())

    def search(
        self, space: str, query: str, limit: int, kinds: Sequence[str] = ("evidence",)
    ) -> list[tuple[str, str, float]]:
        """(kind, id, score) best first; FTS5's bm25 is negative-better, so it is negated."""
        match = fts_query(query)
        if match is None:
            return []
        # The in-memory index's turns are named (their ids read, a primary-key read each) only
        # once the kinds are merged and cut to ``limit``: of the 200 turns the routes' shared
        # search of both kinds ranks at 10k, ~85 were kept at p50 on the bench store.
        memory = self._memory if "evidence" in kinds else None
        rows = memory.ranked_rows(space, match, limit) if memory is not None else None
        ranked: dict[str, Sequence[tuple[str | int, float]]] = {}
        for kind in dict.fromkeys(kinds):
            if kind == "evidence" and rows is not None:
                ranked[kind] = rows
            elif kind in _FILTERED:
                ranked[kind] = self._ranked(kind, space, match, limit, fts5=memory is not None)
        best = _merged(ranked, kinds, limit)
        if memory is not None and rows is not None:
            named = memory.named(space, [(int(item), rank) for kind, item, rank in best if kind == "evidence"])
            if named is None:  # a kept row is no turn of the space: FTS5 ranks the turns
                ranked["evidence"] = self._ranked("evidence", space, match, limit, fts5=True)
                best = _merged(ranked, kinds, limit)
            else:
                ids = iter(named)
                best = [(kind, next(ids)[0] if kind == "evidence" else item, rank) for kind, item, rank in best]
        return [(kind, str(item), -rank) for kind, item, rank in best]

    def _ranked(self, kind: str, space: str, match: str, limit: int, *, fts5: bool = False) -> list[tuple[str, float]]:
        """(id, bm25) of one kind, best (lowest) first: the sole-space plan when no other
        space has rows of this kind, else (or if a row of another space came back after all,
        written meanwhile) the filtered plan. Turns from the in-memory index unless ``fts5``."""
        if kind == "evidence" and self._memory is not None and not fts5:
            found = self._memory.ranked(space, match, limit)
            if found is not None:
                return found
        if kind == "belief" and self._beliefs is not None:
            found = self._beliefs.ranked(space, match, limit)
            if found is not None:
                return found
        if not self._db.query(_OTHER_SPACE[kind], (space, space))[0][0]:
            rows = self._db.query(_SOLE[kind], (match, limit))
            if all(row["space"] == space for row in rows):
                return [(row["id"], float(row["rank"])) for row in rows]
        return [(row["id"], float(row["rank"])) for row in self._db.query(_FILTERED[kind], (match, space, limit))]


def _merged(
    ranked: dict[str, Sequence[tuple[str | int, float]]], kinds: Sequence[str], limit: int
) -> list[tuple[str, str | int, float]]:
    """The ``limit`` best (kind, item, bm25) of the kinds' rankings, in ``kinds``' order where
    they score alike (a stable sort), each kind's own order kept."""
    hits = [(kind, item, rank) for kind in kinds if kind in ranked for item, rank in ranked[kind]]
    hits.sort(key=lambda hit: hit[2])
    return hits[:limit]
