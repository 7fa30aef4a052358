// Fill the (:Backlog) counts of 0018 from the marks already stored: embed = the space's
// 'embed_evidence' marks, level1 = its distinct turns with 'level1' or 'nous' pending. One
// data transaction with its bookkeeping, so a store is counted completely or not at all.
MATCH (p:Pending) WHERE p.space IS NOT NULL AND p.item IS NOT NULL AND p.stage IS NOT NULL
WITH p.space AS space,
     count(CASE WHEN p.stage = 'embed_evidence' THEN 1 END) AS embed,
     count(DISTINCT CASE WHEN p.stage IN ['level1', 'nous'] THEN p.item END) AS level1
MERGE (c:Backlog {space: space})
SET c.embed = embed, c.level1 = level1;
