"""The embedded ``SpaceCatalog``: the counts of a page of spaces in one SQL statement.

Each part of the statement filters ``space IN`` the asked list (one JSON parameter, however
many spaces) on the table's index that starts with ``space`` and groups by space; the stage
ledger's part is its per-space counts (``space_backlog``, one row per space, kept at write time).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.records import to_epoch
from eywa.stores.spaces import SpaceCounts, counts_from_rows

__all__ = ["SqliteSpaceCatalog"]

_ASKED = "space IN (SELECT value FROM json_each(:spaces))"
_COUNTS = f"""
SELECT space, 'turns' AS key, COUNT(*) AS n FROM evidence WHERE {_ASKED} GROUP BY space
UNION ALL
SELECT space, 'recorded', COUNT(*) FROM evidence
 WHERE {_ASKED} AND recorded_at >= :recorded_from AND recorded_at < :recorded_to GROUP BY space
UNION ALL
SELECT space, 'belief_' || status, COUNT(*) FROM beliefs WHERE {_ASKED} GROUP BY space, status
UNION ALL
SELECT space, 'candidate_' || status, COUNT(*) FROM candidates WHERE {_ASKED} GROUP BY space, status
UNION ALL
SELECT space, 'dimensions', COUNT(*) FROM nous_dimensions WHERE {_ASKED} GROUP BY space
UNION ALL
SELECT space, 'erasures', COUNT(*) FROM erasures WHERE {_ASKED} GROUP BY space
UNION ALL
SELECT space, 'embed', embed FROM space_backlog WHERE {_ASKED}
UNION ALL
SELECT space, 'level1', level1 FROM space_backlog WHERE {_ASKED}
"""  # noqa: S608 - the text is constant; values travel as parameters


class SqliteSpaceCatalog:
    """The embedded ``SpaceCatalog`` on the store's one SQLite database."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def counts(self, spaces: Sequence[str], recorded_from: datetime, recorded_to: datetime) -> dict[str, SpaceCounts]:
        """The counts of each of ``spaces`` in one statement (see the module docstring)."""
        if not spaces:
            return {}
        rows = self._db.query(_COUNTS, {
            "spaces": json.dumps(list(spaces)),
            "recorded_from": to_epoch(recorded_from), "recorded_to": to_epoch(recorded_to),
        })  # fmt: skip
        return counts_from_rows(spaces, ((r["space"], r["key"], int(r["n"])) for r in rows))
