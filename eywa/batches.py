"""Level 0 batches: validate turns, give each its deterministic id, detect signals, link
mentions. Synchronous, no LLM; nothing is written here (``Memory.remember`` hands the
prepared batch to the evidence store, which writes it in one transaction).

Mention detection matches the names the space already knows (``eywa.signals.mentions``),
each as the kind the space holds it: a person stays a person and an organisation or place
stays one, so "Acme" first met in "I work at Acme" is not made a person by "Acme is hiring".
Only the entities the batch can name are read: every span of the new turns' text that the
known-name matcher could match (``name_candidates``) is looked up with
``EvidenceStore.prior`` (which also says which turns are stored and where each session
continues, all in one read), so a batch costs its own length, not the space's size. A
known name that is not such a span cannot match, so leaving it out changes nothing: the
signals and mentions equal those computed against every entity of the space, for names of
up to ``MAX_NAME_PARTS`` words (a longer stored name is then found only where the
capitalisation rule finds it again).

Ids: a turn with an ``external_id`` is ``ev_`` + hash(space, external_id); otherwise the
hash of (space, session, speaker, observed_at as given, text, its occurrence in the batch).
Re-sending a turn therefore yields the same id and the store skips it.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from eywa.contract import Limits, check_turns
from eywa.ids import content_hash, entity_id, entity_key, stable_id
from eywa.models import Entity, EntityKind, Evidence, Signal, SignalKind, Turn, utc_now
from eywa.signals.mentions import learn_name
from eywa.stores.evidence import EvidenceStore

DEFAULT_SESSION = "default"

SignalDetector = Callable[[str, datetime, str | None, Sequence[str], Sequence[str]], tuple[Signal, ...]]
"""``eywa.signals.detect_signals``: text, time, speaker, known people, known non-people."""


def coerce_turns(turns: Sequence[Turn | Mapping[str, Any]], limits: Limits | None = None) -> list[Turn]:
    """Validate every turn before anything is written (``eywa.contract.check_turns``).

    Raises:
        InvalidInputError: not a non-empty list, or too many turns.
        InvalidTurnError: naming the first bad turn.
    """
    return check_turns(turns, limits or Limits())


def evidence_id(space: str, turn: Turn, occurrence: int) -> str:
    """The deterministic id of a turn (see the module docstring)."""
    if turn.external_id is not None:
        return stable_id("ev", space, "external", turn.external_id)
    observed = turn.observed_at.isoformat() if turn.observed_at else ""
    return stable_id(
        "ev", space, turn.session or DEFAULT_SESSION, turn.speaker or "", observed, turn.text, str(occurrence)
    )


@dataclass(frozen=True)
class PreparedBatch:
    """What Level 0 will write: all turns with ids, the new ones fully built."""

    ids: list[str]
    new: list[Evidence]
    mentions: list[tuple[str, Entity]]


def prepare_batch(
    space: str,
    turns: Sequence[Turn],
    store: EvidenceStore,
    detect: SignalDetector,
    *,
    author: str | None = None,
    now: datetime | None = None,
) -> PreparedBatch:
    """Compute ids, skip what exists, assign positions, detect signals and mentions."""
    recorded_at = now or utc_now()
    occurrences: Counter[tuple[str, str, str, str]] = Counter()
    ids: list[str] = []
    for turn in turns:
        key = (turn.session or DEFAULT_SESSION, turn.speaker or "", str(turn.observed_at), turn.text)
        ids.append(evidence_id(space, turn, occurrences[key]))
        occurrences[key] += 1
    spans = {span for turn in turns for span in name_candidates(turn.text)}
    sessions = sorted({turn.session or DEFAULT_SESSION for turn in turns})
    prior = store.prior(space, ids, sorted(spans), sessions)
    people = [e.name for e in prior.entities if e.kind == "person"]
    people += sorted({t.speaker for t in turns if t.speaker})
    others = [e.name for e in prior.entities if e.kind != "person"]
    next_seq = prior.next_seqs
    new: list[Evidence] = []
    mentions: list[tuple[str, Entity]] = []
    seen: set[str] = set()
    for turn, turn_id in zip(turns, ids, strict=True):
        if turn_id in prior.existing or turn_id in seen:
            continue
        seen.add(turn_id)
        session = turn.session or DEFAULT_SESSION
        observed_at = turn.observed_at or recorded_at
        signals = detect(turn.text, observed_at, turn.speaker, people, others)
        evidence = Evidence(
            id=turn_id,
            space=space,
            session=session,
            seq=next_seq[session],
            speaker=turn.speaker,
            role=turn.role,
            text=turn.text,
            observed_at=observed_at,
            recorded_at=recorded_at,
            content_hash=content_hash(turn.text),
            metadata=turn.metadata,
            external_id=turn.external_id,
            author=author,
            signals=tuple(signals),
        )
        next_seq[session] += 1
        new.append(evidence)
        found = mentioned_entities(space, evidence)
        mentions.extend((turn_id, entity) for entity in found)
        for entity in found:  # later turns of the batch see them, as the kind found
            learn_name(entity.name, entity.kind == "person", people, others)
    return PreparedBatch(ids=ids, new=new, mentions=mentions)


MAX_NAME_PARTS: Final = 8
"""The most whitespace-separated parts, and runs of word characters, a stored name may have
to be matched by Level 0 (``name_candidates``); speakers and capitalised names are far
shorter."""
MAX_NAME_CHARS: Final = 200
"""The most characters a stored name may have to be matched by Level 0 in a turn's text
(``name_candidates``): as many as the capitalisation rule takes for a name
(``eywa.signals.mentions``); a longer speaker is still its own turn's speaker."""

