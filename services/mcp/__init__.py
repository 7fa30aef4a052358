"""The MCP server: Eywa's memory as tools and resources for agents (``server``), and the
``eywa mcp`` command that runs it (``cli``)."""
