// Keyword indexes filtered by space inside Lucene (issue #14). Each holds space_key, a
// single-token form of the space (decimal digits of its SHA-256, set on every Evidence and
// Belief since migration 0008), so that a search asks +space_key:"<key>" and Lucene returns
// only that space's hits: its cost no longer grows with the other spaces' data, where the
// old indexes were queried for more hits than needed and filtered afterwards. English
// analyzer (stemming, stop words), immediately consistent, like the indexes they replace.
// evidence_keyword: a turn's own words, its speaker and the derived near_text / far_text
// (see 0004); the query side boosts the fields (eywa/stores/neo4j/keyword.py).
CREATE FULLTEXT INDEX evidence_keyword IF NOT EXISTS FOR (n:Evidence)
ON EACH [n.space_key, n.text, n.speaker, n.near_text, n.far_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
// belief_keyword: the statement, and the status so that retracted beliefs are excluded
// inside Lucene too (-status:"retracted").
CREATE FULLTEXT INDEX belief_keyword IF NOT EXISTS FOR (n:Belief)
ON EACH [n.space_key, n.statement, n.status]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
// Replaced by the two above; nothing queries them any more, and each costs every write.
DROP INDEX evidence_text IF EXISTS;
DROP INDEX evidence_context IF EXISTS;
DROP INDEX belief_statement IF EXISTS;
