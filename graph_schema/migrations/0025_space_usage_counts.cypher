// The space usage the quotas count (session 28): each space's (:Backlog) node keeps `turns`
// and `bytes`, which Level 0 moves by the turns it creates and the erasure by those it removes
// (EvidenceStore.usage reads them, where the quota check used to count and sum the space's
// turns in every write transaction). This fills them from the turns stored: the spaces'
// counters are write-locked first, so a Level 0 batch committing meanwhile is either counted
// here or adds its turns after this commits, never both; then every space with turns is
// counted (a node made where missing), and a space without turns holds nothing. One data
// transaction with its bookkeeping.
MATCH (c:Backlog) SET c._lock = true REMOVE c._lock;
MATCH (e:Evidence) WHERE e.space IS NOT NULL
WITH e.space AS space, count(e) AS turns, sum(coalesce(e.bytes, 0)) AS bytes
MERGE (c:Backlog {space: space}) ON CREATE SET c.embed = 0, c.level1 = 0
SET c.turns = turns, c.bytes = bytes;
MATCH (c:Backlog) WHERE c.turns IS NULL SET c.turns = 0, c.bytes = 0;
