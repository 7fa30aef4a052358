"""The embedded graph walk keeps each reached entity's heaviest edges (ties by the other end's
id), as the SQL window it replaced did: these edges decide which turns and beliefs a
question's graph route may offer."""

from __future__ import annotations

import sqlite3

from eywa.stores.embedded.entity_graph import _EXPAND, _heaviest

# (node, other, weight) in both directions, as the walk's query returns them.
EDGES = [("a", "d", 2), ("a", "c", 2), ("a", "b", 5), ("a", "e", 1), ("z", "a", 2), ("b", "c", 7)]
WINDOW = """SELECT DISTINCT other FROM (
  SELECT node, other, ROW_NUMBER() OVER (PARTITION BY node ORDER BY weight DESC, other) AS n FROM edges)
WHERE n <= ?"""


def window(limit: int) -> set[str]:
    with sqlite3.connect(":memory:") as conn:
        conn.execute("CREATE TABLE edges (node TEXT, other TEXT, weight INTEGER)")
        conn.executemany("INSERT INTO edges VALUES (?, ?, ?)", EDGES)
        return {row[0] for row in conn.execute(WINDOW, (limit,))}


def test_each_node_keeps_its_heaviest_edges_ties_by_the_other_ends_id() -> None:
    assert _heaviest(EDGES, 1) == {"b", "a", "c"}  # a → b (5); z → a; b → c
    assert _heaviest(EDGES, 2) == {"b", "c", "a"}  # a's tie at 2 between c and d: c
    assert _heaviest(EDGES, 3) == {"b", "c", "d", "a"}
    for limit in range(0, 6):
        assert _heaviest(EDGES, limit) == window(limit)


def test_the_walk_reads_both_directions_of_the_frontier() -> None:
    with sqlite3.connect(":memory:") as conn:
        conn.execute("CREATE TABLE entity_edges (space TEXT, a TEXT, b TEXT, weight INTEGER)")
        conn.executemany("INSERT INTO entity_edges VALUES ('s', ?, ?, ?)", [("a", "b", 3), ("c", "d", 1), ("b", "z", 1)])
        conn.execute("INSERT INTO entity_edges VALUES ('t', 'a', 'x', 9)")  # another space's edge
        rows = conn.execute(_EXPAND.format(marks="?"), ("s", "b", "s", "b")).fetchall()
    assert sorted(rows) == [("b", "a", 3), ("b", "z", 1)]
