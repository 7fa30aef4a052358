"""What every rule family needs about the clause it reads: parts, subjects, cues, dates.

A turn is cut into the validator's clauses (``eywa.extraction.text.clauses``) and each of
those into *parts* at conjunctions that open a new subject ("…, and I …", "… because we
…"), so negation and hedges are scoped to the part that carries them: "I don't eat meat
but I love fish" negates the first part only.

Subjects: a rule's subject slot may hold "I" (the speaker), "we" (the speaker, for facts a
household shares), "<Name> and I" (the speaker, with a companion), or a name that Level 0
recognised as a person in this clause. Pronouns ("she", "he", "they") and unknown names are
never resolved: no fact is made from them. How a fact is then phrased is ``phrasing``'s job.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from eywa.attributes.kin import KIN_AGE, KIN_WORDS, kin_subject
from eywa.extraction.anchors import duration_back
from eywa.extraction.lexicon import IRREGULAR_PAST
from eywa.extraction.text import COMMA_SPLICE, SO_NO, STATE_ENDED, Clause, opens_own_clause, trailing_contrast
from eywa.models import Evidence, Signal, SignalKind
from eywa.signals.cues import negations

A = r"['’]"
"""A straight or curly apostrophe."""

I = r"(?<![\w'’])I"  # noqa: E741 - the pronoun itself
NAME = r"[A-Z][a-z]+(?:[-'’][A-Z][a-z]+)?"
KIN = (
    rf"(?:(?<![\w'’])[Mm]y|(?P<owner>{NAME}){A}s?)\s+{KIN_AGE}"
    rf"(?P<kin>{'|'.join(sorted(KIN_WORDS, key=len, reverse=True))})\b(?![-‐]|\s+{NAME}\b)"
)
"""A relative spoken of by no name ("my sister works at Globex", "Ana's dad retired"): the
subject is ``kin_subject(speaker or owner, kin)``, "Ana's sister". Not one named in apposition
("my sister Eva": Eva is the subject, ``starts_clause``), not an in-law ("my brother-in-law")."""
SUBJ = rf"(?P<subj>(?:(?P<with>{NAME})\s+and\s+)?{I}(?:\s+and\s+(?P<with_after>{NAME}))?|(?<![\w'’])[Ww]e|{KIN}|{NAME})"
"""The subject slot of every rule; ``resolve_subject`` decides whom it names. "I and Sam" is
how ``eywa.extraction.rules.casual`` spells the casual "Me and Sam"."""

BE = rf"(?:{A}m|{A}s|{A}re|\s+(?:am|is|are))"
HAVE = rf"(?:{A}ve|{A}s|\s+(?:have|has))"
ADV = (
    r"(?:(?:really|just|also|actually|absolutely|totally|now|currently|still|recently|finally|truly"
    r"|officially|happily|proudly|only|already|even|both|all|seriously|definitely|always|usually|often|sometimes"
    r"|honestly|genuinely|personally|absolutely)\s+)*"
)
"""Adverbs allowed between a subject and its verb ("I just moved", "we finally got")."""
CALLED = r"(?:(?:a|an)\s+(?:[a-z-]+\s+){0,3}?(?:called|named)\s+)?"
"""A name introduced by what it names: "for a startup called Initech", "in a small town called
Millbrook" (the name is the employer, the place)."""
UNTIL_A_DATE = (
    r"(?:\s+for\s+(?:\w+\s+){1,3}?(?:years?|months?))?"
    r",?\s+(?:until|till|up\s+until)\s+(?=(?:last|early|late|the\s+end\s+of|(?:in\s+)?(?:19|20)\d\d|[A-Z][a-z]+\b))"
)
"""What ends a past tense at a date: "… (for six years) until 2023 / last year / March" (the
rules then take the date Level 0 resolves there, ``phrasing.ended_at``; "until midnight",
"until I was ten" name none)."""
FOR_A_WHILE = r"(?:\s+for\s+(?:\w+\s+){0,3}?(?:years?|months?|ages|a\s+while|a\s+long\s+time))?"
"""How long a past tense lasted, before what ended it: "… for years", "… for six months"."""
AND_THEN = r",?\s+(?:and\s+)?then\s+"
"""What opens the next step of a past tense: "… (for years), then moved / joined …" (the rules
name the verb that follows: a home left by a move, a job by joining another)."""
WHEN_LEFT = (
    r"(?:\s+(?:last|this)\s+(?:week|month|year|spring|summer|autumn|fall|winter)|\s+(?:yesterday|recently)"
    r"|\s+(?:\w+\s+){1,2}ago|\s+in\s+[A-Z][a-z]+)?,?"
)
"""When a job or a home was left, between what was left and what came next ("I quit Globex
last month and joined Initech", "we left Leeds two years ago and moved to York")."""

