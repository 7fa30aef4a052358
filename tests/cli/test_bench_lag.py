"""The service benchmark's lags (``eywa.bench.lag``): percentiles over finished batches, and a
sampler that sees a batch leave the ledger stage by stage, read from a real embedded store."""

from __future__ import annotations

from pathlib import Path

from eywa.bench.latency import NullEmbedder
from eywa.bench.lag import LagSampler, lag_figures
from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.factory import open_embedded_graph


def test_lag_figures_count_unfinished_batches_apart() -> None:
    figures = lag_figures([10.0, 20.0, 30.0, 40.0], batches=6)
    assert (figures.batches, figures.finished, figures.max) == (6, 4, 40.0)
    assert figures.p50 == 25.0 and 30.0 < figures.p95 <= 40.0
    assert lag_figures([], batches=2).model_dump() == {"batches": 2, "finished": 0, "p50": 0.0, "p95": 0.0, "max": 0.0}


def test_the_sampler_sees_a_batch_embedded_then_through_level1(tmp_path: Path) -> None:
    turns = [{"text": f"turn {n}", "speaker": "A"} for n in range(3)]
    with Memory.open(tmp_path, settings=EywaSettings(extractor="none"), embedder=NullEmbedder()) as mem:
        ids = mem.remember("s", turns)  # embedded before it returns; no extractor: Level 1 owed
    stores = open_embedded_graph(tmp_path)
    sampler = LagSampler(stores, interval_s=0.01)
    try:
        sampler.start()
        sampler.acknowledged("s", ids, acked_at=0.0)
        assert not sampler.drain(0.3)  # Level 1 is still owed
        embed, level1 = sampler.figures()
        assert (embed.finished, level1.finished) == (1, 0)
        assert sampler.backlog[-1].embed == 0 and sampler.backlog[-1].level1 == 3
        for stage in ("level1", "nous"):
            stores.ledger.complete("s", stage, ids)
        assert sampler.drain(5.0)
        assert sampler.figures()[1].finished == 1
    finally:
        sampler.stop()
        stores.close()
