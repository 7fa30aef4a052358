"""Embedding providers behind one protocol, and the factory that picks one from settings."""

from __future__ import annotations

from eywa.embedding.base import Embedder, embedder_id, query_embedding
from eywa.embedding.bge import BgeSmallEmbedder
from eywa.embedding.integer import integer_queries
from eywa.embedding.minilm import MiniLMEmbedder
from eywa.embedding.openai import OpenAIEmbedder
from eywa.errors import ConfigurationError
from eywa.settings import EywaSettings

__all__ = [
    "BgeSmallEmbedder",
    "Embedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "build_embedder",
    "embedder_id",
    "query_embedding",
]


def build_embedder(settings: EywaSettings) -> Embedder:
    """The embedder ``settings.embedder`` names, configured from the same settings.

    Building is cheap: MiniLM loads its model on first use, the OpenAI embedder opens no
    connection until it embeds, and bge-small checks its fetched files' hashes (0.03 s int8, 0.13 s float)
    and loads its model on first use.

    Example:
        >>> build_embedder(EywaSettings()).dim
        384

    Raises:
        ConfigurationError: ``openai`` is chosen without ``openai_embeddings_url``, or
            ``bge-small`` without its files fetched (the message names the command).
    """
    if settings.embedder in ("bge-small", "bge-small-fp32"):
        return BgeSmallEmbedder(
            "bge-small-fp32" if settings.embedder == "bge-small-fp32" else "bge-small",
            query_instruction=settings.embed_query_instruction,
            batch_size=settings.embed_batch_size,
            max_tokens=settings.embed_max_tokens,
            threads=settings.embed_threads,
        )
    if settings.embedder == "openai":
        if not settings.openai_embeddings_url:
            raise ConfigurationError("EYWA_EMBEDDER=openai needs EYWA_OPENAI_EMBEDDINGS_URL")
        key = settings.openai_embeddings_api_key or settings.llm_api_key
        return OpenAIEmbedder(
            settings.openai_embeddings_url,
            settings.openai_embeddings_model,
            api_key=key.get_secret_value() if key is not None else None,
            dim=settings.openai_embeddings_dim,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
            batch_size=settings.embed_batch_size,
        )
    return MiniLMEmbedder(
        batch_size=settings.embed_batch_size,
        max_tokens=settings.embed_max_tokens,
        threads=settings.embed_threads,
        integer_kernels=settings.embed_integer_kernels,
        integer_queries=integer_queries(settings.embed_query_kernels),
        strict_queries=settings.embed_query_kernels == "integer",
    )
