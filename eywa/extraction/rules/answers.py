"""Short replies that tell a value: a yes or a no with the value beside it, or the value alone.

"Do you still live in Leeds?" — "No, York now." says two things the question alone makes
readable: the one replying no longer lives in Leeds, and lives in York. ``yes_no_reply``
(``ellipsis``) reads a reply of nothing but its yes or no; this module reads the reply that
adds the value the question asked about:

- a no and the new value, to a yes/no question about what the listener does or is: "Are
  you still working at Initech?" — "Nope, Globex now." / "No, I moved to Globex in March." is
  "I'm not working at Initech anymore" and "I'm working at Globex now"; "Are you still a
  teacher?" — "No, a nurse now." is "I'm a nurse now";
- a yes and the value: "Are you seeing anyone?" — "Yeah, his name is Sam." is "I'm seeing
  someone, his name is Sam"; "Are you working these days?" — "Yes, at Globex." is "I'm
  working at Globex";
- the value alone, to a question that asks for it: "What do you do?" — "Nurse, at the city
  hospital." is "I'm a nurse, at the city hospital"; "Who are you dating?" — "Sam, from my
  climbing gym." is "I'm dating Sam";
- a no and the other state: "Are you married?" — "Nope, single." is "I'm single";
- a no and a clause of one's own that says something ended: "Are you still with Sam?" — "No,
  we broke up." is "I'm not with Sam anymore" and "we broke up" (read where it is said).

Each reading is a first-person sentence the ordinary rules then read, so a reply yields only
what those rules would yield for it, and the fact cites the question beside the reply. The
conditions are ``yes_no_reply``'s (``question_put_to``): the question closes the turn just
before, in the same session, by someone else, addressed to the one replying (no other
person, no third-person pronoun), and the reply is the first clause of its turn and says
nothing else. A value Level 0 read as a date, time or number ("No, Mondays now") is no new
place or employer.
"""

from __future__ import annotations

import re
from typing import Final

from eywa.cessation import cessations
from eywa.extraction.context import Named
from eywa.extraction.replies import opening_reply
from eywa.extraction.rules.clause import A, Part, part_of
from eywa.extraction.rules.ellipsis import (
    ASKED_BE,
    ASKED_DO,
    ASKED_HAVE,
    ASKED_STATUS,
    NOT_PLACES,
    OPENING,
    called_by_name,
    question_put_to,
)
from eywa.extraction.rules.phrasing import article
from eywa.extraction.text import Clause
from eywa.models import Evidence, SignalKind

__all__ = ["value_reply"]

_NAME = r"[A-Z][\w'’&.-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w'’&.-]*){0,3}"
"""A capitalised name of up to four words: "Globex", "Bank of Leeds"."""
_KIND = r"(?:a|an)\s+[a-z][a-z-]*(?:\s+(?!now\b|these\s+days\b|instead\b)[a-z][a-z-]*){0,2}"
"""A kind of person one is: "a nurse", "an software engineer"."""
_NOW = r"(?:\s+(?:now|these\s+days|instead|at\s+the\s+moment))?"
_YES = rf"(?:yes|yeah|yep|yup|sure|i\s+am|i\s+do|i{A}m)"

_NO_THEN = re.compile(
    rf"^\s*(?i:no|nope|nah|not\s+any\s*more|no\s+longer)\s*[,;—–-]?\s+"
    rf"(?:(?i:i(?:{A}m|\s+am))\s+(?P<prep>(?i:at|in|for))\s+)?"
    rf"(?P<new>{_NAME}|(?i:{_KIND})){_NOW}"
    rf"(?:\s+(?i:in|since|last|this)\s+[A-Za-z]+)?[.!]*\s*$"
)
"""A no and the new value: "Nope, Globex now.", "Not anymore, I'm at Globex now.", "No, a
nurse now." (not "No, I moved to Lyon." to "Do you still work at Globex?": a move says where
one lives, not where one works, and is read as the ordinary rules read it)."""
_NOT_NAMES: Final = NOT_PLACES | frozenset(
    """i not monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays
    saturday saturdays sunday sundays weekends weekdays january february march april may june july
    august september october november december christmas easter""".split()
)
"""Capitalised words a no may go on with that name no new place or employer ("No, Mondays
now": when, not where; Level 0 may take such a word for a name)."""
_ASKED_AT = re.compile(
    r"^(?:(?P<head>[a-z]+)\s+)?(?P<prep>at|in|for)\s+(?P<old>[A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,3})"
    r"(?:\s+(?:now|these\s+days|anymore|any\s+more))?$"
)
"""What a yes/no question asked the listener does at a place: "work at Initech", "living in
Leeds", or with no verb, "at Initech" ("Still at Initech?"), which may be a workplace or where
one stands: read only where the speaker's earlier beliefs hold Initech as their employer (or
Leeds, "in Leeds", as their residence), as that attribute's verb says it (``_HELD_AS``)."""
_HELD_AS: Final = {("at", "employer"): "work at", ("for", "employer"): "work for", ("in", "residence"): "live in"}
"""The verb and preposition a verb-less question's place takes when the speaker held it as
the attribute: "Still at Initech?" of one who works at Initech asks whether they work there."""
_ASKED_KIND = re.compile(rf"^(?P<old>{_KIND})$")
"""What a yes/no question asked the listener is: "a teacher"."""
_WORKING: Final = frozenset({"work", "working", "teach", "teaching"})
"""Verbs of a job, whose answer may be the kind of work now: "Do you still work at Initech?" —
"No, a freelancer now."."""

