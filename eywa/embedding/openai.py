"""Embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, vLLM, Ollama…).

For production deployments that want a larger model than the offline MiniLM default. Texts
are sent in batches; 429 and 5xx answers and transport failures are retried with
exponential backoff (honouring ``Retry-After``), because hosted endpoints rate-limit bursts
of ingestion as a matter of course.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import numpy as np
import numpy.typing as npt

from eywa.errors import ClosedError, ConfigurationError, EmbedderError

_RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
_MAX_BACKOFF_S = 30.0


class OpenAIEmbedder:
    """An ``Embedder`` over HTTP. Rows are re-normalised, whatever the endpoint returns.

    Example:
        >>> embedder = OpenAIEmbedder("https://api.openai.com/v1", "text-embedding-3-small",
        ...                           api_key="sk-…", dim=1536)  # doctest: +SKIP
        >>> embedder.embed(["hello"]).shape  # doctest: +SKIP
        (1, 1536)

    Args:
        base_url: The API root, e.g. ``https://api.openai.com/v1``; ``embeddings`` is
            appended.
        model: The model name sent with each request.
        api_key: Sent as a bearer token when given (local servers often need none).
        dim: Expected vector width; a mismatching answer is an error, never truncated.
        timeout_s: Per-request timeout.
        max_retries: Further attempts after a retryable failure.
        batch_size: Texts per request.
        send_dimensions: Ask the endpoint for ``dim`` dimensions (text-embedding-3 models
            support shortening; many compatible servers reject the field).
        backoff_s: First retry delay; doubles per attempt, capped at 30 s.
        transport: An httpx transport (tests pass ``httpx.MockTransport``).
        sleep: The delay function (tests pass a recorder).

    Raises:
        ConfigurationError: an argument is out of range.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        dim: int = 1536,
        timeout_s: float = 30.0,
        max_retries: int = 3,
        batch_size: int = 128,
        send_dimensions: bool = False,
        backoff_s: float = 0.5,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if dim < 1 or batch_size < 1 or max_retries < 0 or timeout_s <= 0:
            raise ConfigurationError(
                "OpenAIEmbedder needs dim >= 1, batch_size >= 1, max_retries >= 0, timeout_s > 0"
            )
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=base_url, headers=headers, timeout=timeout_s, transport=transport
        )
        self._model = model
        self._dim = dim
        self._max_retries = max_retries
        self._batch_size = batch_size
        self._send_dimensions = send_dimensions
        self._backoff_s = backoff_s
        self._sleep = sleep
        self._closed = False

    @property
    def model_id(self) -> str:
        """``openai:<model>@<dim>``: the same model shortened to another width is another space."""
        return f"openai:{self._model}@{self._dim}"

    @property
    def dim(self) -> int:
        """The configured vector width."""
        return self._dim

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts`` in order, one request per batch.

        Raises:
            ClosedError: the embedder was closed.
            EmbedderError: the endpoint failed after retries, refused the request, or
                answered with the wrong count or width.
        """
        if self._closed:
            raise ClosedError("OpenAIEmbedder")
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            batch = list(texts[start : start + self._batch_size])
            out[start : start + len(batch)] = self._embed_batch(batch)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = (out / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit

    def close(self) -> None:
        """Release the HTTP connection pool; later ``embed`` calls raise ``ClosedError``."""
        if not self._closed:
            self._closed = True
            self._client.close()

    def __enter__(self) -> OpenAIEmbedder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _embed_batch(self, batch: list[str]) -> npt.NDArray[np.float32]:
        """One batch: the raw rows in input order (the answer's ``index`` decides)."""
        body: dict[str, Any] = {"model": self._model, "input": batch, "encoding_format": "float"}
        if self._send_dimensions:
            body["dimensions"] = self._dim
        payload = self._post_with_retries(body)
        try:
            items = sorted(payload["data"], key=lambda item: int(item["index"]))
            rows = np.asarray([item["embedding"] for item in items], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbedderError(f"malformed embeddings answer: {exc!r}") from exc
        if rows.shape != (len(batch), self._dim):
            raise EmbedderError(
                f"expected {len(batch)} vectors of width {self._dim}, got shape {rows.shape}"
            )
        return rows

    def _post_with_retries(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``embeddings``, retrying what a later attempt may fix.

        Raises:
            EmbedderError: a non-retryable status, or retries exhausted.
        """
        attempt = 0
        while True:
            try:
                response = self._client.post("embeddings", json=body)
            except httpx.TransportError as exc:
                if attempt >= self._max_retries:
                    raise EmbedderError(f"embeddings endpoint unreachable: {exc}") from exc
                self._sleep(self._delay(attempt, None))
                attempt += 1
                continue
            if response.status_code in _RETRYABLE_STATUS and attempt < self._max_retries:
                self._sleep(self._delay(attempt, response.headers.get("Retry-After")))
                attempt += 1
                continue
            if response.is_error:
                raise EmbedderError(
                    f"embeddings endpoint answered {response.status_code}: {response.text[:200]}"
                )
            try:
                decoded = response.json()
            except ValueError as exc:
                raise EmbedderError("embeddings endpoint answered with invalid JSON") from exc
            if not isinstance(decoded, dict):
                raise EmbedderError("embeddings endpoint answered with a non-object")
            return decoded

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        """Exponential backoff, or the server's ``Retry-After`` seconds when it gives them."""
        if retry_after is not None:
            try:
                return min(max(float(retry_after), 0.0), _MAX_BACKOFF_S)
            except ValueError:
                pass  # an HTTP date: fall back to our own schedule
        return float(min(self._backoff_s * (2**attempt), _MAX_BACKOFF_S))
