"""What the local ONNX embedders share: a BERT-style encoder run in-process by onnxruntime.

MiniLM (``eywa.embedding.minilm``) and bge-small (``eywa.embedding.bge``) differ in where
their files come from, how a sentence is pooled (the mean of its tokens, or its [CLS]
token) and whether a query is prefixed with an instruction; the rest is this class.

Throughput comes from three things: texts are tokenised in one Rust batch call, sorted by
length and cut into model calls of at most ``BATCH_TOKENS`` padded tokens (padding is wasted
attention, and a large call runs slower per token), and the ONNX session is created once and
reused. The original order is restored at the end. A text's vector does not depend on the
texts beside it in a call (padded positions are masked), so how texts are cut into calls
changes no vector.

The model file's sha256 is checked before its first use in a process: a corrupted or
swapped model would silently produce vectors that no longer match the stored ones.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Literal

import numpy as np
import numpy.typing as npt
from tokenizers import Tokenizer

from eywa.errors import ConfigurationError
from eywa.threads import current_nice

if TYPE_CHECKING:
    import onnxruntime as ort

__all__ = ["BATCH_TOKENS", "QUERY_TEXTS", "OnnxEncoder", "Pooling", "file_sha256", "model_batches", "verified_file"]

# A call of at most this many texts (a recall's query embeddings: the question, and the
# question without the names it holds) runs on a session with one intra-op thread when the
# thread count is left to onnxruntime (``threads=0``): splitting two short texts over two
# threads costs more in waking and joining them than it saves, and takes the second core
# from the routes the reader runs beside the embedding. 200 synthetic question pairs, the
# same vectors bit for bit; CPU p50 per pair 15.1-17.2 -> 12.2-13.8 ms, wall 44.7-49.5 ->
# 31.2-35.1 ms (MiniLM, 2 cores, AVX2 without VNNI, load ~19).
QUERY_TEXTS: Final = 2

BATCH_TOKENS: Final = 256
"""The most padded tokens (texts times the longest text's tokens) one model call is given,
besides ``batch_size`` texts (``model_batches``). MiniLM on 2 cores (AVX2 without VNNI, one
intra-op thread, load 4-8), CPU per text of 512 texts embedded in calls of 32 as the
background drains them, 64 texts a call against budgets of 64 / 128 / 256 / 512 / 1024
tokens: the bench's synthetic windows (19 tokens) 5.9-6.0 against 4.9-5.3 / 4.4-4.7 /
4.5-4.6 / 4.8-5.0 / 5.7-6.1 ms; development-file turns (35 tokens, up to 95) 20.7 against
8.8-9.5 / 7.9-8.2 / 8.1-8.3 / 9.2-9.4 / 12.1-12.4 ms; two turns a text 38.0-38.1 against
17.3-17.8 / 16.1-16.3 / 14.5-15.0 / 15.1-16.4 / 17.9-20.5 ms. The vectors were the same bit
for bit."""

Pooling = Literal["mean", "cls"]
"""How token vectors become a sentence vector: the mean over real tokens (MiniLM, as
sentence-transformers trained it) or the first ([CLS]) token (bge)."""


def model_batches(
    order: npt.NDArray[np.intp], lengths: npt.NDArray[np.int64], most_texts: int, most_tokens: int
) -> list[npt.NDArray[np.intp]]:
    """``order`` (text indexes sorted by token count, shortest first) cut into model calls of
    at most ``most_texts`` texts whose padded size (texts times the last one's length, the
    longest) stays within ``most_tokens``; a text longer than that goes alone.

    A fixed number of texts per call padded a window of 32 turns to its longest turn, and a
    call over hundreds of tokens runs slower per token on this CPU than several short ones
    (its activations leave the cache).
    """
    batches: list[npt.NDArray[np.intp]] = []
    start = 0
    for end in range(1, len(order) + 1):
        size = end - start
        if end == len(order) or size == most_texts or (size + 1) * int(lengths[order[end]]) > most_tokens:
            batches.append(order[start:end])
            start = end
    return batches


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The sha256 of a file, read in chunks (a model is tens of MB).

    Raises:
        OSError: the file cannot be read.
    """
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


@functools.lru_cache(maxsize=8)
def verified_file(path: str, expected_sha256: str) -> str:
    """Hash a model file once per process and refuse it when it is not the pinned one.

    Raises:
        ConfigurationError: the file is missing or its sha256 differs from the pin.
    """
    try:
        actual = file_sha256(path)
    except OSError as exc:
        raise ConfigurationError(f"embedding model {path} cannot be read: {exc}") from exc
    if actual != expected_sha256:
        raise ConfigurationError(f"embedding model {path} has sha256 {actual}, expected {expected_sha256}")
    return path


class OnnxEncoder:
    """A sentence encoder: tokenizer, one onnxruntime session per priority, pooling, L2 norm.

    The session is created lazily on the first ``embed`` call and shared by all later calls
    of threads at the same priority (onnxruntime sessions are safe to run from several
    threads); a thread at a lowered priority gets a session of its own (``_ensure_loaded``),
    and so does a query-sized call with the thread count left to onnxruntime (``QUERY_TEXTS``).

    A subclass names its files (``_model_file``, ``_tokenizer_json``) and may derive the
    file it runs from the verified one (``_prepare``).

    Args:
        dim: Vector width the model gives.
        pooling: ``mean`` or ``cls`` (``Pooling``).
        query_instruction: Prefixed to every text ``embed_queries`` embeds (and to none that
            ``embed`` does): asymmetric retrieval models are trained with it on the query
            side only.
        batch_size: The most texts per model call. Larger batches amortise call overhead;
            sorting by length keeps their padding small. A model that quantises its activations over
            the batch (dynamic quantisation) is run with 1, so that a text's vector does not
            depend on the texts padded beside it.
        max_tokens: Truncation length in WordPiece tokens, [CLS] and [SEP] included.
        threads: onnxruntime intra-op threads; 0 lets onnxruntime choose (one per core).
        batch_tokens: The most padded tokens per model call (``model_batches``).

    Raises:
        ConfigurationError: an argument is out of range.
    """

    def __init__(
        self,
        *,
        dim: int,
        pooling: Pooling,
        query_instruction: str = "",
        batch_size: int = 64,
        max_tokens: int = 256,
        threads: int = 0,
        batch_tokens: int = BATCH_TOKENS,
    ) -> None:
        if batch_size < 1:
            raise ConfigurationError(f"batch_size must be >= 1, got {batch_size}")
        if not 3 <= max_tokens <= 512:
            raise ConfigurationError(f"max_tokens must be within [3, 512], got {max_tokens}")
        if threads < 0:
            raise ConfigurationError(f"threads must be >= 0, got {threads}")
        if batch_tokens < 1:
            raise ConfigurationError(f"batch_tokens must be >= 1, got {batch_tokens}")
        self._dim = dim
        self._pooling: Pooling = pooling
        self._query_instruction = query_instruction
        self._batch_size = batch_size
        self._batch_tokens = batch_tokens
        self._max_tokens = max_tokens
        self._threads = threads
        self._lock = threading.Lock()
        self._path: str | None = None
        self._sessions: dict[tuple[int, int], ort.InferenceSession] = {}
        self._creating: dict[tuple[int, int], threading.Lock] = {}  # one per session being made
        self._tokenizer: Tokenizer | None = None
        self._input_names: frozenset[str] = frozenset()

    # --- what a model names ------------------------------------------------------------

    def _model_file(self) -> tuple[str, str]:
        """The ONNX file and its pinned sha256.

        Raises:
            ConfigurationError: the file is not available.
        """
        raise NotImplementedError

    def _tokenizer_json(self) -> str:
        """The tokenizer's ``tokenizer.json`` text.

        Raises:
            ConfigurationError: it is not available or not the pinned one.
        """
        raise NotImplementedError

    def _prepare(self, verified: str) -> str:
        """The file the session runs, derived from the verified file (itself by default)."""
        return verified

    # --- the protocol ------------------------------------------------------------------

    @property
    def dim(self) -> int:
        """The vector width."""
        return self._dim

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts`` (passages: turns, beliefs) into unit rows of shape
        ``(len(texts), dim)``, in input order.

        Raises:
            ConfigurationError: the model file fails its integrity check or cannot be loaded.
        """
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))  # repeated turns ("ok", "haha") run once
        session, tokenizer = self._ensure_loaded(1 if self._threads == 0 and len(unique) <= QUERY_TEXTS else self._threads)
        encodings = tokenizer.encode_batch(unique, add_special_tokens=True)
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(unique))
        order = np.argsort(lengths, kind="stable")
        out = np.empty((len(unique), self._dim), dtype=np.float32)
        for chunk in model_batches(order, lengths, self._batch_size, self._batch_tokens):
            width = int(lengths[chunk].max())
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, index in enumerate(chunk):
                n = int(lengths[index])
                ids[row, :n] = encodings[index].ids
                mask[row, :n] = 1
            out[chunk] = self._run(session, ids, mask)
        if len(unique) == len(texts):
            return out
        row_of = {text: row for row, text in enumerate(unique)}
        return out[[row_of[text] for text in texts]]

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed search queries: ``embed`` with the model's query instruction prefixed (the
        reader embeds its questions here, ``eywa.embedding.base.query_embedding``).

        Raises:
            ConfigurationError: as ``embed``.
        """
        if not self._query_instruction:
            return self.embed(texts)
        return self.embed([self._query_instruction + text for text in texts])

    # --- running -----------------------------------------------------------------------

    def _run(
        self,
        session: ort.InferenceSession,
        ids: npt.NDArray[np.int64],
        mask: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.float32]:
        """One model call on a padded batch: pooled, normalised rows."""
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        output = np.asarray(session.run(None, feeds)[0], dtype=np.float32)
        if output.ndim != 3:  # an export that already pools to sentence embeddings
            pooled = output
        elif self._pooling == "cls":
            pooled = output[:, 0, :]
        else:  # mean over real tokens only
            weights = mask[:, :, None].astype(np.float32)
            pooled = (output * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit

    def _ensure_loaded(self, threads: int) -> tuple[ort.InferenceSession, Tokenizer]:
        """The tokenizer (created once) and the session of the calling thread's priority
        with ``threads`` intra-op threads (0: onnxruntime's choice).

        onnxruntime makes a session's intra-op threads when the session is created, and they
        start with the priority of the thread creating it (``eywa.threads``). One session
        shared by the request threads and a lowered background thread would run a query's
        embedding on lowered threads, or a background batch on full-priority ones; so each
        priority gets its own session (two in an API process: the model loaded twice),
        created by the first thread of that priority that embeds. A query-sized call runs
        on a one-thread session of its own (``QUERY_TEXTS``; one more copy).

        Raises:
            ConfigurationError: the model fails its integrity check or onnxruntime rejects it.
        """
        nice = current_nice()
        key = (nice, threads)
        with self._lock:
            if self._path is None or self._tokenizer is None:
                path = self._prepare(verified_file(*self._model_file()))
                # The tokenizer's own thread pool (rayon) would be made by the first thread
                # that tokenises a batch, with its priority, and then tokenise everyone's
                # texts: a query behind a lowered pool, or a background batch on a
                # full-priority one. Tokenising in the calling thread costs about as much
                # (500 turns: ~17 ms of CPU either way) and keeps each text at its caller's
                # priority (an explicit TOKENIZERS_PARALLELISM is left alone).
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                tokenizer = Tokenizer.from_str(self._tokenizer_json())
                tokenizer.no_padding()  # a fixed padding is replaced by per-batch padding
                tokenizer.enable_truncation(max_length=self._max_tokens)
                self._tokenizer = tokenizer
                self._path = path
            path, tokenizer = self._path, self._tokenizer
            session = self._sessions.get(key)
            if session is not None:
                return session, tokenizer
            creating = self._creating.setdefault(key, threading.Lock())
        # A session is made holding its own lock only: making one takes seconds on a busy
        # machine, and under the embedder's lock every other thread's embedding (requests'
        # writes and recalls) waited for it, e.g. while the background thread made its
        # lowered session (thread dumps of `eywa serve` in the chaos bench: every request
        # thread waiting here, so the API touched no store for seconds).
        with creating:
            with self._lock:
                session = self._sessions.get(key)
            if session is None:
                session = self._create_session(path, threads)
                names = frozenset(i.name for i in session.get_inputs())
                missing = {"input_ids", "attention_mask"} - names
                if missing:
                    raise ConfigurationError(f"embedding model lacks inputs {sorted(missing)}")
                with self._lock:
                    self._input_names = names
                    self._sessions[key] = session
            return session, tokenizer

    def _create_session(self, path: str, threads: int) -> ort.InferenceSession:
        """An onnxruntime CPU session with full graph optimisation and ``threads`` intra-op
        threads.

        Raises:
            ConfigurationError: onnxruntime cannot load the model.
        """
        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
        import onnxruntime as ort  # deferred: importing it costs ~0.2 s that reads never pay
        from onnxruntime.capi import onnxruntime_pybind11_state as ort_errors

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads
        # Idle intra-op threads sleep instead of spinning: a recall embeds one short question
        # and then reads SQLite, and spinning threads burned a third more CPU per query
        # embedding (12.7 against 17.2 ms on a shared 2-core machine) without changing the
        # vectors, taking that CPU from the rest of the read and from other processes.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        try:
            return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        except (
            ort_errors.Fail,
            ort_errors.InvalidProtobuf,
            ort_errors.InvalidGraph,
            ort_errors.NoSuchFile,
            ort_errors.RuntimeException,
        ) as exc:
            raise ConfigurationError(f"onnxruntime cannot load {path}: {exc}") from exc
