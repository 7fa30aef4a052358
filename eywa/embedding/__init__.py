"""Embedding providers behind one protocol."""

from eywa.embedding.base import Embedder

__all__ = ["Embedder"]
