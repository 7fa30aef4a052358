"""Portability over HTTP: export needs ``admin`` on the space (``read`` is refused 403) and
streams NDJSON; import needs ``write``, restores into an empty space what the export held,
and answers problem+json — 422 naming the bad line, 409 for a space holding anything but
this export — writing nothing on a refusal; the same import again (a retry whose answer was
lost) is answered 200 with ``already_imported``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from eywa import AsyncClient, Client, InvalidInputError, Memory, SpaceNotEmptyError
from eywa.portability import record_json
from eywa.settings import EywaSettings
from tests.reliability.support import HashEmbedder
from tests.services.conftest import Service, build_service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture

TURNS = [
    {"text": "I moved to Porto in March 2023.", "speaker": "Ana", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I work at Quillfeather now.", "speaker": "Ana", "observed_at": "2023-05-02T10:00:00Z"},
]


def test_export_needs_admin_and_import_restores_into_an_empty_space(service: Service, tmp_path: Path) -> None:
    source, target = "port-a", "port-b"
    writer = service.headers([source], "read,write")
    assert service.client.post(f"/v1/spaces/{source}/turns", json={"turns": TURNS}, headers=writer).status_code == 201
    refused = service.client.get(f"/v1/spaces/{source}/export", headers=service.headers([source], "read"))
    assert refused.status_code == 403 and "admin" in refused.json()["detail"]

    exported = service.client.get(f"/v1/spaces/{source}/export", headers=service.headers([source], "admin"))
    assert exported.status_code == 200 and exported.headers["content-type"] == "application/x-ndjson"
    lines = exported.text.splitlines()
    assert json.loads(lines[0])["space"] == source and sum('"kind":"turn"' in line for line in lines) == 2

    other = service.client.post(f"/v1/spaces/{target}/import", content=exported.content,
                                headers=service.headers([target], "write"))  # fmt: skip
    assert other.status_code == 422 and other.json()["code"] == "invalid_input"
    assert service.client.get(f"/v1/spaces/{target}/stats", headers=service.headers([target], "read")).json()["evidence"] == 0

    importer = service.headers([source], "read,write")
    # The space holds just this export (as an import of it leaves it): a retry, answered as done.
    retried = service.client.post(f"/v1/spaces/{source}/import", content=exported.content, headers=importer)
    assert retried.status_code == 200 and retried.json()["already_imported"] is True
    assert retried.json()["counts"]["turn"] == 2
    later = [{"text": "I still live in Porto.", "speaker": "Ana", "observed_at": "2023-05-03T10:00:00Z"}]
    assert service.client.post(f"/v1/spaces/{source}/turns", json={"turns": later}, headers=writer).status_code == 201
    lines = service.client.get(f"/v1/spaces/{source}/export", headers=service.headers([source], "admin")).text.splitlines()
    busy = service.client.post(f"/v1/spaces/{source}/import", content=exported.content, headers=importer)
    assert busy.status_code == 409 and busy.headers["content-type"] == "application/problem+json"
    assert "not empty" in busy.json()["detail"]
    unchanged = service.client.get(f"/v1/spaces/{source}/export", headers=service.headers([source], "admin"))
    assert unchanged.text.splitlines()[1:] == lines[1:]  # the refused import wrote nothing

    bad = exported.text.replace('"kind":"turn"', '"kind":"tern"', 1).encode()
    with Memory.open(tmp_path / "copy", embedder=HashEmbedder(), extractor=None) as copy:
        restored = build_service(copy, tmp_path / "svc")
        try:
            writes = restored.headers([source], "write")
            broken = restored.client.post(f"/v1/spaces/{source}/import", content=bad, headers=writes)
            assert broken.status_code == 422 and "line." in broken.json()["detail"]
            assert copy.stats(source)["evidence"] == 0
            done = restored.client.post(f"/v1/spaces/{source}/import", content=exported.content, headers=writes)
            assert done.status_code == 200, done.text
            assert done.json()["counts"]["turn"] == 2 and done.json()["already_imported"] is False
            again = restored.client.get(f"/v1/spaces/{source}/export", headers=restored.headers([source], "admin"))
            imported = [json.loads(x) for x in exported.text.splitlines()[1:]]
            assert [json.loads(x) for x in again.text.splitlines()[1:]] == imported
            # Its answer lost, the client sends it again: done, the same report, nothing written twice.
            retry = restored.client.post(f"/v1/spaces/{source}/import", content=exported.content, headers=writes)
            assert retry.status_code == 200 and retry.json() == {**done.json(), "already_imported": True}
            after = restored.client.get(f"/v1/spaces/{source}/export", headers=restored.headers([source], "admin"))
            assert [json.loads(x) for x in after.text.splitlines()[1:]] == imported
        finally:
            restored.client.close()
            restored.keys.close()


def test_the_clients_export_and_refuse_like_memory(live: tuple[str, Service], memory: Memory) -> None:
    url, svc = live
    space = "port-c"
    key = svc.headers([space], "read,write,admin")["Authorization"].removeprefix("Bearer ")
    memory.remember(space, TURNS[:1])
    with Client(url, key) as client:
        records = client.export_space(space)
        assert [record_json(r) for r in records[1:]] == [record_json(r) for r in list(memory.export_space(space))[1:]]
        assert client.import_space(space, records).already_imported  # the space holds just this export
        memory.remember(space, TURNS[1:])
        with pytest.raises(SpaceNotEmptyError, match="not empty"):
            client.import_space(space, records)

    async def bad_line() -> None:
        async with AsyncClient(url, key) as client:
            await client.import_space(space, [record_json(records[0]), "{}"])

    with pytest.raises(InvalidInputError) as refused:
        asyncio.run(bad_line())
    assert refused.value.problems[0].field.endswith("line.2")


def test_an_import_over_the_body_limit_is_a_413_and_writes_nothing(memory: Memory, tmp_path: Path) -> None:
    """docs/service.md, ``POST …/import``: "The body limit (``EYWA_MAX_BODY_BYTES``, 413)
    applies", by Content-Length or while streaming; nothing of the space is written."""
    service = build_service(memory, tmp_path, EywaSettings(data_dir=tmp_path, max_body_bytes=4096))
    try:
        headers = {**service.headers(["big-import"]), "Content-Type": "application/x-ndjson"}
        header = json.dumps({"kind": "header", "format": "eywa-export", "version": 1, "space": "big-import"})
        body = (header + "\n" + "x" * 5000 + "\n").encode()
        sized = service.client.post("/v1/spaces/big-import/import", content=body, headers=headers)
        assert sized.status_code == 413 and sized.json()["code"] == "payload_too_large", sized.text

        def chunks() -> Iterator[bytes]:
            for start in range(0, len(body), 1000):
                yield body[start : start + 1000]

        streamed = service.client.post("/v1/spaces/big-import/import", content=chunks(), headers=headers)
        assert streamed.status_code == 413, streamed.text
        assert "big-import" not in memory.spaces()
    finally:
        service.client.close()
        service.keys.close()


