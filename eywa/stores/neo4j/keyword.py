"""BM25 keyword search over Neo4j's Lucene full-text indexes (server-mode ``KeywordIndex``).

``evidence_context`` indexes each turn's ``text`` and ``speaker`` together with the derived
``near_text`` (the adjacent turns' words) and ``far_text`` (the turns two and three away),
which ``Neo4jEvidenceStore.add`` maintains; ``belief_statement`` indexes
``Belief.statement``. Both use the English analyzer (stemming and stop words). Evidence
queries boost the fields like the embedded FTS5 bm25 column weights: a turn's own words
and speaker fully, its neighbours' less, the farther turns less still, so that a reply
("Biscuit.") is found through the question it answers ("What did you name the puppy?").

A full-text index cannot lead with an exact property, so the space filter is applied to the
hits (``WHERE node.space = $space``): the query asks Lucene for more hits than ``limit``,
keeps those of the space, and asks again with a larger window only when a crowded index left
too few. Lucene's scores are BM25 (higher is better), like the embedded index's negated bm25.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import FulltextIndex

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Per-field boosts of the evidence index, mirroring the embedded bm25 column weights
# (text 1.0, speaker 1.0, next/prev turn 0.4/0.25, turns two-three away 0.25/0.15); the
# server index keeps both adjacent turns in one field and both farther ones in another.
# Field names are constants (index properties), never input.
_EVIDENCE_FIELDS: Final = (("text", 1.0), ("speaker", 1.0), ("near_text", 0.4), ("far_text", 0.2))
# Which index serves which item kind and the fields it is queried on (``()``: the index's
# own fields, unboosted); index names never come from input.
_INDEXES: Final[dict[str, tuple[FulltextIndex, tuple[tuple[str, float], ...]]]] = {
    "evidence": (FulltextIndex.EVIDENCE_CONTEXT, _EVIDENCE_FIELDS),
    "belief": (FulltextIndex.BELIEF_STATEMENT, ()),
}
_MAX_WINDOW: Final = 20_000

_SEARCH = """
CALL db.index.fulltext.queryNodes($index, $query, {limit: $window}) YIELD node, score
WITH collect({node: node, score: score}) AS hits
RETURN size(hits) AS raw,
  [h IN hits WHERE h.node.space = $space AND coalesce(h.node.status, '') <> 'retracted'
   | [h.node.id, h.score, h.node.recorded_at, coalesce(h.node.position, 0)]] AS kept
"""


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
        if limit <= 0:
            return []
        hits: list[tuple[str, str, float]] = []
        for kind in kinds:
            if kind not in _INDEXES:
                continue
            index, fields = _INDEXES[kind]
            match = lucene_query(query, fields)
            if match is not None:
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
            # Equal scores (say, two turns matched only by the same speaker) go to the older
            # item, like the embedded index's rowid order; Lucene's own tie order follows
            # its internal document ids, which change whenever a node's context is updated.
            ordered = sorted(row["kept"], key=lambda h: (-h[1], h[2] is None, h[2] or 0, h[3], h[0]))
            kept = [(str(item_id), float(score)) for item_id, score, _, _ in ordered[:limit]]
            if len(kept) >= limit or row["raw"] < window or window >= _MAX_WINDOW:
                return kept
            window = min(window * 4, _MAX_WINDOW)
