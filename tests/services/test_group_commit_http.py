"""Concurrent ``POST /v1/spaces/{space}/turns`` committed together answer each on its own:
the batches that wait for the embedded writing connection at the same time are committed in
one transaction (``eywa.stores.embedded.group_commit``); every caller gets its own ids,
and a batch holding an erased turn is refused alone (410, nothing of it stored) while the
others of its transaction are stored (201). The writes are made to wait by holding the
writing connection until all of them are inside the store's ``add``."""

from __future__ import annotations

import threading
from typing import Any

from eywa.memory import Memory
from tests.services.conftest import Service
from tests.unit.test_group_commit import WAIT_S, wait_until_inside_add

GOOD = 5


def _turns(space: str, n: int) -> list[dict[str, Any]]:
    return [{"text": f"Batch {space} turn {i}.", "speaker": "Ro", "external_id": f"{space}-{i}"} for i in range(n)]


def test_concurrent_writes_committed_together_answer_alone(memory: Memory, service: Service) -> None:
    spaces = [f"gc-{i}" for i in range(GOOD)]
    erased_space = "gc-erased"
    writer = service.headers([*spaces, erased_space])
    eraser = service.headers([erased_space], "erase")
    sent = _turns(erased_space, 1)
    first = service.client.post(f"/v1/spaces/{erased_space}/turns", json={"turns": sent}, headers=writer)
    assert first.status_code == 201, first.text
    erased_id = first.json()["ids"][0]
    gone = service.client.post(f"/v1/spaces/{erased_space}/erase", json={"evidence_ids": [erased_id]}, headers=eraser)
    assert gone.status_code == 200, gone.text

    bodies = [(space, _turns(space, 3)) for space in spaces]
    bodies.append((erased_space, [*sent, {"text": "A new turn beside the erased one.", "speaker": "Ro"}]))
    answers: list[Any] = [None] * len(bodies)

    def post(i: int) -> None:
        space, turns = bodies[i]
        answers[i] = service.client.post(f"/v1/spaces/{space}/turns", json={"turns": turns}, headers=writer)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(bodies))]
    with memory._stores.evidence._db.locked():  # type: ignore[attr-defined]  # the writes wait together
        for thread in threads:
            thread.start()
        wait_until_inside_add(len(bodies))
        assert all(answer is None for answer in answers)  # none answered before the commit
    for thread in threads:
        thread.join(WAIT_S)

    refused = answers[-1]
    assert refused.status_code == 410 and refused.json()["code"] == "erased", refused.text
    assert service.client.get(f"/v1/spaces/{erased_space}/stats", headers=writer).json()["evidence"] == 0
    for (space, turns), answer in zip(bodies[:-1], answers[:-1], strict=True):
        assert answer.status_code == 201, answer.text
        ids = answer.json()["ids"]
        assert len(ids) == len(turns)
        assert [memory.evidence(space, i).external_id for i in ids] == [t["external_id"] for t in turns]
    service.app.state.eywa.access.flush()  # before the session's memory closes
