"""The ``KeyStore`` contract on both backends: SQLite (embedded) and Neo4j (server mode).

Time is the store's clock, moved by hand, so expiry and grace are checked at their edges.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from neo4j import Driver

from eywa.errors import ConflictError, InvalidInputError, NotFoundError
from eywa.stores.embedded.keys import SqliteKeyStore
from eywa.stores.keys import REQUEST_TTL, KeyStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.keys import Neo4jKeyStore
from tests.conformance.conftest import BACKENDS, wipe_graph
from tests.neo4j_server import Neo4jServer

START = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=BACKENDS)
def keys(request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Iterator[KeyStore]:
    store: KeyStore
    if request.param == "server":
        server: Neo4jServer = request.getfixturevalue("neo4j_server")
        driver: Driver = request.getfixturevalue("neo4j_driver")
        wipe_graph(driver, server.database)
        store = Neo4jKeyStore(Neo4jGraph(driver, server.database, owns_driver=False), clock=clock)
    else:
        store = SqliteKeyStore(tmp_path / "keys.sqlite", clock=clock)
    yield store
    store.close()


def test_a_key_authenticates_with_its_secret_only_until_revoked(keys: KeyStore) -> None:
    record, token = keys.create(["a", "b", "a"], ["write", "read"], name="agent")
    assert record.spaces == ("a", "b") and record.scopes == ("read", "write") and record.created_at == START
    assert keys.authenticate(token) == record == keys.get(record.id)
    assert record.allows("a", "write") and not record.allows("c", "read") and not record.allows("a", "admin")
    prefix, key_id, secret = token.split("_", 2)
    for wrong in (f"{prefix}_{key_id}_{secret[:-1]}x", f"{prefix}_nobody_{secret}", "eyw__x", "nonsense", f"x_{key_id}_{secret}"):
        assert keys.authenticate(wrong) is None
    other, _ = keys.create(["*"], ["admin"])
    assert [k.id for k in keys.list()] in ([record.id, other.id], [other.id, record.id])  # same created_at: by id
    revoked = keys.revoke(record.id)
    assert revoked.revoked_at == START and keys.authenticate(token) is None
    assert keys.revoke(record.id) == revoked  # twice is a no-op
    assert keys.get(record.id).revoked_at == START
    with pytest.raises(NotFoundError):
        keys.get("nobody")
    with pytest.raises(NotFoundError):
        keys.revoke("nobody")
    assert keys.ping()


def test_bad_keys_are_refused_at_creation(keys: KeyStore) -> None:
    with pytest.raises(InvalidInputError, match="spaces"):
        keys.create([], ["read"])
    with pytest.raises(InvalidInputError, match="scopes"):
        keys.create(["a"], ["fly"])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError, match="expires_at: must be in the future"):
        keys.create(["a"], ["read"], expires_at=START)
    with pytest.raises(InvalidInputError, match="name: contains a lone surrogate"):
        keys.create(["a"], ["read"], name="agent \ud800")  # was a UnicodeEncodeError from the store
    with pytest.raises(InvalidInputError, match="name: at most 200"):
        keys.create(["a"], ["read"], name="n" * 201)  # the bound POST /v1/keys has
    assert keys.list() == []


def test_a_key_stops_working_when_it_expires(keys: KeyStore, clock: Clock) -> None:
    record, token = keys.create(["a"], ["read"], expires_at=START + timedelta(hours=1))
    assert record.expires_at == START + timedelta(hours=1)
    clock.now = START + timedelta(minutes=59, seconds=59)
    assert keys.authenticate(token) == record
    clock.now = START + timedelta(hours=1)
    assert keys.authenticate(token) is None
    assert keys.get(record.id).expires_at == START + timedelta(hours=1)  # still listed, just dead
    with pytest.raises(InvalidInputError, match="revoked or expired"):
        keys.rotate(record.id, timedelta(0))


def test_a_rotated_secret_works_until_its_grace_ends(keys: KeyStore, clock: Clock) -> None:
    record, first = keys.create(["a"], ["read", "write"])
    rotated, second = keys.rotate(record.id, timedelta(hours=1))
    assert rotated.id == record.id and second != first
    assert (rotated.rotated_at, rotated.grace_until) == (START, START + timedelta(hours=1))
    assert keys.authenticate(first) == keys.authenticate(second) == rotated
    clock.now = START + timedelta(hours=1)
    assert keys.authenticate(first) is None and keys.authenticate(second) is not None
    _, third = keys.rotate(record.id, timedelta(hours=1))
    _, fourth = keys.rotate(record.id, timedelta(0))  # a second rotation ends the older secret at once
    assert keys.authenticate(third) is None and keys.authenticate(second) is None
    assert keys.authenticate(fourth) is not None
    with pytest.raises(InvalidInputError, match="grace"):
        keys.rotate(record.id, timedelta(days=31))
    with pytest.raises(NotFoundError):
        keys.rotate("nobody", timedelta(0))
    keys.revoke(record.id)
    with pytest.raises(InvalidInputError, match="revoked or expired"):
        keys.rotate(record.id, timedelta(0))


def test_a_repeated_creation_makes_one_key_whose_last_secret_works(keys: KeyStore, clock: Clock) -> None:
    """``create`` sent again with its request key (its answer lost): the same key id, a new
    secret, the first one dead at once; one key listed. Another request under that request
    key, or a repeat of a key revoked since, is a conflict that changes nothing; the request
    key is forgotten after ``REQUEST_TTL``."""
    first, lost = keys.create(["a"], ["read"], name="agent", request_key="admin/r1")
    again, held = keys.create(["a"], ["read"], name="agent", request_key="admin/r1")
    assert again.id == first.id and held != lost and [k.id for k in keys.list()] == [first.id]
    assert keys.authenticate(lost) is None and keys.authenticate(held) == again
    assert again.spaces == first.spaces and again.grace_until is None
    with pytest.raises(ConflictError, match="another key request"):
        keys.create(["a", "b"], ["read"], name="agent", request_key="admin/r1")
    assert keys.authenticate(held) == again and len(keys.list()) == 1  # the refused repeat changed nothing
    other, _ = keys.create(["a"], ["read"], name="agent", request_key="admin/r2")
    assert other.id != first.id  # another request key is another key
    keys.revoke(first.id)
    with pytest.raises(ConflictError, match="revoked or expired"):
        keys.create(["a"], ["read"], name="agent", request_key="admin/r1")
    clock.now = START + REQUEST_TTL
    later, fresh = keys.create(["a"], ["read"], name="agent", request_key="admin/r1")
    assert later.id not in (first.id, other.id) and keys.authenticate(fresh) == later
