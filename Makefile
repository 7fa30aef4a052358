# Two commands matter: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUNTIME := $(VENV)/.installed-runtime
STAMP_DEV := $(VENV)/.installed-dev
export ORT_DISABLE_TELEMETRY := 1

.PHONY: demo test lint typecheck bench bench-heldout clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	$(PYTHON) -m venv $(VENV)

# uv (from PyPI) installs the same pinned requirements as pip in a fraction of the time:
# a fresh CI checkout builds its environment in well under a minute instead of about three.
$(BIN)/uv: $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check 'uv>=0.13,<0.14'

$(STAMP_RUNTIME): $(BIN)/uv pyproject.toml
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e .
	touch $@

$(STAMP_DEV): $(BIN)/uv pyproject.toml
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]'
	touch $@ $(STAMP_RUNTIME)

demo: $(STAMP_RUNTIME)
	$(BIN)/eywa demo

# Layers and types first (seconds), then the suite with the servers it needs, on
# TEST_WORKERS processes (pytest-xdist). NEO4J_TEST_SERVERS Neo4j servers start side by
# side; the tests of each stay together on one process (see tests/neo4j_server.py). Two
# servers and three workers were slower on the 2-core machine (the JVMs' CPU, JIT included,
# is a large part of the suite's), so one server and two workers are the default.
# TEST_WORKERS=0 runs everything in one process.
TEST_WORKERS ?= 2
NEO4J_TEST_SERVERS ?= 1
test: $(STAMP_DEV)
	$(BIN)/lint-imports
	$(BIN)/mypy
	@# The question model (integer kernels, EYWA_EMBED_QUERY_KERNELS) is built once per machine
	@# on first use: built here, no test's first recall pays its few seconds.
	$(BIN)/eywa models prepare
	EYWA_NEO4J_TEST_SERVERS=$(NEO4J_TEST_SERVERS) bash ops/run-tests.sh \
		$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

typecheck: $(STAMP_DEV)
	$(BIN)/mypy

bench: $(STAMP_RUNTIME)
	$(BIN)/eywa bench locomo --data ../shared/data/locomo/locomo-dev.json --out bench-out/locomo

# The held-out set (tests/fixtures/heldout/README.md): written for Eywa, never tuned on.
# Measure with it; do not read its misses to add rules for them.
bench-heldout: $(STAMP_RUNTIME)
	$(BIN)/eywa bench locomo --data tests/fixtures/heldout/heldout-v1.json --out bench-out/heldout --by-conversation

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache bench-out
