"""The composition of the Level 0 detectors, from the most specific span to the vaguest."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eywa.models import Signal, SignalKind
from eywa.signals._text import word_set
from eywa.signals.cues import detect_cues
from eywa.signals.identifiers import detect_identifiers
from eywa.signals.mentions import detect_mentions
from eywa.signals.quantities import detect_quantities
from eywa.signals.temporal import detect_temporal

_KIND_ORDER = {kind: index for index, kind in enumerate(SignalKind)}


def detect_signals(
    text: str,
    observed_at: datetime,
    speaker: str | None = None,
    known_entities: Sequence[str] = (),
    known_non_people: Sequence[str] = (),
) -> tuple[Signal, ...]:
    """Every Level 0 signal of one turn, sorted by span start.

    Detectors claim spans in order of specificity (emails, urls and ids; dates and times;
    money; durations; quantities; plain numbers), so a span is read once, as the most
    specific thing it can be. Mentions skip every claimed span ("USD 20" names no entity);
    cues may overlap anything but a claimed date or id ("May" in "May 2023" is no hedge).

    Args:
        text: the turn as said; spans are character offsets into it.
        observed_at: when it was said; "yesterday" and "last Saturday" resolve against it.
            A naive datetime is taken to be UTC.
        speaker: the speaker's name, matched as a known person when the turn names them.
        known_entities: names of people already known in the space, matched
            case-insensitively as whole words and in the possessive, as PERSON.
        known_non_people: names of the space's other entities (places, organisations),
            matched the same way as ENTITY: "Acme" stays an organisation once known.

    Returns:
        The signals, sorted by (start, end, kind); ``text[s.start:s.end] == s.text`` holds
        for each.

    Example:
        >>> from datetime import datetime, timezone
        >>> [(s.kind.value, s.normalized) for s in detect_signals(
        ...     "Mel paid $1,200 last Saturday", datetime(2023, 5, 25, tzinfo=timezone.utc),
        ...     known_entities=["Mel"])]
        [('person', 'Mel'), ('money', '1200.00 USD'), ('date', '2023-05-20')]
    """
    words = word_set(text)
    taken: list[tuple[int, int]] = []
    signals = detect_identifiers(text, taken, words)
    signals += detect_temporal(text, observed_at, taken, words)
    hard_spans = list(taken)
    signals += detect_quantities(text, taken, words)
    signals += detect_mentions(text, taken, known_entities, speaker, known_non_people)
    signals += detect_cues(text, hard_spans, words)
    return tuple(sorted(signals, key=lambda s: (s.start, s.end, _KIND_ORDER[s.kind])))
