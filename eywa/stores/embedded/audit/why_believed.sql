-- purpose: Why a belief is held: its statement, status and validation report, and every turn that supports it (span, score, matched anchors).
-- param: space - the space to audit
-- param: belief_id - the belief's id (bel_...), as shown by `eywa beliefs`
-- returns: belief text, statement text, status text, report json, evidence text, session text
-- returns: speaker text, observed_at datetime, text text, span list, score float, anchors list
SELECT b.id AS belief, b.statement AS statement, b.status AS status, b.report AS report,
       s.evidence AS evidence, s.session AS session, s.speaker AS speaker,
       s.observed_at AS observed_at, s.text AS text, s.span AS span, s.score AS score,
       s.anchors AS anchors
FROM beliefs AS b
LEFT JOIN (
  SELECT bs.belief_id, e.id AS evidence, e.session, e.speaker,
         utc_iso(e.observed_at) AS observed_at, e.text,
         CASE WHEN bs.span_start IS NULL THEN NULL
              ELSE json_array(bs.span_start, bs.span_end) END AS span,
         bs.score, bs.anchors
  FROM belief_support AS bs
  JOIN evidence AS e ON e.id = bs.evidence_id AND e.space = :space
  WHERE bs.space = :space
) AS s ON s.belief_id = b.id
WHERE b.id = :belief_id AND b.space = :space
ORDER BY observed_at NULLS LAST, evidence NULLS LAST;
