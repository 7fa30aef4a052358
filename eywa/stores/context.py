"""The neighbour context of a turn: what its index entries borrow from the turns around it.

A reply ("Biscuit.") means little without the question it answers ("What did you name the
puppy?"), so a turn is indexed with its session neighbours' words: its keyword row holds the
texts of the turns one seq away (weighted less than its own words) and of the turns two and
three seqs away (less still), and its vector is the mean of two windows' embeddings: the turn
after the one before it, and the turn with its reply (``vector_windows``). These texts are
derived index data, never part of the immutable turn, so they must be recomputed whenever a
turn within ``NEIGHBOUR_REACH`` seqs of another arrives, and again when one is erased.

This module is the one builder of those texts. Both backends' writes call it (the embedded
FTS5 columns ``next_text``/``prev_text``/``near_next``/``near_prev``, Neo4j's ``near_text``/
``far_text``), indexing calls ``vector_windows``, and erasure calls the same functions over the
turns that remain, so that a rebuilt neighbour holds exactly what a fresh write would give.
Pure functions over plain values: no store, no I/O.

Example:
    >>> turns = {0: SessionTurn("a", 0, "Ana", "What did you name the puppy?"),
    ...          1: SessionTurn("b", 1, "Ben", "Biscuit.")}
    >>> contexts_around(turns, [1])["b"].prev_text
    'What did you name the puppy?'
    >>> vector_text(turns[0], turns[1])
    'Ana: What did you name the puppy?\\nBen: Biscuit.'
    >>> vector_windows(turns[1], turns[0], None)
    ('Ana: What did you name the puppy?\\nBen: Biscuit.', 'Ben: Biscuit.')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, Protocol

__all__ = [
    "NEIGHBOUR_REACH",
    "ContextTurn",
    "SessionTurn",
    "TurnContext",
    "contexts_around",
    "read_range",
    "turn_context",
    "vector_text",
    "vector_windows",
]

# How many seqs away a turn's words reach into another turn's index entries.
NEIGHBOUR_REACH = 3


class ContextTurn(Protocol):
    """What the builder reads of a turn (``Evidence`` and ``SessionTurn`` both qualify)."""

    @property
    def id(self) -> str: ...

    @property
    def seq(self) -> int: ...

    @property
    def speaker(self) -> str | None: ...

    @property
    def text(self) -> str: ...


class SessionTurn(NamedTuple):
    """The fields of a stored turn the builder needs, as a store reads them back."""

    id: str
    seq: int
    speaker: str | None
    text: str


@dataclass(frozen=True)
class TurnContext:
    """The neighbours' words held by one turn's keyword entry (empty where no turn is).

    The embedded index keeps the four parts in four columns; the server index keeps the
    adjacent turns in one field (``near_text``) and the farther ones in another
    (``far_text``). Texts of several turns are joined with a space, in seq order.
    """

    prev_text: str  # seq - 1
    next_text: str  # seq + 1
    near_prev: str  # seq - 3 and seq - 2
    near_next: str  # seq + 2 and seq + 3

    @property
    def near_text(self) -> str:
        """The turns at seq ± 1, in seq order."""
        return _join((self.prev_text, self.next_text))

    @property
    def far_text(self) -> str:
        """The turns at seq ± 2..3, in seq order."""
        return _join((self.near_prev, self.near_next))


def turn_context(session: Mapping[int, ContextTurn], seq: int) -> TurnContext:
    """The context of the turn at ``seq`` among ``session``'s turns (keyed by seq).

    ``session`` must hold every stored turn within ``NEIGHBOUR_REACH`` of ``seq``; seqs
    it lacks count as absent turns (a gap left by an erasure, or the session's ends).
    """

    def texts(*offsets: int) -> str:
        return _join(session[seq + o].text for o in offsets if seq + o in session)

    return TurnContext(
        prev_text=texts(-1),
        next_text=texts(1),
        near_prev=texts(-3, -2),
        near_next=texts(2, 3),
    )


def read_range(changed: Iterable[int]) -> tuple[int, int]:
    """The seqs of a session to read so that ``contexts_around(…, changed)`` is complete.

    A changed turn alters the context of the turns up to ``NEIGHBOUR_REACH`` away, whose
    own contexts reach ``NEIGHBOUR_REACH`` further.

    Raises:
        ValueError: ``changed`` is empty.
    """
    seqs = list(changed)
    if not seqs:
        raise ValueError("read_range needs at least one changed seq")
    return min(seqs) - 2 * NEIGHBOUR_REACH, max(seqs) + 2 * NEIGHBOUR_REACH


def contexts_around(session: Mapping[int, ContextTurn], changed: Iterable[int]) -> dict[str, TurnContext]:
    """The context of every turn of ``session`` within ``NEIGHBOUR_REACH`` of a changed seq.

    ``changed`` holds the seqs of turns just written (they are in ``session``) or just
    erased (they are not): either way, these are the turns whose index entries must be
    (re)written. ``session`` holds the stored turns of one session over at least
    ``read_range(changed)``. Returns turn id → context, in seq order.
    """
    affected = sorted(
        {seq + offset for seq in changed for offset in range(-NEIGHBOUR_REACH, NEIGHBOUR_REACH + 1)}
    )
    return {session[seq].id: turn_context(session, seq) for seq in affected if seq in session}


def vector_text(turn: ContextTurn, reply: ContextTurn | None) -> str:
    """One window of a turn's vector (``vector_windows``): "speaker: text", then its reply (the
    next turn) when known.

    Questions are asked about what was said, and the answer often completes in the reply
    (on the LoCoMo development turns this raised vector-only recall@10 by several points).
    """
    own = _spoken(turn)
    return own if reply is None else own + "\n" + _spoken(reply)


def vector_windows(turn: ContextTurn, previous: ContextTurn | None, reply: ContextTurn | None) -> tuple[str, ...]:
    """The texts whose embeddings, summed and normalised, are a turn's vector: the turn after
    the one before it (``vector_text(previous, turn)``, when there is one), and the turn with
    its reply (``vector_text(turn, reply)``).

    An answer often lacks the words of the question it answers ("What did you get up to at
    the weekend?" - "We went camping by the lake!"): the first window holds them, the second
    what the reply adds. Neither window alone does as well: on the LoCoMo development
    questions (docs/evaluation.md, session 37) the mean of the two raised recall@10 over
    categories 1-4 from 83.2 to 83.8, where the turn with the one before it instead of its
    reply lowered the vector route's own recall@10 by 4.3 points and the three turns as one
    text by 7.2. The first window is the previous turn's second one, so a run of turns
    embeds about one text per turn.
    """
    own = vector_text(turn, reply)
    return (own,) if previous is None else (vector_text(previous, turn), own)


def _spoken(turn: ContextTurn) -> str:
    return f"{turn.speaker}: {turn.text}" if turn.speaker else turn.text


def _join(texts: Iterable[str]) -> str:
    return " ".join(t for t in texts if t)
