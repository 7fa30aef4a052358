"""Chat clients for the LLM extractor: OpenAI-compatible endpoints and Anthropic.

Both ask for structured output (a JSON schema) and return the parsed object. Both retry
429, 5xx and transport errors (timeouts, refused connections) with exponential backoff and
raise ``ExtractorError`` once retries are exhausted, so Level 1 fails loudly and can be re-run
idempotently instead of silently writing nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Protocol

import httpx

from eywa.errors import ExtractorError
from eywa.retry_after import retry_after_seconds

_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
ANTHROPIC_URL = "https://api.anthropic.com/v1/messages"
ANTHROPIC_VERSION = "2023-06-01"


class ChatClient(Protocol):
    """One structured completion: a system prompt, a user message, a JSON schema."""

    @property
    def model(self) -> str:
        """The model name, recorded as part of the extractor's name."""
        ...

    def complete(self, system: str, user: str, schema: dict[str, Any]) -> dict[str, Any]:
        """The model's answer as a JSON object that should follow ``schema``."""
        ...


class _HttpClient:
    """Shared POST-with-retries over httpx, and the model name both clients report."""

    def __init__(
        self,
        *,
        model: str,
        timeout_s: float,
        max_retries: int,
        backoff_s: float,
        transport: httpx.BaseTransport | None,
        sleep: Callable[[float], None],
    ) -> None:
        self._model = model
        self._http = httpx.Client(timeout=timeout_s, transport=transport)
        self._max_retries = max_retries
        self._backoff_s = backoff_s
        self._sleep = sleep

    @property
    def model(self) -> str:
        """The model name."""
        return self._model

    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def _post(self, url: str, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
        last = ""
        for attempt in range(self._max_retries + 1):
            try:
                response = self._http.post(url, headers=headers, json=body)
            except httpx.TransportError as exc:  # timeouts, refused connections, resets
                last = f"{type(exc).__name__}: {exc}"
            else:
                if response.status_code < 400:
                    try:
                        data = response.json()
                    except ValueError as exc:
                        raise ExtractorError(f"{url} answered with non-JSON: {exc}") from exc
                    if not isinstance(data, dict):
                        raise ExtractorError(f"{url} answered with a JSON {type(data).__name__}")
                    return data
                last = f"HTTP {response.status_code}: {response.text[:200]}"
                if response.status_code not in _RETRY_STATUS:
                    raise ExtractorError(f"{url} refused the request ({last})")
                wait = retry_after_seconds(response.headers.get("retry-after"))
                if wait is not None and attempt < self._max_retries:
                    self._sleep(wait)
                    continue
            if attempt < self._max_retries:
                self._sleep(self._backoff_s * (2**attempt))
        raise ExtractorError(f"{url} failed after {self._max_retries + 1} attempts ({last})")


def _parse_json_text(text: str) -> dict[str, Any]:
    cleaned = text.strip()
    if cleaned.startswith("```"):
        cleaned = cleaned.strip("`")
        cleaned = cleaned[cleaned.find("{") :] if "{" in cleaned else cleaned
    try:
        data = json.loads(cleaned)
    except ValueError as exc:
        raise ExtractorError(f"the model answered with invalid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ExtractorError("the model answered with JSON that is not an object")
    return data


class OpenAIChatClient(_HttpClient):
    """Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, LM Studio).

    Posts to ``{base_url}/chat/completions`` with ``response_format`` of type
    ``json_schema``, temperature 0.

    Example:
        >>> client = OpenAIChatClient("http://localhost:11434/v1", "qwen2.5:7b")  # doctest: +SKIP
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout_s: float = 60.0,
        max_retries: int = 3,
        backoff_s: float = 1.0,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(model=model, timeout_s=timeout_s, max_retries=max_retries, backoff_s=backoff_s, transport=transport, sleep=sleep)
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    def complete(self, system: str, user: str, schema: dict[str, Any]) -> dict[str, Any]:
        """Ask for an answer following ``schema``.

        Raises:
            ExtractorError: the endpoint failed after retries, refused the request, or
                answered with something that is not a JSON object.
        """
        body = {
            "model": self._model,
            "temperature": 0,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "candidate_facts", "schema": schema, "strict": True},
            },
        }
        data = self._post(self._url, self._headers, body)
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise ExtractorError(f"unexpected chat completion shape: {exc!r}") from exc
        if not isinstance(content, str):
            raise ExtractorError("the chat completion has no text content")
        return _parse_json_text(content)


class AnthropicClient(_HttpClient):
    """Anthropic's Messages API, with the schema as the input schema of a forced tool call."""

    def __init__(
        self,
        api_key: str,
        model: str,
        *,
        url: str = ANTHROPIC_URL,
        max_tokens: int = 4096,
        timeout_s: float = 60.0,
        max_retries: int = 3,
        backoff_s: float = 1.0,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(model=model, timeout_s=timeout_s, max_retries=max_retries, backoff_s=backoff_s, transport=transport, sleep=sleep)
        self._url = url
        self._max_tokens = max_tokens
        self._headers = {"x-api-key": api_key, "anthropic-version": ANTHROPIC_VERSION}

    def complete(self, system: str, user: str, schema: dict[str, Any]) -> dict[str, Any]:
        """Ask for a ``record_facts`` tool call whose input follows ``schema``.

        Raises:
            ExtractorError: the endpoint failed after retries, refused the request, or
                answered without a usable tool call or JSON text.
        """
        body = {
            "model": self._model,
            "max_tokens": self._max_tokens,
            "temperature": 0,
            "system": system,
            "messages": [{"role": "user", "content": user}],
            "tools": [
                {"name": "record_facts", "description": "Record the extracted facts.", "input_schema": schema}
            ],
            "tool_choice": {"type": "tool", "name": "record_facts"},
        }
        data = self._post(self._url, self._headers, body)
        blocks = data.get("content")
        if not isinstance(blocks, list):
            raise ExtractorError("the Anthropic answer has no content blocks")
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("input"), dict):
                return dict(block["input"])
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
                return _parse_json_text(block["text"])
        raise ExtractorError("the Anthropic answer has neither a tool call nor JSON text")
