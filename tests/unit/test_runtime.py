"""The runtime is the one place that turns settings into stores, and the ``eywa`` command
gathers the commands of every entry point through plugins, not imports."""

from __future__ import annotations

import importlib
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from eywa.errors import ConfigurationError, InvalidInputError
from eywa.runtime import backend_of, describe, load_settings, open_graph_stores, open_key_store, open_memory
from eywa.runtime.commands import EywaGroup
from eywa.settings import EywaSettings
from eywa.stores.server import connect_qdrant

app_module = importlib.import_module("eywa.cli.app")  # the module; ``eywa.cli.app`` is the Typer app


def test_the_backend_follows_neo4j_uri() -> None:
    assert backend_of(EywaSettings()) == "embedded"
    server = EywaSettings(neo4j_uri="bolt://db.example:7687", neo4j_database="mem")
    assert backend_of(server) == "server"
    assert describe(server) == "Neo4j at bolt://db.example:7687 (database mem)"
    assert describe(EywaSettings(data_dir=Path("/srv/eywa"))) == "/srv/eywa"


def test_read_only_opening_refuses_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no memory at"):
        open_memory(EywaSettings(data_dir=tmp_path / "typo"), must_exist=True)
    assert not (tmp_path / "typo").exists()
    with pytest.raises(ConfigurationError, match="no memory at .*: no embedded store"):
        open_graph_stores(EywaSettings(data_dir=tmp_path / "typo"))


def test_read_only_opening_refuses_a_directory_without_a_store_and_leaves_it_untouched(tmp_path: Path) -> None:
    """``eywa index-vectors --status --data-dir .`` (or ``reconcile``, ``forget``, …) wrote an
    empty eywa.sqlite3 and vectors/ into any existing directory it was pointed at."""
    (tmp_path / "notes.txt").write_text("not a memory")
    with pytest.raises(InvalidInputError, match=r"^no memory at .*: no embedded store there"):
        open_memory(EywaSettings(data_dir=tmp_path), must_exist=True)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_server_mode_without_a_uri_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="EYWA_NEO4J_URI"):
        open_memory(EywaSettings(data_dir=tmp_path), backend="server")


def test_the_key_store_lives_beside_the_data_or_where_settings_say(tmp_path: Path) -> None:
    store = open_key_store(EywaSettings(data_dir=tmp_path / "data"))
    _, secret = store.create(["s"], ["read"])
    store.close()
    assert (tmp_path / "data" / "keys.sqlite").is_file()
    elsewhere = open_key_store(EywaSettings(data_dir=tmp_path / "data", api_keys_path=tmp_path / "k.sqlite"))
    assert elsewhere.authenticate(secret) is None and elsewhere.list() == []
    elsewhere.close()


@pytest.mark.parametrize("variable", ["EYWA_DISABLED_STAGES", "EYWA_RETENTION_DAYS"])
def test_a_list_or_mapping_variable_that_is_not_json_is_a_configuration_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    """pydantic-settings decodes such a variable before validating it and raised its own
    SettingsError: every entry point printed a traceback."""
    monkeypatch.setenv(variable, "graph, floor")
    with pytest.raises(ConfigurationError, match=rf"^{variable}: not JSON"):
        load_settings()


@pytest.mark.parametrize(
    "uri",
    [
        "localhost:7687", "ftp://neo4j.example.com", "neo4j://[::1",
        "http://127.0.0.1:7474", "https://neo4j.example.com", "bolt://127.0.0.1:abc", "bolt://127.0.0.1:99999",
    ],
)
def test_a_neo4j_uri_the_driver_cannot_read_is_a_configuration_error(tmp_path: Path, uri: str) -> None:
    """An unknown scheme is the driver's own ConfigurationError (not a ValueError): it
    escaped as a traceback. ``http(s)`` (the driver's HTTP preview) was a
    ModuleNotFoundError for aiohttp, a port of letters a ValueError, and ``:99999`` was read
    as port 34463: each is refused before any connection."""
    with pytest.raises(ConfigurationError, match="EYWA_NEO4J_URI"):
        open_memory(EywaSettings(data_dir=tmp_path, neo4j_uri=uri), backend="server")


