"""Evaluation harnesses (an entry point: ``eywa bench`` is their plugin command, ``cli``).
``run_locomo_bench`` is the trace-level LoCoMo protocol.

The LoCoMo harness is imported on first use (PEP 562): importing one harness module, say
``eywa.bench.synthetic`` in a crash-test child, does not load the LoCoMo loader and its
date parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from eywa.bench.locomo import BenchSummary, QuestionRecord, run_locomo_bench

__all__ = ["BenchSummary", "QuestionRecord", "run_locomo_bench"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from eywa.bench import locomo

        return getattr(locomo, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
