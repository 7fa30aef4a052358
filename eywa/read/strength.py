"""The evidence-strength signal: how close the nearest stored evidence is to the question,
for an answering model that must be able to say "not in memory".

Recall always returns *something*: the nearest turns exist even when the question asks
about a thing never said. What tells the two apart is how near they are. The signal is the
vector route's best cosine similarity (question against turn-with-reply, MiniLM), 0 when
the route did not run.

Why cosine and not the fused score: reciprocal rank fusion only knows ranks, and ranks are
always 1, 2, 3 whether or not anything matches. BM25 scores grow with the query's length and
the corpus' statistics (the best BM25 score did not separate at all on the development
file: AUC 0.49); cosine between normalised embeddings is on one scale for every question and
space. Counting only items about the person the question names, which sounds right for
questions that swap the person, separated worse (AUC 0.60 against 0.70): the partner's
turns mention the named person too. The threshold an answering model should apply is
calibrated on the development file by leave-one-conversation-out (``eywa bench loco``;
README "Read path").
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["evidence_strength"]


def evidence_strength(cosines: Iterable[float]) -> float:
    """The best of the vector route's cosine similarities, clipped to [0, 1]; 0 for none."""
    return round(max(0.0, min(1.0, max(cosines, default=0.0))), 4)
