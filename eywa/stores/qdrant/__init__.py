"""Qdrant server implementation of the vector store (server mode)."""

from __future__ import annotations

from eywa.stores.qdrant.vectors import QdrantServerVectorStore

__all__ = ["QdrantServerVectorStore"]
