"""The evidence-strength signal: how close the nearest stored evidence is to the question,
for an answering model that must be able to say "not in memory".

Recall always returns *something*: the nearest turns exist even when the question asks
about a thing never said. What tells the two apart is how near they are. The signal is the
vector route's best cosine similarity (question against a turn's vector or a belief's,
MiniLM), 0 when the route did not run.

Why cosine and not the fused score: reciprocal rank fusion only knows ranks, and ranks are
always 1, 2, 3 whether or not anything matches. BM25 scores grow with the query's length and
the corpus' statistics (the best BM25 score did not separate at all on the development
file: AUC 0.49); cosine between normalised embeddings is on one scale for every question and
space. Counting only items about the person the question names, which sounds right for
questions that swap the person, separated worse (AUC 0.60 against 0.70): the partner's
turns mention the named person too. What does separate better is a *contrast*: a question
that swaps the person ("What did Ana paint?" when Ben painted) finds its nearest turns
spoken by someone else. The signal adds ``SPEAKER_CONTRAST`` × (best cosine among the
vector hits from a named person − best among those from anyone else) to the best cosine,
for a question that names someone (AUC 0.70 → 0.72 on the development file; the weight
chosen by leave one conversation out, better in all five held-out conversations). A hit is
*from* a person when it is a turn they spoke or a belief about them (its subject): most of
the vector route's best hits for a question naming someone are beliefs, whose statements
name their subject as the question does, and counting them by subject raised the AUC from
0.724 to 0.744, in every development conversation (docs/evaluation.md).
The threshold an answering model should apply is
calibrated on the development file by leave-one-conversation-out (``eywa bench loco``;
docs/evaluation.md).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from eywa.ids import entity_key

__all__ = ["SPEAKER_CONTRAST", "evidence_strength"]

# Weight of the named-versus-other speaker contrast. Chosen by leave one conversation out
# among 0, 0.1, 0.25 and 0.5 on the LoCoMo development file: 0.5 in three folds, 0.25 in two;
# both beat 0 (the best cosine alone) in every held-out conversation.
SPEAKER_CONTRAST: Final = 0.5


def evidence_strength(
    cosines: Sequence[float], speakers: Sequence[str | None] = (), named: Collection[str] = ()
) -> float:
    """The best of the vector route's cosine similarities, plus ``SPEAKER_CONTRAST`` × the
    contrast between turns spoken by a person the question names and turns spoken by
    others, clipped to [0, 1]; 0 for none.

    ``speakers`` is aligned with ``cosines``: whose each hit is (a turn's speaker, a belief's
    subject; ``None`` for other items); with no named person or no speakers, the signal is
    the best cosine alone.
    """
    best = max(cosines, default=0.0)
    wanted = {entity_key(name) for name in named}
    if wanted and speakers:
        spoken = [(c, entity_key(s) in wanted) for c, s in zip(cosines, speakers) if s is not None]
        by_named = max((c for c, is_named in spoken if is_named), default=0.0)
        by_others = max((c for c, is_named in spoken if not is_named), default=0.0)
        best += SPEAKER_CONTRAST * (by_named - by_others)
    return round(max(0.0, min(1.0, best)), 4)
