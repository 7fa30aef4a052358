"""Evaluation harnesses (an entry point: ``eywa bench`` is their plugin command, ``cli``).
``run_locomo_bench`` is the trace-level LoCoMo protocol."""

from __future__ import annotations

from eywa.bench.locomo import BenchSummary, QuestionRecord, run_locomo_bench

__all__ = ["BenchSummary", "QuestionRecord", "run_locomo_bench"]
