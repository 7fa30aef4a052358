"""Packing ranked items into a token budget, grouped by session with dates, so temporal
arithmetic ("how long ago…") is possible from the context alone."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from eywa.models import RecallItem


def estimate_tokens(text: str) -> int:
    """About four characters a token for English (the usual BPE rule of thumb)."""
    return max(1, math.ceil(len(text) / 4))


def item_line(item: RecallItem, speaker: str | None) -> str:
    """One context line: time, speaker, text."""
    when = item.observed_at.strftime("%H:%M") + " " if item.observed_at else ""
    who = f"{speaker}: " if speaker else ""
    prefix = "" if item.kind == "evidence" else f"({item.kind}) "
    return f"- {when}{prefix}{who}{item.text}"


def session_header(session: str | None, observed_at: datetime | None) -> str:
    """A header that carries the absolute date and weekday of the session."""
    if observed_at is None:
        return f"## {session or 'facts'}"
    return f"## {session or 'facts'} — {observed_at.strftime('%A %d %B %Y')}"


def pack(
    items: Sequence[RecallItem], budget_tokens: int | None
) -> tuple[list[RecallItem], str, int]:
    """Keep items in rank order while they fit, then render them grouped by session.

    Returns the kept items, the context text and its token count. Sessions appear in time
    order and lines within a session in time order, whatever their rank.
    """
    kept: list[RecallItem] = []
    lines: list[str] = []
    used = 0
    headers: set[str | None] = set()
    for item in items:
        speaker = item.provenance[0].speaker if item.kind == "evidence" and item.provenance else None
        line = item_line(item, speaker)
        cost = estimate_tokens(line) + 1
        header_cost = 0 if item.session in headers else estimate_tokens(session_header(item.session, item.observed_at)) + 2
        if budget_tokens is not None and used + cost + header_cost > budget_tokens:
            continue
        headers.add(item.session)
        used += cost + header_cost
        kept.append(item)
        lines.append(line)
    context = render(list(zip(kept, lines, strict=True)))
    return kept, context, estimate_tokens(context) if context else 0


def render(kept: Sequence[tuple[RecallItem, str]]) -> str:
    """Group (item, line) pairs under session headers ordered by time."""
    groups: dict[str | None, list[tuple[RecallItem, str]]] = {}
    for pair in kept:
        groups.setdefault(pair[0].session, []).append(pair)

    def when(pair: tuple[RecallItem, str]) -> float:
        return pair[0].observed_at.timestamp() if pair[0].observed_at else math.inf

    blocks = []
    for session, group in sorted(groups.items(), key=lambda kv: min(when(p) for p in kv[1])):
        group.sort(key=when)
        dated = next((p[0].observed_at for p in group if p[0].observed_at), None)
        blocks.append("\n".join([session_header(session, dated), *(line for _, line in group)]))
    return "\n\n".join(blocks)