CESSATION_TAIL = re.compile(r"\b(?:anymore|any\s+more|no\s+longer)\b", re.IGNORECASE)
HEDGE = re.compile(
    r"(?i:\b(?:might|maybe|perhaps|possibly|probably|could|would|should|wish|wishing|unless|whether|"
    r"guess(?!\s+what\s*[,!?:.;\-—–])|suppose|hopefully|not\s+sure|i\s+think|i\s+thought|wonder|wondering|"
    r"considering|"
    rf"thinking\s+(?:about|of)|someday|one\s+day|(?:dream|dreams|dreamt|dreamed)\s+(?:of|about|that)|dreaming"
    rf"|imagine|if)\b|{A}d\b)|\bmay\b"
)
"""Hedges and conditionals; "may" only in lower case, since "May" is usually the month; to
dream of something, not a dream had ("I got my dream job at Initech", "a dream come true");
"guess" but not the exclamation "Guess what, I work at Initech now!" (punctuation after
"what"; "I guess what matters is …" still hedges)."""
PAST_HABIT = re.compile(
    r"\b(?:used\s+to|when\s+(?:i|we)\s+was|when\s+(?:i|we)\s+were|as\s+a\s+(?:kid|child|teen|teenager)"
    r"|back\s+then|growing\s+up|years\s+ago|in\s+the\s+past(?!\s+(?:week|month|year|few|couple|days?)\b)|once\s+upon"
    r"|before\s+(?:i|we)\b)",
    re.IGNORECASE,
)
_COUNTED = re.compile(
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|a\s+few"
    r"|a\s+couple(?:\s+of)?|couple(?:\s+of)?|several)\s+$",
    re.IGNORECASE,
)


def _past_habit(text: str) -> bool:
    """Whether ``text`` speaks of a past habit or a vague long-ago ("back then", "years ago");
    a counted "two years ago" dates what the part says ("I moved to Lisbon two years ago")."""
    return any(
        not (m.group(0).lower().startswith("years") and _COUNTED.search(text[: m.start()]))
        for m in PAST_HABIT.finditer(text)
    )


_PART_BREAK = re.compile(
    r",?\s+(?:and|so|because|since|cause|as|when|while|then|after|before|until|or)\s+"
    rf"(?=(?:{NAME}\s+and\s+)?(?:I|we|he|she|they|you|it|my|our|his|her|their)\b)"
    r"|,\s+(?:so|because|since|which|who|when|while|though)\b|\s+[-–—]+\s+|:\s+"
    rf"|{COMMA_SPLICE}"  # "I don't live in Leeds anymore, I moved to York"
    rf"|{SO_NO}",  # "I'm diabetic so no cake for me": the "no" is what follows it
)


_NOW_FIRST = re.compile(r"(?i)(?:now|these\s+days|nowadays)\b")
"""A part that opens with the present: no past habit of the part before it governs it."""
_JOINT_SUBJECT = re.compile(rf"(?:{NAME}|(?i:my|our)\s+[a-z]+(?:\s+[a-z]+)?)")
"""What may stand before "and I" as one subject ("Tobias and I", "my husband and I")."""


@dataclass(frozen=True)
class Part:
    """A stretch of a clause with one subject: the unit rules match and scope cues to."""

    text: str
    start: int
    negated: bool
    hedged: bool
    past_habit: bool
    hypothetical: bool
    words: frozenset[str]
    contrast: str = ""
    """What a trailing contrast says the part's value is not ("Globex" of "I work at
    Initech, not Globex", "in York", "a doctor"), cut from ``text``; empty when there is
    none."""


