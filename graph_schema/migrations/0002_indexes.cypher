// Range indexes for the access paths of the stores. Every query filters on space first, so
// composite indexes lead with space (a composite range index serves equality on a prefix).
CREATE INDEX session_space IF NOT EXISTS FOR (n:Session) ON (n.space);
CREATE INDEX evidence_space_session_seq IF NOT EXISTS FOR (n:Evidence) ON (n.space, n.session, n.seq);
CREATE INDEX evidence_space_observed_at IF NOT EXISTS FOR (n:Evidence) ON (n.space, n.observed_at);
CREATE INDEX evidence_space_content_hash IF NOT EXISTS FOR (n:Evidence) ON (n.space, n.content_hash);
CREATE INDEX signal_space_kind_normalized IF NOT EXISTS FOR (n:Signal) ON (n.space, n.kind, n.normalized);
CREATE INDEX entity_space_name IF NOT EXISTS FOR (n:Entity) ON (n.space, n.name);
CREATE INDEX belief_space_status IF NOT EXISTS FOR (n:Belief) ON (n.space, n.status);
CREATE INDEX belief_space_subject_attribute IF NOT EXISTS FOR (n:Belief) ON (n.space, n.subject, n.attribute);
CREATE INDEX belief_space_attribute IF NOT EXISTS FOR (n:Belief) ON (n.space, n.attribute);
CREATE INDEX belief_space_valid_from IF NOT EXISTS FOR (n:Belief) ON (n.space, n.valid_from);
CREATE INDEX candidate_space_status IF NOT EXISTS FOR (n:Candidate) ON (n.space, n.status);
CREATE INDEX dimension_space_entity_attribute IF NOT EXISTS FOR (n:Dimension) ON (n.space, n.entity, n.attribute);
CREATE INDEX delta_space_at IF NOT EXISTS FOR (n:Delta) ON (n.space, n.at);
