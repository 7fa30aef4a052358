"""Level 0 signal detection: deterministic, LLM-free, fast enough to run on every write.

``detect_signals`` marks the typed spans of a turn (dates resolved against when it was said,
amounts, identifiers, mentions, and the cues that change what it asserts). The validator
matches a candidate fact's anchors against these spans; the read path uses
``resolve_time_expressions`` to read time constraints out of questions.
"""

from eywa.signals.detector import detect_signals
from eywa.signals.temporal import resolve_time_expressions

__all__ = ["detect_signals", "resolve_time_expressions"]
