"""The bundle of stores one Memory uses, passed explicitly (never module-level clients)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from eywa.stores.beliefs import BeliefStore
from eywa.stores.dimensions import DimensionStore
from eywa.stores.evidence import EvidenceStore, KeywordIndex
from eywa.stores.vectors import VectorStore


@dataclass(frozen=True)
class Stores:
    """Every store of one backend, and how to close them."""

    backend: str
    evidence: EvidenceStore
    keyword: KeywordIndex
    vectors: VectorStore
    beliefs: BeliefStore
    dimensions: DimensionStore
    close: Callable[[], None]
