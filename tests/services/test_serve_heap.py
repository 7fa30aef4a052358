"""``eywa serve`` freezes the heap it has once started (``freeze_startup_heap``): a full
collection no longer walks the modules, models and stores that live as long as the process
and holds the interpreter while it does, stopping every request. Apps the tests open and
close (no warm-up) freeze nothing: each one's cycles would be pinned."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api.app import create_app


class Opened:
    """An object made before the app starts, tracked by the collector (a class instance)."""


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    try:
        yield
    finally:
        gc.unfreeze()  # the rest of the test process collects as before


@pytest.mark.parametrize("served", [True, False])
def test_the_served_app_freezes_what_it_started_with(
    served: bool, memory: Memory, tmp_path: Path, unfrozen: None
) -> None:
    keys = SqliteKeyStore(tmp_path / "keys.sqlite")
    before = Opened()
    app = create_app(memory, EywaSettings(data_dir=tmp_path), keys, warm_up=served)
    try:
        with TestClient(app) as client:  # runs the lifespan: warm-up, then the freeze
            assert client.get("/healthz").status_code == 200
            frozen = gc.get_freeze_count()
            during = Opened()
            # what existed at the start is out of the collector's walks; what serving makes is not
            assert (frozen > 0) is served
            assert all(o is not before for o in gc.get_objects()) is served
            assert any(o is during for o in gc.get_objects())
    finally:
        keys.close()
