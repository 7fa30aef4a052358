// Full-text index of a turn with its conversational context, English analyzer, for the
// keyword route: its own words (text), its speaker, the words of the adjacent turns
// (near_text) and of the turns two and three away in its session (far_text). A reply
// such as "Biscuit." is then found through the question it answers ("What did you name
// the puppy?"). near_text and far_text are derived index data, not part of the turn (the
// Evidence itself stays immutable); Neo4jEvidenceStore.add recomputes them for the new
// turns and their session neighbours within three seqs in the same transaction, like the
// embedded FTS rows. The query side boosts the fields per column (see keyword.py).
// evidence_text (0003) stays for direct text-only queries.
CREATE FULLTEXT INDEX evidence_context IF NOT EXISTS FOR (n:Evidence)
ON EACH [n.text, n.speaker, n.near_text, n.far_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
