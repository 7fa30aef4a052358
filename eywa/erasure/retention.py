"""Retention: per-space periods after which turns are erased, through the erasure cascade.

A period is measured on ``recorded_at`` — when Eywa stored a turn — not on ``observed_at``,
so importing years-old conversations does not wipe them at once: they are kept for the
period from their import. ``policy`` maps a space to its period in days; ``"*"`` is the
period of every space without its own. Each space with turns past its cutoff gets one
erasure (author ``retention``, selector ``recorded_before``) through the same cascade as
``forget``; a space with nothing to erase gets no record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from eywa.embedding import Embedder
from eywa.erasure.cascade import erase
from eywa.erasure.plan import ErasureReport
from eywa.models import as_utc, utc_now
from eywa.stores.bundle import GraphStores, Stores
from eywa.stores.erasure import ErasureSelector
from eywa.values import SUPPORTED_FROM

__all__ = ["RETENTION_AUTHOR", "apply_retention", "retention_cutoffs"]

RETENTION_AUTHOR = "retention"
"""The author of the erasure records retention writes."""


def retention_cutoffs(policy: Mapping[str, float], spaces: Sequence[str], now: datetime) -> dict[str, datetime]:
    """The ``recorded_at`` cutoff of each space that has a period (its own, else ``"*"``).

    A period reaching back before the supported calendar (``EYWA_RETENTION_DAYS='{"*": 1e7}'``,
    27,000 years) keeps everything: its space gets no cutoff, rather than an ``OverflowError``
    from ``timedelta`` or the date arithmetic.
    """
    cutoffs: dict[str, datetime] = {}
    for space in spaces:
        days = policy.get(space, policy.get("*"))
        if days is None:
            continue
        try:
            cutoff = as_utc(now) - timedelta(days=days)
        except OverflowError:
            continue
        if cutoff >= SUPPORTED_FROM:
            cutoffs[space] = cutoff
    return cutoffs


def apply_retention(
    stores: GraphStores,
    policy: Mapping[str, float],
    *,
    now: datetime | None = None,
    vectors: Stores | None = None,
    embedder: Embedder | None = None,
    embed_batch: int = 64,
) -> list[ErasureReport]:
    """Erase, per space, the turns recorded before its cutoff; returns one report per erasure.

    Without a vector store (a worker) the erasures stay ``pending`` for the process that has
    it, as every erasure does (``eywa.erasure.cascade``).

    Raises:
        StoreError: a store failed (an erasure already begun finishes on re-run or next open).
    """
    if not policy:
        return []
    reports = []
    for space, cutoff in sorted(retention_cutoffs(policy, stores.evidence.spaces(), now or utc_now()).items()):
        selector = ErasureSelector(recorded_before=cutoff)
        if stores.erasure.select(space, selector):
            reports.append(erase(stores, space, selector, RETENTION_AUTHOR, vectors=vectors, embedder=embedder,
                                 embed_batch=embed_batch))  # fmt: skip
    return reports
