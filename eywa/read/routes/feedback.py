"""The feedback route: pseudo-relevance feedback, a second keyword search that reaches other sessions.

A list question's evidence is spread over sessions whose turns share few words with the
question ("What kinds of pottery has Ana made?" is answered by "my pottery class: clay bowls"
in one session and by "glazed a clay vase, it survived the kiln" in another). The best
keyword hits say how this conversation talks about the topic: their words that recur (in at
least two of them) and that the question does not already hold are added to it, and the
index is searched again. This is classical pseudo-relevance feedback (RM3's expansion without
its interpolation weight: the index's IDF already keeps a common word from counting much);
no word list, no model, one more search and one small read of the best hits' words.

The plan weighs it for list and count questions only (``eywa.read.plan.FEEDBACK_WEIGHT``): for
a question with one answer the best hits are already the answer, and their other words lead
away from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from eywa.read.overlap import terms
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["FEEDBACK_DOCS", "FEEDBACK_TERMS", "FeedbackRoute", "expansion_terms"]

# The best keyword hits (turns) read as feedback, and how many of their recurring words are
# added. Chosen on the LoCoMo development file by leave one conversation out among 5 and 10
# turns, 4 and 8 words: 10 and 8 (docs/evaluation.md).
FEEDBACK_DOCS: Final = 10
FEEDBACK_TERMS: Final = 8
# A word is feedback when at least this many of the feedback turns hold it: one turn's words
# are its own topic, words shared by several are the conversation's way of saying the asked one.
MIN_SHARED: Final = 2


def expansion_terms(
    question: str, texts: Sequence[str], names: Sequence[str], most: int = FEEDBACK_TERMS
) -> list[str]:
    """The content words (``overlap.terms``) that at least ``MIN_SHARED`` of ``texts`` (best
    first) hold and that neither the question nor a name it names holds: the most shared
    first, then those of the better text, at most ``most``."""
    asked = terms(question) | {t for name in names for t in terms(name)}
    shared: Counter[str] = Counter()
    first: dict[str, int] = {}
    for rank, text in enumerate(texts):
        for term in terms(text) - asked:
            shared[term] += 1
            first.setdefault(term, rank)
    recurring = [term for term, n in shared.items() if n >= MIN_SHARED]
    return sorted(recurring, key=lambda term: (-shared[term], first[term], term))[:most]


class FeedbackRoute:
    """Keyword hits (turns) of the question with its best hits' recurring words added."""

    name: Final = "feedback"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        best = [item_id for _, item_id, _ in query.keyword_hits(self._stores.keyword, "evidence")[:FEEDBACK_DOCS]]
        if len(best) < MIN_SHARED:
            return []
        said = {
            turn.id: turn.text
            for turn in self._stores.evidence.recall_turns(query.space, best)
            if query.as_of is None or turn.observed_at <= query.as_of  # no word said after the asker's time
        }
        added = expansion_terms(query.text, [said[i] for i in best if i in said], query.plan.people)
        if not added:
            return []
        found = self._stores.keyword.search(query.space, f"{query.text} {' '.join(added)}", query.limit, ("evidence",))
        return [RouteHit("evidence", item_id, score) for _, item_id, score in found]
