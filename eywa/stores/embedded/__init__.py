"""The embedded default: SQLite (WAL, FTS5) for the graph tables and keyword index, Qdrant
Edge in-process for vectors; the co-mention graph is an SQLite adjacency table
(``entity_edges``). Everything lives under one directory.
"""
