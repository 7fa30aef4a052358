"""BM25 keyword search over the FTS5 tables (evidence text, belief statements)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

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
# One query per item kind; table names never come from input.
#
# Turns: the space and id are read from the ``evidence`` row that shares the FTS row's
# rowid (``reindex_session`` keeps them equal), not from the FTS row's UNINDEXED columns.
# Every matching row is tested for its space before ranking, and an FTS5 UNINDEXED column
# is read through the virtual table's content lookup, a statement per row: on the LoCoMo
# development turns in one space (every row matching ~200 of them per question) reading
# ``space`` that way cost about as much as ranking itself (7.3 against 4.0 ms CPU per
# query with the join, same ids and scores). ``CROSS JOIN`` keeps the search outermost whatever the planner's
# statistics say (the other order would run the MATCH once per turn of the space).
_QUERIES: Final = {
    "evidence": (
        f"SELECT e.id AS id, bm25(evidence_fts, {_EVIDENCE_WEIGHTS}) AS rank "  # noqa: S608 - constants
        "FROM evidence_fts CROSS JOIN evidence e ON e.rowid = evidence_fts.rowid "
        "WHERE evidence_fts MATCH ? AND e.space = ? ORDER BY rank LIMIT ?"
    ),
    "belief": (
        "SELECT id, bm25(belief_fts, 0, 0, 1.0) AS rank FROM belief_fts "
        "WHERE belief_fts MATCH ? AND space = ? ORDER BY rank LIMIT ?"
    ),
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

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def search(
        self, space: str, query: str, limit: int, kinds: Sequence[str] = ("evidence",)
    ) -> list[tuple[str, str, float]]:
        """(kind, id, score) best first; FTS5's bm25 is negative-better, so it is negated."""
        match = fts_query(query)
        if match is None:
            return []
        hits: list[tuple[str, str, float]] = []
        for kind in kinds:
            if kind not in _QUERIES:
                continue
            rows = self._db.query(_QUERIES[kind], (match, space, limit))
            hits.extend((kind, row["id"], -float(row["rank"])) for row in rows)
        hits.sort(key=lambda hit: -hit[2])
        return hits[:limit]
