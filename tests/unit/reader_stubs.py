"""A ``Reader`` over stub routes and sources, for tests of what the reader does with their
hits: no store, a constant query embedding, no entity named unless given."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from eywa.models import Entity, Stage
from eywa.read.items import Hydrated, ItemSource
from eywa.read.reader import Reader
from eywa.read.routes import Route

Neighbours = Callable[[str, Sequence[str]], Mapping[str, Sequence[Hydrated]]]


def stub_reader(
    routes: Sequence[Route],
    sources: Sequence[ItemSource],
    disabled: frozenset[Stage],
    neighbours: Neighbours = lambda space, ids: {},
    entities: Sequence[Entity] = (),
) -> Reader:
    """One process, no pool: the stages run in order, as the tests read them."""
    return Reader(
        routes=routes,
        sources=sources,
        embed_queries=lambda texts: np.ones((len(texts), 4), np.float32),
        entities_named=lambda space, names: list(entities),
        neighbours=neighbours,
        rrf_k=20,
        max_k=50,
        pool=None,
        disabled=disabled,
    )
