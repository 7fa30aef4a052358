"""MiniLM keeps one onnxruntime session per thread priority (``eywa.threads``).

onnxruntime creates a session's intra-op threads with the session, at the priority of the
thread creating it. A background thread at a lowered priority must not run its batches on
the request threads' full-priority pool (nor a query on a lowered pool), so it gets a session
whose pool threads run at its own nice value, with the same vectors.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from eywa.embedding import MiniLMEmbedder
from eywa.threads import current_nice, lower_priority

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="per-thread priorities are Linux's")

NICE = 9
TEXTS = ["I adopted a puppy last week", "The stock market fell today"]


def nice_by_thread() -> dict[int, int]:
    """Thread id -> nice value of every thread of this process (``/proc/self/task``)."""
    found: dict[int, int] = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        found[int(task.name)] = int(fields[16])  # field 19 of stat, counted after the name
    return found


def test_a_lowered_thread_embeds_on_a_pool_of_its_own_priority() -> None:
    embedder = MiniLMEmbedder(threads=2)  # one intra-op thread besides the caller
    full = embedder.embed(TEXTS)
    before = nice_by_thread()
    seen: dict[str, object] = {}

    def lowered() -> None:
        seen["nice"] = lower_priority(NICE)
        seen["vectors"] = embedder.embed(TEXTS)
        seen["own"] = threading.get_native_id()
        seen["after"] = nice_by_thread()

    thread = threading.Thread(target=lowered)
    thread.start()
    thread.join(timeout=120)
    assert seen["nice"] == NICE
    after = seen["after"]
    assert isinstance(after, dict)
    created = {tid: nice for tid, nice in after.items() if tid not in before and tid != seen["own"]}
    # The new session's one intra-op thread, lowered; no tokenizer pool: tokenising runs in
    # the calling thread, so a lowered thread never makes threads that others would use.
    assert set(created.values()) == {NICE} and len(created) == 1
    assert all(after.get(tid, nice) == nice for tid, nice in before.items())  # the first pool is untouched
    vectors: npt.NDArray[np.float32] = seen["vectors"]  # type: ignore[assignment]
    np.testing.assert_allclose(vectors, full, atol=1e-6)
    assert current_nice() < NICE
    again = embedder.embed(TEXTS)  # a full-priority caller keeps the first session
    np.testing.assert_allclose(again, full, atol=1e-6)
