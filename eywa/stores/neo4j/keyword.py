"""BM25 keyword search over Neo4j's Lucene full-text indexes (server-mode ``KeywordIndex``).

``evidence_text`` indexes ``Evidence.text`` and ``belief_statement`` indexes
``Belief.statement`` (English analyzer: stemming and stop words). A full-text index cannot
lead with an exact property, so the space filter is applied to the hits
(``WHERE node.space = $space``): the query asks Lucene for more hits than ``limit``, keeps
those of the space, and asks again with a larger window only when a crowded index left too
few. Lucene's scores are BM25 (higher is better), like the embedded index's negated bm25.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import FulltextIndex

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Which index serves which item kind; index names never come from input.
_INDEXES: Final = {"evidence": FulltextIndex.EVIDENCE_TEXT, "belief": FulltextIndex.BELIEF_STATEMENT}
_MAX_WINDOW: Final = 20_000

_SEARCH = """
CALL db.index.fulltext.queryNodes($index, $query, {limit: $window}) YIELD node, score
WITH collect({node: node, score: score}) AS hits
RETURN size(hits) AS raw,
  [h IN hits WHERE h.node.space = $space AND coalesce(h.node.status, '') <> 'retracted'
   | [h.node.id, h.score]][..$limit] AS kept
"""


def lucene_query(text: str) -> str | None:
    """A safe Lucene query: the words of ``text``, each quoted, joined with OR.

    Words are runs of letters and digits, so no Lucene syntax (``+ - && || ! ( ) : ^ ~ * ?
    " \\ /``) survives, and quoting keeps ``AND``/``OR``/``NOT`` from being operators. The
    index's analyzer drops stop words and stems the rest.
    """
    words = [w.lower() for w in _WORD.findall(text)]
    terms = list(dict.fromkeys(w for w in words if len(w) > 1))
    if not terms:
        return None
    return " OR ".join(f'"{term}"' for term in terms)


class Neo4jKeywordIndex:
    """The server ``KeywordIndex``: one Lucene ranking per kind, merged by score.

    Args:
        graph: The shared Neo4j connection.
        overfetch: How many index hits to fetch per wanted hit before filtering by space.
    """

    def __init__(self, graph: Neo4jGraph, *, overfetch: int = 4) -> None:
        self._graph = graph
        self._overfetch = max(1, overfetch)

    def search(
        self, space: str, query: str, limit: int, kinds: Sequence[str] = ("evidence",)
    ) -> list[tuple[str, str, float]]:
        """(kind, id, score) triples, best first; only items of ``space``.

        Unknown kinds are ignored; retracted beliefs are never returned.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        match = lucene_query(query)
        if match is None or limit <= 0:
            return []
        hits: list[tuple[str, str, float]] = []
        for kind in kinds:
            index = _INDEXES.get(kind)
            if index is not None:
                hits.extend((kind, item_id, score) for item_id, score in self._one(index, space, match, limit))
        hits.sort(key=lambda hit: -hit[2])
        return hits[:limit]

    def _one(self, index: FulltextIndex, space: str, match: str, limit: int) -> list[tuple[str, float]]:
        """Hits of one index, widening the window until ``limit`` are kept or Lucene runs dry."""
        window = limit * self._overfetch + 50
        while True:
            (row,) = self._graph.read(
                "keyword search", _SEARCH,
                index=index.value, query=match, window=window, space=space, limit=limit,
            )  # fmt: skip
            kept = [(str(item_id), float(score)) for item_id, score in row["kept"]]
            if len(kept) >= limit or row["raw"] < window or window >= _MAX_WINDOW:
                return kept
            window = min(window * 4, _MAX_WINDOW)
