"""The evidence-strength signal: how well the best retrieved evidence about the person asked
about matches the question, for an answering model that must be able to say "not in memory".

Recall always returns *something*: the nearest turns exist even when the question asks about
a thing never said. What tells the two apart is how near they are. The signal is the
vector route's cosine similarity (question against turn-with-reply, MiniLM) of the best item
among those recall returns, counting only items about a person the question names when it
names one: a question about something one person did, asked of the other ("What did B
realise after the race?" when A ran it), finds close turns, but not about B.

Why cosine and not the fused score: reciprocal rank fusion only knows ranks, and ranks are
always 1, 2, 3 whether or not anything matches. BM25 scores grow with the query's length and
the corpus' statistics; cosine between normalised embeddings is on one scale for every
question and space. The threshold the answering model should apply is calibrated on the
development file by leave-one-conversation-out (``eywa bench loco``; README "Read path").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from eywa.ids import entity_key
from eywa.models import ItemKind
from eywa.read.items import Hydrated

__all__ = ["evidence_strength"]


def evidence_strength(
    items: Iterable[Hydrated], cosine: Mapping[tuple[ItemKind, str], float], named_ids: set[str], named_keys: set[str]
) -> float:
    """The best cosine (0 to 1, 0 when nothing matched) among ``items`` about the named people.

    ``cosine`` maps (kind, id) to the vector route's similarity for the items it ranked;
    an item it did not rank counts 0. ``named_ids`` are the entity ids the question names
    and ``named_keys`` their ``entity_key``s: an item is about a named person when it
    mentions one, or is spoken by or about one. With nobody named, every item counts.
    """
    best = 0.0
    for item in items:
        if named_ids and not (
            named_ids.intersection(item.about) or (item.subject is not None and entity_key(item.subject) in named_keys)
        ):
            continue
        best = max(best, cosine.get((item.kind, item.id), 0.0))
    return round(max(0.0, min(1.0, best)), 4)
