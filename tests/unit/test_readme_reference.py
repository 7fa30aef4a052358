"""The README's and docs/service.md's reference tables name what exists, with its defaults.

``test_docs`` checks one direction (every command is documented). These check the other:
every ``EYWA_*`` variable the documents mention is a setting of ``EywaSettings`` (or one
of the test harness's, read by ``ops/``), every default the settings tables and the input
contract's limits table give is the setting's default, and every flag a documented
command line shows (``eywa recall --space S "question" [-k 10] …``) is an option of that
command. Parsed from the documents, so a renamed flag or a changed default fails here
until the text follows.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import pytest
from typer.testing import CliRunner

from eywa.cli.app import app
from eywa.settings import EmbedderChoice, EywaSettings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
SERVICE = (ROOT / "docs" / "service.md").read_text()

VARIABLE = re.compile(r"EYWA_[A-Z0-9_]+")
# Read by the test harness (ops/run-tests.sh, ops/neo4j/neo4j-test-server), not by Eywa.
HARNESS_VARIABLES = {"EYWA_NEO4J_TEST_PORT": "ops/neo4j/neo4j-test-server", "EYWA_TEST_FSYNC": "ops/run-tests.sh"}


def _setting_names() -> dict[str, str]:
    """Each environment name EywaSettings reads → its field (aliases included)."""
    names: dict[str, str] = {}
    for field_name, field in EywaSettings.model_fields.items():
        names[f"EYWA_{field_name.upper()}"] = field_name
        alias = field.validation_alias
        for choice in getattr(alias, "choices", [alias] if alias else []):
            if isinstance(choice, str) and choice.startswith("EYWA_"):
                names[choice] = field_name
    return names


SETTINGS = _setting_names()


def _section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same or a higher level."""
    level = heading.split(" ")[0]
    after = text.split(f"\n{heading}\n", 1)[1]
    return re.split(rf"\n#{{1,{len(level)}}} ", after, maxsplit=1)[0]


def _default(field_name: str) -> Any:
    field = EywaSettings.model_fields[field_name]
    return field.get_default(call_default_factory=True)


def _documented_value(cell: str) -> Any:
    """A table cell's default as a Python value: '20,000' → 20000, 'true', 'unset' → None."""
    cell = cell.strip().strip("`").replace(",", "")
    cell = re.sub(r" = .*$", "", cell)  # "0 = no quota"
    if cell == "unset":
        return None
    if cell in ("true", "false"):
        return cell == "true"
    if re.fullmatch(r"-?\d+(\.\d+)?", cell):
        return float(cell)
    return cell


def _same(documented: Any, actual: Any) -> bool:
    if documented is None:
        return actual in (None, {}, [])
    if isinstance(documented, float):
        return not isinstance(actual, bool) and isinstance(actual, int | float) and float(actual) == documented
    return bool(documented == actual)


@pytest.mark.parametrize("document", ["README.md", "docs/service.md"])
def test_every_documented_variable_is_a_setting(document: str) -> None:
    text = (ROOT / document).read_text()
    unknown = sorted({name for name in VARIABLE.findall(text) if name not in SETTINGS and name not in HARNESS_VARIABLES})
    assert not unknown, f"{document} names variables EywaSettings does not read: {unknown}"


@pytest.mark.parametrize("variable", sorted(HARNESS_VARIABLES))
def test_the_harness_variables_are_read_where_the_readme_says(variable: str) -> None:
    assert variable in (ROOT / HARNESS_VARIABLES[variable]).read_text()


