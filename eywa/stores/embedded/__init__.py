"""The embedded default: SQLite (WAL, FTS5) for the graph tables and keyword index, Qdrant
Edge in-process for vectors, networkx for traversal. Everything lives under one directory.
"""
