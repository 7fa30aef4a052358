// purpose: Residue of one erasure: rows still holding an erased turn's id, per kind (every count must be 0; tombstones and the record itself are the intended trace).
// param: space - the space of the erasure
// param: erasure - the erasure id (er_...)
// returns: kind text, residue int
MATCH (r:Erasure {id: $erasure}) WHERE r.space = $space
WITH r.turn_ids AS erased
CALL { WITH erased MATCH (e:Evidence) WHERE e.id IN erased RETURN count(e) AS evidence }
CALL { WITH erased MATCH (s:Signal) WHERE s.evidence_id IN erased AND s.space = $space RETURN count(s) AS signals }
CALL { WITH erased MATCH (e:Evidence)-[m:MENTIONS]->() WHERE e.id IN erased RETURN count(m) AS mentions }
CALL { WITH erased MATCH (b:Belief) WHERE b.space = $space AND any(i IN b.evidence_ids WHERE i IN erased) RETURN count(b) AS beliefs }
CALL { WITH erased MATCH (c:Candidate) WHERE c.space = $space AND any(i IN c.evidence_ids WHERE i IN erased) RETURN count(c) AS candidates }
CALL { WITH erased MATCH (d:Delta) WHERE d.space = $space AND any(i IN d.evidence_ids WHERE i IN erased) RETURN count(d) AS deltas }
CALL { WITH erased MATCH (j:Job) WHERE j.space = $space AND any(i IN j.evidence_ids WHERE i IN erased) RETURN count(j) AS jobs }
CALL { WITH erased MATCH (p:Pending) WHERE p.space = $space AND p.item IN erased RETURN count(p) AS pending }
UNWIND [['beliefs', beliefs], ['candidates', candidates], ['deltas', deltas], ['evidence', evidence],
        ['jobs', jobs], ['keyword', evidence], ['mentions', mentions], ['pending', pending], ['signals', signals]] AS row
RETURN row[0] AS kind, row[1] AS residue
ORDER BY kind;
