"""The embedder protocol: texts in, L2-normalised float32 rows out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Protocol

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


# How a turn's vector is made from texts, part of every vector's stamp: a store written with
# another layout is re-embedded on open, as for another model. "windows": the mean of the
# turn-after-the-one-before and turn-with-its-reply embeddings (``eywa.stores.context.
# vector_windows``, session 37); stores written before it (the turn with its reply alone)
# carry no layout in their stamp.
TURN_VECTOR_LAYOUT: Final = "windows"


def embedder_id(embedder: Embedder) -> str:
    """What a vector is stamped with: the model id, the width and the layout of a turn's
    vector (``all-MiniLM-L6-v2/384/windows``).

    A store searches only vectors with its embedder's stamp, and a change of stamp marks
    every turn and belief for re-embedding (``eywa.stores.ledger``).
    """
    return f"{embedder.model_id}/{embedder.dim}/{TURN_VECTOR_LAYOUT}"


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