@pytest.mark.parametrize("url", ["ftp://qdrant.example.com:6333", "http://127.0.0.1:abc", "http://[::1", "http://127.0.0.1:99999"])
def test_a_qdrant_url_the_client_cannot_read_is_a_configuration_error(url: str) -> None:
    """qdrant-client reads the URL while it builds the client and raised a ValueError (an
    unknown scheme) or urllib3's LocationParseError (a bad host or port): a traceback from
    ``eywa serve``, ``eywa recall`` and ``Memory.connect``."""
    with pytest.raises(ConfigurationError, match="EYWA_QDRANT_URL"):
        connect_qdrant(EywaSettings(qdrant_url=url))


@pytest.mark.parametrize(
    "url", ["notaurl", "http://127.0.0.1:6379", "redis://127.0.0.1:abc/0", "redis://127.0.0.1:99999/0", "redis://[::1/0"]
)
def test_a_redis_url_redis_py_cannot_read_is_one_configuration_error(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """redis-py reads the URL only when a client is built (the API's Celery runner and rate
    limiter, a worker, the beat) and raised a bare ValueError there: ``eywa serve`` with
    ``EYWA_JOB_RUNNER=celery`` ended in a traceback."""
    monkeypatch.setenv("EYWA_REDIS_URL", url)
    with pytest.raises(ConfigurationError, match=r"^EYWA_REDIS_URL: "):
        load_settings()
    for fine in ("redis://127.0.0.1:6379/0", "rediss://redis.example.com", "unix:///run/redis.sock", ""):
        monkeypatch.setenv("EYWA_REDIS_URL", fine)
        assert load_settings().redis_url == fine


def test_a_bad_environment_value_is_one_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EYWA_RRF_K", "twenty")
    with pytest.raises(ConfigurationError, match=r"^EYWA_RRF_K: "):
        load_settings()
    monkeypatch.delenv("EYWA_RRF_K")
    with pytest.raises(ConfigurationError, match=r"^EYWA_MAX_K: "):
        load_settings(max_k=0)
    assert load_settings(Path("/tmp/x"), rrf_k=5).data_dir == Path("/tmp/x")


def test_every_entry_point_contributes_its_commands() -> None:
    names = {c.name for c in app_module.app.registered_commands} | {
        g.name for g in app_module.app.registered_groups
    }
    assert {"serve", "mcp", "worker", "beat", "bench", "keys", "ingest", "recall", "stats", "audit"} <= names


def test_a_plugin_whose_extra_is_missing_says_which_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = EntryPoint(name="ghost", value="eywa_no_such_module.cli:ghost [service]", group="eywa.commands")
    monkeypatch.setattr(app_module, "entry_points", lambda group: [missing])
    target = typer.Typer(cls=EywaGroup)
    target.command("noop")(lambda: None)
    assert app_module.add_plugins(target) == ["ghost"]

    help_text = CliRunner().invoke(target, ["--help"])
    assert help_text.exit_code == 0 and "ghost" in help_text.stdout
    result = CliRunner().invoke(target, ["ghost", "--port", "1"])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        "error: eywa ghost needs the service extra: pip install 'eywa[service]' "
        "(No module named 'eywa_no_such_module') [configuration_error]"
    ]


def test_a_plugin_that_is_not_a_command_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    odd = EntryPoint(name="odd", value="eywa.runtime.backends:KEYS_FILE", group="eywa.commands")
    monkeypatch.setattr(app_module, "entry_points", lambda group: [odd])
    with pytest.raises(TypeError, match="odd"):
        app_module.add_plugins(typer.Typer(cls=EywaGroup))


def test_a_typo_in_disabled_stages_is_a_configuration_error_not_a_silent_weight(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from pydantic import ValidationError

    from eywa.memory import Memory

    assert load_settings(disabled_stages=["graph", "floor"]).disabled_stages == ["graph", "floor"]
    with pytest.raises(ValidationError):
        EywaSettings(disabled_stages=["grpah"])  # type: ignore[list-item]  # the typo mypy also reports
    monkeypatch.setenv("EYWA_DISABLED_STAGES", '["grpah"]')
    with pytest.raises(ConfigurationError, match=r"^EYWA_DISABLED_STAGES: Input should be 'keyword', "):
        load_settings()
    with pytest.raises(ConfigurationError, match="EYWA_DISABLED_STAGES"):
        Memory.open(tmp_path / "mem")
    assert not (tmp_path / "mem").exists()
    result = CliRunner().invoke(app_module.app, ["stats", "--space", "s", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: EYWA_DISABLED_STAGES: Input should be 'keyword'")
    assert len(result.stderr.strip().splitlines()) == 1
