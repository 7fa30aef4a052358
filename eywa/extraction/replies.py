"""Bare yes/no replies: what a turn of nothing but "Yes." or "Not anymore." answers.

Such a reply leans on the question put to its speaker for everything it says: "Do you still
work at Initech?" — "Yes." says the speaker still works there, "Not anymore." that they no
longer do. The rule extractor reads the reply as the question says
(``eywa.extraction.rules.ellipsis.yes_no_reply``) and cites both turns; the validator then
reads the polarity from the reply, not from the question (which asserts nothing), for any
extractor that cites a question with its bare reply. Both use this one reading, so what the
rules propose and what the validator accepts cannot drift apart. A no that goes on with a
value of its own ("No, York now.", ``opening_reply``) answers the question the same way for
the value the question named; the value it adds is the reply's (``rules.answers``).
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["Reply", "bare_reply", "opening_reply"]

Reply = Literal["yes", "no", "ended"]
"""A yes; a no (a denial); a no that says the thing ended ("not anymore", "no longer")."""

_A = r"['’]"
_YES = rf"(?:yes|yeah|yep|yup|indeed|exactly|correct|that{_A}s\s+right|that\s+is\s+right|right|sure|of\s+course|absolutely)"
_REPLY_YES = re.compile(
    rf"(?i)^\s*(?:{_YES}|i\s+do|i\s+am|i{_A}m)"
    rf"(?:[,!]?\s+(?:{_YES}|i\s+(?:still\s+)?(?:do|am)|i{_A}m(?:\s+still)?|still(?:\s+(?:do|am|there))?))*[.!]*\s*$"
)
_ENDED = rf"(?:not\s+any\s*more|no\s+longer|i\s+(?:do\s+not|don{_A}t)\s+any\s*more|i{_A}m\s+not\s+any\s*more|i\s+am\s+not\s+any\s*more)"
_DENIED = rf"(?:i\s+(?:do\s+not|don{_A}t)|i{_A}m\s+not|i\s+am\s+not|not\s+really|none(?:\s+yet)?)"
_REPLY_NO = re.compile(
    rf"(?i)^\s*(?:(?P<no>no|nope|nah)(?:[,!.]?\s+|[.!]*\s*$))?"
    rf"(?:(?P<ended>{_ENDED})|(?P<denied>{_DENIED}))?[.!]*\s*$"
)


_LEFT_SINCE = re.compile(
    r"(?i)^\s*(?:(?:no|nope|nah|not\s+any\s*more|no\s+longer)[,.!]?\s+)?(?:i\s+(?:actually\s+|already\s+)?(?:left|quit)"
    r"|i{_A}ve\s+(?:left|quit))"
    r"(?:\s+(?:in\s+\w+|last\s+\w+|this\s+\w+|back\s+in\s+\w+|a\s+(?:while|year|month|week)\s+ago|\w+\s+\w+\s+ago"
    r"|recently|already|earlier\s+this\s+\w+))?[.!]*\s*$".replace("{_A}", _A)
)
"""A no that says the one replying left, and when: "Nope, I left in May.", "I quit last
year.", "Not anymore, I quit." (nothing else: what they left is what the question asked about)."""


def bare_reply(text: str) -> Reply | None:
    """What ``text`` (a reply's first clause, or a whole short reply) answers, when it is
    nothing but a yes or a no: "Yes.", "Yep, still there.", "No.", "Nope, I don't.", "Not
    anymore.", "No, no longer.", "Nope, I left in May.", "Not anymore, I quit." (an end), "No, none yet." (a no); None when it says anything of its own ("No, I moved to
    Lyon") or nothing."""
    if _REPLY_YES.match(text):
        return "yes"
    if _LEFT_SINCE.match(text):
        return "ended"
    m = _REPLY_NO.match(text)
    if m is None or not (m.group("no") or m.group("ended") or m.group("denied")):
        return None
    return "ended" if m.group("ended") else "no"


_OPENING_NO = re.compile(
    rf"(?i)^\s*(?:(?P<ended>not\s+any\s*more|no\s+longer)|no|nope|nah)\s*[,;:—–-]\s*(?!(?:i\s+(?:do|am)|i{_A}m)(?:\s+still\b|[.!]*\s*$)|still\b)\w"
)
"""A no with something after its pause: "No, York now.", "Nope, single.", "Not anymore —
I'm at Globex." (not "No, I do.", "No, I'm still there": a no taken back is no reply of this kind)."""


def opening_reply(text: str) -> Reply | None:
    """The no a reply opens with, when it goes on to say something of its own: "Do you
    still live in Leeds?" — "No, York now." says no to the question (an end, for "not
    anymore" or "no longer"), then the new value; None for any other reply. The validator asks
    ``bare_reply`` first, so a no that goes on with nothing of its own ("No, none yet.") is
    read there either way."""
    m = _OPENING_NO.match(text)
    if m is None:
        return None
    return "ended" if m.group("ended") else "no"
