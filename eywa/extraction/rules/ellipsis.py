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
from collections.abc import Collection
from typing import Final

from eywa.extraction.replies import bare_reply
from eywa.extraction.rules.clause import A, Part, part_of
from eywa.extraction.text import Clause, clauses
from eywa.models import Evidence, SignalKind

__all__ = [
    "ASKED_BE",
    "ASKED_DO",
    "ASKED_HAVE",
    "ASKED_STATUS",
    "NOT_PLACES",
    "OPENING",
    "answer_reply",
    "called_by_name",
    "elliptical_answer",
    "place_reply",
    "question_put_to",
    "yes_no_reply",
]

_YES = rf"(?:yes|yeah|yep|yup|indeed|exactly|correct|that{A}s\s+right|that\s+is\s+right|right)"
_FRAGMENT = re.compile(
    rf"(?i:^(?:{_YES}[,!]?\s+)?(?P<art>(?:a|an)\s+)?(?P<frag>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){{0,2}})"
    rf"(?:[,!]?\s+{_YES})?[.!]*$)"
)
_THIRD_PERSON = re.compile(r"\b(?:he|she|they|him|her|his|hers|them|their)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z-]*")
_WITH_BEFORE = re.compile(r"(?i)\b(?:still\s+|now\s+)?with\s+$")
"""Right before a name: the listener is asked to be with them ("Are you still with Sam?")."""


def _affirmed(text: str) -> bool:
    return re.search(rf"(?i)(?:^|[\s,]){_YES}(?:[\s,.!]|$)", text) is not None


def _addressed_to_listener(question: Clause, asker: Evidence, answerer: str, pets: Collection[str] = ()) -> bool:
    """Whether ``question`` asks the one replying about themselves: no third-person pronoun,
    and no one named but the two of them, or someone the listener is asked to be with ("Are
    you still with Sam?": Sam is what is asked, not whom), or a pet the listener's earlier
    beliefs hold by that name (``pets``, case-folded: "Do you still have Rex?" asks about
    their dog, though Level 0 reads the name as a person's)."""
    if _THIRD_PERSON.search(question.text):
        return False
    for signal in asker.signals:
        if signal.kind is SignalKind.PERSON and question.start <= signal.start < question.end:
            if _WITH_BEFORE.search(asker.text, 0, signal.start):
                continue
            name = (signal.normalized or signal.text).casefold()
            if name not in {answerer.casefold(), (asker.speaker or "").casefold()} and name not in pets:
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


OPENING = r"(?:(?:and|so|oh|hey|well)\s*,?\s+)?(?:(?P<called>[a-z]+)\s*,\s*)?"
"""What may open a question before "do you": "so", "hey", "and you," (the question turned
back on the listener: "And you, do you still live in Leeds?"), and a name, which must be the
one replying's (``called_by_name``: "Ana, do you still live in Porto?")."""
_OPENERS = frozenset({"and", "so", "oh", "hey", "well", "okay", "ok", "now", "then", "you"})


def called_by_name(asked: re.Match[str], answerer: str) -> bool:
    """Whether the word before the question's comma, if any, opens it or names the one replying."""
    called = asked.group("called")
    return called is None or called.casefold() in _OPENERS or called.casefold() == answerer.split()[0].casefold()
_TAG = r"(?:right|correct|yeah|yes|no|aren['’]t\s+you|don['’]t\s+you|didn['’]t\s+you|isn['’]t\s+it)"
_ASKED_TAG = re.compile(
    rf"(?i)^\s*{OPENING}you(?P<be>['’]re|\s+are)?\s+(?P<still>still\s+)?(?P<rest>[a-z][^,?]*?)\s*"
    rf"(?:,\s*(?:{_TAG}|(?P<named>[a-z]+)))?\s*\?\s*$"
)
"""A statement about the listener asked back for a yes or no: "Ana, you live in Leeds,
right?", "And you work at Globex, Ben?", "You're still in Porto?"."""
ASKED_DO = re.compile(rf"(?i)^\s*{OPENING}do\s+you\s+(?P<still>still\s+)?(?P<rest>[a-z].*?)\s*\?\s*$")
ASKED_BE = re.compile(
    rf"(?i)^\s*{OPENING}(?:are\s+you\s+(?P<still>still\s+)?|(?P<dropped>still)\s+)(?P<rest>[a-z].*?)\s*\?\s*$"
)
"""A yes/no question put to the listener about what they do or are: "Do you still work at
Initech?", "Are you still living in Porto?", and with "are you" dropped before "still":
"Still at Initech?", "Still living in Porto?" (put to the listener as the one before it is:
``_addressed_to_listener``)."""


