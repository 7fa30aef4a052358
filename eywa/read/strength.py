"""The evidence-strength signal: how likely the stored evidence answers the question, for
an answering model that must be able to say "not in memory".

Recall always returns *something*: the nearest turns exist even when the question asks
about a thing never said. The signal combines three measures of the hits a recall already
holds, by a logistic model (``evidence_strength``):

- the vector route's best cosine similarity (question against a turn's vector or a
  belief's, MiniLM): how near the nearest evidence is;
- a *speaker contrast* (``speaker_contrast``): the best cosine among the vector hits from
  a person the question names minus the best among hits from anyone else. A question that
  swaps the person ("What did Ana paint?" when Bo painted) finds its nearest evidence from
  someone else. A hit is *from* a person when it is a turn they spoke or a belief about
  them (its subject);
- a *lexical contrast* (``lexical_contrast``): the share of the question's content words
  (``Plan.other_words``: no names, no function words) found in the turns among the keyword
  route's best ``LEXICAL_DEPTH`` hits spoken by the named person, minus the share found in
  those spoken by others. The asked-about thing said only by the other person is what a
  swapped question looks like; and words either occur or not, on no embedder's scale (the
  cosine-based signal alone fell from AUC 0.74 on the development file to 0.55 on held-out
  conversations; this measure alone scores 0.79 and 0.82).

A person the question names whom no vector hit is from (a nickname, someone only spoken
of) counts as not named: there is nothing of theirs to contrast with others' hits.

Why not the fused score: reciprocal rank fusion only knows ranks, always 1, 2, 3 whether or
not anything matches; the best BM25 score did not separate at all (AUC 0.49 on the
development file). The model and every figure are in docs/evaluation.md (Evidence
strength); the threshold an answering model should apply is calibrated by
leave-one-conversation-out (``eywa bench loco``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Final

from eywa.ids import entity_key
from eywa.read.overlap import terms

__all__ = [
    "COSINE_WEIGHT",
    "INTERCEPT",
    "LEXICAL_DEPTH",
    "LEXICAL_WEIGHT",
    "SPEAKER_WEIGHT",
    "evidence_strength",
    "lexical_contrast",
    "speaker_contrast",
]

# The logistic model's coefficients: fitted (maximum likelihood, L2 1e-3) on the LoCoMo
# development file's 999 questions, category 5 (never said) against 1-4, from the three
# measures of each question's recall. Refitted on four conversations and scored on the
# fifth (leave one conversation out), the AUC is 0.854 / 0.839 / 0.816 / 0.863 / 0.822,
# against 0.707 / 0.735 / 0.666 / 0.819 / 0.754 for the signal before (best cosine + 0.5 ×
# the speaker contrast); the folds' coefficients stay within 0.9 of these.
INTERCEPT: Final = -3.149
COSINE_WEIGHT: Final = 5.193
SPEAKER_WEIGHT: Final = 4.33
LEXICAL_WEIGHT: Final = 2.464
# How many of the keyword route's best hits the lexical contrast reads (the turns among
# them). Leave one conversation out: mean AUC 0.833 with 3, 0.839 with 5, 0.822 with 10.
LEXICAL_DEPTH: Final = 5



def evidence_strength(
    cosines: Sequence[float],
    speakers: Sequence[str | None] = (),
    named: Collection[str] = (),
    words: Sequence[str] = (),
    hits: Sequence[tuple[str, str | None]] = (),
) -> float:
    """How likely the evidence found answers the question, from 0 to 1: the logistic of
    ``INTERCEPT`` + ``COSINE_WEIGHT`` × the best of the vector route's ``cosines`` +
    ``SPEAKER_WEIGHT`` × ``speaker_contrast`` + ``LEXICAL_WEIGHT`` × ``lexical_contrast`` of
    ``words`` (the question's content words) in ``hits`` (the turns among the keyword
    route's best ``LEXICAL_DEPTH`` hits, as (text, speaker) pairs); 0 when the vector route found nothing
    or did not run.

    ``speakers`` is aligned with ``cosines``: whose each vector hit is (a turn's speaker, a
    belief's subject; ``None`` for other items). A person in ``named`` whom no vector hit is
    from (a nickname, someone only spoken of) counts as not named: there is nothing of
    theirs to contrast with the others' hits.
    """
    if not cosines:
        return 0.0
    # Each speaker's key once: the ~50 hits have a few speakers between them.
    found = {entity_key(s) for s in set(speakers) if s is not None}
    known = [name for name in named if entity_key(name) in found]
    score = (
        INTERCEPT
        + COSINE_WEIGHT * max(cosines)
        + SPEAKER_WEIGHT * speaker_contrast(cosines, speakers, known)
        + LEXICAL_WEIGHT * lexical_contrast(words, hits, known)
    )
    return round(1.0 / (1.0 + math.exp(-score)), 4)


def speaker_contrast(cosines: Sequence[float], speakers: Sequence[str | None], named: Collection[str]) -> float:
    """The best cosine among hits from a person in ``named`` minus the best among hits from
    anyone else (each 0 when there is none); 0 with no named person or no speakers."""
    wanted = {entity_key(name) for name in named}
    if not wanted or not speakers:
        return 0.0
    theirs = {s: entity_key(s) in wanted for s in set(speakers) if s is not None}
    spoken = [(c, theirs[s]) for c, s in zip(cosines, speakers) if s is not None]
    by_named = max((c for c, is_named in spoken if is_named), default=0.0)
    by_others = max((c for c, is_named in spoken if not is_named), default=0.0)
    return by_named - by_others


def lexical_contrast(words: Sequence[str], hits: Sequence[tuple[str, str | None]], named: Collection[str]) -> float:
    """The share of ``words`` (the question's content words) found in the texts of ``hits``
    from a person in ``named``, minus the share found in those from anyone else: from -1
    (every word only in others' hits) to 1 (every word in the named person's, none in
    others'). ``hits`` are (text, whose) pairs, whose being a turn's speaker or a belief's
    subject. With no named person every hit counts as theirs; with no content word, 0.

    Words match as the overlap rankings match them (``eywa.read.overlap.terms``: a crude
    stem, a trailing "ing", "ed", "es" or "s" dropped, so "painted" finds "painting"; case
    does not matter; a word under three letters or a function word is no content word).
    """
    wanted = terms(" ".join(words))
    if not wanted:
        return 0.0
    keys = {entity_key(name) for name in named}
    theirs: set[str] = set()
    others: set[str] = set()
    for text, whose in hits:
        if keys and whose is None:
            continue
        found = wanted.intersection(terms(text))
        if not keys or entity_key(whose or "") in keys:
            theirs |= found
        else:
            others |= found
    return (len(theirs) - len(others)) / len(wanted)

