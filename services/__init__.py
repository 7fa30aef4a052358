"""Eywa services: the HTTP API, the MCP server, API keys and rate limiting (composition roots)."""
