// RELATED_TO edges of deleted beliefs (session 36): a belief's RELATED_TO edge joins two
// entities, not the belief, so deleting the belief (an erasure, Level 1 replacing it) left the
// edge with the belief's id and the relation it stated. Deletes now take it with the belief
// (eywa/stores/neo4j/beliefs.py); this removes the ones earlier deletes left. One data
// transaction with its bookkeeping.
MATCH (:Entity)-[r:RELATED_TO]->(:Entity)
WHERE NOT EXISTS { MATCH (b:Belief {id: r.belief, space: r.space}) }
DELETE r;
