-- purpose: The update log of one dimension in event time: what was observed, how surprising it was, the hazard applied and the belief it came from.
-- param: space - the space to audit
-- param: entity - the entity's name (case-insensitive)
-- param: attribute - the attribute, e.g. employer or city
-- returns: at datetime, observed text, surprise_bits float, hazard float, reliability float
-- returns: change_signal bool, posterior json, statement text, delta text
SELECT utc_iso(d.at) AS at, d.observed AS observed, d.surprise_bits AS surprise_bits,
       d.hazard AS hazard, d.reliability AS reliability, d.change_signal AS change_signal,
       d.posterior AS posterior, b.statement AS statement, d.id AS delta
FROM nous_dimensions AS dim
JOIN nous_deltas AS d
  ON d.space = dim.space AND d.entity_key = dim.entity_key AND d.attribute = dim.attribute
LEFT JOIN beliefs AS b ON b.id = d.belief_id AND b.space = :space
WHERE dim.space = :space AND d.space = :space
  AND dim.entity_key = lower(trim(:entity)) AND dim.attribute = :attribute
ORDER BY at, delta;
