"""The LLM-free read path: plan, routes, fusion, packing, policies."""
