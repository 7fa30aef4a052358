"""``POST /v1/spaces/{space}/turns`` with ``EYWA_LEVEL1_WAIT=false`` answers once Level 0 is
committed: the job reads ``pending`` while the inline runner embeds and runs Level 1 in the
background, and ``done`` after it. The embedder is held shut for the batch (see
``tests/conformance/test_async_write.py``), so nothing here is timed."""

from __future__ import annotations

from pathlib import Path

from eywa.embedding.minilm import MiniLMEmbedder
from eywa.memory import Memory
from eywa.settings import EywaSettings
from tests.conformance.test_async_write import TURNS, HeldEmbedder
from tests.suite_threads import SUITE_EMBED_THREADS
from tests.services.conftest import build_service


def test_turns_are_acknowledged_after_level0_and_the_job_finishes_after_it(tmp_path: Path) -> None:
    gate = HeldEmbedder(MiniLMEmbedder(threads=SUITE_EMBED_THREADS))
    settings = EywaSettings(data_dir=tmp_path / "mem", level1_wait=False)
    memory = Memory.open(tmp_path / "mem", settings=settings, embedder=gate)
    svc = build_service(memory, tmp_path, settings)
    try:
        headers = svc.headers(["later"])
        answer = svc.client.post("/v1/spaces/later/turns", json={"turns": TURNS}, headers=headers)
        assert answer.status_code == 201 and answer.json()["job"]["status"] == "pending", answer.text
        job_id, first = answer.json()["job"]["id"], answer.json()["ids"][0]
        assert svc.client.get(f"/v1/jobs/{job_id}", headers=headers).json()["status"] == "pending"
        found = svc.client.post("/v1/spaces/later/recall", json={"query": "Where does Cecilia work?"}, headers=headers)
        assert first in [item["id"] for item in found.json()["items"]]  # by keyword, before any vector
        gate.release.set()
        memory.wait()
        assert svc.client.get(f"/v1/jobs/{job_id}", headers=headers).json()["status"] == "done"
        beliefs = svc.client.get("/v1/spaces/later/beliefs", params={"attribute": "employer"}, headers=headers)
        assert [b["value"] for b in beliefs.json()] == ["Google"]
    finally:
        gate.release.set()
        svc.client.close()
        svc.keys.close()
        memory.close()
