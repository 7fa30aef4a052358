"""BM25 keyword search over Neo4j's Lucene full-text indexes (server-mode ``KeywordIndex``).

``evidence_keyword`` indexes each turn's ``text`` and ``speaker`` together with the derived
``near_text`` (the adjacent turns' words) and ``far_text`` (the turns two and three away),
which ``Neo4jEvidenceStore.add`` maintains; ``belief_keyword`` indexes ``Belief.statement``
and ``status``. Both use the English analyzer (stemming and stop words). Evidence queries
boost the fields like the embedded FTS5 bm25 column weights: a turn's own words and speaker
fully, its neighbours' less, the farther turns less still, so that a reply ("Biscuit.") is
found through the question it answers ("What did you name the puppy?").

Both indexes also hold ``space_key``, the space as one token (``records.space_key``), and
every query requires it (``+space_key:"…"``), so Lucene itself returns only the space's
hits, best first, and exactly ``limit`` of them: the cost of a search does not grow with
the other spaces' data. The space clause carries a zero boost, so scores are the text
fields' BM25 alone. (Term statistics, and so BM25's idf, are still those of the whole
index; a space's ranking can shift slightly as other spaces grow, never its cost.)
Retracted beliefs are excluded in the query too (``-status:"retracted"``). Every kind asked
is searched in the same round trip, its ties settled and its ranking cut in the database,
which returns each ranking as two lists (ids, scores).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import FulltextIndex
from eywa.stores.neo4j.records import space_key

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Per-field boosts of the evidence index, mirroring the embedded bm25 column weights
# (text 1.0, speaker 1.0, next/prev turn 0.4/0.25, turns two-three away 0.25/0.15); the
# server index keeps both adjacent turns in one field and both farther ones in another.
# Field names are constants (index properties), never input.
_EVIDENCE_FIELDS: Final = (("text", 1.0), ("speaker", 1.0), ("near_text", 0.4), ("far_text", 0.2))
_BELIEF_FIELDS: Final = (("statement", 1.0),)
# Which index serves which item kind, the fields it is queried on, and what it excludes;
# index names never come from input.
_INDEXES: Final[dict[str, tuple[FulltextIndex, tuple[tuple[str, float], ...], str]]] = {
    "evidence": (FulltextIndex.EVIDENCE_KEYWORD, _EVIDENCE_FIELDS, ""),
    "belief": (FulltextIndex.BELIEF_KEYWORD, _BELIEF_FIELDS, ' -status:"retracted"'),
}

# Hits fetched beyond ``limit`` so that equal scores at the cut are settled by age, as
# below, rather than by Lucene's document order; a constant, so cost stays O(limit).
_TIE_MARGIN: Final = 10

# One kind's ranking: Lucene's hits of the space, ordered in the database (equal scores go
# to the older item, like the embedded index's rowid order: Lucene's own tie order follows
# its internal document ids, which change whenever a node's context is updated), cut to
# ``$cut`` and returned as two lists. One row of lists, not a row per hit: the driver spent
# most of a search's client CPU building a record and a dict for each of a few hundred rows.
_PART = """
CALL () {{
  CALL db.index.fulltext.queryNodes($index_{n}, $query_{n}, {{limit: $limit}}) YIELD node, score
  WHERE node.space = $space
  WITH node.id AS id, score ORDER BY score DESC, node.recorded_at, coalesce(node.position, 0), id LIMIT $cut
  RETURN collect(id) AS ids_{n}, collect(score) AS scores_{n}
}}"""


def _search_parts(count: int) -> str:
    """The statement searching ``count`` kinds at once (the text holds only digits)."""
    parts = "".join(_PART.format(n=n) for n in range(count))
    columns = ", ".join(f"ids_{n}, scores_{n}" for n in range(count))
    return f"{parts}\nRETURN {columns}\n"


def lucene_query(text: str, fields: Sequence[tuple[str, float]] = ()) -> str | None:
    """A safe Lucene query: the words of ``text``, each quoted, joined with OR.

    Words are runs of letters and digits, so no Lucene syntax (``+ - && || ! ( ) : ^ ~ * ?
    " \\ /``) survives, and quoting keeps ``AND``/``OR``/``NOT`` from being operators. The
    index's analyzer drops stop words and stems the rest. With ``fields`` (name, boost), the
    group of terms is asked of each field with its boost (``near_text:("a" OR "b")^0.4``);
    names and boosts are the caller's constants, never input.
    """
    words = [w.lower() for w in _WORD.findall(text)]
    terms = list(dict.fromkeys(w for w in words if len(w) > 1))
    if not terms:
        return None
    group = " OR ".join(f'"{term}"' for term in terms)
    if not fields:
        return group
    return " OR ".join(
        f"{name}:({group})" if boost == 1.0 else f"{name}:({group})^{boost:g}" for name, boost in fields
    )


def in_space(space: str, match: str, exclude: str = "") -> str:
    """``match`` restricted to one space inside Lucene: ``+space_key:"K"^0 +(match)``.

    The key is digits only (``records.space_key``) and ``exclude`` a caller constant, so
    nothing from input reaches the query unquoted.
    """
    return f'+space_key:"{space_key(space)}"^0 +({match}){exclude}'


def _part_params(kind: str, space: str, text: str) -> tuple[str, str] | None:
    """(index name, Lucene query) of one item kind, or None when there is nothing to search
    (an unknown kind, no words)."""
    if kind not in _INDEXES:
        return None
    index, fields, exclude = _INDEXES[kind]
    match = lucene_query(text, fields)
    if match is None:
        return None
    return index.value, in_space(space, match, exclude)


def search_statement(kind: str, space: str, text: str, limit: int) -> tuple[str, dict[str, Any]] | None:
    """The query and parameters that search one item kind, or None when there is nothing
    to search (an unknown kind, no words). What ``Neo4jKeywordIndex.search`` runs for one
    kind (for several it runs one such part per kind), exposed so that a test can profile
    exactly that query.
    """
    found = _part_params(kind, space, text)
    if found is None:
        return None
    params = {"index_0": found[0], "query_0": found[1], "limit": limit + _TIE_MARGIN, "cut": limit, "space": space}
    return _search_parts(1), params


class Neo4jKeywordIndex:
    """The server ``KeywordIndex``: one Lucene ranking per kind, all asked in one round
    trip, merged by score.

    Args:
        graph: The shared Neo4j connection.
    """

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def search(
        self, space: str, query: str, limit: int, kinds: Sequence[str] = ("evidence",)
    ) -> list[tuple[str, str, float]]:
        """(kind, id, score) triples, best first; only items of ``space``.

        Unknown kinds are ignored; retracted beliefs are never returned.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        if limit <= 0:
            return []
        kinds_asked: list[str] = []
        params: dict[str, Any] = {"space": space, "limit": limit + _TIE_MARGIN, "cut": limit}
        for kind in dict.fromkeys(kinds):
            found = _part_params(kind, space, query)
            if found is not None:
                n = len(kinds_asked)
                params[f"index_{n}"], params[f"query_{n}"] = found
                kinds_asked.append(kind)
        if not kinds_asked:
            return []
        (row,) = self._graph.read("keyword search", _search_parts(len(kinds_asked)), **params)
        hits: list[tuple[str, str, float]] = []
        for n, kind in enumerate(kinds_asked):
            hits.extend((kind, str(i), float(score)) for i, score in zip(row[f"ids_{n}"], row[f"scores_{n}"], strict=True))
        hits.sort(key=lambda hit: -hit[2])
        return hits[:limit]