@dataclass(frozen=True)
class Rule:
    """A pattern and the words one of which a part must contain for it to be tried.

    The gate is what keeps Level 1 offline fast: most parts contain none of a rule's
    words, and a set intersection costs far less than a regex search. The pattern is
    compiled when a part first passes the gate, not when the module is imported: the two
    hundred rules' alternations of lexicon words took most of ``import eywa``'s time (about
    1.3 of its 2.4 s under a profiler), which every process paid, the CLI's ``--help``, an
    API that only reads, a worker before its first job, whether it extracted or not.
    """

    regex: str
    keywords: frozenset[str]
    _compiled: list[re.Pattern[str]] = field(default_factory=list, repr=False, compare=False)

    @property
    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern, one object for the rule's life: rules tell their matches
        apart by it (``m.re is _X.pattern``), so two threads must never compile two."""
        if not self._compiled:
            with _COMPILING:
                if not self._compiled:
                    self._compiled.append(re.compile(self.regex))
        return self._compiled[0]


_COMPILING = threading.Lock()


def rule(regex: str, keywords: str | frozenset[str]) -> Rule:
    """A ``Rule`` from a regex and the text (or words) its gate words are taken from.

    Only words of two letters or more count: "master's" gates on "master", not on "s".
    """
    text = keywords if isinstance(keywords, str) else " ".join(keywords)
    return Rule(regex, frozenset(w for w in _WORD.findall(text.lower()) if len(w) > 1))


_WORD = re.compile(r"[a-zé]+")


_SENTENCE_END = re.compile(r"[.!?;]")
"""Where a sentence of a turn ends, for rules that read across the parts of one."""


@dataclass(frozen=True)
class Ctx:
    """One part of one turn, with what the rules need to know about it."""

    turn: Evidence
    clause: Clause
    part: Part
    persons: dict[str, str]
    dates: tuple[Signal, ...]
    named: Mapping[str, Mapping[str, tuple[str, str]]] = field(default_factory=dict)
    """Per person (case-folded), the names that person's earlier beliefs hold as values
    (case-folded name → (attribute, value)): the speaker's, so "Biscuit died" can be read as
    the end of the pet Biscuit, and those of the people the turn names, so "Eva left Globex"
    is the end of a job once "Eva works at Globex" was said."""
    previous: Evidence | None = None
    """The turn just before in the same session, when known: what a reply may lean on ("How's
    work?" — "I joined Initech last month.")."""

    @property
    def text(self) -> str:
        """The part's text."""
        return self.part.text

    def sentence_before(self, at: int) -> str:
        """The turn's text from the start of its sentence up to offset ``at`` of the part: what
        another part of the sentence said before ("Tobias proposed and | I said yes")."""
        return _SENTENCE_END.split(self.turn.text[: self.part.start + at])[-1]

    def sentence_after(self, at: int) -> str:
        """The turn's text from offset ``at`` of the part to the end of its sentence."""
        return _SENTENCE_END.split(self.turn.text[self.part.start + at :])[0]

    def holds(self, person: str | None, value: str, attribute: str) -> bool:
        """Whether ``person``'s earlier beliefs hold ``value`` as a value of ``attribute``."""
        known = self.named.get((person or "").casefold(), {}).get(value.casefold())
        return known is not None and known[0] == attribute


def parts(clause: Clause) -> list[Part]:
    """Cut a clause where a conjunction opens a new subject; a conditional taints the rest.

    A verb phrase coordinated without its subject ("I left X and joined Y") also becomes a
    part of its own, with the subject repeated ("I joined Y"), so that each verb is read.
    """
    out: list[Part] = []
    pos = 0
    conditional = False
    spliced = False  # the part begins after a comma splice: the previous part's past habit governs it
    for m in [*_PART_BREAK.finditer(clause.text), None]:
        if m is not None and _JOINT_SUBJECT.fullmatch(clause.text[pos : m.start()].strip()) and " and " in m.group(0):
            continue
        if m is not None and m.group(0).strip() == "," and not opens_own_clause(clause.text[pos : m.start()]):
            continue  # "On Sunday, I visited a street market": one clause, its date with it
        end = len(clause.text) if m is None else m.start()
        text = clause.text[pos:end].strip()
        contrast = ""
        if (at := trailing_contrast(text)) is not None:
            # "I work at Initech, not Globex": the negation is the contrast's, not the part's.
            text, contrast = text[:at], _CONTRAST_HEAD.sub("", text[at:]).strip(" .!?")
        if text:
            offset = clause.start + pos + (len(clause.text[pos:end]) - len(clause.text[pos:end].lstrip()))
            conditional = conditional or bool(re.match(r"(?i)(?:and\s+|so\s+)?(?:if|unless|even\s+if)\b", text))
            part = _part(text, offset, conditional, contrast)
            if not out and m is not None and m.group(0).strip() == "," and STATE_ENDED.fullmatch(text):
                # "Not vegetarian anymore, I eat fish again": the speaker's state, ended.
                part = _with_subject("I'm", text[0].lower() + text[1:], offset, conditional)
            if spliced and out and out[-1].past_habit and not _NOW_FIRST.match(text):
                # "When I was a student, we rented a tiny flat"; not "I used to work at Globex,
                # now I'm at Initech", whose "now" says the present.
                part = replace(part, past_habit=True)
            out.append(part)
            if (second := _coordinated(text)) is not None:
                subject, at = second
                out.append(_with_subject(subject, text[at:], offset + at, conditional))
            elif (named := _NAMED_APPOSITION.match(text)) is not None:
                # "Lucia, my coworker, got a job at Initech": read as "Lucia got a job …".
                out.append(_with_subject(named.group("s"), text[named.end() :], offset + named.end(), conditional))
        if m is not None:
            pos = m.end()
            spliced = m.group(0).strip() == ","
    return out


_NAMED_APPOSITION = re.compile(rf"^(?P<s>{NAME}),\s+(?:my|our|his|her|their)\s+[a-z]+(?:\s+[a-z]+)?,\s+(?=[a-z])")
"""A name opening a part with who they are between commas ("Lucia, my coworker, got a job at
Initech"): the name is the subject of what follows (Level 0 must still know it as a person)."""
_COORDINATED = re.compile(
    rf"^.*?(?<![\w'’])(?P<s>I|[Ww]e)(?:{A}ve|(?P<be>{A}m|{A}re))?\s+\S.*?(?:\s+and\s+(?:(?:then|now)\s+)?|,?\s+then\s+)"
    r"(?P<verb>[a-z]+)\b"
)
"""A second verb phrase after "and", "and then" or "then" ("I lived in Leeds, then moved to
York"): it shares the subject that opened the part (a capital after "then" is no verb: "I lived
in Leeds, then York is next" is a plan of no one's)."""
_COORDINATED_VERBS = IRREGULAR_PAST | frozenset(
    "start starts join joins work works move moves live lives quit became adopted got".split()
)


_ONE_KIN = r"(?:mom|mum|mother|dad|father|sister|brother|son|daughter|husband|wife|boyfriend|girlfriend|partner)"
_COORDINATED_THIRD = re.compile(
    rf"^(?P<s>(?:[Mm]y|[Oo]ur)\s+{KIN_AGE}{_ONE_KIN}|{NAME})\s+(?!and\b)\S.*?\s+and\s+(?:(?:now|also|still)\s+)?"
    r"(?P<verb>lives|works|teaches|studies|moved|retired)\b"
)
"""A relative or a named person whose second verb phrase shares them as its subject: "My mom is
a retired teacher and lives in Tucson", "Tobias is a nurse and works nights": the verb agrees
with the third person, so the subject is the one that opened the part, not the speaker."""


def second_part(part: Part) -> Part | None:
    """The verb phrase that shares the subject of ``part``, read as a part of its own: what
    ``parts`` cuts from a clause, for a part given a subject it shared or dropped ("Lived in
    Leeds, then moved to York": "I moved to York")."""
    if (second := _coordinated(part.text)) is None:
        return None
    subject, at = second
    return _with_subject(subject, part.text[at:], part.start + at, part.hypothetical)


def _coordinated(text: str) -> tuple[str, int] | None:
    """The subject and the start of a second verb phrase that shares it, if any."""
    if " and " in text and (third := _COORDINATED_THIRD.match(text)) is not None:
        return third.group("s"), third.start("verb")
    m = _COORDINATED.match(text) if " and " in text or " then " in text else None
    if m is None:
        return None
    verb = m.group("verb")
    if m.group("be") and verb not in _BARE_VERBS:
        return None  # after "I'm", only a present verb ("I'm a teacher and live in Leeds") starts the second phrase
    if not (verb in _COORDINATED_VERBS or (verb.endswith("ed") and len(verb) > 4)):
        return None
    return m.group("s"), m.start("verb")


_OPENING_SUBJECT = re.compile(r"^(?:(?:and|so|well|oh|yeah|honestly)\s*,?\s+)?(?P<s>I|[Ww]e)(?=[\s'’])")
_BARE_VERB = re.compile(r"^(?:(?:now|currently|still|also|then|later|eventually|recently|just)\s+)?(?P<verb>[a-z]+)\b")
_BUT = re.compile(r"^,?\s*but\s*$", re.IGNORECASE)
_BARE_VERBS = frozenset("live work start join move teach study".split())
"""Present forms that agree with "I" or "we" alone: a clause opening with one has dropped a
first-person subject ("… but live in York now"), never a third person's ("lives")."""


def subject_shared(text: str, previous: Clause | None, clause: Clause) -> Part | None:
    """``clause`` read with the subject of the clause before it, when it is the second half of
    "I'm from Leeds but live in York now": the two are cut at "but" (negation and hedges
    stay on their side), and the second has no subject of its own, so no rule would read it.
    The part holds "I live in York now", placed where the clause starts. A past form of a
    change ("I'm from Leeds but moved to York in 2020", ``_DROPPED_PAST``) agrees with any
    subject, so the first clause's "I" or "we" is the one it shares."""
    if previous is None or not _BUT.match(text[previous.end : clause.start]):
        return None
    opening, verb = _OPENING_SUBJECT.match(previous.text), _BARE_VERB.match(clause.text)
    if opening is None or verb is None or verb.group("verb") not in _BARE_VERBS | _DROPPED_PAST:
        return None
    return _with_subject(opening.group("s"), clause.text, clause.start)


_GREETINGS = (
    r"(?:hey|hi|hiya|hello|yo|dear|thanks|thank\s+you|congrats|congratulations"
    r"|(?:good\s+)?(?:morning|evening|afternoon))"
)
"""Words that greet the listener before their name ("Hey Ben!", "Thanks, Ben.")."""
_DROPPED = re.compile(
    rf"^(?P<greeting>{_GREETINGS}\s*,?\s+[A-Z][a-z]+\s*[,!]\s+)?"
    r"(?:(?:and|so|oh|well|yeah|yep|ok|okay)\s*,?\s+)?(?P<adverbs>(?:(?:just|finally|recently|also|actually"
    r"|officially|now|still|currently)\s+)*)(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)
_DROPPED_PAST = frozenset(
    "moved relocated started began quit left joined settled retired graduated adopted got landed switched took picked"
    " accepted resigned bought sold lost worked lived"
    .split()
)
"""Past forms that open a chat sentence whose "I" was dropped ("Moved to Lisbon last week!",
"Just started at Initech", "Got a new job at Initech!", "Just bought a Toyota!", "Lost my job
today.", "Worked at Initech for years, then joined Globex"): a verb in the past tense cannot be
a command, and opening a clause it has no other subject."""
_DROPPED_ONGOING = frozenset("living working".split())
"""-ing forms read so only after an adverb of the present ("Still living in Porto",
"Currently working at Initech"): alone they may be a gerund that is the subject itself
("Living in Porto is expensive")."""


_DROPPED_AHEAD = frozenset("starting moving relocating joining".split())
"""-ing forms of a change to come, read with a dropped "I'm" when the clause says when, ahead
("Starting at Hooli next month as an analyst", "Moving to Denver in May"): alone they may be
a gerund ("Starting at the beginning is best")."""
_NOW_AT_END = re.compile(r"\s(?:now|these\s+days|nowadays)\W*$", re.IGNORECASE)
"""An ongoing -ing clause said of the present at its end ("Working at Globex now")."""
_FINITE = re.compile(
    r"(?i)\b(?:is|was|are|were|will|would|can|could|should|must|has|had|makes?|made|seems?|seemed|sounds?|sounded"
    r"|feels?|felt|takes?|took|means?|meant|gets?|got|isn['’]t|wasn['’]t|won['’]t)\b"
)
"""A finite verb after an -ing opening: the -ing phrase is the subject ("Moving to Denver in May
was hard", "Working at Globex now is fun"), not a sentence that dropped its "I'm"."""


_BEEN_ONGOING = re.compile(r"\s+(?:living|working|based|teaching)\b")
""""Been living in Porto for years", "Been working at Initech since March": a dropped "I've"
(the perfect with how long says one still does)."""


def subject_dropped(turn: Evidence, text: str, clause: Clause) -> Part | None:
    """``clause`` read with the "I" a chat sentence dropped, when it opens with one of the
    verbs above and what comes before it in the turn (``text``) neither names someone else
    nor asks anything (whom a dropped "he" could mean: "Tom? Moved to Lisbon last year.",
    "How's your brother? Moved to Lisbon."). The part holds "I moved to Lisbon last week!",
    placed where the clause starts."""
    m = _DROPPED.match(clause.text)
    if m is None or not turn.speaker:
        return None
    verb = m.group("verb").lower()
    been = verb == "been" and _BEEN_ONGOING.match(clause.text, m.end("verb")) is not None
    going = _going_on(turn, clause, m)
    if verb not in _DROPPED_PAST and not (verb in _DROPPED_ONGOING and m.group("adverbs")) and not been and not going:
        return None
    if "?" in text[: clause.start] or any(
        s.kind is SignalKind.PERSON and s.start < clause.start and (s.normalized or s.text) != turn.speaker
        and not _addressed(text, s.start, s.end)
        for s in turn.signals
    ):
        return None
    # "Hi Ben, got a new job at Initech!", "Oh, moved to Lisbon!": the part starts after the
    # greeting and the opening word.
    at = m.start("adverbs")
    said = clause.text[at:]
    return _with_subject("I've" if been else "I'm" if going else "I", said[0].lower() + said[1:], clause.start + at)


def _going_on(turn: Evidence, clause: Clause, m: re.Match[str]) -> bool:
    """Whether an -ing opening with no adverb before it dropped "I'm": a change to come said
    with when, ahead ("Starting at Hooli next month", ``_DROPPED_AHEAD``), or a state said of
    now at the end ("Working at Globex now", ``_DROPPED_ONGOING``), in a stretch (up to the
    first comma) with no finite verb of its own ("Moving to Denver in May was hard")."""
    verb = m.group("verb").lower()
    if m.group("adverbs") or verb not in _DROPPED_AHEAD | _DROPPED_ONGOING:
        return False
    stretch = re.split(r"[,;:(]|\s[-–—]\s", clause.text[m.end("verb") :], maxsplit=1)[0]
    if _FINITE.search(stretch):
        return False
    if verb in _DROPPED_ONGOING:
        return _NOW_AT_END.search(stretch) is not None
    end = clause.start + m.end("verb") + len(stretch)
    return re.search(r"(?i)\bsoon\b", stretch) is not None or any(
        s.kind is SignalKind.DATE and s.window_start is not None and s.window_start > turn.observed_at
        and clause.start + m.end("verb") <= s.start < end
        for s in turn.signals
    )


_GREETING_BEFORE = re.compile(rf"(?:^|[.!?]\s*){_GREETINGS}[\s,]*$", re.IGNORECASE)
_GREETING_AFTER = re.compile(r"^\s*[!,.:]")


def _addressed(text: str, start: int, end: int) -> bool:
    """Whether the name at ``start:end`` of ``text`` is the one spoken to, greeted alone
    ("Hey Ben! Moved to Lisbon last week.", "Thanks, Ben. Just started at Initech."): the
    listener, not someone a dropped subject could mean."""
    return bool(_GREETING_BEFORE.search(text[:start]) and _GREETING_AFTER.match(text[end:]))


def _with_subject(subject: str, text: str, start: int, conditional: bool = False) -> Part:
    """``text`` (at ``start`` of its turn) read with a ``subject`` it shares with what came
    before or dropped: the part holds "<subject> <text>", placed so that ``text`` keeps its
    own positions in the turn."""
    return _part(f"{subject} {text}", start - len(subject) - 1, conditional)


def part_of(text: str, start: int) -> Part:
    """A part read from ``text`` (not cut from a clause), placed at ``start`` of its turn."""
    return _part(text, start, False)


def _negated(text: str) -> bool:
    """A negation in ``text``; an opening "No," answers another speaker and negates nothing
    here ("No, I moved to Lyon last month.")."""
    return bool(negations(text))


def _part(text: str, start: int, conditional: bool, contrast: str = "") -> Part:
    return Part(
        text=text, start=start, negated=_negated(text), hedged=bool(HEDGE.search(text)),
        past_habit=_past_habit(text), hypothetical=conditional,
        words=frozenset(_WORD.findall(text.lower())), contrast=contrast,
    )


_CONTRAST_HEAD = re.compile(r"^,\s*(?:and\s+|but\s+)?not\s+", re.I)
"""The words that open a trailing contrast."""


def persons_in(turn: Evidence, clause: Clause) -> dict[str, str]:
    """Names Level 0 recognised as people in the clause: surface form → canonical name."""
    out: dict[str, str] = {}
    for s in turn.signals:
        if s.kind is SignalKind.PERSON and clause.start <= s.start < clause.end:
            surface = re.sub(rf"{A}s$", "", s.text)
            out[surface] = s.normalized or surface
    return out


def resolve_subject(ctx: Ctx, m: re.Match[str], *, we: bool = False, third: bool = True) -> str | None:
    """Whom the ``subj`` group of ``m`` names, or None when it cannot be resolved.

    "I" and "<Name> and I" are the speaker; "we" is the speaker only when ``we`` is true
    (facts a household shares: a move, a pet, a wedding); a name is that person when Level 0
    recognised it in this clause and ``third`` is true. Anything else is unresolved.
    """
    subj = m.group("subj")
    if subj == "I" or subj.endswith(" I") or subj.startswith("I and ") or subj in ("my", "My"):
        return ctx.turn.speaker
    if subj in ("our", "Our"):
        return ctx.turn.speaker if we else None
    if subj in ("we", "We"):
        return ctx.turn.speaker if we else None
    if kin := m.groupdict().get("kin"):
        # "My sister works at Globex": the speaker's sister, a person of her own; "Ana's dad
        # retired": Ana's father, when Level 0 recognised Ana in the clause.
        owner = m.groupdict().get("owner")
        whose = ctx.turn.speaker if owner is None else ctx.persons.get(owner)
        return kin_subject(whose, kin) if third and whose else None
    if third and subj in ctx.persons:
        return ctx.persons[subj]
    return None


def companion(ctx: Ctx, m: re.Match[str]) -> str | None:
    """The person of "<Name> and I", when Level 0 recognised the name."""
    name = said_companion(m)
    return ctx.persons.get(name) if name else None


def said_companion(m: re.Match[str]) -> str | None:
    """The name said beside "I" in the subject slot ("Sam and I", "I and Sam"), if any."""
    groups = m.groupdict()
    return groups.get("with") or groups.get("with_after")


def first_person(m: re.Match[str]) -> bool:
    """Whether the subject slot held "I", "we" or "<Name> and I" (verb forms differ)."""
    subj = m.group("subj")
    return subj in ("I", "we", "We") or subj.endswith(" I") or subj.startswith("I and ")


def past_date(ctx: Ctx, m: re.Match[str] | None = None) -> datetime | None:
    """The start of the first resolved date of the part said on or before the turn.

    With ``m``, only a date that follows the match's start counts ("I moved to Leeds in
    May"), not one that dates an earlier clause of the same part.
    """
    date = date_from(ctx, m)
    return date.window_start if date is not None else None


def date_from(ctx: Ctx, m: re.Match[str] | None = None, *, past: bool = True) -> Signal | None:
    """The first resolved date signal of the part (from the start of ``m`` when given), on
    or before the turn when ``past`` ("my grandpa died in March"), or either side of it
    ("my last day is 30 April"): with its granularity, for statements that say the date."""
    for date in ctx.dates:
        if m is not None and date.start < ctx.part.start + m.start():
            continue
        if date.window_start is not None and (not past or date.window_start <= ctx.turn.observed_at):
            return date
    return None


_SINCE = re.compile(r"\s+since\s+", re.IGNORECASE)
_ABOUT = (
    r"(?:(?:about|around|roughly|approximately|nearly|almost|over|more\s+than|close\s+to|the\s+(?:past|last))\s+)?"
)
"""What may stand between "for" and a length ("for about ten years", "for the past year")."""
_FOR = re.compile(rf"\s+for\s+{_ABOUT}", re.IGNORECASE)
_HOW_LONG = re.compile(
    r"\s+(?:all\s+(?:of\s+)?(?:my|his|her|our|their)\s+(?:life|lives|adult\s+life|career)"
    r"|(?:my|his|her|our|their)\s+(?:whole|entire)\s+(?:life|lives|adult\s+life|career)\b)"
    rf"|\s+(?:since\b|for\s+{_ABOUT}(?:years|months|weeks|decades|ages|so\s+long|(?:quite\s+)?some\s+time"
    r"|a\s+(?:good\s+|long\s+)?while|a\s+long\s+time|(?:a\s+)?couple\s+(?:of\s+)?[a-z]+|(?:many|several|a\s+few)\s+[a-z]+"
    r"|half\s+an?\s+[a-z]+|(?:\d+|[a-z]+)(?:\s+and\s+a\s+half)?\s+(?:years?|months?|weeks?|days?|decades?))\b"
    r"(?!\s+of\b))",
    re.IGNORECASE,
)
"""How long a present perfect has held: "since 2015", "since college", "for ten years", "for
a while", "all my life" (not "for a year of classes", an amount of something)."""
PERFECT = re.compile(rf"^{HAVE}\s")
"""The present perfect right after a subject: "I've worked", "Ana has lived"."""


def perfect(m: re.Match[str]) -> bool:
    """Whether the match's verb follows its subject in the present perfect ("I've been a nurse")."""
    return bool(PERFECT.match(m.string[m.end("subj") :]))


_PERFECT_BE = re.compile(rf"^{HAVE}\s+{ADV}been\s+(?!{ADV}[a-z]+ing\b)")
"""The present perfect of "be", not the progressive: "I've been a teacher", not "I've been
teaching"."""
_CONTINUING = re.compile(r"\b(?:always|still|now|currently)\b")
_RECENT = re.compile(r"(?i:\b(?:just|recently|lately|newly)\b)")
_EXPERIENCES = frozenset(
    "lived worked stayed studied owned taught visited seen tried met travelled traveled experienced been".split()
)
"""Participles whose present perfect tells an experience ("I've lived in Paris", "I've tried
sushi", "I've been to Japan"), not the news of a change ("I've adopted a cat", "I've moved to
Paris")."""
_TIMES = re.compile(
    r"(?i:\b(?:once|twice|thrice|ever|so\s+far|in\s+(?:my|our)\s+life"
    r"|(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several|many|multiple|countless"
    r"|numerous|so\s+many|a\s+dozen|dozens\s+of|hundreds\s+of)\s+times)\b|\bbefore(?=\s*(?:[.!?,;]|$)))"
)
"""How often, or "before" closing the clause: "I've visited Rome twice", "I've done it before"."""


def experiential_state(ctx: Ctx, m: re.Match[str]) -> bool:
    """Whether the state a match says is in the experiential perfect: "I've been married", "I've
    been a teacher", "I've been unemployed". With no how long (``lasting``) and no "always",
    "still" or "now", that is something that was true at some time before it was said, not
    what holds now (said by the divorced as much as by the married), so no current value of
    a single-valued attribute comes from it. "I've been a teacher for ten years" or "… all
    my life", "I've always been a teacher" and the progressive "I've been working as a
    nurse" still hold."""
    said = m.string[m.end("subj") :]
    if not _PERFECT_BE.match(said) or _CONTINUING.search(said):
        return False
    return not lasting(ctx, m.end("subj"))


def experiential(ctx: Ctx, participle: str, at: int) -> bool:
    """Whether a present perfect whose participle ends at ``at`` tells an experience at some
    undated time: a verb of experience ("I've lived in Paris", "I've worked at a bank",
    "I've tried sushi") or a count ("I've run a marathon three times", "I've done it
    before"), with no how long (``lasting``: a state that still holds) and no "just",
    "recently" or "lately" (a recent change). The news of a change ("I've adopted a cat",
    "I've moved to Paris") is neither: what it did, it did lately."""
    if _RECENT.search(ctx.text) or lasting(ctx, at):
        return False
    return participle.lower() in _EXPERIENCES or bool(_TIMES.search(ctx.text, at))


def lasting(ctx: Ctx, at: int, *, right_after: bool = False) -> bool:
    """Whether the part says how long what it says from ``at`` on has held: "… at Google
    since 2015", "… in Leeds for ten years", or a clause the part runs into: "… at Google
    since I graduated" ("since" before a subject cuts the part there). Said of a present
    perfect, that is a state that still holds, not a past event. With ``right_after``, the
    length must follow ``at`` directly (what a rule's match ends with).
    """
    if (_HOW_LONG.match if right_after else _HOW_LONG.search)(ctx.text, at) is not None:
        return True
    if right_after and ctx.text[at:].strip(" ,.!?;"):
        return False
    after = ctx.clause.text[ctx.part.start - ctx.clause.start + len(ctx.text) :]
    return bool(_SINCE_CLAUSE.match(after))


_SINCE_CLAUSE = re.compile(r"[\s,]*since\b", re.IGNORECASE)


def stated_start(ctx: Ctx, m: re.Match[str]) -> datetime | None:
    """The start a present perfect states right after the match: the date after "since"
    ("I have worked at Google since 2015" → 1 Jan 2015, as the rules date any start:
    the start of the date Level 0 resolved), or the turn's time less the duration after
    "for" ("I've lived in Leeds for ten years", said 1 Mar 2023 → 1 Mar 2013; Level 0's
    DURATION, read by ``eywa.extraction.anchors.duration_back``). None when the match is
    not a present perfect, no such phrase follows, the date lies after the turn, or the
    length is vague ("for a while", "for years", "since I was a kid").
    """
    if not perfect(m):
        return None
    at = m.end()
    if (since := _SINCE.match(ctx.text, at)) is not None:
        for date in ctx.dates:
            offset = date.start - ctx.part.start
            if at <= offset <= since.end() and date.window_start is not None:
                return date.window_start if date.window_start <= ctx.turn.observed_at else None
        return None
    if (during := _FOR.match(ctx.text, at)) is not None:
        for signal in ctx.turn.signals:
            if signal.kind is SignalKind.DURATION and signal.start - ctx.part.start == during.end():
                tail = ctx.text[during.end() + len(signal.text) :]
                if re.match(r"\s+of\b", tail):
                    return None
                return duration_back(ctx.turn.observed_at, signal.normalized or "")
    return None


def future_date(ctx: Ctx) -> datetime | None:
    """The start of the first resolved date of the part that lies after the turn."""
    return next(
        (d.window_start for d in ctx.dates if d.window_start is not None and d.window_start > ctx.turn.observed_at),
        None,
    )


_LEADS = frozenset(
    """and so then also but yeah yes oh well today yesterday tonight night week weekend month year ago
    recently finally actually just since after before because morning afternoon evening now lately
    anyway btw guess what news update first plus though honestly hey hi wow sadly luckily
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri sat sun
    january february march april may june
    july august september october november december summer winter spring autumn fall ok okay
    congrats thanks when once currently nowadays presently days""".split()
)


_RELATIONS = (
    "|".join(sorted(KIN_WORDS, key=len, reverse=True))
    + r"|partner|spouse|fianc[ée]e?|friend|colleague|coworker|co-worker|boss|neighbou?r|roommate|flatmate|cousin"
    r"|aunt|uncle|niece|nephew|grandson|granddaughter"
)
_KIN_APPOSITION = re.compile(
    rf"(?<![\w'’])(?:(?:[Mm]y|[Oo]ur)(?:\s+[a-z]+){{1,2}}|{NAME}{A}s\s+(?:[a-z]+\s+)?(?:{_RELATIONS}))$"
)
"""A possessive noun phrase standing before a name in apposition: "my sister Carol", "our
neighbour Tom", "my best friend Ana"; another's only by a relation word: "Kim's husband Raj",
"Eva's best friend Tom" (not "Here's a pic I took"). The name after it is the clause's
subject."""


def starts_clause(prefix: str) -> bool:
    """Whether a subject after ``prefix`` opens a main clause (not "the figurines I bought").

    A name introduced by who it is to the speaker ("My sister Carol works at Initech")
    opens the clause when the possessive phrase does: the name is its subject, and Level 0
    must still have recognised it as a person (``resolve_subject``)."""
    prefix = prefix.rstrip()
    if (kin := _KIN_APPOSITION.search(prefix)) is not None and _opens(prefix[: kin.start()]):
        return True
    return _opens(prefix)


def _opens(prefix: str) -> bool:
    prefix = prefix.rstrip()
    if not prefix or prefix[-1] in ",;:-—–!?.(\"“":
        return True
    words = re.findall(r"[A-Za-z]+", prefix)
    return bool(words) and words[-1].lower() in _LEADS


def matches(
    ctx: Ctx, pattern: Rule, *, we: bool = False, third: bool = True, anywhere: bool = False
) -> list[tuple[re.Match[str], str]]:
    """Matches of ``pattern`` in the part whose subject resolves and opens a clause.

    ``anywhere`` lifts the second condition for possessive subjects ("… told my boss at X").
    """
    found: list[tuple[re.Match[str], str]] = []
    for m in openings(ctx, pattern, anywhere=anywhere):
        subject = resolve_subject(ctx, m, we=we, third=third)
        if subject:
            found.append((m, subject))
    return found


def openings(ctx: Ctx, pattern: Rule, *, anywhere: bool = False) -> Iterator[re.Match[str]]:
    """Matches of ``pattern`` in the part that open a clause (any, with ``anywhere``), when the
    part holds one of its gate words; for rules whose subject is not in the ``subj`` slot
    ("Initech hired me", "Home is Lisbon now": the speaker), ``matches`` for the others."""
    if pattern.keywords.isdisjoint(ctx.part.words):
        return
    for m in pattern.pattern.finditer(ctx.text):
        if anywhere or starts_clause(ctx.text[: m.start()]):
            yield m


def asserts(ctx: Ctx) -> bool:
    """Whether the part can carry an asserted, positive fact at all."""
    p = ctx.part
    return not (p.negated or p.hedged or p.hypothetical or p.past_habit)


def tells_an_end(ctx: Ctx) -> bool:
    """Whether the part can tell that something held no longer, a past habit included ("I used
    to live in Leeds": the home of then, left): neither negated, hedged nor hypothetical."""
    p = ctx.part
    return not (p.negated or p.hedged or p.hypothetical)


def plain(ctx: Ctx) -> bool:
    """Whether the part is neither hedged, hypothetical nor about a past habit."""
    p = ctx.part
    return not (p.hedged or p.hypothetical or p.past_habit)
