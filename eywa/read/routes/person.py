"""The person route: what the people a question names said themselves, nearest to what it asks.

"What activities has Ana done with her family?" is answered by turns Ana spoke ("heading out
to swim with the kids", "brought the kids to the aquarium"), spread over many sessions and
sharing few words with the question. Searched over the whole space, they compete with every
turn of everyone else, and with the other person's turns that only mention Ana ("Hey Ana,
how was the museum?"). This route searches the question's embedding (without the names,
``eywa.read.plan.embedding_text``) deeper than the vector route and keeps the turns whose
speaker is a person the question names: entity-centric candidate generation, with no word
or attribute list to maintain.

On the LoCoMo development questions, 44% of the multi-hop gold turns were in this ranking's
top 10, against 25% for a vector search over every turn with the question as asked and 32%
without the names (other answerable categories: 62%, 53%, 59%; docs/evaluation.md).
"""

from __future__ import annotations

from typing import Final

from eywa.ids import entity_key
from eywa.read.asked import answering
from eywa.read.routes.base import Query, RouteHit, VectorSearch
from eywa.stores.bundle import Stores

__all__ = ["PERSON_DEPTH", "PersonRoute"]

# The vector search reaches this many candidates per route slot before the named people's
# turns are kept: in a two-person conversation about half are theirs. Three gave the same
# development recall as six, at half the search and speaker lookup.
PERSON_DEPTH: Final = 3


class PersonRoute:
    """Turns spoken by a named person, by cosine similarity to the question without names."""

    name: Final = "person"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def vector_searches(self, query: Query) -> list[VectorSearch]:
        return [("evidence", query.limit * PERSON_DEPTH)] if query.plan.people else []

    def run(self, query: Query) -> list[RouteHit]:
        if not query.plan.people or query.vector.size <= 1:  # no one named, or no embedding to search with
            return []
        hits = query.vector_hits(self._stores.vectors, "evidence", query.limit * PERSON_DEPTH)
        speakers = self._stores.evidence.speakers(query.space, [item_id for item_id, _ in hits])
        named = query.plan.people
        if query.plan.objects:  # "What did Ana lend to Ben?": Ana's turns, when Ana speaks (``eywa.read.asked``)
            voices = {entity_key(speaker) for speaker in speakers.values() if speaker}
            named = answering(named, query.plan.objects, voices)[0]
        people = {entity_key(name) for name in named}
        # Whether each speaker is one of them, once per speaker (a conversation has a few;
        # the hits are ~150): ``entity_key`` normalises a name in Python.
        spoken = {speaker: entity_key(speaker) in people for speaker in set(speakers.values()) if speaker is not None}
        theirs = [
            RouteHit("evidence", item_id, score)
            for item_id, score in hits
            if (speaker := speakers.get(item_id)) is not None and spoken[speaker]
        ]
        return theirs[: query.limit]