def question_put_to(
    turn: Evidence, clause: Clause, previous: Evidence | None, pets: Collection[str] = ()
) -> Clause | None:
    """The question a reply leans on: the last clause of the turn just before, when it closes
    that turn, is in the same session, by someone else, and addressed to the one replying
    (``_addressed_to_listener``, which ``pets`` goes to), and the reply's clause is the first
    of its turn; else None."""
    if previous is None or not turn.speaker or previous.speaker == turn.speaker or previous.session != turn.session:
        return None
    if clause.start > len(turn.text) - len(turn.text.lstrip()):
        return None
    questions = [c for c in clauses(previous.text) if c.is_question]
    if not questions or questions[-1].end < len(previous.text.rstrip()) or not _addressed_to_listener(
        questions[-1], previous, turn.speaker, pets
    ):
        return None
    return questions[-1]


def yes_no_reply(
    turn: Evidence, clause: Clause, previous: Evidence | None, pets: Collection[str] = ()
) -> tuple[Part, str] | None:
    """The first-person statement a bare yes or no makes of the question just put to the
    speaker, and the question turn's id, which the fact cites beside the reply ("Do you
    still work at Initech?" — "Yes." is "I still work at Initech"; — "Not anymore." is "I
    don't work at Initech anymore"), else None.

    The reply leans on the question for everything it says, so it is read only when the
    question is the last clause of the turn just before, in the same session, by someone
    else, addressed to the one replying (``_addressed_to_listener``: no other person, no
    third-person pronoun), asks "do you …" or "are you …", and the reply's clause is the
    first of its turn and holds nothing but the yes or no. A "no" to "still" is an end
    ("anymore"); to a plain question, a denial. ``pets``: the names the speaker's earlier
    beliefs hold as their pets, which a question may name ("Do you still have Rex?").
    """
    put = question_put_to(turn, clause, previous, pets)
    if put is None or previous is None or not turn.speaker:  # the helper checked both; for the types
        return None
    question = put.text
    if (tagged := _tagged_reply(put.text, clause, turn.speaker)) is not None:
        return part_of(tagged, clause.start), previous.id
    asked = ASKED_DO.match(question) or ASKED_BE.match(question)
    if asked is None or not called_by_name(asked, turn.speaker) or re.search(r"(?i)\b(?:you|your|yours|or)\b", asked.group("rest")):
        return None
    be = asked.re is ASKED_BE
    still = bool(asked.group("still") or (be and asked.group("dropped")))
    rest = asked.group("rest")
    reply = bare_reply(clause.text.strip())
    if reply is None:
        return None
    if reply == "yes":
        said = f"I'm {'still ' if still else ''}{rest}" if be else f"I {'still ' if still else ''}{rest}"
    else:
        said = f"I'm not {rest}" if be else f"I don't {rest}"
        said += " anymore" if still or reply == "ended" else ""
    return part_of(said + ".", clause.start), previous.id


def _tagged_reply(question: str, clause: Clause, answerer: str) -> str | None:
    """The statement a bare yes or no makes of a statement about the listener asked back
    ("Ana, you live in Leeds, right?" — "Yes." is "I live in Leeds."; "No." is "I don't live
    in Leeds."), the name before or after it the one replying's; else None."""
    asked = _ASKED_TAG.match(question)
    if asked is None or not called_by_name(asked, answerer):
        return None
    named = asked.group("named")
    if named is not None and named.casefold() != answerer.split()[0].casefold():
        return None
    rest = asked.group("rest")
    reply = bare_reply(clause.text.strip())
    if reply is None or re.search(r"(?i)\b(?:you|your|yours|or)\b", rest):
        return None
    be, still = asked.group("be") is not None, "still " if asked.group("still") else ""
    if reply == "yes":
        return f"I'm {still}{rest}." if be else f"I {still}{rest}."
    if not be and re.match(r"(?i)[a-z]+ed\b", rest):
        return None  # "you moved to York?" — "No.": "I don't moved" says nothing
    ended = " anymore" if still or reply == "ended" else ""
    return f"I'm not {rest}{ended}." if be else f"I don't {rest}{ended}."


