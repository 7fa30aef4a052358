"""README, The input contract: "Quotas are checked against what the space holds before the
batch is written ... Two batches written at the same moment may each pass the check, so a
quota can be overshot by at most one concurrent batch" (audit of s25).

It was not so: the check ran before the write took the embedded connection, so every batch
sent at the same moment passed it — eight concurrent batches of two turns stored 12 and 16
turns in a space of quota 3 (two probes of three). On the embedded store the check is now
made under the connection the write holds, so concurrent batches are checked one after the
other and the quota is exact; the README says so, and that on Neo4j batches written at the
same moment may still each pass it.
"""

from __future__ import annotations

import threading
from pathlib import Path

from eywa.errors import QuotaExceededError
from tests.contract.conftest import open_memory

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
