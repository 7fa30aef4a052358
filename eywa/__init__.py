"""Eywa: provenance-first memory for AI agents."""