# The known-name matcher's boundaries (``eywa.signals.mentions``): a name is neither preceded
# nor followed by a word character, an apostrophe or a hyphen, and may carry a possessive.
_INNER = re.compile(r"[\w'’-]")
_CHUNKS = re.compile(r"\S+")
_WORD_RUN = re.compile(r"\w+")


def name_candidates(text: str) -> set[str]:
    """Every span of ``text`` that a known name could match, as its ``entity_key``.

    A name of k parts matches the end of one whitespace-separated chunk, the k - 2 chunks
    after it whole, and the start of the next (one chunk for k = 1): it starts where no word
    character, apostrophe or hyphen precedes, and ends where none follows, or a possessive
    ("'s") does that none follows. These spans, of up to ``MAX_NAME_PARTS`` chunks, at most
    ``MAX_NAME_CHARS`` characters and ``MAX_NAME_PARTS`` runs of word characters, holding a
    word character (or a whole chunk), are a superset of what the matcher can find for the
    names Level 0 matches, so looking only them up loses no match.

    The bounds keep the spans linear in the text: in a chunk of symbols every position is a
    boundary, and a 20,000-character turn of emoji made ~2 × 10^8 spans (minutes of CPU).
    """
    cuts = [_Cuts(m.group(0)) for m in _CHUNKS.finditer(text)]
    found: set[str] = set()
    for chunk in cuts:
        found.update(chunk.spans())
    for i, first in enumerate(cuts):
        middle = ""
        heads = first.heads()
        for j in range(i + 1, min(i + MAX_NAME_PARTS, len(cuts))):
            room = MAX_NAME_CHARS - len(middle) - 1
            found.update(
                f"{head} {middle}{tail}" for head in heads for tail in cuts[j].tails() if len(head) + len(tail) <= room
            )
            middle += cuts[j].folded + " "
            if len(middle) >= MAX_NAME_CHARS:
                break
    return found


class _Cuts:
    """Where a name may start and end in one whitespace-separated chunk, and the spans, head
    (suffix) and tail (prefix) pieces ``name_candidates`` builds from them, within its bounds."""

    def __init__(self, chunk: str) -> None:
        self.chunk = chunk
        self.folded = chunk.casefold()
        self._simple = len(self.folded) == len(chunk)  # casefolding kept the offsets (almost always)
        self.starts = [0] + [s for s in range(1, len(chunk)) if not _INNER.match(chunk, s - 1)]
        self.ends = [e for e in range(1, len(chunk)) if _ends_name(chunk, e)] + [len(chunk)]
        self.words = [m.start() for m in _WORD_RUN.finditer(chunk)]  # where each run of word characters starts

    def _cut(self, start: int, end: int) -> str:
        return self.folded[start:end] if self._simple else self.chunk[start:end].casefold()

    def _reach(self, start: int) -> tuple[int | None, int]:
        """From ``start``: where its first word character is (None: none follows), and the
        furthest a name may end (``MAX_NAME_CHARS`` on, before its ``MAX_NAME_PARTS`` + 1st
        run of word characters)."""
        k = bisect_left(self.words, start)
        first = self.words[k] if k < len(self.words) else None
        limit = self.words[k + MAX_NAME_PARTS] if k + MAX_NAME_PARTS < len(self.words) else len(self.chunk)
        return first, min(limit, start + MAX_NAME_CHARS)

    def spans(self) -> list[str]:
        found = [self.folded] if len(self.chunk) <= MAX_NAME_CHARS else []  # a name of symbols fills its chunk
        for start in self.starts:
            first, limit = self._reach(start)
            if first is None:
                continue
            for end in self.ends[bisect_right(self.ends, first) : bisect_right(self.ends, limit)]:
                found.append(self._cut(start, end))
        return found

    def heads(self) -> list[str]:
        """The chunk's suffixes a name of several parts may start with."""
        found = []
        for start in self.starts:
            first, limit = self._reach(start)
            if limit == len(self.chunk) and (first is not None or start == 0):
                found.append(self._cut(start, len(self.chunk)))
        return found

    def tails(self) -> list[str]:
        """The chunk's prefixes a name of several parts may end with."""
        first, limit = self._reach(0)
        return [
            self._cut(0, end)
            for end in self.ends[: bisect_right(self.ends, limit)]
            if (first is not None and end > first) or end == len(self.chunk)
        ]


def _ends_name(chunk: str, end: int) -> bool:
    """Whether a name may end at ``end`` (exclusive, inside ``chunk``): no word character,
    apostrophe or hyphen follows, or a possessive does that none follows."""
    if not _INNER.match(chunk, end):
        return True
    if chunk[end] in "'’" and chunk[end + 1 : end + 2] in ("s", "S"):
        return end + 2 == len(chunk) or not _INNER.match(chunk, end + 2)
    return False


def mentioned_entities(space: str, evidence: Evidence) -> list[Entity]:
    """The speaker is always an entity (a person); mention signals add the others."""
    found: dict[str, Entity] = {}
    if evidence.speaker:
        found[entity_key(evidence.speaker)] = Entity(
            id=entity_id(space, evidence.speaker), space=space, name=evidence.speaker, kind="person"
        )
    for signal in evidence.signals_of(SignalKind.PERSON, SignalKind.ENTITY):
        name = (signal.normalized or signal.text).strip()
        if not name or entity_key(name) in found:
            continue
        kind: EntityKind = "person" if signal.kind is SignalKind.PERSON else "entity"
        found[entity_key(name)] = Entity(id=entity_id(space, name), space=space, name=name, kind=kind)
    return list(found.values())
