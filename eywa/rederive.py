"""Level 0 detected again: turns stored under an older ``eywa.signals.version`` get the
signals and mentions the current detectors find, so a store upgraded in place answers as a
fresh ingest of the same turns.

``rederive_signals`` reads a space's outdated turns in the order they were stored (recorded
time, then position in their batch), a chunk at a time, and detects each again as
``eywa.batches.prepare_batch`` would have when the turn was first sent: against the names
the space knew then (the entities mentioned by turns recorded before it, then those its
batch-mates named before it; its batch's speakers are people), with the same detector.
Each chunk is written in one transaction (``EvidenceStore.rederive``): turns whose signals
or mentions changed get them replaced, with the entity graph (mentions, co-mention weights,
entities left without a mention) and their ``level1``/``nous`` marked pending with reason
``signals``; every turn of the chunk records the current version. The reconciler then runs
Level 1 on the changed turns as on any pending turn, replacing what any extractor version
proposed about them (``eywa.level1.replace_outdated``) and replaying the touched dimensions.

Resumable and crash-safe: a crash between two chunks leaves the written ones at the new
version with their Level 1 owed (the ledger finishes them) and the others at the old one (the
next pass finds them); a chunk is never half written. Idempotent: a turn at the current
version is not read again. Turns whose detection did not change only have their version set.

The keyword index and the vectors hold the turns' words, not their signals, so they stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from eywa import crashpoints
from eywa.batches import SignalDetector, mentioned_entities
from eywa.models import Evidence, Signal, utc_now
from eywa.signals.mentions import learn_name
from eywa.signals.version import current_signals_version
from eywa.stores.bundle import GraphStores
from eywa.stores.evidence import RederivedTurn

__all__ = ["CHUNK", "SignalsUpgrade", "rederive_signals", "signals_outdated"]

CHUNK = 200
"""Turns per transaction: big enough that a transaction's overhead is small beside the
detection, small enough that a crash repeats little and a writer is held briefly. Read
when ``rederive_signals`` is called (the crash tests set a smaller one)."""


@dataclass(frozen=True)
class SignalsUpgrade:
    """What ``rederive_signals`` did: turns detected again, and those among them whose signals
    or mentions changed (their Level 1 is now pending)."""

    rederived: int = 0
    changed: int = 0


def signals_outdated(stores: GraphStores, space: str) -> int:
    """Turns of ``space`` stored under an older signals version (``eywa stats``, ``doctor``)."""
    return stores.evidence.count_signals_outdated(space, current_signals_version())


def rederive_signals(
    stores: GraphStores, space: str, detect: SignalDetector, *, chunk: int | None = None, now: datetime | None = None
) -> SignalsUpgrade:
    """Detect again the signals of every turn of ``space`` stored under an older version,
    ``chunk`` turns (``CHUNK``, read when called) per transaction.

    Raises:
        StoreError: a store failed; what earlier chunks wrote stays, and a re-run continues.
    """
    version = current_signals_version()
    chunk = chunk or CHUNK
    evidence = stores.evidence
    people: list[str] | None = None
    others: list[str] = []
    rederived = changed = 0
    while ids := evidence.signals_outdated(space, version, chunk + 1):
        turns = _whole_batches(evidence.get(space, ids), chunk)
        if not turns:  # erased since they were listed
            break
        if people is None:  # the names the space knew when the first outdated turn came
            known = evidence.entities_mentioned_before(space, turns[0].recorded_at)
            people = [e.name for e in known if e.kind == "person"]
            others = [e.name for e in known if e.kind != "person"]
        stored = evidence.mentions(space, [t.id for t in turns])
        redone, same = [], []
        for batch in _by_batch(turns):
            people += sorted({t.speaker for t in batch if t.speaker})
            for turn in batch:
                again = _detect(space, turn, detect, people, others)
                mentions = {e.id for e in again.mentions}
                if _same_signals(turn.signals, again.signals) and mentions == set(stored.get(turn.id, ())):
                    same.append(turn.id)
                else:
                    redone.append(again)
        written = evidence.rederive(space, redone, same, version, now or utc_now())
        crashpoints.reached("signals_rederived")
        rederived += len(turns)
        changed += len(written)
    return SignalsUpgrade(rederived=rederived, changed=changed)


def _detect(space: str, turn: Evidence, detect: SignalDetector, people: list[str], others: list[str]) -> RederivedTurn:
    """``turn`` detected as ``prepare_batch`` detects a new turn; the names it mentions are
    learned for the turns after it."""
    signals = tuple(detect(turn.text, turn.observed_at, turn.speaker, people, others))
    found = mentioned_entities(space, turn.model_copy(update={"signals": signals}))
    for entity in found:
        learn_name(entity.name, entity.kind == "person", people, others)
    return RederivedTurn(id=turn.id, signals=signals, mentions=tuple(found))


def _whole_batches(turns: Sequence[Evidence], chunk: int) -> list[Evidence]:
    """The first ``chunk`` turns, less a trailing batch that may go on past them (the
    outdated turns were asked one over ``chunk``): a batch is detected with all its
    speakers known, so it is not split, unless it alone fills the chunk."""
    ordered = list(turns)
    if len(ordered) <= chunk:
        return ordered
    last = ordered[chunk - 1].recorded_at
    whole = [t for t in ordered[:chunk] if t.recorded_at != last]
    return whole or ordered[:chunk]


def _by_batch(turns: Sequence[Evidence]) -> list[list[Evidence]]:
    """Consecutive turns recorded at one time: one batch of the original ingest."""
    batches: list[list[Evidence]] = []
    for turn in turns:
        if batches and batches[-1][0].recorded_at == turn.recorded_at:
            batches[-1].append(turn)
        else:
            batches.append([turn])
    return batches


def _same_signals(old: Sequence[Signal], new: Sequence[Signal]) -> bool:
    """Whether two detections are the same set of spans (the stores read back times to the
    microsecond at best and Neo4j collapses duplicate spans: compared as sets, to the second)."""
    return {_key(s) for s in old} == {_key(s) for s in new}


def _key(s: Signal) -> tuple[object, ...]:
    def second(t: datetime | None) -> float | None:
        return None if t is None else round(t.timestamp())

    return (s.kind, s.text, s.start, s.end, s.normalized, s.granularity, second(s.window_start), second(s.window_end))
