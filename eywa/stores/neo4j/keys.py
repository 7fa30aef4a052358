"""The Neo4j ``KeyStore``: one ``:ApiKey`` node per key (migration 0012), so API replicas
over one database share keys and see a revocation at once.

Same hashing, checks and semantics as the SQLite store (``eywa.stores.keys`` holds what
both share). Each change is one statement, so a rotation or revocation racing another
replica's cannot half-apply; a rotation is refused inside its statement when the key is no
longer live. Salts are stored as hex text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from neo4j import ManagedTransaction

from eywa.errors import EywaError, InvalidInputError, NotFoundError
from eywa.models import utc_now
from eywa.stores.keys import (
    ALL_SPACES,
    REQUEST_TTL,
    ApiKey,
    IssuedSecret,
    Scope,
    check_grace,
    checked_expiry,
    checked_name,
    checked_spaces,
    issue_secret,
    new_key_id,
    parse_scopes,
    repeat_of,
    request_fingerprint,
    secret_matches,
    split_key,
)
from eywa.stores.neo4j.graph import Neo4jGraph, run
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.records import decodes, required_datetime, rereads, to_datetime

__all__ = ["Neo4jKeyStore"]

_KEY, _REQUEST = Label.API_KEY, Label.KEY_REQUEST
_CREATE = f"CREATE (k:{_KEY}) SET k = $row"
# A creation with a request key (migration 0027: unique id, expiry index). The expired ones go
# first; then the request is merged (its unique constraint makes two sends of one request
# meet on one node) and answers with the key id it holds: this creation's when it is new.
_PRUNE_REQUESTS = f"MATCH (r:{_REQUEST}) WHERE r.expires_at <= $now DELETE r"
_CLAIM_REQUEST = f"""
MERGE (r:{_REQUEST} {{id: $request}})
  ON CREATE SET r.key_id = $key_id, r.fingerprint = $fingerprint, r.expires_at = $expires_at
RETURN r.key_id AS key_id, r.fingerprint AS fingerprint
"""
# A repeat: the key's secret replaced at once (no grace: the first one was never received).
_REISSUE = f"""
MATCH (k:{_KEY} {{id: $id}})
SET k.previous_salt = null, k.previous_hash = null, k.salt = $salt, k.hash = $hash,
    k.rotated_at = $now, k.grace_until = null
RETURN properties(k) AS k
"""
_GET = f"MATCH (k:{_KEY} {{id: $id}}) RETURN properties(k) AS k"
_LIST = f"MATCH (k:{_KEY}) RETURN properties(k) AS k ORDER BY k.created_at, k.id"
_ROTATE = f"""
MATCH (k:{_KEY} {{id: $id}})
WHERE k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $now)
SET k.previous_salt = k.salt, k.previous_hash = k.hash, k.salt = $salt, k.hash = $hash,
    k.rotated_at = $now, k.grace_until = $grace_until
