"""``signals_version`` 0 on every ``:Evidence`` that lacks it (session 28): the Level 0
version (``eywa.signals.version``) its signals were detected under, unknown for a turn
stored before versions existed, so older than any recorded one.

Level 0 stores the version on every new turn; ``eywa reprocess`` finds the turns under an
older one through the (space, signals_version) index of migration 0024, which holds only the
turns that have the property: without this, an old turn would never be found outdated.
"""

from __future__ import annotations

from neo4j import ManagedTransaction

from eywa.stores.neo4j.labels import Label

_EV = Label.EVIDENCE
_SET = f"MATCH (e:{_EV}) WHERE e.signals_version IS NULL SET e.signals_version = 0"


def migrate(tx: ManagedTransaction) -> None:
    """Set ``signals_version`` 0 on each turn without one."""
    tx.run(_SET).consume()
