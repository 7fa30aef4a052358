"""API keys that expire and rotate, in the key store, over HTTP and from the CLI.

Time is the store's clock (``SqliteKeyStore(clock=...)``), moved by hand, so expiry and
grace periods are checked at their exact edges without waiting.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app
from eywa.errors import InvalidInputError
from eywa.memory import Memory
from eywa.stores.embedded.keys import SqliteKeyStore
from tests.services.conftest import Service

START = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def test_a_key_stops_working_when_it_expires(tmp_path: Path) -> None:
    clock = Clock()
    store = SqliteKeyStore(tmp_path / "keys.sqlite", clock=clock)
    record, secret = store.create(["a"], ["read"], expires_at=START + timedelta(hours=1))
    assert record.expires_at == START + timedelta(hours=1)
    clock.now = START + timedelta(minutes=59, seconds=59)
    assert store.authenticate(secret) is not None
    clock.now = START + timedelta(hours=1)
    assert store.authenticate(secret) is None
    assert store.get(record.id).expires_at == START + timedelta(hours=1)  # still listed, just dead
    with pytest.raises(InvalidInputError, match="expires_at: must be in the future"):
        store.create(["a"], ["read"], expires_at=START)
    with pytest.raises(InvalidInputError, match="expires_at"):
        store.create(["a"], ["read"], expires_at=datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-5))))
    store.close()


def test_a_rotated_secret_works_until_its_grace_ends(tmp_path: Path) -> None:
    clock = Clock()
    store = SqliteKeyStore(tmp_path / "keys.sqlite", clock=clock)
    record, first = store.create(["a"], ["read", "write"])
    rotated, second = store.rotate(record.id, timedelta(hours=1))
    assert rotated.id == record.id and second != first  # same key id: the author of its turns
    assert (rotated.rotated_at, rotated.grace_until) == (START, START + timedelta(hours=1))
    assert store.authenticate(first) == store.authenticate(second) == rotated
    clock.now = START + timedelta(hours=1)
    assert store.authenticate(first) is None and store.authenticate(second) is not None
    _, third = store.rotate(record.id, timedelta(hours=1))
    assert store.authenticate(second) is not None and store.authenticate(first) is None
    _, fourth = store.rotate(record.id, timedelta(0))  # a second rotation ends the older secret at once
    assert store.authenticate(third) is None and store.authenticate(second) is None
    assert store.authenticate(fourth) is not None
    with pytest.raises(InvalidInputError, match="grace"):
        store.rotate(record.id, timedelta(days=31))
    store.revoke(record.id)
    with pytest.raises(InvalidInputError, match="revoked or expired"):
        store.rotate(record.id, timedelta(0))
    store.close()


def test_a_key_file_of_the_first_version_gains_the_new_columns(tmp_path: Path) -> None:
    path = tmp_path / "keys.sqlite"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE api_keys (id TEXT PRIMARY KEY, salt BLOB NOT NULL, hash TEXT NOT NULL, spaces TEXT NOT NULL,"
        " scopes TEXT NOT NULL, name TEXT, created_at TEXT NOT NULL, revoked_at TEXT)"
    )
    old.commit()
    old.close()
    store = SqliteKeyStore(path)
    record, secret = store.create(["a"], ["read"])
    assert store.authenticate(secret) == record and record.expires_at is None
    store.close()


def test_keys_expire_and_rotate_over_http(service: Service, memory: Memory) -> None:
    admin = service.headers(["*"], "admin")
    created = service.client.post(
        "/v1/keys", json={"spaces": ["hkeys"], "scopes": ["read"], "expires_at": "2999-01-01T00:00:00Z"}, headers=admin
    )
    assert created.status_code == 201 and created.json()["key"]["expires_at"].startswith("2999-01-01")
    key_id, old = created.json()["key"]["id"], created.json()["secret"]
    rotated = service.client.post(f"/v1/keys/{key_id}/rotate", json={"grace_seconds": 3600}, headers=admin)
    assert rotated.status_code == 200 and rotated.json()["key"]["grace_until"]
    new = rotated.json()["secret"]
    for secret in (old, new):
        assert service.client.get("/v1/spaces/hkeys/beliefs", headers={"X-API-Key": secret}).status_code == 200
    again = service.client.post(f"/v1/keys/{key_id}/rotate", json={"grace_seconds": 0}, headers=admin)
    assert service.client.get("/v1/spaces/hkeys/beliefs", headers={"X-API-Key": new}).status_code == 401
    newest = again.json()["secret"]
    assert service.client.get("/v1/spaces/hkeys/beliefs", headers={"X-API-Key": newest}).status_code == 200
    past = service.client.post(
        "/v1/keys", json={"spaces": ["hkeys"], "scopes": ["read"], "expires_at": "2000-01-01T00:00:00Z"}, headers=admin
    )
    assert past.status_code == 422 and past.json()["errors"][0]["field"] == "body.expires_at"
    assert service.client.post("/v1/keys/nobody/rotate", json={}, headers=admin).status_code == 404


def test_keys_expire_rotate_and_log_from_the_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    data = ["--data-dir", str(tmp_path)]
    created = runner.invoke(app, ["keys", "create", "--space", "a", "--expires", "30d", *data])
    assert created.exit_code == 0, created.output
    old = created.stdout.strip()
    store = SqliteKeyStore(tmp_path / "keys.sqlite")
    record = store.authenticate(old)
    assert record is not None and record.expires_at is not None
    assert timedelta(days=29) < record.expires_at - datetime.now(timezone.utc) <= timedelta(days=30)
    listed = runner.invoke(app, ["keys", "list", *data])
    assert f"{record.id} spaces=a scopes=read,write expires=" in listed.stdout
    rotated = runner.invoke(app, ["keys", "rotate", record.id, "--grace", "0s", *data])
    assert rotated.exit_code == 0 and "previous secret works until" in rotated.stderr
    assert store.authenticate(old) is None and store.authenticate(rotated.stdout.strip()) is not None
    bad = runner.invoke(app, ["keys", "rotate", record.id, "--grace", "soon", *data])
    assert bad.exit_code == 1 and "--grace: expected a duration" in bad.stderr and "[invalid_input]" in bad.stderr
    store.close()


def test_a_key_creation_sent_again_makes_one_key_over_http(service: Service) -> None:
    """``POST /v1/keys`` with an ``Idempotency-Key``, sent again after its answer was lost:
    201 with the same key id and a new secret, the lost one dead; another body under the same
    value is 409; another admin's same value is its own request."""
    admin = service.headers(["*"], "admin")
    body = {"spaces": ["hkeys"], "scopes": ["read"], "name": "agent"}
    once = {**admin, "Idempotency-Key": "create-agent-1"}
    before = len(service.client.get("/v1/keys", headers=admin).json())
    lost = service.client.post("/v1/keys", json=body, headers=once)
    retry = service.client.post("/v1/keys", json=body, headers=once)
    assert lost.status_code == retry.status_code == 201, retry.text
    assert retry.json()["key"]["id"] == lost.json()["key"]["id"] and retry.json()["secret"] != lost.json()["secret"]
    assert len(service.client.get("/v1/keys", headers=admin).json()) == before + 1
    read = "/v1/spaces/hkeys/beliefs"
    assert service.client.get(read, headers={"X-API-Key": lost.json()["secret"]}).status_code == 401
    assert service.client.get(read, headers={"X-API-Key": retry.json()["secret"]}).status_code == 200
    other_body = service.client.post("/v1/keys", json={**body, "scopes": ["read", "write"]}, headers=once)
    assert other_body.status_code == 409 and other_body.json()["code"] == "conflict"
    other_admin = {**service.headers(["*"], "admin"), "Idempotency-Key": "create-agent-1"}
    theirs = service.client.post("/v1/keys", json=body, headers=other_admin)
    assert theirs.status_code == 201 and theirs.json()["key"]["id"] != lost.json()["key"]["id"]
    blank = service.client.post("/v1/keys", json=body, headers={**admin, "Idempotency-Key": " "})
    assert blank.status_code == 422 and blank.json()["code"] == "invalid_input"
    # Where it travelled, as a query or body value is named (it said body.Idempotency-Key).
    assert blank.json()["errors"][0]["field"] == "header.Idempotency-Key", blank.text
    plain = [service.client.post("/v1/keys", json=body, headers=admin).json()["key"]["id"] for _ in range(2)]
    assert plain[0] != plain[1]  # without the header every call makes a key, as before
