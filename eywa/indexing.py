"""Vector indexing: what each turn's and each belief's vector covers, the two embed stages of
the ledger, and a full drift check.

The vector store belongs to the process that serves reads. Turns and beliefs carry
``embed_evidence`` / ``embed_belief`` marks from the transaction that stored them
(``eywa.stores.ledger``); ``embed_pending`` finishes them, for the items of many spaces in
one embedder pass and one upsert (``embed_pending_evidence`` and ``embed_pending_beliefs``
for one space): an item that exists is (re-)embedded, an item that is gone (erased, or
replaced by reprocessing) loses its vector, and the marks are cleared once the upsert is
durable. The
process holding the vectors runs them right after Level 0 and Level 1, on open, and
periodically, so what a worker wrote and what a crash interrupted get embedded without
scanning. ``repair_vectors`` is the explicit full check (every id of a space against the
vector store), kept for operators.

``embed_due`` is how Celery workers embed when they share the vector store (a Qdrant server):
each task claims the due marks of one stage, of every space — not only its own turns', so
turns of many small requests go through the embedder together — with a lease (the marks' due time
moved forward, so another worker does not take them meanwhile, and a dead worker's claim
falls due again), embeds them and clears the marks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Literal, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from eywa import crashpoints
from eywa.embedding import Embedder
from eywa.models import Belief, Evidence, utc_now
from eywa.stores.bundle import Stores
from eywa.stores.context import vector_windows
from eywa.stores.vectors import VectorPoint

__all__ = [
    "EmbedStage",
    "embed_due",
    "embed_evidence",
    "embed_pending",
    "embed_pending_beliefs",
    "embed_pending_evidence",
    "index_beliefs",
    "repair_vectors",
]

Progress = Callable[[int], None]
EmbedStage = Literal["embed_evidence", "embed_belief"]


def embed_evidence(
    stores: Stores, embedder: Embedder, turns: Sequence[Evidence], batch_size: int, progress: Progress | None = None
) -> None:
    """Embed turns with their neighbours as context, and re-embed the stored turn before each.

    A turn's vector is the normalised sum of the embeddings of its two windows
    (``eywa.stores.context.vector_windows``): the turn before it with it, and it with the next
    turn of its session. A new turn is the reply in the vector of the stored turn before it,
    which is re-embedded too. Each window is embedded once, whichever turns share it, and
    the windows embedded by earlier calls are reused (``Stores.windows``): the turn before a
    new one keeps the window it was embedded with, so a turn written alone embeds two texts
    (its pair with the turn before, and itself alone), not three.
    ``progress`` is called with the number of ``turns`` (not re-embedded neighbours) done.

    The turns were read before the model ran, which takes a while: an erasure may have
    removed some of them meanwhile (another thread's ``forget`` beside ``remember``, another
    process beside a worker) and deleted their vectors before this upsert landed. So after
    the upserts, the vectors of turns tombstoned meanwhile are deleted again. Erasure
    tombstones the turns before it deletes their vectors, so one of the two deletions comes
    after the upsert.

    Raises:
        StoreError: a store failed.
    """
    targets = {t.id: t for t in turns}
    new_ids = set(targets)
    at = {(t.space, t.session, t.seq): t for t in turns}
    # A turn without both neighbours in the batch: its stored neighbours are read (two seqs
    # before it, so that the turn before, re-embedded, has its own), and the turn before it
    # is re-embedded: the new turn is its reply. A turn is written after those of its session
    # (seqs only grow), so none after it changes; an erasure marks both sides itself.
    edges = [t for t in turns if any((t.space, t.session, t.seq + d) not in at for d in (-1, 1))]
    known = {**_adjacent(stores, edges), **at}
    for turn in edges:
        previous = known.get((turn.space, turn.session, turn.seq - 1))
        if previous is not None and previous.id not in targets:
            targets[previous.id] = previous
    ordered = list(targets.values())
    for start in range(0, len(ordered), batch_size):
        chunk = ordered[start : start + batch_size]
        windows = [
            vector_windows(
                t, known.get((t.space, t.session, t.seq - 1)), known.get((t.space, t.session, t.seq + 1))
            )
            for t in chunk
        ]
        embedded = stores.windows.embed(embedder, [text for pair in windows for text in pair])
        vectors = [_mean([embedded[text] for text in pair]) for pair in windows]
        stores.vectors.upsert(
            "evidence",
            [
                VectorPoint(id=t.id, space=t.space, vector=v, at=t.observed_at.timestamp())
                for t, v in zip(chunk, vectors, strict=True)
            ],
        )
        crashpoints.reached("evidence_vectors_upserted")
        if progress is not None:
            progress(sum(1 for t in chunk if t.id in new_ids))
    by_space = _ids_by_space(ordered)
    erased = sorted(i for space, ids in by_space.items() for i in stores.tombstones.tombstoned(space, ids))
    if erased:
        stores.windows.clear()
        stores.vectors.delete("evidence", erased)


def _mean(rows: Sequence[npt.NDArray[np.float32]]) -> npt.NDArray[np.float32]:
    """The unit vector along the sum of ``rows`` (unit vectors themselves)."""
    total = np.asarray(np.sum(rows, axis=0), dtype=np.float32)
    norm = float(np.linalg.norm(total))
    return total / np.float32(norm) if norm > 0 else total


def _adjacent(stores: Stores, turns: Sequence[Evidence]) -> dict[tuple[str, str, int], Evidence]:
    """The stored turns near ``turns`` in their sessions (two seqs before, one after), by
    (space, session, seq): two reads per space whatever the number of turns.

    One read per turn was most of an erasure's Neo4j time: a speaker's erasure re-embeds
    every turn next to an erased one, each at the edge of a run (1,304 round trips for
    1,340 erased turns of 10,000, 1.4 s).
    """
    found: dict[tuple[str, str, int], Evidence] = {}
    by_space: defaultdict[str, list[str]] = defaultdict(list)
    for turn in turns:
        by_space[turn.space].append(turn.id)
    for space, ids in by_space.items():
        near = stores.evidence.recall_neighbours(space, ids, 2, 1)
        wanted = sorted({n.id for turns_near in near.values() for n in turns_near})
        for evidence in stores.evidence.get(space, wanted) if wanted else []:
            found[(evidence.space, evidence.session, evidence.seq)] = evidence
    return found


def index_beliefs(stores: Stores, embedder: Embedder, space: str, belief_ids: Sequence[str]) -> int:
    """Embed belief statements so the vector route finds beliefs; returns how many.

    Raises:
        StoreError: a store failed.
    """
    return _upsert_beliefs(stores, embedder, stores.beliefs.get_many(space, belief_ids))


def _upsert_beliefs(stores: Stores, embedder: Embedder, beliefs: Sequence[Belief]) -> int:
    """One embedder call and one upsert for ``beliefs`` (of any spaces); returns how many."""
    if not beliefs:
        return 0
    embedded = embedder.embed([b.statement for b in beliefs])
    stores.vectors.upsert(
        "belief",
        [VectorPoint(id=b.id, space=b.space, vector=v, at=_belief_time(b)) for b, v in zip(beliefs, embedded, strict=True)],
    )
    return len(beliefs)


def embed_pending_evidence(
    stores: Stores, embedder: Embedder, space: str, evidence_ids: Sequence[str], batch_size: int
) -> int:
    """Finish ``embed_evidence`` for ``evidence_ids`` of ``space``; returns the marks cleared.

    Turns that exist are embedded (with their reply, and the turns they reply to
    re-embedded); ids without a turn lose their vector.

    Raises:
        StoreError: a store failed (the marks stay; a later pass repeats the work).
        EmbedderError: the embedder failed.
    """
    return embed_pending(stores, embedder, "embed_evidence", {space: evidence_ids}, batch_size)


def embed_pending_beliefs(stores: Stores, embedder: Embedder, space: str, belief_ids: Sequence[str]) -> int:
    """Finish ``embed_belief`` for ``belief_ids`` of ``space``; returns the marks cleared.

    Beliefs that exist are embedded; ids without a belief lose their vector.

    Raises:
        StoreError: a store failed (the marks stay; a later pass repeats the work).
        EmbedderError: the embedder failed.
    """
    return embed_pending(stores, embedder, "embed_belief", {space: belief_ids}, 0)


def embed_pending(
    stores: Stores, embedder: Embedder, stage: EmbedStage, groups: Mapping[str, Sequence[str]], batch_size: int
) -> int:
    """Finish ``stage`` for the items of several spaces (space -> ids) in one embedder pass;
    returns the marks cleared.

    The model pass, not the store, is what embedding costs: turns of many small requests
    (the 4-turn batches of many agents, each in its own space) go through the embedder
    together and are upserted (one vector-store flush) together, instead of one model call
    and one flush per request. Items that exist are embedded, ids without an item lose their
    vector; the marks of every space are cleared only once the upsert is durable.
    ``batch_size`` bounds the turns per model call and upsert (0: beliefs, one call).

    An erasure (or a reprocessing) may remove an item between its read here and the upsert
    and delete its vector before the upsert lands (a worker on a shared vector store): so
    after the upsert, the items gone meanwhile lose their vectors again (``embed_evidence``
    for turns; beliefs here). An erasure removes a belief before it deletes its vector, so
    one of the two deletions comes after the upsert.

    Raises:
        StoreError: a store failed (the marks stay; a later pass repeats the work).
        EmbedderError: the embedder failed (likewise).
    """
    groups = {space: ids for space, ids in groups.items() if ids}
    if not groups:
        return 0
    if stage == "embed_evidence":
        turns, gone = _stored(groups, stores.evidence.get)
        if gone:  # erased (or replaced): no window of their texts is kept
            stores.windows.clear()
            stores.vectors.delete("evidence", gone)
        embed_evidence(stores, embedder, turns, batch_size)
    else:
        beliefs, gone = _stored(groups, stores.beliefs.get_many)
        if gone:
            stores.vectors.delete("belief", gone)
        _upsert_beliefs(stores, embedder, beliefs)
        crashpoints.reached("belief_vectors_upserted")
        _, removed = _stored(_ids_by_space(beliefs), stores.beliefs.get_many)
        if removed:
            stores.vectors.delete("belief", removed)
    return sum(stores.ledger.complete(space, stage, ids) for space, ids in groups.items())


class _Stored(Protocol):
    id: str


_S = TypeVar("_S", bound=_Stored)


def _stored(
    groups: Mapping[str, Sequence[str]], read: Callable[[str, Sequence[str]], Sequence[_S]]
) -> tuple[list[_S], list[str]]:
    """The stored items of every space's ids, and the ids with none (their vectors go)."""
    items: list[_S] = []
    gone: list[str] = []
    for space, ids in groups.items():
        found = read(space, ids)
        items.extend(found)
        gone.extend(sorted(set(ids) - {item.id for item in found}))
    return items, gone


