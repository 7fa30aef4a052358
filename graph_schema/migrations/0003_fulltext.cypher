// Lucene full-text indexes for the keyword route, English analyzer (stemming, stop words).
// eventually_consistent=false: a turn is searchable as soon as its transaction commits,
// which the read-your-writes tests rely on. The space filter is applied to the hits
// (WHERE node.space = $space), since a full-text index cannot lead with an exact property.
CREATE FULLTEXT INDEX evidence_text IF NOT EXISTS FOR (n:Evidence) ON EACH [n.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX belief_statement IF NOT EXISTS FOR (n:Belief) ON EACH [n.statement]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
// Entity names and aliases (a string list is indexed element by element) for mention
// resolution; the standard analyzer keeps names unstemmed.
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false}};
