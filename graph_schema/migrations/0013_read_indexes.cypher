// Indexes the recall path's reads filter by (issue #14): each lookup starts from the space
// and the key it is asked for, rather than scanning every space's nodes of the label.
// The belief route lists one person's beliefs of one attribute (BeliefStore.beliefs:
// subject_key is the case-folded subject the query compares, which 0002 did not index).
CREATE INDEX belief_space_subject_key_attribute IF NOT EXISTS FOR (n:Belief) ON (n.space, n.subject_key, n.attribute);
// The dimension route lists one entity's dimensions and reads one dimension's deltas.
CREATE INDEX dimension_space_entity_key IF NOT EXISTS FOR (n:Dimension) ON (n.space, n.entity_key);
CREATE INDEX delta_space_entity_key_attribute IF NOT EXISTS FOR (n:Delta) ON (n.space, n.entity_key, n.attribute);
