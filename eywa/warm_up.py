"""The warm-up of a server memory's hot statements, before it takes traffic.

Neo4j plans a statement (and compiles its code) the first time it runs, and caches the plan;
until then every caller that runs it waits for the planning, and on a fresh server callers
that arrive together each plan it at once. Measured with ``eywa bench service --backend
server --agents 16 --seconds 30 --ack level0`` on a fresh Neo4j 5.26: 2.7-3.6 req/s, POST
/turns p50 7-10 s, Level 0's write statement seen running for 11 s with no lock wait; the
same server on a second run: 17 req/s, p50 1.0 s. An ``EXPLAIN`` does not fill the cache
that runs use (measured on 5.26): a statement must run once.

So ``warm_up`` runs each hot statement once in a space no user can have (``WARM_UP_SPACE``,
which ``eywa.ids.check_space`` refuses): Level 0's batch statements, in a transaction that
is rolled back (``GraphStores.rehearse_adds``: nothing is stored, no mark, no backlog count;
Neo4j caches a plan when a statement runs even if its transaction rolls back, measured),
and the reads of a write (the batch's prior state, the backlog counts) and of a recall (a
real recall of the empty space, and the hydration reads an empty recall does not reach).
Neo4j keys its plan cache by the statement and by the size class of each list parameter
(measured on 5.26: 0, 1, 2-10, 11-100, 101-1,000… elements), so a read of another size
class than the rehearsed ones is still planned when it first comes. Level 0's statements
take their values in one map parameter, which the cache does not look into
(``eywa.stores.neo4j.level0``, "One plan each"): the first rehearsed batch plans them for
every shape; the others (``rehearsal_batches``: one turn and four, in a new session and in
one that has turns) still rehearse the quota's check and the Python side, and the planner's
own code is compiled by then. A backend without ``rehearse_adds`` (embedded SQLite, whose statements
plan in microseconds) has nothing to warm.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from eywa.batches import PreparedBatch, prepare_batch
from eywa.contract import SpaceQuota
from eywa.models import Turn
from eywa.read.routes.inference import TRAIT_ATTRIBUTES
from eywa.signals import detect_signals
from eywa.stores.bundle import Batch, Stores
from eywa.stores.evidence import EvidenceStore

__all__ = ["WARM_UP_QUERY", "WARM_UP_SPACE", "rehearsal_batches", "warm_up"]

WARM_UP_SPACE = "\x1feywa warm-up"
"""The throwaway space of the warm-up: it starts with a control character, which
``check_space`` refuses, so no user's space can be named so."""

WARM_UP_QUERY = "When did Avery Stone meet Jordan Vale in Lisbon?"
"""The recall the warm-up runs: two names, a place and a time question, so that the keyword,
graph and temporal routes all run their statements."""

_NEVER = 2**62  # a limit no store reaches (and a Neo4j integer)
_START = datetime(2024, 5, 3, 9, 30, tzinfo=UTC)
_TEXTS = (
    "Avery Stone met Jordan Vale in Lisbon on 3 May 2024 to plan the trip.",
    "Jordan Vale said the train to Porto leaves next Friday at 9am.",
    "Avery Stone booked two rooms for 10 May 2024 near the river.",
    "Jordan Vale will bring the maps; Avery Stone prefers the coast road.",
    "They agreed to meet again on Monday to settle the budget.",
)


def warm_up(
    stores: Stores,
    recall: Callable[[str, str], object],
    embed: Callable[[list[str]], object] | None = None,
    quota: SpaceQuota | None = None,
) -> None:
    """Run the hot statements of a write and a recall once (see the module docstring).

    ``quota``, the memory's (``SpaceQuota.of``), makes the rehearsed writes run the quota
    check a write then runs (its statement differs with a bytes quota), against limits of
    the same kind that the rehearsal cannot reach.

    ``recall(space, query)`` is the memory's recall without its input checks (which refuse
    ``WARM_UP_SPACE``). ``embed``, given when the memory embeds its writes, embeds a batch
    of a write's size first: a local embedder makes the session such a batch runs on when it
    is first asked (seconds on a busy machine), and the first writes of `eywa serve` waited
    for it together (thread dumps of the chaos bench's API: its first batches took 3.6-13.3 s,
    request threads waiting for that session). Nothing is stored.

    Raises:
        StoreError: the store failed (the caller logs it and goes on: serving does not
            depend on the warm-up).
        ClosedError: the stores were closed meanwhile.
        EywaError: the embedder failed (``ConfigurationError``, ``EmbedderError``).
    """
    if embed is not None:
        embed(list(_TEXTS))
    if stores.rehearse_adds is None:
        return
    stores.rehearse_adds(rehearsal_batches(stores.evidence), _unreachable(quota))
    space = WARM_UP_SPACE
    stores.ledger.backlog()
    stores.ledger.level1_backlog()
    stores.ledger.space_backlog(space)
    stores.evidence.usage(space)
    recall(space, WARM_UP_QUERY)
    # The hydration reads of what a recall found (none here), with lists of one id and of
    # two (planned apart): they find nothing, but run.
    turns, beliefs = [f"ev_warm_up_{n}" for n in range(2)], [f"bl_warm_up_{n}" for n in range(2)]
    for size in (1, 2):
        stores.evidence.recall_turns(space, turns[:size])
        stores.evidence.recall_neighbours(space, turns[:size], 1, 1)
        stores.evidence.get(space, turns[:size])
        stores.beliefs.recall_beliefs(space, beliefs[:size])
        stores.beliefs.belief_cites(space, beliefs[:size])
        stores.beliefs.belief_lines(space, beliefs[:size], sorted(TRAIT_ATTRIBUTES))


def _unreachable(quota: SpaceQuota | None) -> SpaceQuota | None:
    """A quota that checks what ``quota`` checks (turns, bytes) but refuses nothing."""
    if quota is None:
        return None
    return SpaceQuota(turns=_NEVER if quota.turns else 0, bytes=_NEVER if quota.bytes else 0)


def rehearsal_batches(evidence: EvidenceStore, space: str = WARM_UP_SPACE) -> list[Batch]:
    """The warm-up's Level 0 batches, in the order they are rehearsed: one turn in a new
    session, one more turn of it, four turns of another new session, four more turns of the
    first (which, in the rolled-back transaction, sees the first two)."""
    continued = _prepared(evidence, space, "continued", 6)
    fresh = _prepared(evidence, space, "fresh", 4)
    return [_part(continued, 0, 1), _part(continued, 1, 2), _part(fresh, 0, 4), _part(continued, 2, 6)]


def _prepared(evidence: EvidenceStore, space: str, session: str, count: int) -> PreparedBatch:
    """``count`` synthetic turns of ``session`` in ``space`` (seqs from 0), with their
    signals and the entities they mention."""
    turns = [
        Turn(text=_TEXTS[n % len(_TEXTS)], speaker=("Avery Stone", "Jordan Vale")[n % 2], session=session,
             observed_at=_START + timedelta(minutes=n))
        for n in range(count)
    ]  # fmt: skip
    return prepare_batch(space, turns, evidence, detect_signals)


def _part(batch: PreparedBatch, start: int, stop: int) -> Batch:
    """The turns ``start:stop`` of ``batch`` with their mentions."""
    turns = batch.new[start:stop]
    ids = {e.id for e in turns}
    return turns, [m for m in batch.mentions if m[0] in ids]
