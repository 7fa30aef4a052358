"""README, "The input contract": the access log's ``since`` is read one way on every
surface — an ISO-8601 time or a duration back (``90s``, ``15m``, ``1h``, ``7d``, ``2w``) — and a
bare number is refused (``invalid_input``), never read as Unix time.

Found by the audit of s32: ``GET /v1/keys/log?since=5`` typed ``since`` as a datetime, which
pydantic reads from a number as Unix time: five seconds after 1970, so every call ever made
came back, where ``eywa keys log --since 5`` refused it and ``--since 1h`` (which the API
refused) meant an hour back. A key's ``expires_at`` over HTTP was read the same way:
``1900000000`` made a key expiring in 2030.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app
from eywa.memory import Memory
from eywa.settings import EywaSettings
from tests.contract.conftest import HashEmbedder
from tests.services.conftest import Service


@pytest.mark.parametrize("bare", ["5", "1700000000", "-3", "1e5", "5.0"])
def test_a_bare_number_is_refused_on_every_surface(service: Service, tmp_path: Path, bare: str) -> None:
    admin = service.headers(["*"], "admin")
    answered = service.client.get("/v1/keys/log", params={"since": bare}, headers=admin)
    assert answered.status_code == 422, answered.text
    problem = answered.json()
    assert problem["code"] == "invalid_input" and problem["errors"][0]["field"] == "query.since", problem
    assert "bare number" in problem["detail"] and "5m, 5h, 5d" in problem["detail"], problem
    cli = CliRunner().invoke(app, ["keys", "log", "--since", bare, "--data-dir", str(tmp_path)])
    assert cli.exit_code == 1, cli.output
    assert "bare number" in cli.stderr and cli.stderr.rstrip().endswith("[invalid_input]"), cli.stderr


def test_a_duration_back_and_an_iso_time_are_read_alike(service: Service, tmp_path: Path) -> None:
    data = tmp_path / "m"
    with Memory.open(data, settings=EywaSettings(data_dir=data), embedder=HashEmbedder()):
        pass  # a store for the CLI to read its log from
    admin = service.headers(["*"], "admin")
    service.client.get("/v1/keys", headers=admin)  # one call in the log
    for since in ("1h", " 7d ", "2000-01-01T00:00:00Z", "20000101"):
        answered = service.client.get("/v1/keys/log", params={"since": since}, headers=admin)
        assert answered.status_code == 200, (since, answered.text)
        assert any(event["route"] == "GET /v1/keys" for event in answered.json()), since
        cli = CliRunner().invoke(app, ["keys", "log", "--since", since, "--data-dir", str(data)])
        assert cli.exit_code == 0, (since, cli.output)
    later = service.client.get("/v1/keys/log", params={"since": "2999-01-01T00:00:00Z"}, headers=admin)
    assert later.status_code == 200 and later.json() == []
    for wrong in ("yesterday", "1y"):
        refused = service.client.get("/v1/keys/log", params={"since": wrong}, headers=admin)
        assert refused.status_code == 422 and refused.json()["code"] == "invalid_input", refused.text
        assert "a duration back (1h, 7d) or an ISO-8601 time" in refused.json()["detail"]


def test_a_key_expiry_is_no_unix_time(service: Service, tmp_path: Path) -> None:
    admin = service.headers(["*"], "admin")
    number = service.client.post("/v1/keys", json={"spaces": ["a"], "scopes": ["read"], "expires_at": 1900000000},
                                 headers=admin)  # fmt: skip
    assert number.status_code == 422, number.text
    assert number.json()["code"] == "invalid_input" and number.json()["errors"][0]["field"] == "body.expires_at"
    iso = service.client.post("/v1/keys", json={"spaces": ["a"], "scopes": ["read"], "expires_at": "2030-03-17T17:46:40Z"},
                              headers=admin)  # fmt: skip
    assert iso.status_code == 201 and iso.json()["key"]["expires_at"].startswith("2030-03-17T17:46:40"), iso.text
    cli = CliRunner().invoke(app, ["keys", "create", "--space", "a", "--expires", "1900000000", "--data-dir", str(tmp_path)])
    assert cli.exit_code == 1 and "bare number" in cli.stderr and "[invalid_input]" in cli.stderr, cli.stderr
