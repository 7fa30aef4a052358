"""The ``eywa`` command: the core's commands, plus the commands other packages plug in
(``bench``, ``serve``, ``mcp``, ``worker``, ``beat``; see ``eywa.cli.app``)."""

from __future__ import annotations

from eywa.cli.app import app, main

__all__ = ["app", "main"]
