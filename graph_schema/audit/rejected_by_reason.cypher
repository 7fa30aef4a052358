// purpose: What the validator refused, grouped by reason code, with counts and a few example statements.
// param: space - the space to audit
// returns: reason text, candidates int, first_status text, examples list
MATCH (c:Candidate)
WHERE c.space = $space
UNWIND c.reasons AS reason
WITH reason, c ORDER BY c.recorded_at, c.id
RETURN reason, count(c) AS candidates, collect(c.status)[0] AS first_status,
       collect(c.statement)[..5] AS examples
ORDER BY candidates DESC, reason;
