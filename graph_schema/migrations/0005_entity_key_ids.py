"""Re-key :Entity nodes by ``eywa.ids.entity_key`` (whitespace collapsed, then case-folded).

Entity ids used to hash ``name.casefold()`` alone, so "Mary  Ann" and "Mary Ann" were two
entities. Each node whose id differs from its name's new id moves to it; when a node with
the new id exists, the two become one: the old node's relationships are copied to the
survivor (MENTIONS and ABOUT in, HAS_DIMENSION out, RELATED_TO and SAME_AS both ways, self
loops dropped), aliases are united, "person" wins over "entity", and the old node is
deleted. Python, not Cypher, because an id is a SHA-256 and Cypher has no hash function.
The listing of all entities is the only query without a space filter (it spans the
database, like the migration ledger); every other statement matches within one space.
"""

from __future__ import annotations

from neo4j import ManagedTransaction

from eywa.ids import entity_id
from eywa.stores.neo4j.labels import Label, RelType

_ENT = Label.ENTITY
_ALL = f"MATCH (n:{_ENT}) RETURN n.id AS id, n.space AS space, n.name AS name, n.kind AS kind, n.aliases AS aliases"
_TARGET = f"MATCH (t:{_ENT} {{id: $new, space: $space}}) RETURN t.kind AS kind, t.aliases AS aliases"
_RENAME = f"MATCH (o:{_ENT} {{id: $old, space: $space}}) SET o.id = $new"
_PAIR = f"MATCH (o:{_ENT} {{id: $old, space: $space}}) MATCH (t:{_ENT} {{id: $new, space: $space}}) "
_MOVES = (
    _PAIR + f"MATCH (x)-[:{RelType.MENTIONS}]->(o) MERGE (x)-[:{RelType.MENTIONS}]->(t)",
    _PAIR + f"MATCH (x)-[:{RelType.ABOUT}]->(o) MERGE (x)-[:{RelType.ABOUT}]->(t)",
    _PAIR + f"MATCH (o)-[:{RelType.HAS_DIMENSION}]->(x) MERGE (t)-[:{RelType.HAS_DIMENSION}]->(x)",
    _PAIR + f"MATCH (o)-[r:{RelType.RELATED_TO}]->(x) WHERE x <> t AND x <> o "
    f"MERGE (t)-[c:{RelType.RELATED_TO} {{belief: r.belief}}]->(x) SET c += properties(r)",
    _PAIR + f"MATCH (x)-[r:{RelType.RELATED_TO}]->(o) WHERE x <> t AND x <> o "
    f"MERGE (x)-[c:{RelType.RELATED_TO} {{belief: r.belief}}]->(t) SET c += properties(r)",
    _PAIR + f"MATCH (o)-[r:{RelType.SAME_AS}]->(x) WHERE x <> t AND x <> o "
    f"MERGE (t)-[c:{RelType.SAME_AS}]->(x) SET c += properties(r)",
    _PAIR + f"MATCH (x)-[r:{RelType.SAME_AS}]->(o) WHERE x <> t AND x <> o "
    f"MERGE (x)-[c:{RelType.SAME_AS}]->(t) SET c += properties(r)",
)
_UNITE = f"MATCH (t:{_ENT} {{id: $new, space: $space}}) SET t.kind = $kind, t.aliases = $aliases"
_DROP = f"MATCH (o:{_ENT} {{id: $old, space: $space}}) DETACH DELETE o"


def migrate(tx: ManagedTransaction) -> None:
    """Move every entity to the id of its name's key, uniting those that now share one."""
    for row in tx.run(_ALL).data():
        space, old, name = row["space"], row["id"], row["name"]
        if space is None or name is None:
            continue
        new = entity_id(space, name)
        if new == old:
            continue
        target = tx.run(_TARGET, new=new, space=space).single()
        if target is None:
            tx.run(_RENAME, old=old, new=new, space=space).consume()
            continue
        for statement in _MOVES:
            tx.run(statement, old=old, new=new, space=space).consume()
        kind = "person" if "person" in (target["kind"], row["kind"]) else target["kind"]
        aliases = sorted(set(target["aliases"] or []) | set(row["aliases"] or []))
        tx.run(_UNITE, new=new, space=space, kind=kind, aliases=aliases).consume()
        tx.run(_DROP, old=old, space=space).consume()
