// A key creation's request key (session 35; eywa/stores/keys.py): POST /v1/keys sent again
// after its answer was lost made a second key. A (:KeyRequest) node holds the request key with
// the key id it made until `expires_at`; unique, so two sends of one request meet on one node,
// and indexed by expiry, so each creation deletes the expired ones.
CREATE CONSTRAINT key_request_id IF NOT EXISTS FOR (n:KeyRequest) REQUIRE n.id IS UNIQUE;
CREATE INDEX key_request_expires_at IF NOT EXISTS FOR (n:KeyRequest) ON (n.expires_at);
