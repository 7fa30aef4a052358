"""The embedder protocol: texts in, L2-normalised float32 rows out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt


class Embedder(Protocol):
    """Turns texts into unit vectors so that a dot product is the cosine similarity."""

    @property
    def model_id(self) -> str:
        """A stable name of the model; stored with the vectors."""
        ...

    @property
    def dim(self) -> int:
        """Vector width."""
        ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """An array of shape (len(texts), dim), each row L2-normalised."""
        ...


def embedder_id(embedder: Embedder) -> str:
    """What a vector is stamped with: the model id and the width (``all-MiniLM-L6-v2/384``).

    A store searches only vectors with its embedder's stamp, and a change of stamp marks
    every turn and belief for re-embedding (``eywa.stores.ledger``).
    """
    return f"{embedder.model_id}/{embedder.dim}"


def query_embedding(embedder: Embedder) -> Callable[[Sequence[str]], npt.NDArray[np.float32]]:
    """How ``embedder`` embeds search queries: its ``embed_queries`` when it has one (a
    retrieval model that prefixes an instruction to queries and not to passages,
    ``eywa.embedding.bge``), else ``embed``.

    ``embed_queries`` is optional, so that an embedder written against the protocol before
    it (checked by shape, ``eywa.contract.check_plugins``) still works.
    """
    method = getattr(embedder, "embed_queries", None)
    if callable(method):
        return method  # type: ignore[no-any-return]
    return embedder.embed
