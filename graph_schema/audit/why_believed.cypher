// purpose: Why a belief is held: its statement, status and validation report, and every turn that supports it (span, score, matched anchors).
// param: space - the space to audit
// param: belief_id - the belief's id (bel_...), as shown by `eywa beliefs`
// returns: belief text, statement text, status text, report json, evidence text, session text
// returns: speaker text, observed_at datetime, text text, span list, score float, anchors list
MATCH (b:Belief {id: $belief_id})
WHERE b.space = $space
OPTIONAL MATCH (b)-[s:SUPPORTED_BY]->(e:Evidence)
WHERE e.space = $space
RETURN b.id AS belief, b.statement AS statement, b.status AS status, b.report AS report,
       e.id AS evidence, e.session AS session, e.speaker AS speaker,
       e.observed_at AS observed_at, e.text AS text,
       s.span AS span, s.score AS score, s.anchors AS anchors
ORDER BY observed_at, evidence;