def _service_settings_rows() -> list[tuple[str, str]]:
    """(variable, documented default) of each row of docs/service.md's settings table."""
    rows: list[tuple[str, str]] = []
    for line in _section(SERVICE, "## Settings (environment, `EYWA_` prefix)").splitlines():
        if not line.startswith("| `EYWA_"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        variables = [v for v in re.findall(r"`(EYWA_[A-Z0-9_]+)`", cells[0])]
        variables = [v for v in variables if not re.search(rf"\(`{v}` is read as", cells[2])]
        defaults = [d.strip() for d in cells[1].split(", ")] if len(variables) > 1 else [cells[1]]
        assert len(defaults) == len(variables), line
        rows += list(zip(variables, defaults, strict=True))
    return rows


SERVICE_ROWS = _service_settings_rows()


def test_the_service_settings_table_was_read() -> None:
    assert len(SERVICE_ROWS) >= 25 and ("EYWA_LEVEL1_WAIT", "true") in SERVICE_ROWS


@pytest.mark.parametrize(("variable", "documented"), SERVICE_ROWS)
def test_service_settings_table_defaults(variable: str, documented: str) -> None:
    assert variable in SETTINGS, f"{variable} is not a setting"
    field_name = SETTINGS[variable]
    if documented == "`<data_dir>/keys.sqlite`":  # derived from the data directory when unset
        assert _default(field_name) is None
        return
    assert _same(_documented_value(documented), _default(field_name)), (variable, documented, _default(field_name))


def _limit_rows() -> list[tuple[str, str]]:
    """(variable, documented default) of the input contract's limits table."""
    rows = []
    for line in _section(README, "### The input contract").splitlines():
        found = re.search(r"\(`(EYWA_[A-Z0-9_]+)`[^)]*\) \| ([^|]+) \|", line)
        if found:
            rows.append((found.group(1), found.group(2)))
    return rows


LIMIT_ROWS = _limit_rows()


def test_the_limits_table_was_read() -> None:
    assert len(LIMIT_ROWS) == 10


@pytest.mark.parametrize(("variable", "documented"), LIMIT_ROWS)
def test_input_contract_limit_defaults(variable: str, documented: str) -> None:
    assert _same(_documented_value(documented), _default(SETTINGS[variable])), (variable, documented)


# Defaults the README states in prose, "`EYWA_X` (…, default N)" or "(`EYWA_X`, N)".
PROSE_DEFAULTS = [
    (r"`EYWA_RRF_K` \(default (\d+)\)", "rrf_k"),
    (r"`EYWA_RRF_K`, (\d+)\)", "rrf_k"),
    (r"`EYWA_BACKGROUND_NICE`, default (\d+)\)", "background_nice"),
    (r"`EYWA_LEVEL1_WAIT=(true)`\) embeds", "level1_wait"),
    (r"`EYWA_NEO4J_RETRY_S` \(default (\d+):", "neo4j_retry_s"),
    (r"`EYWA_RETENTION_INTERVAL_S` \((\d+)\)", "retention_interval_s"),
    (r"`EYWA_DATA_DIR` \(default `\./(\.eywa)`\)", "data_dir"),
    # Configuration and Server backends (audit of s40: matched, but nothing pinned them)
    (r"`EYWA_EMBED_QUERY_KERNELS` \(`auto` \| `integer` \| `float`, default `(\w+)`", "embed_query_kernels"),
    (r"`EYWA_KEYWORD_INDEX` \(`memory` \| `fts5`, default `(\w+)`", "keyword_index"),
    (r"`EYWA_REDIS_TIMEOUT_S`,\s+default (\d+):", "redis_timeout_s"),
    (r"`EYWA_NEO4J_CONNECT_TIMEOUT_S` \(default (\d+):", "neo4j_connect_timeout_s"),
    (r"`EYWA_NEO4J_ACQUIRE_TIMEOUT_S` \(default (\d+):", "neo4j_acquire_timeout_s"),
    (r"`EYWA_NEO4J_LIVENESS_CHECK_S` \(default (\d+):", "neo4j_liveness_check_s"),
    (r"`EYWA_NEO4J_TRANSACTION_TIMEOUT_S` \(default (\d+):", "neo4j_transaction_timeout_s"),
    (r"`EYWA_READ_CONCURRENCY`, default (\d+)\)", "read_concurrency"),
    (r"`EYWA_NEO4J_POOL_SIZE` \(default (\d+)\)", "neo4j_pool_size"),
    (r"Local mode is not checked by default \(`(\w+)`\)", "qdrant_count_check"),
]


@pytest.mark.parametrize(("pattern", "field_name"), PROSE_DEFAULTS)
def test_prose_defaults(pattern: str, field_name: str) -> None:
    found = re.search(pattern, README)
    assert found, f"the README no longer says {pattern!r}"
    default = _default(field_name)
    documented = found.group(1)
    if isinstance(default, Path):
        assert default == Path(documented)
    else:
        assert _same(_documented_value(documented), default), (field_name, documented, default)


def test_documented_choices_are_the_settings_choices() -> None:
    embedder = re.search(r"`EYWA_EMBEDDER` \(((?:`[\w-]+`(?: \| )?)+)", README)
    extractor = re.search(r"`EYWA_EXTRACTOR=(\w+)\|(\w+)`", README)
    stages = re.search(r"switches routes \(([^)]*)\) or post-filters \(([^)]*)\)", README.replace("\n", " "))
    assert embedder and extractor and stages
    embedders = re.findall(r"`([\w-]+)`", embedder.group(1))
    assert _default("embedder") == embedders[0]
    assert set(embedders) == set(get_args(EmbedderChoice)), "every embedder choice documented, no other"
    for name in extractor.groups():
        EywaSettings.model_validate({"extractor": name})
    names = re.findall(r"`(\w+)`", stages.group(1) + stages.group(2))
    assert len(names) == 19
    assert EywaSettings.model_validate({"disabled_stages": names}).disabled_stages == names


def _documented_command_lines() -> list[str]:
    """Every ``eywa …`` code span of the README's CLI table and docs/service.md's commands table."""
    spans: list[str] = []
    for text, heading in ((README, "## CLI"), (SERVICE, "## Running")):
        for line in _section(text, heading).splitlines():
            if line.startswith("| `eywa"):
                spans += re.findall(r"`(eywa [^`]+)`", line)
    spans += re.findall(r"`(eywa bench erasure [^`]+)`", README)
    return sorted(set(spans))


COMMAND_LINES = _documented_command_lines()


def _command_and_flags(line: str) -> tuple[list[str], list[str]]:
    words = line.split()[1:]
    command: list[str] = []
    for word in words:
        if not re.fullmatch(r"[a-z][a-z-]*", word):
            break
        command.append(word)
    flags = re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", line)
    return command, sorted(set(flags))


def test_the_command_lines_were_read() -> None:
    assert len(COMMAND_LINES) >= 40
    assert any(line.startswith("eywa recall --space S") for line in COMMAND_LINES)


@pytest.mark.parametrize("line", COMMAND_LINES)
def test_documented_flags_exist(line: str) -> None:
    command, flags = _command_and_flags(line)
    result = CliRunner().invoke(app, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", result.output))
    missing = [flag for flag in flags if flag not in options]
    assert not missing, f"`{line}`: {' '.join(command)} has no {missing}"
