"""A correction whose answer is lost, retried by ``eywa.Client`` through another replica, is
answered by the record it made (README, "Corrections"): the state equals one clean call.

Two replicas over one Neo4j (``two_replicas``) behind a load balancer played by the client's
transport: the confirmation reaches replica a, which commits it, and its answer is lost on
the way back; the retraction reaches a, which commits it and is killed before answering.
The client sees a dropped connection each time and retries; the balancer sends the retries
to b. b refused the retried retraction with 409 ``conflict`` (``ConflictError`` out of a call
that had succeeded) and recorded the retried confirmation a second time.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from eywa.client import Client
from tests.neo4j_server import Neo4jServer
from tests.services.replicas import Replicas, two_replicas

pytestmark = pytest.mark.neo4j

SPACE = "team"
TURNS = [{"text": "I work at Umbra Labs.", "speaker": "Omar", "session": "s1", "observed_at": "2024-04-01T10:01:00"}]


class _AnswerLostOnA(httpx.BaseTransport):
    """Sends the first request to each of ``lost`` (path endings) to replica a and drops its
    answer, killing a after the ``kill_after`` one; every other request goes to b."""

    def __init__(self, replicas: Replicas, lost: tuple[str, ...], kill_after: str) -> None:
        self._replicas = replicas
        self._pending = list(lost)
        self._kill_after = kill_after
        self._http = httpx.HTTPTransport()
        self.committed: list[httpx.Response] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        ending = next((p for p in self._pending if request.url.path.endswith(p)), None)
        replica = self._replicas.urls[0] if ending is not None else self._replicas.urls[1]
        port = httpx.URL(replica).port
        sent = httpx.Request(request.method, request.url.copy_with(port=port), headers=request.headers,
                             content=request.read())  # fmt: skip
        response = self._http.handle_request(sent)
        if ending is None:
            return response
        response.read()
        self.committed.append(response)
        self._pending.remove(ending)
        if ending == self._kill_after:
            self._replicas.processes[0].kill()  # after its commit, before the answer left
            self._replicas.processes[0].wait()
        raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)

    def close(self) -> None:
        self._http.close()


def test_a_correction_retried_through_another_replica_is_answered_by_its_record(
    tmp_path: Path, neo4j_server: Neo4jServer, neo4j_driver: Driver, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with two_replicas(tmp_path, neo4j_server, neo4j_driver, redis_url, monkeypatch, space=SPACE,
                      scope="read,write") as replicas:  # fmt: skip
        secret = replicas.key["X-API-Key"]
        with Client(replicas.urls[1], secret, backoff_s=0.01) as setup:
            setup.remember(SPACE, TURNS)
            (belief,) = setup.beliefs(SPACE, "Omar")
        balancer = _AnswerLostOnA(replicas, ("/confirm", "/retract"), kill_after="/retract")
        with Client(replicas.urls[1], secret, backoff_s=0.01, transport=balancer) as client:
            confirmed = client.confirm_belief(SPACE, belief.id, reason="asked Omar")
            retracted = client.retract_belief(SPACE, belief.id, reason="Omar left")

            assert [r.status_code for r in balancer.committed] == [200, 200]  # both committed on a
            assert [r.json()["id"] for r in balancer.committed] == [confirmed.id, retracted.id]
            assert client.corrections(SPACE) == [confirmed, retracted]  # one record each
            assert client.beliefs(SPACE, "Omar") == []
