// Level 1 jobs by space (session 35): an erasure takes its erased turn ids out of the jobs of
// the space that list them (eywa/stores/neo4j/erasure.py), and a space left without turns
// deletes its jobs (space_residue); both found them by scanning every :Job node.
CREATE INDEX job_space IF NOT EXISTS FOR (n:Job) ON (n.space);
