// purpose: What came from one turn: the beliefs it supports, the deltas those beliefs caused and the dimensions they changed.
// param: space - the space to audit
// param: evidence_id - the turn's evidence id (ev_...)
// returns: evidence text, text text, belief text, statement text, status text, delta text
// returns: entity text, attribute text, observed text, surprise_bits float, at datetime
MATCH (e:Evidence {id: $evidence_id})
WHERE e.space = $space
OPTIONAL MATCH (b:Belief)-[:SUPPORTED_BY]->(e)
WHERE b.space = $space
OPTIONAL MATCH (dim:Dimension)-[:CHANGED_BY]->(d:Delta)-[:FROM]->(b)
WHERE d.space = $space AND dim.space = $space
RETURN e.id AS evidence, e.text AS text, b.id AS belief, b.statement AS statement,
       b.status AS status, d.id AS delta, dim.entity AS entity, dim.attribute AS attribute,
       d.observed AS observed, d.surprise_bits AS surprise_bits, d.at AS at
ORDER BY belief, at, delta;