_ASKED_WHERE = re.compile(
    rf"(?i)^\s*{OPENING}where\s+(?P<aux>do|are)\s+you\s+(?P<verb>[a-z]+)\b(?P<rest>[^?]*)\?\s*$"
)
"""A question put to the listener about where they do something: "Where do you work these
days?", "Where are you living now?"."""
_PLACE_REPLY = re.compile(r"^\s*(?P<prep>(?i:at|in|for|near))\s+(?P<place>[A-Z][^,.;!?]*)(?P<tail>[^.!?]*)[.!]*\s*$")
"""A reply that is only the place: "At Globex.", "In Porto, near the river." (a capitalised
name right after the preposition)."""
_BARE_PLACE_REPLY = re.compile(
    r"^\s*(?P<place>[A-Z][\w'’&.-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w'’&.-]*){0,3})(?:,[^.!?]*)?[.!]*\s*$"
)
"""A reply that is only the name, its preposition left to the question: "Lisbon!", "Globex, in
the finance team." ("Where are you living now?": in Lisbon; "Where do you work?": at Globex)."""
_PARTICLE = re.compile(r"(?i)\s*(?:out|up|on|off|over|through|with|to|for)\b")
"""A particle right after the verb, which makes it another verb ("work out", "stay over")."""
_PLACE_PREP: Final = {"live": "in", "living": "in", "stay": "in", "staying": "in", "based": "in",
                      "work": "at", "working": "at", "study": "at", "studying": "at", "teach": "at",
                      "teaching": "at"}  # fmt: skip
"""The preposition a bare name takes after the verb the question asked with."""
NOT_PLACES: Final = frozenset(
    """yes yeah yep yup no nope nah sure same still here there home everywhere nowhere somewhere
    around mostly well oh haha lol hmm um uh honestly actually nothing none anywhere""".split()
)
"""Capitalised words a reply to "where …?" opens with that name no place."""


def place_reply(turn: Evidence, clause: Clause, previous: Evidence | None) -> tuple[Part, str] | None:
    """The first-person statement a reply of nothing but a place makes of the "where do
    you …" question just put to the speaker ("Where do you work these days?" — "At Globex."
    is "I work at Globex"), and the question turn's id, which the fact cites beside the
    reply; else None. The same conditions as ``yes_no_reply``: the question closes the turn
    just before, in the same session, by someone else, addressed to the one replying, and
    the reply is the first clause of its turn."""
    put = question_put_to(turn, clause, previous)
    if put is None or previous is None or not turn.speaker:  # the helper checked both; for the types
        return None
    asked = _ASKED_WHERE.match(put.text)
    if asked is None or not called_by_name(asked, turn.speaker) or re.search(r"(?i)\b(?:you|your|or)\b", asked.group("rest")):
        return None
    if _PARTICLE.match(asked.group("rest")):
        return None  # "Where do you work out?": another verb than the one the reply would say
    verb = asked.group("verb").lower()
    if (place := _PLACE_REPLY.match(clause.text.strip())) is not None:
        prep, name = place.group("prep").lower(), place.group("place").strip()
    elif (bare := _BARE_PLACE_REPLY.match(clause.text.strip())) is not None and verb in _PLACE_PREP:
        prep, name = _PLACE_PREP[verb], bare.group("place")
        if name.split()[0].casefold() in NOT_PLACES:
            return None
    else:
        return None
    subject = "I'm" if asked.group("aux").lower() == "are" else "I"
    return part_of(f"{subject} {verb} {prep} {name}.", clause.start), previous.id


