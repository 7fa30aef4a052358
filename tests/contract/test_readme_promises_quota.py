"""README, The input contract: "Quotas are checked inside the batch's own write
transaction ... so a quota is never overshot" — on the embedded store and on Neo4j, by
threads and by replicas.

Session 25's audit: the check ran before the write took the embedded connection, so every
batch sent at the same moment passed it — eight concurrent batches of two turns stored 12
and 16 turns in a space of quota 3 (two probes of three). The embedded check then moved
under the connection the write holds; on Neo4j batches written at the same moment still
each passed it (two API replicas: more than two of eight two-turn batches landed in a
space of five turns).
Session 26: every store checks the quota inside the batch's write transaction, once no other
batch of the space can write (``EvidenceStore.add(..., quota=)``), so the quota is exact on
both backends; the API answers a refused batch with 413 ``quota_exceeded``.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from eywa.errors import QuotaExceededError
from tests.contract.conftest import open_memory
from tests.neo4j_server import Neo4jServer
from tests.services.replicas import two_replicas

WRITERS, QUOTA = 8, 3


def test_concurrent_batches_never_take_an_embedded_space_over_its_quota(tmp_path: Path) -> None:
    with open_memory(tmp_path / "mem", space_max_turns=QUOTA, extractor="none") as mem:
        for round_ in range(5):
            space = f"quota-{round_}"
            start = threading.Barrier(WRITERS)
            outcomes: list[str] = []

            def write(writer: int, space: str = space, start: threading.Barrier = start) -> None:
                start.wait()
                try:
                    mem.remember(space, [{"text": f"turn {writer} a"}, {"text": f"turn {writer} b"}])
                    outcomes.append("stored")
                except QuotaExceededError:
                    outcomes.append("refused")

            threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(outcomes) == ["refused"] * (WRITERS - 1) + ["stored"], outcomes
            assert mem.stats(space)["evidence"] == 2 <= QUOTA


@pytest.mark.neo4j
def test_concurrent_batches_of_two_api_replicas_never_take_a_neo4j_space_over_its_quota(
    tmp_path: Path, neo4j_server: Neo4jServer, neo4j_driver: Driver, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ``eywa serve`` processes over one Neo4j, eight writers (four on each) sending a
    batch of two turns to a space of quota five at once: two land (201), the others get
    413 ``quota_exceeded`` and the space holds four turns."""
    with two_replicas(tmp_path, neo4j_server, neo4j_driver, redis_url, monkeypatch, space="*", scope="admin",
                      settings={"space_max_turns": 5}) as replicas:  # fmt: skip
        urls, admin = replicas.urls, replicas.a
        created = admin.post("/v1/keys", json={"spaces": ["*"], "scopes": ["read", "write"]}, headers=replicas.key)
        assert created.status_code == 201, created.text
        key = {"X-API-Key": created.json()["secret"]}
        for round_ in range(3):
            space = f"quota-{round_}"
            start = threading.Barrier(WRITERS)

            def write(writer: int, space: str = space, start: threading.Barrier = start) -> httpx.Response:
                turns = [{"text": f"turn {writer} a"}, {"text": f"turn {writer} b"}]
                with httpx.Client(base_url=urls[writer % 2], timeout=120.0) as client:
                    start.wait()
                    return client.post(f"/v1/spaces/{space}/turns", json={"turns": turns}, headers=key)

            with ThreadPoolExecutor(WRITERS) as writers:
                answers = list(writers.map(write, range(WRITERS)))
            assert sorted(a.status_code for a in answers) == [201, 201] + [413] * (WRITERS - 2), [a.text for a in answers]
            for refused in (a for a in answers if a.status_code == 413):
                problem = refused.json()
                assert refused.headers["content-type"].startswith("application/problem+json")
                assert (problem["code"], problem["quota"], problem["limit"], problem["wanted"]) == (
                    "quota_exceeded", "turns", 5, 2,
                )  # fmt: skip
                assert problem["used"] + 2 > 5
            assert admin.get(f"/v1/spaces/{space}/stats", headers=key).json()["evidence"] == 4
