-- purpose: What came from one turn: the beliefs it supports, the deltas those beliefs caused and the dimensions they changed.
-- param: space - the space to audit
-- param: evidence_id - the turn's evidence id (ev_...)
-- returns: evidence text, text text, belief text, statement text, status text, delta text
-- returns: entity text, attribute text, observed text, surprise_bits float, at datetime
SELECT e.id AS evidence, e.text AS text, b.id AS belief, b.statement AS statement,
       b.status AS status, d.id AS delta, d.entity AS entity, d.attribute AS attribute,
       d.observed AS observed, d.surprise_bits AS surprise_bits, d.at AS at
FROM evidence AS e
LEFT JOIN (
  SELECT bs.evidence_id, bel.id, bel.statement, bel.status
  FROM belief_support AS bs
  JOIN beliefs AS bel ON bel.id = bs.belief_id AND bel.space = :space
  WHERE bs.space = :space
) AS b ON b.evidence_id = e.id
LEFT JOIN (
  SELECT dl.id, dl.belief_id, dim.entity, dim.attribute, dl.observed, dl.surprise_bits,
         utc_iso(dl.at) AS at
  FROM nous_deltas AS dl
  JOIN nous_dimensions AS dim
    ON dim.space = dl.space AND dim.entity_key = dl.entity_key AND dim.attribute = dl.attribute
  WHERE dl.space = :space
) AS d ON d.belief_id = b.id
WHERE e.id = :evidence_id AND e.space = :space
ORDER BY belief NULLS LAST, at NULLS LAST, delta NULLS LAST;