_ASKED_PARTNER = re.compile(
    r"(?i)^(?P<verb>seeing|dating)\s+(?:anyone|anybody|someone|somebody)"
    r"(?:\s+(?:now|right\s+now|at\s+the\s+moment|these\s+days|special))?$"
)
"""Whether the listener is seeing anyone: the rest of "Are you seeing anyone these days?"."""
_PARTNER_NAMED = re.compile(
    rf"^\s*(?i:{_YES})[,!.]?\s+(?:(?P<pron>(?i:his|her|their))\s+name(?:{A}s|\s+is)\s+(?P<name>[A-Z][a-z]+)"
    r"|(?i:a\s+(?:guy|girl|man|woman|lady)|someone)\s+(?i:called|named)\s+(?P<called>[A-Z][a-z]+))"
    r"(?:\s*,[^.!?]*)?[.!]*\s*$"
)
"""A yes and the partner's name: "Yeah, his name is Sam.", "Yes, her name's Lily.", "Yep, a
guy called Sam."."""
_BARE_YES = re.compile(rf"(?i)^\s*{_YES}[.!]*\s*$")
_ASKED_DOING = re.compile(
    r"(?i)^(?P<verb>working|living|studying|teaching|based|work|live|study|teach)"
    r"(?:\s+(?:now|these\s+days|at\s+the\s+moment|right\s+now|currently))?$"
)
"""Whether the listener works, lives or studies somewhere, no place named: the rest of "Are
you working these days?"."""
_YES_AT = re.compile(
    rf"^\s*(?i:{_YES})[,!.]?\s+(?P<prep>(?i:at|in|for))\s+(?P<place>{_NAME})(?:\s*,[^.!?]*)?{_NOW}[.!]*\s*$"
)
"""A yes and where: "Yes, at Globex.", "Yep, in York, near the river."."""

_ASKED_WHAT = re.compile(
    rf"(?i)^\s*{OPENING}what\s+do\s+you\s+do(?:\s+(?:for\s+(?:a\s+living|work)|these\s+days|now|nowadays))?\s*\?\s*$"
)
_KIND_REPLY = re.compile(
    rf"(?i)^\s*(?:i{A}m\s+|i\s+am\s+)?(?:(?:a|an)\s+)?(?P<kind>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){{0,2}}?)"
    rf"(?P<where>\s*,?\s+(?:at|in|for)\s+[^.!?,]+)?(?:\s*,?\s+(?:now|these\s+days))?[.!]*\s*$"
)
"""What one does, the kind of work alone: "Nurse, at the city hospital.", "A nurse.",
"Software engineer at Globex."."""
_NOT_KINDS: Final = frozenset(
    """not nothing much same stuff things this that it lots various all bit everything whatever
    no nope nah yes yeah yep sure well oh haha lol hmm um uh honestly actually mostly just""".split()
)
"""Words that open a reply to "what do you do?" naming no kind of work ("Not much.")."""
_ASKED_WHO = re.compile(
    rf"(?i)^\s*{OPENING}who\s+are\s+you\s+(?P<verb>dating|seeing)"
    r"(?:\s+(?:now|these\s+days|at\s+the\s+moment))?\s*\?\s*$"
)
_WHO_REPLY = re.compile(r"^\s*(?P<name>[A-Z][a-z]+)(?:\s*,[^.!?]*|\s+(?:now|from\s+[^.!?]+))?[.!]*\s*$")
"""The partner's name alone: "Sam, from my climbing gym.", "Sam now."."""

