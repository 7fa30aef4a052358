-- purpose: Residue of one erasure: rows still holding an erased turn's id, per kind (every count must be 0; tombstones and the record itself are the intended trace).
-- param: space - the space of the erasure
-- param: erasure - the erasure id (er_...)
-- returns: kind text, residue int
WITH erased AS (SELECT evidence_id AS id FROM erased_turns WHERE erasure_id = :erasure AND space = :space)
SELECT 'evidence' AS kind, (SELECT count(*) FROM evidence WHERE space = :space AND id IN erased) AS residue
UNION ALL SELECT 'signals', (SELECT count(*) FROM signals WHERE space = :space AND evidence_id IN erased)
UNION ALL SELECT 'mentions', (SELECT count(*) FROM mentions WHERE space = :space AND evidence_id IN erased)
UNION ALL SELECT 'keyword', (SELECT count(*) FROM evidence_fts WHERE space = :space AND id IN erased)
UNION ALL SELECT 'beliefs', (SELECT count(*) FROM beliefs AS b WHERE b.space = :space
  AND EXISTS (SELECT 1 FROM json_each(b.evidence_ids) AS j WHERE j.value IN erased))
UNION ALL SELECT 'candidates', (SELECT count(*) FROM candidates AS c WHERE c.space = :space
  AND EXISTS (SELECT 1 FROM json_each(json_extract(c.fact, '$.evidence_ids')) AS j WHERE j.value IN erased))
UNION ALL SELECT 'deltas', (SELECT count(*) FROM nous_deltas AS d WHERE d.space = :space
  AND EXISTS (SELECT 1 FROM json_each(d.evidence_ids) AS j WHERE j.value IN erased))
UNION ALL SELECT 'jobs', (SELECT count(*) FROM jobs AS j WHERE j.space = :space
  AND EXISTS (SELECT 1 FROM json_each(j.evidence_ids) AS i WHERE i.value IN erased))
UNION ALL SELECT 'pending', (SELECT count(*) FROM pending_stages WHERE space = :space AND item_id IN erased)
ORDER BY kind;