_COUNT = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"
_ASKED_AGE = re.compile(rf"(?i)^\s*{OPENING}how\s+old\s+are\s+you(?:\s+now)?\s*\?\s*$")
_AGE_REPLY = re.compile(
    r"(?i)^\s*(?:i['’]m\s+|i\s+am\s+)?(?:just\s+|almost\s+)?(?P<n>\d{1,3}|[a-z]+(?:[- ][a-z]+)?)"
    r"(?:\s+(?:years?\s+old|years?|this\s+year))?[.!]*\s*$"
)
ASKED_HAVE = re.compile(
    rf"(?i)^\s*{OPENING}(?:(?:do\s+you\s+have|have\s+you\s+got)\s+(?:any\s+)?|any\s+)"
    r"(?P<what>kids|children|pets|siblings|brothers|sisters|a\s+pet|a\s+dog|a\s+cat)\s*\?\s*$"
)
"""A question whether the listener has kids, pets or siblings: "Do you have any kids?", "Have
you got a dog?", and its short form "Any kids?"."""
_HAVE_REPLY = re.compile(
    rf"(?i)^\s*(?:(?:yes|yeah|yep|yup|we\s+do|i\s+do)[,!.]?\s+)?(?:just\s+|only\s+)?(?P<n>{_COUNT})\s+"
    r"(?P<np>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}(?:,?\s+(?:named|called)\s+[A-Z][a-z]+(?:\s+and\s+[A-Z][a-z]+)?"
    r"|,\s+(?-i:[A-Z][a-z]+)(?:(?:,\s+|,?\s+and\s+)(?-i:[A-Z][a-z]+)){0,3})?)"
    r"[.!]*\s*$"
)
"""A reply of how many and of what: "Two boys.", "Yes, a cat named Luna.", and with the names
after a comma: "Two cats, Luna and Milo.", "One daughter, Mia."."""
_ASKED_FROM = re.compile(rf"(?i)^\s*{OPENING}where\s+are\s+you\s+(?:originally\s+)?from(?:\s+originally)?\s*\?\s*$")
_FROM_REPLY = re.compile(
    r"^\s*(?:(?i:originally)\s+)?(?:(?i:from)\s+)?(?P<place>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3})"
    r"(?:,\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)?(?:,?\s+(?i:originally))?[.!]*\s*$"
)
ASKED_STATUS = re.compile(rf"(?i)^\s*{OPENING}are\s+you\s+(?P<st>married|engaged|single|divorced)\s*\?\s*$")
_YES_FOR = re.compile(
    r"(?i)^\s*(?:yes|yeah|yep|yup|i\s+am)[,!.]?\s+(?P<how>for|since)\s+(?P<span>[^.!?]+?)(?:\s+now)?[.!]*\s*$"
)


def answer_reply(turn: Evidence, clause: Clause, previous: Evidence | None) -> tuple[Part, str] | None:
    """The first-person statement a short reply makes of a question put to its speaker that
    asks for a value rather than a yes or no, and the question turn's id (cited beside the
    reply), else None: "How old are you?" — "34." is "I'm 34"; "Do you have
    kids?" — "Yes, two boys." is "I have two boys"; "Do you have pets?" — "Just a cat named
    Luna." is "I have a cat named Luna"; "Where are you from?" — "Originally from Lima." is
    "I'm from Lima"; "Are you married?" — "Yes, for ten years now." is "I've been married
    for ten years". The same conditions as ``yes_no_reply`` (``question_put_to``): the
    question closes the turn just before, in the same session, by someone else, addressed
    to the one replying, and the reply is the first clause of its turn and nothing else."""
    put = question_put_to(turn, clause, previous)
    if put is None or previous is None:
        return None
    said = _said_by_reply(put.text, clause.text.strip(), turn.speaker or "")
    return None if said is None else (part_of(said, clause.start), previous.id)


def _said_by_reply(question: str, reply: str, answerer: str) -> str | None:
    """What ``reply`` says in the first person, given the ``question`` it answers (above)."""
    if (asked := _ASKED_AGE.match(question)) is not None and called_by_name(asked, answerer):
        age = _AGE_REPLY.match(reply)
        return f"I'm {age.group('n')}." if age is not None else None
    if (asked := ASKED_HAVE.match(question)) is not None and called_by_name(asked, answerer):
        have = _HAVE_REPLY.match(reply)
        if have is None:
            return None
        return f"I have {have.group('n').lower()} {have.group('np')}."
    if (asked := _ASKED_FROM.match(question)) is not None and called_by_name(asked, answerer):
        place = _FROM_REPLY.match(reply)
        return f"I'm from {place.group('place')}." if place is not None and place.group("place") not in {"I", "Yes"} else None
    if (asked := ASKED_STATUS.match(question)) is not None and called_by_name(asked, answerer):
        lasting = _YES_FOR.match(reply)
        if lasting is None:
            return None
        return f"I've been {asked.group('st').lower()} {lasting.group('how').lower()} {lasting.group('span').strip()}."
    return None
