"""Turn text cut into segments to highlight: signals (dates, negations, hedges, amounts…)
and the spans a belief cites.

Pure; the template escapes every segment, so a turn that contains markup renders as text.
Overlapping spans never nest: the earliest-starting (then the longest, then the first
given) wins and the others are clipped to what is left, so the segments always rebuild the
text exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from eywa.models import Evidence, SupportLink

__all__ = ["Highlight", "Segment", "evidence_segments", "segments"]


@dataclass(frozen=True)
class Highlight:
    """A span to mark: ``[start, end)`` of the text, a CSS class and a tooltip."""

    start: int
    end: int
    css: str
    title: str = ""


@dataclass(frozen=True)
class Segment:
    """A piece of the text; ``css`` is empty for plain text."""

    text: str
    css: str = ""
    title: str = ""


def segments(text: str, highlights: Iterable[Highlight]) -> list[Segment]:
    """``text`` as consecutive segments, highlighted where a span covers it.

    Spans outside the text are clipped; empty ones are ignored.
    """
    ordered = sorted(
        (h for h in highlights if min(h.end, len(text)) > max(h.start, 0)),
        key=lambda h: (h.start, -(h.end - h.start)),
    )
    out: list[Segment] = []
    at = 0
    for span in ordered:
        start, end = max(span.start, at), min(span.end, len(text))
        if end <= start:
            continue
        if start > at:
            out.append(Segment(text[at:start]))
        out.append(Segment(text[start:end], span.css, span.title))
        at = end
    if at < len(text):
        out.append(Segment(text[at:]))
    return out


def evidence_segments(turn: Evidence, cited: Sequence[SupportLink] = ()) -> list[Segment]:
    """A turn with its signals marked (class ``sig sig-<kind>``, tooltip the normalised
    value, e.g. the resolved date) and the spans a belief cites in it (class ``cited``,
    drawn first: a citation is what the page is about)."""
    marks = [
        Highlight(link.span[0], link.span[1], "cited", f"cited span (support {link.score:.2f})")
        for link in cited
        if link.evidence_id == turn.id and link.span is not None
    ]
    marks += [
        Highlight(s.start, s.end, f"sig sig-{s.kind.value}", f"{s.kind.value}: {s.normalized or s.text}")
        for s in turn.signals
    ]
    covered: list[Segment] = []
    for segment in segments(turn.text, marks[: len(marks) - len(turn.signals)]):
        if segment.css:
            covered.append(segment)
            continue
        offset = sum(len(s.text) for s in covered)
        inner = [Highlight(h.start - offset, h.end - offset, h.css, h.title) for h in marks[len(marks) - len(turn.signals):]]
        covered += segments(segment.text, inner)
    return covered
