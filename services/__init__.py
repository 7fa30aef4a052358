"""Eywa's network entry points: the HTTP API (``api``), the MCP server (``mcp``) and the
sender side of the job queue (``queue``). They open the memory and the key store through
``eywa.runtime`` and never import ``workers``."""