_STATUS: Final = ("married", "engaged", "single", "divorced", "widowed", "separated")
_OTHER_STATUS = re.compile(
    rf"(?i)^\s*(?:no|nope|nah)[,!.;—–-]?\s+(?:i{A}m\s+|i\s+am\s+)?(?:still\s+)?"
    rf"(?P<st>{'|'.join(_STATUS)})(?:\s+now)?[.!]*\s*$"
)
"""A no and the other state: "Nope, single.", "No, divorced now."."""
_NONE_OF = re.compile(r"(?i)^\s*(?:no|nope|nah)[,!.;—–-]?\s+no\s+(?P<what>[a-z]+)(?:\s+yet)?[.!]*\s*$")
"""A no and the thing asked about, denied: "Nope, no kids.", "No, no pets yet."."""


def value_reply(
    turn: Evidence, clause: Clause, previous: Evidence | None, held: Named
) -> tuple[tuple[Part, ...], str] | None:
    """The first-person statements a short reply that tells a value makes of the question
    just put to its speaker (see the module docstring), and the question turn's id, which
    the facts cite beside the reply; else None. ``held`` is what each person's earlier
    beliefs hold (``eywa.extraction.context``): "Still at Initech?" asks of a job only where
    Initech is the one replying's employer."""
    put = question_put_to(turn, clause, previous)
    if put is None or previous is None or not turn.speaker:  # the helper checked both; for the types
        return None
    reply = clause.text.strip()
    said = (_replaced(put.text, reply, turn, clause, held) or _yes_with(put.text, reply, turn.speaker)
            or _asked_value(put.text, reply, turn.speaker))  # fmt: skip
    if said is None:
        return _no_and_more(put.text, clause, turn.speaker, previous.id)
    return tuple(part_of(s, clause.start) for s in said), previous.id


_NO_AND_MORE = re.compile(
    rf"^(?P<no>\s*(?i:no|nope|nah|not\s+any\s*more|no\s+longer)\s*[,;—–-]\s*)(?=(?:I|[Ww]e)(?:\s|{A}))"
)
"""A no, then a clause of the one replying's own: "No, we broke up.", "Nope, we split up in May"."""


def _no_and_more(question: str, clause: Clause, answerer: str, asked: str) -> tuple[tuple[Part, ...], str] | None:
    """"I'm not with Sam anymore." and "we broke up." for "Are you still with Sam?" — "No, we
    broke up.": a no that goes on to say something ended (``eywa.cessation``) answers the
    question as a bare no would (``yes_no_reply``), and what follows it is read where it is
    said, as the ordinary rules read it; None for any other reply ("No, I moved to Lyon" to
    "Do you still work at Globex?" says another thing, and is read as it is said)."""
    asked_as = _yes_no_asked(question, answerer)
    m = _NO_AND_MORE.match(clause.text)
    if asked_as is None or m is None or opening_reply(clause.text) is None:
        return None  # "No, I'm still with him": a no taken back
    if not any(not c.cancelled for c in cessations(clause.text[m.end() :])):
        return None  # "No, I moved to Lyon" to "Do you still work at Globex?": another thing, no end said
    be, still, rest = asked_as
    ended = f"I'm not {rest}" if be else f"I don't {rest}"
    ended += " anymore." if still or re.match(r"(?i)\s*(?:not\s+any|no\s+longer)", clause.text) else "."
    return (part_of(ended, clause.start), part_of(clause.text[m.end() :], clause.start + m.end())), asked


def _yes_no_asked(question: str, answerer: str) -> tuple[bool, bool, str] | None:
    """Whether a yes/no question put to ``answerer`` asks with "are you", with "still", and
    what it asks ("work at Initech"), or None."""
    asked = ASKED_DO.match(question) or ASKED_BE.match(question)
    if asked is None or not called_by_name(asked, answerer):
        return None
    if re.search(r"(?i)\b(?:you|your|yours|or)\b", asked.group("rest")):
        return None  # "Do you still work with your sister?", "… at Initech or Globex?"
    be = asked.re is ASKED_BE
    return be, bool(asked.group("still") or (be and asked.group("dropped"))), asked.group("rest").strip()


def _dated(turn: Evidence, clause: Clause, value: str) -> bool:
    """Whether Level 0 read a date, time or number inside ``value`` where the reply says it."""
    at = clause.text.find(value)
    if at < 0:
        return False
    start, end = clause.start + at, clause.start + at + len(value)
    kinds = {SignalKind.DATE, SignalKind.TIME, SignalKind.NUMBER, SignalKind.DURATION}
    return any(s.kind in kinds and start <= s.start < end for s in turn.signals)


