#!/usr/bin/env bash
# Runs the given test command with the servers the suite needs, and stops them afterwards,
# whether the tests pass or fail. A Neo4j already configured through EYWA_NEO4J_URI is used
# as it is; otherwise a real Neo4j 5.26 is fetched from Maven Central (cached) and started on
# 127.0.0.1 for the run.
#
# The run goes through eatmydata (Debian), which turns fsync into a no-op for the test
# processes and the servers they start. Every store fsyncs its commits (SQLite, Qdrant Edge,
# Neo4j), and on a shared two-core machine those waits were a large part of the suite's time.
# No test loses anything it checks: the crash tests SIGKILL processes, and what a killed
# process wrote is already in the kernel's page cache, fsynced or not; only a power cut could
# tell the difference, and no test cuts the power. It is installed when missing (as root, as
# CI runs); without it, or with EYWA_TEST_FSYNC=1, the suite runs with real fsyncs.
set -euo pipefail
cd "$(dirname "$0")/.."
launch=(ops/neo4j/neo4j-test-server run -- "$@")
if [ "${EYWA_TEST_FSYNC:-0}" != "1" ]; then
  if ! command -v eatmydata >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends eatmydata >/dev/null 2>&1 \
      || echo "eatmydata could not be installed; the suite runs with real fsyncs" >&2
  fi
  if command -v eatmydata >/dev/null 2>&1; then
    launch=(eatmydata "${launch[@]}")
  fi
fi
exec "${launch[@]}"
