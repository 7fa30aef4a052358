"""Command-line interface: ``eywa ingest | recall | stats | demo | bench``."""

from __future__ import annotations

from eywa.cli.app import app, main

__all__ = ["app", "main"]
