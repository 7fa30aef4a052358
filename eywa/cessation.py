"""Cessation: the words that say a fact *ended*, and what exactly ended.

"I quit pottery", "I used to work at Google", "my ex-husband Tom", "I left Boston", "our dog
Rex died", "I lived in Leeds, then moved to York" say a value stopped being true: a negative
observation for the validator and for Nous. Unlike a negation, a cessation has to be scoped:
"I left Google and joined Fernbrook" ends Google, not Fernbrook, and "I'm divorced" states a
status rather than ending one. So each cue comes with the span of text it ends: what follows it up to the next clause-like break
("and joined", a comma, "because", "for", "to move") or, for cues that follow their subject
("died", "passed away", "is over"), what precedes it.

This is a lexicon with scopes, not a Level 0 signal: the scope only means something against
the words of a claim, so the validator and the Nous observation step call it with the words
they care about. A negation right before a cue cancels it ("I never quit", "I didn't leave").
Deterministic and pure: the same text always gives the same cues.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_A = r"['’]"
_FORWARD = re.compile(
    r"""\b(?:
        (?<!\bit\s)quit(?:s|ting)?
      | stop(?:s|ped|ping)?(?!\s+(?:by|at|in|over|to|for|off|and|there|here)\b)
      | g(?:ive|ives|ave|iven|iving)\s+up(?:\s+on)?
      | used\s+to\s+work\s+for(?=\s)
      | used\s+to
      | (?<!is\smy\s)(?<!['’]s\smy\s)ex-
      | no\s+more(?=\s+[\w-]+(?:\s+[\w-]+)?\s+for\s+(?:me|us)\b)
      | last\s+day\s+(?:at|with)(?=\s+(?:the\s+)?(?-i:[A-Z]))
      | former(?:ly)?
      | (?:leave|leaves|left|leaving)(?!\s+(?:for|behind|over|early|late|a\s+\w+|me|us)\b)
      | mov(?:e|es|ed|ing)\s+(?:here\s+|over\s+)?(?:out\s+of|out\s+from|away\s+from|from)
      | (?:break|breaks|broke|breaking)\s+up\s+with(?!\s+(?:me|us)\b)
      | split(?:s|ting)?\s+(?:up\s+with(?!\s+(?:me|us)\b)|from)
      | separat(?:e|es|ed|ing)\s+from
      | divorc(?:e|es|ed|ing)\s+from
      | (?<!got\s)(?<!get\s)(?<!gets\s)(?<!getting\s)(?<!\bare\s)(?<!\bwere\s)(?<!\bnow\s)(?<!officially\s)(?<!finally\s)(?<!\band\sI\s)divorc(?:e|es|ed|ing)
      | lost\s+interest\s+in | losing\s+interest\s+in
      | (?:lose|loses|lost|losing)(?!\s+(?:touch|track|weight|sleep|count|it|my\s+mind|time)\b)
      | (?:sell|sells|sold|selling)(?!\s+out\b)
      | retir(?:e|es|ed|ing)\s+from
      | (?:(?:worked|was\s+working)\s+(?:at|for)|lived\s+in)(?=\s[^.,;!?]{1,60}?\s(?:until|till)\s+(?:last|early|late|the\s+end
        |(?:19|20)\d\d|(?-i:[A-Z])[a-z]+)\b)
      | (?:(?:worked|was\s+working)\s+(?:at|for)|lived\s+in)(?=\s[^.;!?]{1,60}?(?:,\s*|\s+)(?:and\s+)?then\s+
        (?:moved|relocated|joined|join|work)\b)
      | resign(?:s|ed|ing)?(?:\s+from)?
      | (?:get|gets|got|gotten|getting|was|were|been|being)\s+(?:fired|sacked|laid\s+off|let\s+go|made\s+redundant)
        (?:\s+(?:from|by))?
      | (?:hand|hands|handed|handing|gave|give|given|giving)\s+(?:in\s+)?(?:(?:my|his|her|their|our|\w+['’]s?)\s+)?(?:notice|resignation)
        (?:\s+(?:at|to))?
      | drop(?:s|ped|ping)?\s+out\s+of
      | (?:get|gets|got|gotten|getting)\s+rid\s+of
      | (?:give|gives|gave|given|giving)\s+away
      | (?:give|gives|gave|given|giving)(?=\s+(?-i:[A-Z])\w*\s+(?:away\b|to\s+(?:my|our|a|an|the|his|her|their)\b))
      | (?:end|ends|ended|ending)\s+(?:things|it)\s+with
      | cancel(?:s|led|ed|ling|ing)?
      | call(?:s|ed|ing)?\s+off(?=\s+(?:the|my|our)\s+(?:\w+\s+)?(?:engagement|wedding)\b)
      | rehom(?:e|es|ed|ing)
      | (?:recover|heal)(?:s|ed|ing)?\s+from
      | (?:['’]m|am|is|are|['’]re)\s+(?:finally\s+|completely\s+|fully\s+)?(?:over(?=\s+(?!(?:now|already|for|and|but
        |too|again|yet|anyway|between|with)\b)[\w'’])|rid\s+of)(?!\s+(?:the\s+)?(?:moon|hill|top)\b)
      | (?:['’]s|is|are|['’]re|was|were)\s+(?:(?:all|so|really|officially|finally|definitely)\s+)?over\s+(?:between|with)
      | (?:['’]m|am|are|['’]re|is|was|were)\s+(?:so\s+|totally\s+|completely\s+|finally\s+|officially\s+|really\s+)?
        done\s+with(?!\s+(?:work|school|college|uni|university|class|classes|exams?|dinner|lunch|breakfast|it|that|this|today
        |the\s+day|my\s+shift)\b)(?!(?:\s+[\w'’-]+){0,3}\s+(?:degree|course|studies|training|thesis|dissertation|exams?
        |program|programme|semester|internship|residency|apprenticeship)\b)
      | f(?:ell|allen)\s+off\s+(?:the|my)(?=\s+[\w-]+\s+wagon\b)
      | (?:put|puts|putting)(?=\s+(?:[\w'’]+\s+){1,4}(?:down|to\s+sleep)\b)
    )(?:(?<=-)|\b)""",
    re.IGNORECASE | re.VERBOSE,
)
_WEEKDAY = r"(?:[Mm]on|[Tt]ues|[Ww]ednes|[Tt]hurs|[Ff]ri|[Ss]atur|[Ss]un)day"
_MONTH = (
    r"(?:[Jj]anuary|[Ff]ebruary|[Mm]arch|[Aa]pril|[Mm]ay|[Jj]une|[Jj]uly|[Aa]ugust|[Ss]eptember|[Oo]ctober"
    r"|[Nn]ovember|[Dd]ecember)"
)
GONE_FOR_GOOD = (
    r"(?=\s*(?:[.!;,]|$|\s+(?:last|yesterday|today|recently|after|this\s+(?:morning|afternoon|evening|week|month|year)"
    rf"|on\s+{_WEEKDAY}|in\s+{_MONTH}|(?:a|an|one|two|three|four|five|six|a\s+few|a\s+couple\s+of|\d+)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago)\b))"
)
"""After "let me go": the end of the clause or when ("Globex let me go last week / this morning
/ on Friday / two weeks ago"), not where to or for how long ("Mom let me go to the party",
"they let me go early", "she let me go on the trip")."""
_BACKWARD = re.compile(
    r"\b(?:laid\s+(?:me|us)\s+off|(?:fired|sacked)\s+(?:me|us)\b|let\s+(?:me|us)\s+go" + GONE_FOR_GOOD
    + r"|died|passed\s+away|passed\s+on|(?:passed(?:" + GONE_FOR_GOOD + r"))|(?:is|was)\s+no\s+longer\s+with\s+us(?=\s*(?:[.!;,]|$))|ran\s+away|(?:was|were|got|be|been)\s+put\s+(?:down|to\s+sleep)"
    r"|(?:is|was|are|were|['’]s|['’]re)\s+(?:(?:all|so|really|officially|finally|definitely|totally|completely)\s+)?over"
    r"(?!\s+(?:the\s+)?(?:moon|hill|top)\b)|ended|(?:didn['’]t|did\s+not|never)\s+last(?:ed)?(?=\s*(?:[.!;,]|$|\s+(?:long|very|more\s+than|past|beyond)\b))"
    r"|(?:left|dumped|ditched)\s+(?:me|us)(?:" + GONE_FOR_GOOD + r"|(?=\s+for\s+(?:another|someone|somebody|a\s+(?:younger"
    r"|new|different))\b))|walked\s+out\s+on\s+(?:me|us)|(?:broke|split)\s+up\s+with\s+(?:me|us)"
    # "Tom and I are separated", "… are separating" (a separation under way ends him as partner
    # too), "Tom and I divorced".
    r"|(?<=\band\sI\s)are\s+(?:now\s+|officially\s+|finally\s+)?(?:divorced|separated|separating)"
    r"|(?<=\band\sI\s)divorced(?!\s+from)|came\s+to\s+an\s+end|(?:closed|shut)\s+down|(?<=smoke)-free|(?<=vape)-free"
    r"|(?:break|breaks|broke|split|splits)\s+up(?!\s+with)|call(?:s|ed|ing)?\s+it\s+(?:off|quits)|(?:get|gets|got|getting)\s+(?:divorced|separated)(?!\s+from)"
    r"|(?<![\w'’]m\s)(?<!\bam\s)(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?<!\bbeen\s)separated(?!\s+from)"
    # "Tom's my ex now", "Tom is my ex-boyfriend", "Tom is Ana's ex": the one named before is
    # the partner who was.
    r"|(?:is|['’]s)\s+(?:now\s+|officially\s+)?(?:my|his|her|their|\w+['’]s)\s+ex(?:-?\s*(?:husband|wife|boyfriend|girlfriend|partner|spouse"
    r"|fianc[ée]e?))?)\b",
    re.IGNORECASE,
)
# "the left side", "I'm lost", "I'm used to it": these words are not verbs after these.
_NOT_A_VERB_AFTER = frozenset(
    """the a an is was are were be been being am i'm im he's she's it's we're they're you're
    on to what what's nothing something anything everything much little get got getting""".split()
)
_CANCEL = re.compile(
    rf"(?:\b(?:not|never|no)|n{_A}t|\bcannot)\s+(?:[\w'’]+\s+){{0,2}}$", re.IGNORECASE
)
_BREAK = re.compile(
    r"[,;:.!?()\[\]—–\"“”]|\s-\s|\b(?:but|or|for|because|since|so|as(?!\s+(?:a|an)\b)|when|while|after|before"
    r"|then|now|which|who|where|until|though|although|if|instead|yet)\b",
    re.IGNORECASE,
)
# "and" ends a scope when a new clause starts after it ("and joined", "and I"), not in a
# list of what ended ("quit smoking and drinking").
_AND_NEW_CLAUSE = re.compile(
    r"\band\s+(?=(?:i|we|he|she|they|you|it|now|then|also|just|finally|am|is|are|was|were|will"
    r"|have|has|had|got|get|went|go|took|take|began|begin|became|become|bought|buy|found|made"
    r"|started|start|joined|join|moved|move|\w+ed)\b)",
    re.IGNORECASE,
)
_TO_NEW_CLAUSE = re.compile(
    r"(?<![a-z]ing)\s+to\s+(?!the\b|a\b|an\b|my\b|his\b|her\b|their\b|our\b)|\s+to\s+become\b", re.IGNORECASE
)
"""An infinitive of purpose opens what comes next ("I quit my job to start a bakery", "I left
teaching to become a nurse"); after a gerund only "to become" does ("I stopped going to yoga")."""
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
_MAX_FORWARD_WORDS = 8
_MAX_BACKWARD_WORDS = 6


@dataclass(frozen=True)
class Cessation:
    """One cessation cue of a text and the span of what it says ended."""

    cue: str
    start: int
    end: int
    scope_start: int
    scope_end: int
    cancelled_by: tuple[int, int] | None = None
    """The span of a negation right before the cue that cancels it ("didn't quit")."""

    @property
    def cancelled(self) -> bool:
        """Whether a negation cancels the cue: the fact did *not* end."""
        return self.cancelled_by is not None

    def scope(self, text: str) -> str:
        """The text of what ended."""
        return text[self.scope_start : self.scope_end]


def _forward_scope(text: str, start: int) -> int:
    end = len(text)
    for pattern in (_BREAK, _AND_NEW_CLAUSE, _TO_NEW_CLAUSE):
        found = pattern.search(text, start)
        if found is not None and found.start() >= start:
            end = min(end, found.start())
    words = list(_WORD.finditer(text, start, end))
    if len(words) > _MAX_FORWARD_WORDS:
        end = words[_MAX_FORWARD_WORDS - 1].end()
    return end


def _backward_scope(text: str, end: int) -> int:
    start = 0  # "Tom and I broke up": "and" does not end a backward scope
    breaks = list(_BREAK.finditer(text, 0, end))
    for found in breaks:
        start = max(start, found.end())
    # "My wife, Lucia, passed away": the comma before the cue closes an apposition, so what
    # died is the one named before it too.
    if len(breaks) >= 2 and not _WORD.search(text, start, end) and _is_apposition(text, breaks[-2], breaks[-1]):
        start = breaks[-3].end() if len(breaks) >= 3 else 0
    words = list(_WORD.finditer(text, start, end))
    if len(words) > _MAX_BACKWARD_WORDS:
        start = words[-_MAX_BACKWARD_WORDS].start()
    return start


_MAX_APPOSITION_WORDS = 3


def _is_apposition(text: str, opening: re.Match[str], closing: re.Match[str]) -> bool:
    """Whether two commas enclose a short name or title after some words ("my wife, Lucia,",
    "our dog, a beagle,"): an apposition, not a clause of its own."""
    inside = _WORD.findall(text, opening.end(), closing.start())
    return (
        opening.group(0) == closing.group(0) == ","
        and 0 < len(inside) <= _MAX_APPOSITION_WORDS
        and _WORD.search(text, 0, opening.start()) is not None
    )


def _previous_word(text: str, start: int) -> str:
    words = _WORD.findall(text[:start])
    return words[-1].lower().replace("’", "'") if words else ""


def _cancellation(text: str, start: int) -> tuple[int, int] | None:
    found = _CANCEL.search(text[:start])
    return None if found is None else (found.start(), found.end())


def cessations(text: str) -> list[Cessation]:
    """Every cessation cue of ``text`` with its scope, in text order."""
    found: list[Cessation] = []
    for match in _FORWARD.finditer(text):
        cue = match.group(0)
        head = cue.split()[0].lower()
        previous = _previous_word(text, match.start())
        if head in {"left", "lost", "used", "sold"} and previous in _NOT_A_VERB_AFTER:
            continue
        end = match.end()
        scope_end = _forward_scope(text, end)
        found.append(Cessation(cue, match.start(), end, end, scope_end, _cancellation(text, match.start())))
    taken = [(c.start, c.end) for c in found]
    for match in _BACKWARD.finditer(text):
        if any(a < match.end() and match.start() < b for a, b in taken):
            continue
        scope_start = _backward_scope(text, match.start())
        found.append(
            Cessation(match.group(0), match.start(), match.end(), scope_start, match.start(),
                      _cancellation(text, match.start()))
        )  # fmt: skip
    return sorted(found, key=lambda c: (c.start, c.end))


def _wanted(words: Iterable[str]) -> list[str]:
    """The words looked for, casefolded, blanks dropped."""
    return [w.casefold() for w in words if w.strip()]


def _names_any(scope: str, wanted: Sequence[str]) -> bool:
    """Whether a word of ``scope`` is one of ``wanted`` (casefolded; a shared stem of at least
    four letters counts as the same word: ``same_stem``)."""
    return any(same_stem(w, s.casefold()) for s in _WORD.findall(scope) for w in wanted)


def _cue_spans(
    text: str, forward: Iterable[re.Pattern[str]], backward: Iterable[re.Pattern[str]] = ()
) -> list[tuple[int, int, int]]:
    """(cue start, scope start, scope end) of each cue of the ``forward`` patterns (its scope
    what follows it, ``_forward_scope``) and of the ``backward`` ones (what precedes it)."""
    spans = [(m.start(), m.end(), _forward_scope(text, m.end())) for p in forward for m in p.finditer(text)]
    spans += [(m.start(), _backward_scope(text, m.start()), m.start()) for p in backward for m in p.finditer(text)]
    return spans


def ends_any(text: str, words: Iterable[str], *, start: int = 0, end: int | None = None) -> bool:
    """Whether an uncancelled cue inside ``text[start:end]`` ends one of ``words``.

    ``words`` are compared case-insensitively to the words of each scope, a shared stem of
    at least four letters counting as the same word ("pottery"/"potteries").
    """
    stop = len(text) if end is None else end
    wanted = _wanted(words)
    return any(
        _names_any(text[max(cue.scope_start, start) : min(cue.scope_end, stop)], wanted)
        for cue in cessations(text)
        if not cue.cancelled and start <= cue.start < stop
    )


def same_stem(a: str, b: str) -> bool:
    """Whether two case-folded words share a stem: equal, or a common beginning of at least
    four letters and three quarters of the shorter ("pottery"/"potteries", "teacher"/"teaching").
    Looser than ``eywa.attributes.forms.same_word``, which also bounds the endings: a turn that
    says a thing ended names it by any word of its family."""
    if a == b:
        return True
    shorter = min(len(a), len(b))
    prefix = 0
    for x, y in zip(a, b):
        if x != y:
            break
        prefix += 1
    return shorter >= 4 and prefix >= max(4, int(0.75 * shorter))


# --- beginnings: a new value said to start, which ends the one held before -------------------

_BEGINS_FORWARD = re.compile(
    r"""\b(?:
        (?<!\bto\s)(?<!\bwant\s)(?<!\bcould\s)(?<!\bmight\s)(?<!\bwould\s)joined
      | (?:got|get|gets|was|been|being)\s+(?:hired|recruited|taken\s+on)\s+(?:at|by)
      | (?:got|landed|found|accepted|took|started|scored)\s+(?:a|an|the|my)\s+(?:new\s+|full-time\s+|part-time\s+|dream\s+)*
        (?:job|position|role|(?:job\s+)?offer)\s+(?:at|with|from)
      | accepted\s+(?:an?|the)\s+(?:job\s+)?offer\s+from
      | (?:started|began)\s+(?:work(?:ing)?\s+)?(?:at|for|with)
      | (?:married|wed)(?!\s+(?:life|couple|couples)\b)
      | (?:got|am|is|are|['’]m|['’]re)\s+engaged\s+to
    )\b""",
    re.IGNORECASE | re.VERBOSE,
)
"""Cues that say what follows began: "I joined Initech", "I got hired at Initech", "I accepted an
offer from Initech", "I started at Initech", "I married Tom", "I got engaged to Sam"."""
_BEGINS_BACKWARD = re.compile(r"\b(?:hired|recruited|offered)\s+me\b|\btook\s+me\s+on\b", re.IGNORECASE)
"""Cues that say what precedes them began: "Initech hired me", "Initech offered me a job (and I took it)"."""
_NOT_BEGUN = re.compile(
    rf"(?:\b(?:not|never|no|if|would|might|could|may|maybe|hope|hoping|want|wants|wanted|wish)|n{_A}t)\s+(?:[\w'’]+\s+){{0,2}}$",
    re.IGNORECASE,
)
"""What before a beginning says it did not happen, or not yet ("I didn't join Initech", "if
Initech hired me", "I hope I get hired at Initech")."""


def begins_any(text: str, words: Iterable[str]) -> bool:
    """Whether ``text`` says one of ``words`` began: a beginning cue whose scope (as a
    cessation's: what follows it up to the next clause-like break, or for "… hired me" what
    precedes it) names one of them, with nothing before it that says it did not or may not
    happen. A single value said to begin ends the one held before ("I work at Globex", then
    "Initech hired me last week"), as a cessation of the old one would; the Nous observation
    step raises the hazard on it (``eywa.nous.observations``). Pure."""
    wanted = _wanted(words)
    return any(
        _names_any(text[scope_start:scope_end], wanted)
        for cue_start, scope_start, scope_end in _cue_spans(text, [_BEGINS_FORWARD], [_BEGINS_BACKWARD])
        if _NOT_BEGUN.search(text[:cue_start]) is None
    )


# --- a state said of now: "Now I'm …", "I'm now …", "… these days" ----------------------------

_NOW = r"(?:now|these\s+days|nowadays)"
_NOW_LEADS = re.compile(
    rf"(?:^|[.!;:,]\s*|\b(?:and|but|so)\s+)(?:and\s+|but\s+|so\s+)?{_NOW}\b,?\s+(?!(?:that|is|was|what|and|or|if|on|then)\b)",
    re.IGNORECASE,
)
""""Now I'm dating Sam", "These days, I work at Globex", "… and now I live in Leeds": a clause
opened by "now" (not "now that …", nor "now is …", nor "right now" or "just now", which do not
open a clause)."""
_NOW_INSIDE = re.compile(
    rf"\b(?:i|we|he|she|they|[a-z]+{_A}s|[a-z]+{_A}re|[a-z]+{_A}m|am|are|is)\s+{_NOW}\s+(?!(?:that|and|or|on|then)\b)",
    re.IGNORECASE,
)
""""I'm now a nurse", "I now work at Globex", "Eva is now at Initech": "now" between the subject
(or its verb) and what is said of it."""
_NOW_CLOSES = re.compile(rf"\s{_NOW}(?=\s*(?:[.!;,]|$))", re.IGNORECASE)
""""I'm dating Sam now.", "I work at Globex these days": a clause closed by "now"."""
_NOT_A_NEW_NOW = re.compile(
    r"\b(?:right|just|for|until|till|by|from|even|know|knew|see|realize|realise|understand|still|not|never)\s*$",
    re.IGNORECASE,
)
"""Before "now", what makes it a moment or a thought rather than a new state ("right now",
"just now", "for now", "until now", "I know now …"): a word right before it."""
_STILL_OR_NOT = re.compile(rf"\b(?:still|not|never|no\s+longer)\b|n{_A}t\b", re.IGNORECASE)
_QUESTION_SENTENCE = re.compile(r"[^.!?]*\?")


def said_of_now_any(text: str, words: Iterable[str]) -> bool:
    """Whether ``text`` says one of ``words`` holds *now* as opposed to before: a clause opened
    by "now", "these days" or "nowadays" ("Now I'm dating Sam"), "now" after its subject ("I'm
    now a nurse", "I now live in Leeds") or closing its clause ("I work at Globex these days"),
    whose scope (what follows, or for a closing "now" what precedes it, up to the next
    clause-like break) names one of them. Not a moment ("right now", "just now", "for now",
    "until now"), a thought ("I know now …"), a question, nor a scope that says "still" or
    negates ("Now I still live in Leeds", "Now I'm not at Globex"). Said of a single value it
    ends the one held before, as a beginning does (``begins_any``; the Nous observation step
    raises the hazard on it). Pure."""
    wanted = _wanted(words)
    if not wanted:
        return False
    # Questions are blanked, not removed, so the offsets of the rest stay where they were.
    plain = _QUESTION_SENTENCE.sub(lambda m: " " * len(m.group(0)), text)
    return any(
        _names_any(plain[scope_start:scope_end], wanted)
        for cue_start, scope_start, scope_end in _cue_spans(plain, [_NOW_LEADS, _NOW_INSIDE], [_NOW_CLOSES])
        if _NOT_A_NEW_NOW.search(plain[: cue_start + 1]) is None
        and _STILL_OR_NOT.search(plain[scope_start:scope_end]) is None
    )