RETURN properties(k) AS k
"""
_REVOKE = f"""
MATCH (k:{_KEY} {{id: $id}})
SET k.revoked_at = coalesce(k.revoked_at, $now)
RETURN properties(k) AS k
"""


class Neo4jKeyStore:
    """See ``eywa.stores.keys.KeyStore``. ``close`` closes ``graph`` (the store owns it);
    ``clock`` is the time source (expiry and grace), replaceable in tests."""

    in_process = False  # a lookup is a round trip to Neo4j

    def __init__(self, graph: Neo4jGraph, *, clock: Callable[[], datetime] = utc_now) -> None:
        self._graph = graph
        self._clock = clock

    def create(
        self,
        spaces: Iterable[str],
        scopes: Iterable[Scope],
        name: str | None = None,
        expires_at: datetime | None = None,
        *,
        request_key: str | None = None,
    ) -> tuple[ApiKey, str]:
        """Create a key; returns its record and the full key, which is never stored. A
        repeat of ``request_key`` answers the key it made with a new secret (``KeyStore``);
        the request and the key are written in one transaction.

        Raises:
            InvalidInputError: no spaces, a bad space, an unknown scope, or an expiry that
                is not in the future.
            ConflictError: ``request_key`` made another key request, or its key was revoked
                or expired since.
            ClosedError: the store was closed.
            StoreError: Neo4j failed.
        """
        chosen_spaces = checked_spaces(spaces)
        name = checked_name(name)
        chosen_scopes = parse_scopes(list(scopes))
        now = self._clock()
        expiry = checked_expiry(expires_at, now)
        key_id = new_key_id()
        issued = issue_secret(key_id)
        row = {
            "id": key_id, "salt": issued.salt.hex(), "hash": issued.hash, "spaces": list(chosen_spaces),
            "scopes": list(chosen_scopes), "name": name, "created_at": now, "expires_at": expiry,
        }  # fmt: skip
        if request_key is None:
            self._graph.write("create api key", run, _CREATE, row=row)
            return _record(row), issued.token
        fingerprint = request_fingerprint(chosen_spaces, chosen_scopes, name, expiry)
        return self._graph.write("create api key", _create_once, row, issued, request_key, fingerprint, now)

    def authenticate(self, token: str) -> ApiKey | None:
        """The live key ``token`` names, or ``None`` (see ``KeyStore.authenticate``).

        Raises:
            ClosedError: the store was closed.
            StoreError: Neo4j failed.
        """
        parts = split_key(token)
        if parts is None:
            return None
        key_id, secret = parts
        props = self._props(key_id)
        if props is None:
            return None
        record = _record(props)
        now = self._clock()
        if not record.live_at(now):
            return None
        if secret_matches(_salt(props.get("salt")), props.get("hash"), secret):
            return record
        in_grace = record.grace_until is not None and now < record.grace_until
        previous = secret_matches(_salt(props.get("previous_salt")), props.get("previous_hash"), secret)
        return record if in_grace and previous else None

    def rotate(self, key_id: str, grace: timedelta) -> tuple[ApiKey, str]:
        """Give ``key_id`` a new secret; the current one keeps working for ``grace``.

        Raises:
            NotFoundError: no such key.
            InvalidInputError: the key is revoked or expired, or ``grace`` is negative or
                longer than ``MAX_GRACE``.
            ClosedError: the store was closed.
            StoreError: Neo4j failed.
        """
        check_grace(grace)
        now = self._clock()
        issued = issue_secret(key_id)
        rows = self._graph.write(
            "rotate api key", run, _ROTATE,
            id=key_id, now=now, salt=issued.salt.hex(), hash=issued.hash, grace_until=now + grace,
        )  # fmt: skip
        if not rows:
            self.get(key_id)  # NotFoundError when there is no such key
            raise InvalidInputError.at("key_id", f"key {key_id} is revoked or expired; create a new one")
        return _record(rows[0]["k"]), issued.token

    @rereads
    def get(self, key_id: str) -> ApiKey:
        """The record of ``key_id`` (revoked or not).

        Raises:
            NotFoundError: no such key.
            ClosedError: the store was closed.
            StoreError: Neo4j failed.
        """
        props = self._props(key_id)
        if props is None:
            raise NotFoundError("api key", ALL_SPACES, key_id)
        return _record(props)

    @rereads
    def list(self) -> list[ApiKey]:
        """Every key, oldest first.

        Raises:
            ClosedError: the store was closed.
            StoreError: Neo4j failed.
        """
        return [_record(row["k"]) for row in self._graph.read("list api keys", _LIST)]

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke ``key_id``; every replica refuses it from the next request. Idempotent.

        Raises:
            NotFoundError: no such key.
            ClosedError: the store was closed.
            StoreError: Neo4j failed.
        """
        rows = self._graph.write("revoke api key", run, _REVOKE, id=key_id, now=self._clock())
        if not rows:
            raise NotFoundError("api key", ALL_SPACES, key_id)
        return _record(rows[0]["k"])

    def ping(self) -> bool:
        """Whether Neo4j answers a query."""
        try:
            self._graph.read("ping", "RETURN 1 AS one")
        except EywaError:
            return False
        return True

    def close(self) -> None:
        """Close the graph (and its driver when it owns one). Idempotent."""
        self._graph.close()

    def _props(self, key_id: str) -> Mapping[str, Any] | None:
        rows = self._graph.read("read api key", _GET, id=key_id)
        return rows[0]["k"] if rows else None


def _create_once(
    tx: ManagedTransaction, row: dict[str, Any], issued: IssuedSecret, request_key: str, fingerprint: str, now: datetime
) -> tuple[ApiKey, str]:
    """``create`` with a request key, in ``tx``: the key and its request when the request is
    new, else the key the request made with a new secret (``repeat_of`` checks it first)."""
    run(tx, _PRUNE_REQUESTS, now=now)
    (claim,) = run(
        tx, _CLAIM_REQUEST, request=request_key, key_id=row["id"], fingerprint=fingerprint,
        expires_at=now + REQUEST_TTL,
    )  # fmt: skip
    if claim["key_id"] == row["id"]:
        run(tx, _CREATE, row=row)
        return _record(row), issued.token
    (made,) = run(tx, _GET, id=claim["key_id"])
    repeat_of(request_key, claim["fingerprint"], fingerprint, _record(made["k"]), now)
    again = issue_secret(claim["key_id"])
    (reissued,) = run(tx, _REISSUE, id=claim["key_id"], salt=again.salt.hex(), hash=again.hash, now=now)
    return _record(reissued["k"]), again.token


def _salt(value: object) -> bytes | None:
    return bytes.fromhex(value) if isinstance(value, str) else None


@decodes("ApiKey")
def _record(props: Mapping[str, Any]) -> ApiKey:
    return ApiKey(
        id=str(props["id"]),
        spaces=tuple(props["spaces"]),
        scopes=tuple(props["scopes"]),
        name=props.get("name"),
        created_at=required_datetime(props["created_at"]),
        revoked_at=to_datetime(props.get("revoked_at")),
        expires_at=to_datetime(props.get("expires_at")),
        rotated_at=to_datetime(props.get("rotated_at")),
        grace_until=to_datetime(props.get("grace_until")),
    )
