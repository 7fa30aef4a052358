-- purpose: What the validator refused, grouped by reason code, with counts and a few example statements.
-- param: space - the space to audit
-- returns: reason text, candidates int, first_status text, examples list
WITH refused AS (
  SELECT reason.value AS reason, c.status AS status,
         json_extract(c.fact, '$.statement') AS statement,
         row_number() OVER (PARTITION BY reason.value ORDER BY utc_iso(c.recorded_at), c.id) AS rank,
         count(*) OVER (PARTITION BY reason.value) AS candidates
  FROM candidates AS c, json_each(c.reasons) AS reason
  WHERE c.space = :space
), grouped AS (
  SELECT reason, candidates, rank, status,
         json_group_array(statement) FILTER (WHERE rank <= 5) OVER (
           PARTITION BY reason ORDER BY rank
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
         ) AS examples
  FROM refused
)
SELECT reason, candidates, status AS first_status, examples
FROM grouped
WHERE rank = 1
ORDER BY candidates DESC, reason;
