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


def query_embedding(embedder: Embedder) -> QueryEmbedding:
    """How ``embedder`` embeds search queries: its ``embed_queries`` when it has one (a
    retrieval model that prefixes an instruction to queries and not to passages,
    ``eywa.embedding.bge``), else ``embed``.

    ``embed_queries`` is optional, so that an embedder written against the protocol before
    it (checked by shape, ``eywa.contract.check_plugins``) still works.
    """
    return QueryEmbedding(embedder)


class QueryEmbedding:
    """An embedder's query embedding as a callable (texts in, unit rows out), and whether
    it embeds each text alone (``apart``).

    A model that runs one text per call (the integer-kernel question model: dynamic
    quantisation takes an activation's range over its batch) gives the same vectors, at the
    same cost, whether a recall's two texts are asked for together or one after the other.
    The reader then asks for them one after the other, and the vector route searches with
    the question's vector while the second text is still being embedded (``eywa.read.reader``).
    A model that batches (the float MiniLM: a pair costs ~1.5 times one text) is asked for
    both at once, as before.
    """

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        method = getattr(embedder, "embed_queries", None)
        self._embed: Callable[[Sequence[str]], npt.NDArray[np.float32]] = (
            method if callable(method) else embedder.embed
        )

    def __call__(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit rows of shape ``(len(texts), dim)``, in input order (the embedder's errors
        pass through)."""
        return self._embed(texts)

    @property
    def apart(self) -> bool:
        """Whether the embedder embeds each query text in a model call of its own (its
        optional ``queries_apart``; False when it does not say). Read on every recall: a
        question model that falls back to the float one stops being apart."""
        return getattr(self._embedder, "queries_apart", False) is True