def _replaced(question: str, reply: str, turn: Evidence, clause: Clause, held: Named) -> tuple[str, ...] | None:
    """"I'm not working at Initech anymore." and "I'm working at Globex now." for "Are you
    still working at Initech?" — "Nope, Globex now."; None when the reply is no such no."""
    asked = _yes_no_asked(question, turn.speaker or "")
    m = _NO_THEN.match(reply)
    if asked is None or m is None:
        return None
    be, still, rest = asked
    new = m.group("new").strip().rstrip(".")  # the name may take the reply's full stop
    kind = re.match(r"(?i)(?:a|an)\s", new)
    if kind is None and (not _NOT_NAMES.isdisjoint(w.casefold() for w in new.split()) or _dated(turn, clause, new)):
        return None
    ended = f"I'm not {rest}" if be else f"I don't {rest}"
    ended += " anymore." if still or re.match(r"(?i)not\s+any|no\s+longer", reply.strip()) else "."
    subject = "I'm" if be else "I"
    if (at := _ASKED_AT.match(rest)) is not None:
        head, prep = (at.group("head") or "").lower(), at.group("prep")
        if kind is not None:
            return (ended, f"I'm {new.lower()} now.") if head in _WORKING else None
        if new.casefold() == at.group("old").casefold():
            return None
        if m.group("prep") and m.group("prep").lower() != prep:
            return None  # "Do you still work at Globex?" — "No, I'm in Lyon now.": another thing
        if not head:
            known = held.get((turn.speaker or "").casefold(), {}).get(at.group("old").casefold())
            verb = _HELD_AS.get((prep, known[0])) if known is not None else None
            return None if verb is None else (f"I don't {verb} {at.group('old')} anymore.", f"I {verb} {new} now.")
        return ended, f"{subject} {at.group('head')} {prep} {new} now."
    if kind is not None and ((_ASKED_KIND.match(rest) is not None and be) or rest.lower() in _WORKING):
        return ended, f"I'm {new.lower()} now."
    return None


def _yes_with(question: str, reply: str, answerer: str) -> tuple[str, ...] | None:
    """"I'm seeing someone, his name is Sam." for "Are you seeing anyone?" — "Yeah, his name
    is Sam."; "I'm working at Globex." for "Are you working these days?" — "Yes, at Globex."."""
    asked = _yes_no_asked(question, answerer)
    if asked is None:
        return None
    be, still, rest = asked
    if be and (partner := _ASKED_PARTNER.match(rest)) is not None:
        verb = partner.group("verb").lower()
        if _BARE_YES.match(reply):
            return (f"I'm {verb} someone.",)
        if (named := _PARTNER_NAMED.match(reply)) is not None:
            pron = (named.group("pron") or "their").lower()
            return (f"I'm {verb} someone, {pron} name is {named.group('name') or named.group('called')}.",)
        return None
    if (doing := _ASKED_DOING.match(rest)) is not None and (at := _YES_AT.match(reply)) is not None:
        verb, subject = doing.group("verb").lower(), "I'm" if be else "I"
        return (f"{subject} {verb} {at.group('prep').lower()} {at.group('place').rstrip('.')}.",)
    return None


def _asked_value(question: str, reply: str, answerer: str) -> tuple[str, ...] | None:
    """"I'm a nurse, at the city hospital." for "What do you do?" — "Nurse, at the city
    hospital."; "I'm dating Sam." for "Who are you dating?" — "Sam, from my gym."; "I'm
    single." and "I'm not married." for "Are you married?" — "Nope, single."; "I don't have
    kids." for "Do you have any kids?" — "Nope, no kids."."""
    if (asked := _ASKED_WHAT.match(question)) is not None and called_by_name(asked, answerer):
        m = _KIND_REPLY.match(reply)
        if m is None or not _NOT_KINDS.isdisjoint(m.group("kind").lower().split()):
            return None
        kind = m.group("kind").lower()
        return (f"I'm {article(kind)} {kind}{m.group('where') or ''}.",)
    if (asked := _ASKED_WHO.match(question)) is not None and called_by_name(asked, answerer):
        who = _WHO_REPLY.match(reply)
        if who is None or who.group("name").casefold() in NOT_PLACES:
            return None
        if asked.group("verb").lower() == "dating":
            return (f"I'm dating {who.group('name')}.",)
        return (f"I'm seeing someone, their name is {who.group('name')}.",)
    if (asked := ASKED_HAVE.match(question)) is not None and called_by_name(asked, answerer):
        none = _NONE_OF.match(reply)
        what = asked.group("what").lower()
        if none is None or none.group("what").lower().rstrip("s") != what.split()[-1].rstrip("s"):
            return None  # "Any kids?" — "No, no time for that.": another thing
        return (f"I don't have {what}.",)
    if (asked := ASKED_STATUS.match(question)) is not None and called_by_name(asked, answerer):
        other = _OTHER_STATUS.match(reply)
        if other is None or other.group("st").lower() == asked.group("st").lower():
            return None
        return f"I'm not {asked.group('st').lower()}.", f"I'm {other.group('st').lower()}."
    return None