def test_an_import_over_the_space_quota_is_a_413_and_writes_nothing(service: Service, tmp_path: Path) -> None:
    """README ("Quotas are checked"), docs/service.md ``POST …/import``: an export holding more
    turns than ``EYWA_SPACE_MAX_TURNS`` allows is refused with 413 ``quota_exceeded``."""
    source = "port-quota"
    writer = service.headers([source], "read,write,admin")
    assert service.client.post(f"/v1/spaces/{source}/turns", json={"turns": TURNS}, headers=writer).status_code == 201
    exported = service.client.get(f"/v1/spaces/{source}/export", headers=writer)
    directory = tmp_path / "small"
    with Memory.open(directory, settings=EywaSettings(data_dir=directory, space_max_turns=1),
                     embedder=HashEmbedder(), extractor=None) as small:  # fmt: skip
        restored = build_service(small, tmp_path / "svc-small")
        try:
            refused = restored.client.post(f"/v1/spaces/{source}/import", content=exported.content,
                                           headers=restored.headers([source], "write"))  # fmt: skip
            assert refused.status_code == 413, refused.text
            assert refused.headers["content-type"] == "application/problem+json"
            assert refused.json()["code"] == "quota_exceeded"
            assert source not in small.spaces()
        finally:
            restored.client.close()
            restored.keys.close()
