-- purpose: Identity merges (SAME_AS edges) of a space between entity keys (case-folded names), active and undone, with their scores and times.
-- param: space - the space to audit
-- returns: source text, target text, score float, at datetime, removed_at datetime, active bool
SELECT source, target, score, utc_iso(at) AS at, utc_iso(removed_at) AS removed_at,
       removed_at IS NULL AS active
FROM nous_same_as
WHERE space = :space
ORDER BY at, source, target;