def _ids_by_space(items: Sequence[Evidence] | Sequence[Belief]) -> dict[str, list[str]]:
    grouped: defaultdict[str, list[str]] = defaultdict(list)
    for item in items:
        grouped[item.space].append(item.id)
    return dict(grouped)


def repair_vectors(stores: Stores, embedder: Embedder, spaces: Sequence[str], batch_size: int) -> int:
    """Embed the evidence and beliefs of ``spaces`` missing from the vector store; how many.

    A full check, every id of each space against the vector store: for operators after
    touching the vector store by hand. Ordinary drift (a crash, a worker's beliefs) is
    finished from the ledger's embed marks without a scan.

    Raises:
        StoreError: a store failed.
    """
    repaired = 0
    for space in spaces:
        ids = stores.evidence.ids(space)
        missing = stores.vectors.missing("evidence", ids)
        if missing:
            turns = stores.evidence.get(space, [i for i in ids if i in missing])
            embed_evidence(stores, embedder, turns, batch_size)
            repaired += len(turns)
        belief_ids = stores.beliefs.ids(space)
        missing_beliefs = stores.vectors.missing("belief", belief_ids)
        if missing_beliefs:
            repaired += index_beliefs(stores, embedder, space, [i for i in belief_ids if i in missing_beliefs])
    return repaired


def _belief_time(belief: Belief) -> float:
    return (belief.event_at or belief.recorded_at).timestamp()


def embed_due(
    stores: Stores,
    embedder: Embedder,
    stage: EmbedStage,
    *,
    limit: int,
    lease_s: float,
    batch_size: int,
    space: str | None = None,
) -> int:
    """Claim up to ``limit`` due marks of ``stage`` (of every space, or of ``space``), embed
    them in one pass (``embed_pending``), clear them; returns the marks cleared (0 when none
    was due).

    Raises:
        StoreError: a store failed (the marks stay, due again when the lease ends).
        EmbedderError: the embedder failed (likewise).
    """
    now = utc_now()
    groups: dict[str, dict[str, None]] = defaultdict(dict)
    for mark in stores.ledger.pending(stage, limit=limit, space=space, due_before=now):
        groups[mark.space][mark.item_id] = None
    if not groups:
        return 0
    for group_space, ids in groups.items():
        stores.ledger.touch(group_space, stage, list(ids), now + timedelta(seconds=lease_s))
    return embed_pending(stores, embedder, stage, {s: list(ids) for s, ids in groups.items()}, batch_size)
