// API keys in server mode (eywa.stores.neo4j.keys): one ApiKey node per key, holding the
// salted hash of its secret (never the secret), spaces, scopes, expiry and rotation, so that
// every API replica over this database authenticates (and refuses a revoked key) alike.
// Keys span spaces, so the node has no space property. Found by id on every request.
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.id IS UNIQUE;
