"""README, Service: "``eywa.Client(base_url, api_key)`` has the same methods and return types
as ``Memory``" (docs/service.md: "server: same methods, same types"), audit of s25.

No test compared the two classes (test_async_client.py compares the clients with each
other), and ``Client.job`` answered a dict where ``Memory.job`` answers a ``JobStatus``:
code written against ``Memory`` broke on ``job(...).status`` when given a ``Client``.

Every public method of the Client is one of Memory's, takes Memory's arguments in their
order, less some only a process holding the memory can honour (listed here), and
returns what Memory's returns — except the two the README names: ``export_space`` (a list,
read whole from one answer; Memory's yields) and ``wait`` (nothing to wait for). One method
is the server's alone, as the README says: ``create_key`` (API keys live in the server's key
store; a ``Memory`` has none). A live
round trip checks that ``job`` answers the model too.
"""

from __future__ import annotations

import inspect
import typing
from pathlib import Path
from typing import Any

import pytest

from eywa import AsyncClient, Client, Memory
from eywa.jobs import JobStatus
from eywa.settings import EywaSettings
from services.api.app import serve_in_thread
from tests.contract.conftest import HashEmbedder
from tests.services.conftest import build_service

# Arguments the server sets itself or a remote caller cannot use: the author is the key id,
# a progress callback and a wait flag are the local process's, ``entities`` narrows a local
# proposal pass.
LOCAL_ONLY = {"author", "progress", "wait", "entities"}
OTHER_RETURNS = {"export_space", "wait"}  # the README's named exceptions
SERVER_ONLY = {"create_key"}  # the README's one method of the server's alone: keys are its, no Memory has one


def _methods(cls: type) -> dict[str, Any]:
    return {n: m for n, m in inspect.getmembers(cls, inspect.isfunction) if not n.startswith("_")}


@pytest.mark.parametrize("client", [Client, AsyncClient])
def test_every_client_method_is_memory_s_with_its_arguments_and_return_type(client: type) -> None:
    memory = _methods(Memory)
    assert SERVER_ONLY <= set(_methods(client))
    for name, method in _methods(client).items():
        if name in SERVER_ONLY:
            continue
        assert name in memory, f"{client.__name__}.{name} is no Memory method"
        mine, theirs = list(inspect.signature(method).parameters), list(inspect.signature(memory[name]).parameters)
        assert mine == [p for p in theirs if p in mine] and set(theirs) - set(mine) <= LOCAL_ONLY, name
        if name not in OTHER_RETURNS:
            returned = typing.get_type_hints(method)["return"]
            if client is AsyncClient:  # ``async def`` annotates what the await gives
                assert inspect.iscoroutinefunction(method), name
            assert returned == typing.get_type_hints(memory[name])["return"], name


def test_job_answers_the_job_status_memory_answers(tmp_path: Path) -> None:
    settings = EywaSettings(data_dir=tmp_path)
    with Memory.open(tmp_path / "m", settings=settings, embedder=HashEmbedder()) as memory:
        service = build_service(memory, tmp_path, settings)
        headers = service.headers(["jobs"])
        try:
            written = service.client.post("/v1/spaces/jobs/turns", json={"turns": [{"text": "I work at Acme."}]},
                                          headers=headers)  # fmt: skip
            job_id = written.json()["job"]["id"]
            with serve_in_thread(service.app) as url, Client(url, headers["Authorization"].removeprefix("Bearer ")) as client:
                status = client.job(job_id)
        finally:
            service.client.close()
            service.keys.close()
        assert isinstance(status, JobStatus) and status == memory.job(job_id)
