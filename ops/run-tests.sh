#!/usr/bin/env bash
# Runs the given test command with the servers the suite needs, and stops them afterwards,
# whether the tests pass or fail. A Neo4j already configured through EYWA_NEO4J_URI is used
# as it is; otherwise a real Neo4j 5.26 is fetched from Maven Central (cached) and started on
# 127.0.0.1 for the run.
set -euo pipefail
cd "$(dirname "$0")/.."
exec ops/neo4j/neo4j-test-server run -- "$@"
