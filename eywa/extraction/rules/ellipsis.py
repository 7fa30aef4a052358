"""Short answers: a fragment that answers the question just asked speaks for its speaker.

"A pescatarian then?" — "Pescatarian, yes." The answer has no subject and no verb; read
alone it says nothing. Read after the question it is "I'm pescatarian": the one answering
is the subject, and the fragment is what they say they are. The rule is narrow on purpose:

- the fragment is a few lower-case words with an affirmation beside it ("yes", "yep",
  "exactly", "that's right"), and nothing else in its clause;
- the turn before, in the same session, is a question by someone else;
- the question contains the fragment's words (the answer echoes it), and it is addressed
  to the one answering: it names no other person and has no third-person pronoun ("Is
  Wen a nurse now?" — "A nurse, yes." is about Wen, and is left alone).

The fragment is then read as "I'm <fragment>" by the ordinary rules, so it yields only what
those rules would yield for that sentence; the fact still cites only the answering turn.
"""

from __future__ import annotations

import re

from eywa.extraction.rules.clause import A, Part, part_of
from eywa.extraction.text import Clause, clauses
from eywa.models import Evidence, SignalKind

__all__ = ["elliptical_answer"]

_YES = rf"(?:yes|yeah|yep|yup|indeed|exactly|correct|that{A}s\s+right|that\s+is\s+right|right)"
_FRAGMENT = re.compile(
    rf"(?i:^(?:{_YES}[,!]?\s+)?(?P<art>(?:a|an)\s+)?(?P<frag>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){{0,2}})"
    rf"(?:[,!]?\s+{_YES})?[.!]*$)"
)
_THIRD_PERSON = re.compile(r"\b(?:he|she|they|him|her|his|hers|them|their)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z-]*")


def _affirmed(text: str) -> bool:
    return re.search(rf"(?i)(?:^|[\s,]){_YES}(?:[\s,.!]|$)", text) is not None


def _addressed_to_listener(question: Clause, asker: Evidence, answerer: str) -> bool:
    if _THIRD_PERSON.search(question.text):
        return False
    for signal in asker.signals:
        if signal.kind is SignalKind.PERSON and question.start <= signal.start < question.end:
            name = (signal.normalized or signal.text).casefold()
            if name not in {answerer.casefold(), (asker.speaker or "").casefold()}:
                return False
    return True


def elliptical_answer(turn: Evidence, clause: Clause, previous: Evidence | None) -> Part | None:
    """The part "I'm <fragment>" when ``clause`` is a short answer to the question of
    ``previous`` addressed to ``turn``'s speaker (see the module docstring), else None."""
    if previous is None or not turn.speaker or previous.speaker == turn.speaker or previous.session != turn.session:
        return None
    m = _FRAGMENT.match(clause.text.strip())
    if m is None or not _affirmed(clause.text):
        return None
    fragment = re.sub(rf"(?i)^{_YES}\s+|\s+{_YES}$", "", " ".join(m.group("frag").split())).strip()
    words = _WORD.findall(fragment.lower())
    if not words:
        return None
    questions = [c for c in clauses(previous.text) if c.is_question]
    if not questions:
        return None
    last = questions[-1]
    asked = set(_WORD.findall(last.text.lower()))
    if not set(words) <= asked or not _addressed_to_listener(last, previous, turn.speaker):
        return None
    said = f"I'm {(m.group('art') or '').lower()}{fragment.lower()}"
    return part_of(" ".join(said.split()), clause.start)
