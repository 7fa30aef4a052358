"""FTS5's ``bm25`` reproduced outside FTS5 (numpy, from an in-memory index), checked bit for bit.

Why: the embedded read path's largest cost is FTS5 ranking every row that matches a query term
(docs/latency.md: ~0.75 µs a row; 10k synthetic turns, 2.5 ms per shared search and 7.5
per feedback search; 100k, 23 and 67 ms). FTS5 computes, per matching row,

    score = 0.0; for each phrase i in query order:
        score += idf_i * ((f_i * (k1 + 1.0)) / (f_i + k1 * (1 - b + b * D / avgdl)))
    rank = -1.0 * score

with k1 1.2, b 0.75; ``idf_i = log((N - n_i + 0.5) / (n_i + 0.5))``, floored to 1e-6; ``n_i``
the rows holding phrase i; ``f_i`` the row's instances of it, each adding its column's weight,
in (column, offset) order; ``D`` the row's tokens over every column (``*_docsize``); ``avgdl``
every row's tokens over N (the averages record, ``*_data`` row 1). Python floats and numpy
float64 make the same IEEE operations in the same order, so the same rows come back with the
same ranks, bit for bit, whatever the ties. This script shows it on the searches the read path
really makes, and times both; ``ab`` runs the read path with each, alternating per question.

It is a measurement, not the store: the index here is read once from ``fts5vocab`` and never
updated, so it is only right for a store nobody writes to meanwhile (use copies).

    python ops/bench/bm25_outside_fts5.py check STORE_DIR --synthetic 10000 --queries 200
    python ops/bench/bm25_outside_fts5.py check STORE_DIR --locomo locomo-dev.json
    python ops/bench/bm25_outside_fts5.py ab STORE_DIR --synthetic 10000 --queries 200
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sqlite3
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from eywa.bench.latency import WARMUP_QUERIES, _open
from eywa.bench.synthetic import generate_queries
from eywa.settings import load_settings
from eywa.stores.embedded import keyword
from eywa.stores.embedded.bm25_index import varints

K1, B = 1.2, 0.75
# Each FTS table: its name and bm25 column weights (as the read path passes them).
TABLES: dict[str, tuple[str, list[float]]] = {
    "evidence": ("evidence_fts", [float(w) for w in keyword._EVIDENCE_WEIGHTS.split(",")]),
    "belief": ("belief_fts", [0.0, 0.0, 1.0]),
}
Search = tuple[str, str, str, int]  # kind, space, MATCH expression, limit


class Tokens:
    """A quoted word's tokens, by FTS5's own tokenizer (porter unicode61), cached."""

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:")
        self._conn.execute("CREATE VIRTUAL TABLE tok USING fts5(x, tokenize='porter unicode61')")
        self._conn.execute("CREATE VIRTUAL TABLE tokv USING fts5vocab('tok', 'instance')")
        self._seen: dict[str, list[str]] = {}

    def __call__(self, word: str) -> list[str]:
        if word not in self._seen:
            self._conn.execute("DELETE FROM tok")
            self._conn.execute("INSERT INTO tok(x) VALUES (?)", (word,))
            self._seen[word] = [row[0] for row in self._conn.execute("SELECT term FROM tokv ORDER BY offset")]
        return self._seen[word]


class ExactBm25:
    """One FTS table's bm25 ranking from an in-memory index (postings read lazily per token)."""

    def __init__(self, conn: sqlite3.Connection, kind: str) -> None:
        self._conn = conn
        table, self._weights = TABLES[kind]
        columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
        self._column = {name: i for i, name in enumerate(columns)}
        averages = varints(conn.execute(f"SELECT block FROM {table}_data WHERE id = 1").fetchone()[0])
        self._rows, tokens = averages[0], sum(averages[1:])
        self._avgdl = float(tokens) / float(self._rows)
        top = conn.execute(f"SELECT max(id) FROM {table}_docsize").fetchone()[0]
        self._size = np.zeros(top + 1)
        for rowid, blob in conn.execute(f"SELECT id, sz FROM {table}_docsize"):
            self._size[rowid] = float(sum(varints(blob)))
        owners = (
            conn.execute("SELECT rowid, space, id FROM evidence")
            if kind == "evidence"
            else conn.execute(f"SELECT id, c1, c0 FROM {table}_content")
        ).fetchall()
        self._space_code = {s: i for i, s in enumerate(sorted({s for _, s, _ in owners}))}
        self._space = np.full(top + 1, -1, dtype=np.int64)
        self.ids: dict[int, str] = {}
        for rowid, space, item_id in owners:
            if rowid <= top:
                self._space[rowid] = self._space_code[space]
            self.ids[rowid] = item_id
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.vi_{kind} USING fts5vocab(main, '{table}', 'instance')")
        self._vocab = f"temp.vi_{kind}"
        self._postings: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]] = {}

    def posting(self, token: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """The rows holding ``token`` and its weighted frequency in each (FTS5's order of sums)."""
        if token not in self._postings:
            found: dict[int, float] = {}
            rows = self._conn.execute(f"SELECT doc, col, offset FROM {self._vocab} WHERE term = ?", (token,)).fetchall()
            rows.sort(key=lambda r: (r[0], self._column[r[1]], r[2]))
            for doc, col, _ in rows:
                found[doc] = found.get(doc, 0.0) + self._weights[self._column[col]]
            self._postings[token] = (
                np.fromiter(found.keys(), np.int64, len(found)),
                np.fromiter(found.values(), np.float64, len(found)),
            )
        return self._postings[token]

    def rank(self, tokens: Sequence[str], limit: int, space: str | None) -> list[tuple[int, float]]:
        """(rowid, bm25) best first, ties by rowid: ``ORDER BY rank, rowid LIMIT``."""
        score = np.zeros(self._size.shape[0])
        matched = np.zeros(self._size.shape[0], dtype=bool)
        for token in tokens:
            docs, freq = self.posting(token)
            hits = docs.shape[0]
            idf = math.log((self._rows - hits + 0.5) / (hits + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            part = idf * ((freq * (K1 + 1.0)) / (freq + K1 * ((1 - B) + B * self._size[docs] / self._avgdl)))
            score[docs] = score[docs] + part
            matched[docs] = True
        if space is not None:
            matched &= self._space == self._space_code.get(space, -2)
        rows = np.nonzero(matched)[0]
        ranks = -1.0 * score[rows]
        order = np.lexsort((rows, ranks))[:limit]
        return list(zip(rows[order].tolist(), ranks[order].tolist(), strict=True))


def fts5_sql(kind: str) -> str:
    """FTS5's own ranking, by rowid (the filtered plan's: any store, one space)."""
    if kind == "evidence":
        return (
            f"SELECT evidence_fts.rowid, bm25(evidence_fts, {keyword._EVIDENCE_WEIGHTS}) AS rank FROM evidence_fts "
            "CROSS JOIN evidence e ON e.rowid = evidence_fts.rowid WHERE evidence_fts MATCH ? AND e.space = ? "
            "ORDER BY rank, evidence_fts.rowid LIMIT ?"
        )
    return (
        "SELECT rowid, bm25(belief_fts, 0, 0, 1.0) AS rank FROM belief_fts "
        "WHERE belief_fts MATCH ? AND space = ? ORDER BY rank, rowid LIMIT ?"
    )


def recorded(store: Path, ask: Callable[[Any], object]) -> list[Search]:
    """The keyword searches the read path makes while ``ask(memory)`` recalls."""
    searches: list[Search] = []
    ranked = keyword.SqliteKeywordIndex._ranked

    def record(self: keyword.SqliteKeywordIndex, kind: str, space: str, match: str, limit: int) -> list[tuple[str, float]]:
        searches.append((kind, space, match, limit))
        return ranked(self, kind, space, match, limit)

    keyword.SqliteKeywordIndex._ranked = record  # type: ignore[method-assign]
    try:
        with _open("embedded", load_settings(), store, None) as mem:
            ask(mem)
    finally:
        keyword.SqliteKeywordIndex._ranked = ranked  # type: ignore[method-assign]
    return searches


def check(store: Path, searches: Sequence[Search]) -> None:
    """Each search by FTS5 and outside it: identical (rowid, rank) lists, and CPU per search."""
    conn = sqlite3.connect(f"file:{store}/eywa.sqlite3?mode=ro", uri=True)
    exact = {kind: ExactBm25(conn, kind) for kind in TABLES}
    tokens = Tokens()
    stats: dict[tuple[str, int], dict[str, list[float]]] = {}
    for kind, space, match, limit in searches:
        st = stats.setdefault((kind, limit), {"same": [], "split": [], "fts5": [], "numpy": []})
        words = [tokens(w) for w in re.findall(r'"([^"]*)"', match)]
        if any(len(t) != 1 for t in words):  # a phrase of several tokens: not reproduced here
            st["split"].append(1)
            continue
        terms = [t[0] for t in words]
        for term in terms:
            exact[kind].posting(term)  # the index is in memory: read outside the timing
        began = time.thread_time()
        want = [tuple(row) for row in conn.execute(fts5_sql(kind), (match, space, limit))]
        st["fts5"].append(time.thread_time() - began)
        began = time.thread_time()
        got = exact[kind].rank(terms, limit, space)
        st["numpy"].append(time.thread_time() - began)
        st["same"].append(float(want == got))
    for (kind, limit), st in stats.items():
        print(
            f"{kind} top {limit}: bit-identical {int(sum(st['same']))} of {len(st['same'])} "
            f"(phrases of several tokens, skipped: {len(st['split'])}); CPU per search p50 "
            f"FTS5 {statistics.median(st['fts5']) * 1000:.3f} ms, outside {statistics.median(st['numpy']) * 1000:.3f} ms"
        )


def ab(store: Path, space: str, questions: Sequence[str]) -> None:
    """The read path with FTS5's ranking (A) and the reproduction (B, index warmed first),
    alternating per question in one process: wall, asking thread's CPU, the two keyword routes,
    and whether items, route hits and fused lists are the same."""
    conn = sqlite3.connect(f"file:{store}/eywa.sqlite3?mode=ro", uri=True, check_same_thread=False)
    exact = {kind: ExactBm25(conn, kind) for kind in TABLES}
    tokens = Tokens()
    ranked = keyword.SqliteKeywordIndex._ranked
    outside = [False]

    def either(self: keyword.SqliteKeywordIndex, kind: str, sp: str, match: str, limit: int) -> list[tuple[str, float]]:
        if not outside[0]:
            return ranked(self, kind, sp, match, limit)
        terms = [tokens(w)[0] for w in re.findall(r'"([^"]*)"', match)]
        return [(exact[kind].ids[rowid], rank) for rowid, rank in exact[kind].rank(terms, limit, sp)]

    keyword.SqliteKeywordIndex._ranked = either  # type: ignore[method-assign,assignment]
    with _open("embedded", load_settings(), store, None) as mem:
        for q in generate_queries(1, WARMUP_QUERIES):
            mem.recall(space, q.text)
        outside[0] = True
        for text in questions:  # warms the index's postings
            mem.recall(space, text)
        print("load", os.getloadavg())
        runs: dict[str, dict[str, list[float]]] = {"A": {}, "B": {}}
        same = 0
        for n, text in enumerate(questions):
            seen = {}
            for arm in ("A", "B") if n % 2 else ("B", "A"):
                outside[0] = arm == "B"
                began, cpu = time.perf_counter(), time.thread_time()
                result = mem.recall(space, text)
                run = runs[arm]
                run.setdefault("wall", []).append((time.perf_counter() - began) * 1000)
                run.setdefault("cpu.thread", []).append((time.thread_time() - cpu) * 1000)
                for stage in ("route.keyword", "route.feedback"):
                    if stage in result.trace["timings_ms"]:
                        run.setdefault(stage, []).append(result.trace["timings_ms"][stage])
                seen[arm] = ([(i.id, i.score) for i in result.items], result.trace["routes"], result.trace["fused"])
            same += seen["A"] == seen["B"]
        print("load", os.getloadavg())
    for arm, run in runs.items():
        print(arm, "; ".join(f"{k} p50 {statistics.median(v):.2f} p95 {sorted(v)[int(len(v) * 0.95)]:.2f} (n {len(v)})" for k, v in run.items()))
    print(f"same items, route hits and fused lists: {same} of {len(questions)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("check", "ab"))
    parser.add_argument("store", type=Path, help="an embedded directory (a copy: recalls may write to it)")
    parser.add_argument("--synthetic", type=int, help="the corpus size of an `eywa bench latency` store")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--locomo", type=Path, help="a LoCoMo file whose conversations are the store's spaces")
    args = parser.parse_args()
    if args.synthetic:
        space = f"synthetic-{args.synthetic}"
        questions = [q.text for q in generate_queries(0, args.queries)]
        if args.what == "ab":
            ab(args.store, space, questions)
            return
        check(args.store, recorded(args.store, lambda mem: [mem.recall(space, t) for t in questions]))
        return
    samples = json.loads(args.locomo.read_text())
    asked = [(s["sample_id"], qa["question"]) for s in samples for qa in s["qa"]]
    check(args.store, recorded(args.store, lambda mem: [mem.recall(sp, t) for sp, t in asked]))


if __name__ == "__main__":
    main()
