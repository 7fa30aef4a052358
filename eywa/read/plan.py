"""The query plan: what the question asks, who it names, when it points to, which
attributes it asks about, whether it asks for the current state, and from these a weight per
route. Deterministic and inspectable (it is returned in the trace)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from types import MappingProxyType
from typing import Final, Literal, get_args

from eywa.attributes import ATTRIBUTES, attributes_for_words, get_attribute, normalise_name
from eywa.attributes.spec import YEAR_DAYS
from eywa.models import Entity, RouteName, Signal, SignalKind, Stage
from eywa.read.aggregate import asks_aggregate
from eywa.read.asked import objects_named
from eywa.read.overlap import STOP_WORDS

Shape = Literal["fact", "temporal", "list", "count", "inference", "yes_no", "comparison"]


ROUTE_NAMES: Final[tuple[RouteName, ...]] = get_args(RouteName)


def _row(weights: Mapping[RouteName, float]) -> Mapping[RouteName, float]:
    return MappingProxyType(dict(weights))


# The person route's weight where it weighs: the named people's own turns are the evidence of
# what they did, like, plan (fact, list, count, inference, yes/no questions). Not for "when"
# questions, whose one dated turn the keyword and temporal routes find (the route cost them 2
# points of recall@10 on the LoCoMo development file), nor comparisons, which name both
# speakers, so that the route restricts nothing. Chosen among 0, 0.5, 1, 1.5, 2 and 3 on the
# LoCoMo development file: leave one conversation out picks 2 in every fold, but 2 costs one
# conversation 3.7 points (a change that hurts a conversation by more than a point is not
# kept); 1.5 helps three and hurts none by more than 0.7 (docs/evaluation.md).
PERSON_WEIGHT: Final = 1.5
# The feedback route's weight, for list and count questions only: their evidence is spread
# over sessions the question's own words do not reach, and its recurring words reach them
# (``eywa.read.routes.feedback``). Chosen by leave one conversation out among 1, 2 and 3 (with
# 5 or 10 feedback turns) on the LoCoMo development file: 2 with 10 turns in three folds,
# +0.4 recall@10 (multi-hop +1.8), no conversation lower. At weight 1 for every shape it cost
# 0.8 points (open-domain -4.0, temporal -1.3): a one-answer question's best hits are already
# the answer, and their other words lead away from it (docs/evaluation.md).
FEEDBACK_WEIGHT: Final = 2.0

# One readable table: route weights per question shape. Routes absent from a row weigh 0.
# Keyword weighs twice the vector route: on the LoCoMo dev turns BM25 over turn + speaker +
# neighbours is the stronger single route (about 72 vs 51 turn recall@10), and a 2:1 RRF
# mix beat 1:1 and 3:1. The support routes add candidates the two main routes miss; the
# belief and feedback routes weigh where the evidence is spread over sessions (list, count).
ROUTE_WEIGHTS: Final[Mapping[Shape, Mapping[RouteName, float]]] = MappingProxyType(
    {
        "fact": _row({"keyword": 2.0, "vector": 1.0, "person": PERSON_WEIGHT, "graph": 0.5, "dimension": 0.5, "beliefs": 0.5}),
        "temporal": _row({"keyword": 2.0, "vector": 1.0, "temporal": 1.0, "graph": 0.3, "beliefs": 0.5}),
        "list": _row({"keyword": 2.0, "vector": 1.0, "person": PERSON_WEIGHT, "graph": 0.8, "dimension": 0.8, "beliefs": 1.0, "feedback": FEEDBACK_WEIGHT}),
        "count": _row({"keyword": 2.0, "vector": 1.0, "person": PERSON_WEIGHT, "graph": 0.8, "dimension": 0.5, "beliefs": 1.0, "feedback": FEEDBACK_WEIGHT}),
        "inference": _row({"keyword": 1.5, "vector": 1.2, "person": PERSON_WEIGHT, "inference": 1.0, "graph": 0.5, "dimension": 0.5, "beliefs": 0.8}),
        "yes_no": _row({"keyword": 2.0, "vector": 1.0, "person": PERSON_WEIGHT, "graph": 0.5, "dimension": 0.5, "beliefs": 0.5}),
        "comparison": _row({"keyword": 2.0, "vector": 1.0, "graph": 0.8, "dimension": 0.5, "beliefs": 0.8}),
    }
)

# The events route's weight on an interval question: that of the vector route, so that
# each event's best turns stand beside the whole question's.
EVENTS_WEIGHT: Final = 1.0

_SHAPES: Final[tuple[tuple[Shape, re.Pattern[str]], ...]] = (
    ("temporal", re.compile(r"^\s*(when|what (year|month|day|date|time))\b|\bhow long (ago|has|have|had|did|was|were)\b|\bwhat date\b", re.I)),
    ("count", re.compile(r"^\s*how (many|much|often)\b|\bnumber of\b", re.I)),
    ("inference", re.compile(r"\b(would|likely|might|could|probably)\b", re.I)),
    ("list", re.compile(r"^\s*(what|which) (are|were|kinds?|types?|things|activities|books|places|events|hobbies|items)\b|\ball (the )?\b|\bwhat \w+ (has|have) \w+ (done|visited|tried|read|made)\b", re.I)),
    ("comparison", re.compile(r"\b(more|less|better|worse|than|compared|both|in common|share|same)\b", re.I)),
    ("yes_no", re.compile(r"^\s*(is|are|was|were|do|does|did|has|have|can|will)\b", re.I)),
)

# Shapes whose answer can be a state: "where does X work", "is X married", "what pets does X
# have". "When" and "how much" questions want a date or an amount, which a turn or a belief
# carries and a dimension does not; "would X…" and comparisons want reasons.
STATE_SHAPES: Final[frozenset[Shape]] = frozenset({"fact", "yes_no", "list"})
# Those whose answer at a past time is the state at the end of it (``state_asked_at``).
_PAST_STATE_SHAPES: Final[frozenset[Shape]] = frozenset({"fact", "list"})
# Words that put a question in the past ("where did she work", "was he married", "before",
# "used to"): the state asked about is not the current one.
_PAST = re.compile(r"\b(did|was|were|had|used to|before|ago|previously|formerly|former|ever|once)\b", re.I)
_AMOUNT = re.compile(r"^\s*how much\b", re.I)
_REASON = re.compile(r"^\s*(why|how)\b(?!\s+(old|many|much)\b)", re.I)
# Words of a state question that ask for the present or the value's name ("what is her dog
# called?"), or only carry the verb, not a topic.
_STATE_WORDS: Final = frozenset(
    "now still currently current anymore nowadays today these days name names called named kind kinds type types sort".split()
    # light verbs: "does he still *go* climbing", "did she *get* married" carry no topic
    + "go goes going get gets getting got".split()
    # indefinite pronouns ask for whatever holds: "Is Leo allergic to *anything*?"
    + "anything anyone anybody something someone somebody".split()
)
_WH_WORDS: Final = frozenset({"what", "where", "which", "who", "whom", "whose"})
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


@dataclass(frozen=True)
class Plan:
    """The planner's reading of a question.

    ``attributes`` are the registry attributes its words point at ("work" → employer,
    occupation), which with ``entities`` name the dimensions to look up; ``current_state``
    says whether a confident dimension may answer it (a present-tense fact, yes/no or list
    question without a time window).
    """

    shape: Shape
    entities: tuple[str, ...]
    weights: Mapping[RouteName, float]
    window: tuple[datetime, datetime] | None = None
    window_relative: bool = False
    """The window moves with the anchor ("in June", "last year", "August 11"): when the
    memory holds nothing in it as of the asker's time, the temporal route resolves the
    question against the session dates of its candidate turns instead."""
    notes: tuple[str, ...] = field(default=())
    attributes: tuple[str, ...] = ()
    current_state: bool = False
    state_at: datetime | None = None
    """A state question about a past time window ("Where did Ana work in March 2024?"): the
    time a confident dimension is read at to answer it, as a current-state question's is
    read at the asker's time (``state_asked_at``)."""
    wh_word: str | None = None
    """The question word that opens what is asked ("where", "what", "who", …), if any."""
    when_words: tuple[str, ...] = ()
    """The ``other_words`` that stand only in the question's date expressions ("march",
    "2024"): they say when, not what, so they do not keep a dimension from answering a
    question about the state at that time."""
    latest_amount: bool = False
    """A present-tense "how much" question ("How much rent does Tomas pay?"): the amount
    asked for is the one said last, so the temporal route offers the turns carrying an
    amount, newest first."""
    events: tuple[str, ...] = ()
    """The two event phrases of an interval question ("How many weeks passed between Ana
    adopting Rex and Fido?" → "Ana adopting Rex", "Ana adopting Fido") or of an order
    question ("Which happened first, Ana's move or Ben's wedding?"): the events route
    retrieves each, so that the second event is not lost to the first."""
    aggregate: bool = False
    """The question asks for everything of a kind over a span of a life ("What books has Ana
    read?", "How many times did Ben move?"), not for one answer (``eywa.read.aggregate``):
    its evidence is spread over sessions, so the rescue admits only the named people's turns
    and no session keeps more than three turns' scores (``eywa.read.adjust.spread_sessions``)."""
    before: str | None = None
    """The value a "what held before it" question names ("Where did Ana work before
    Globex?" → Globex, ``value_before``): the dimension route answers with the state just
    before that value began (``Plan.state_at`` once it knows when)."""
    previous: bool = False
    """The question asks what held before the present state ("Where did Ana use to live?",
    "What was Ana's previous job?", "Who is Ana's ex-husband?", ``asks_previous``): the dimension
    route answers with the state just before the last change (``Plan.state_at`` once it
    knows when), and the present state never answers it."""
    through: tuple[str, ...] = ()
    """People named only as whose relative the asked person is ("Ana" in "Where does Ana's
    sister work?", once the memory knows the sister: ``eywa.read.relatives``). Their
    dimensions are not what is asked, but the question is still about them: their turns are
    where the relative is spoken of (``people``)."""
    other_words: tuple[str, ...] = ()
    """Content words that name neither an entity nor an attribute nor the present: what the
    question asks about besides (person, attribute). A dimension answers the question only
    if they all name its values ("Does Priya eat *meat*?"), not when the attribute is a
    modifier ("Who performed at Priya's *daughter's* birthday?": performed, concert,
    birthday)."""

    objects: tuple[str, ...] = ()
    """The people the question names as objects when it names another as its subject (Ben
    in "What did Ana lend to Ben?", ``eywa.read.asked.objects_named``): what it asks was said
    or done by the others, when they are among the people talking (``asked.answering``)."""

    @property
    def people(self) -> tuple[str, ...]:
        """Everyone the question is about: the people asked about, then those they were
        found through."""
        return (*self.entities, *self.through)

    def as_trace(self) -> dict[str, object]:
        """A JSON-friendly view for the trace."""
        return {
            "shape": self.shape,
            "entities": list(self.entities),
            "through": list(self.through),
            "objects": list(self.objects),
            "attributes": list(self.attributes),
            "current_state": self.current_state,
            "state_at": self.state_at.isoformat() if self.state_at else None,
            "latest_amount": self.latest_amount,
            "events": list(self.events),
            "aggregate": self.aggregate,
            "before": self.before,
            "previous": self.previous,
            "other_words": list(self.other_words),
            "when_words": list(self.when_words),
            "wh_word": self.wh_word,
            "weights": dict(self.weights),
            "window": [w.isoformat() for w in self.window] if self.window else None,
            "window_relative": self.window_relative,
            "notes": list(self.notes),
        }


def question_shape(question: str) -> Shape:
    """The first matching shape of the table above; "fact" otherwise."""
    for shape, pattern in _SHAPES:
        if pattern.search(question):
            return shape
    return "fact"


# The longest entity name, in words, the planner looks up in a question.
MAX_NAME_WORDS: Final = 6
_WORD_START = re.compile(r"(?<!\w)\w")
_WORD_END = re.compile(r"\w(?!\w)")


def name_spans(question: str) -> list[str]:
    """Every span of the question that could be an entity name as ``named_entities`` matches
    one: from a word's start to the end of that word or of one of the next
    ``MAX_NAME_WORDS - 1`` words (also taking one trailing punctuation mark: "Dr."),
    case-folded. The store is asked for these (``EvidenceStore.entities_named``), so the
    planner never loads every entity of the space."""
    text = question.casefold()
    starts = [m.start() for m in _WORD_START.finditer(text)]
    ends = [m.end() for m in _WORD_END.finditer(text)]
    spans: set[str] = set()
    for index, start in enumerate(starts):
        for end in ends[index : index + MAX_NAME_WORDS]:
            spans.add(text[start:end])
            if end < len(text) and not text[end].isspace():
                spans.add(text[start : end + 1])
    return sorted(spans)


def named_entities(question: str, entities: Sequence[Entity]) -> tuple[str, ...]:
    """Known entity names (or aliases) that appear in the question as whole words."""
    lowered = question.casefold()
    found: list[str] = []
    for entity in entities:
        for name in (entity.name, *entity.aliases):
            if len(name) < 2:
                continue
            if re.search(rf"(?<!\w){re.escape(name.casefold())}(?:'s)?(?!\w)", lowered):
                found.append(entity.name)
                break
    return tuple(dict.fromkeys(found))


def embedding_texts(
    question: str, entities: Sequence[Entity], disabled: frozenset[Stage] = frozenset()
) -> tuple[str, str]:
    """What the vector route and the person route embed: the question as asked, and the
    question without the names of the people it names where the person route will weigh
    (not for a question whose shape leaves it out, nor when it is switched off: the second
    text is then the first, and is not embedded twice)."""
    weighed = "person" not in disabled and ROUTE_WEIGHTS[question_shape(question)].get("person", 0.0) > 0.0
    return question, embedding_text(question, entities) if weighed else question


def embedding_text(question: str, entities: Sequence[Entity]) -> str:
    """The question as the vector routes embed it: without the names of the people it names
    (and their possessive "'s"). Who is asked about is the keyword route's and the person
    route's business (a name is a word to BM25, a speaker to the person route); to a sentence
    embedder a name is noise that pulls the question towards every turn that greets that
    person ("Hey Ana!") and away from what it asks. On the LoCoMo development questions the
    turn embedding's gold recall@10 rose from 25 to 32 (multi-hop) and from 53 to 59 (the
    other answerable categories) with the names left out (docs/evaluation.md). Other
    entities ("Sweden", a book's title) stay: they are what the question is about. The
    question is kept whole when nothing but names would be left."""
    text = question
    for entity in entities:
        if entity.kind != "person":
            continue
        for name in (entity.name, *entity.aliases):
            if len(name) >= 2:
                text = re.sub(rf"(?<!\w){re.escape(name)}(?:['’]s)?(?!\w)", " ", text, flags=re.IGNORECASE)
    text = " ".join(text.split())
    return text if any(w not in STOP_WORDS for w in _words(text)) else question


def without_names(question: str, names: Sequence[str]) -> str:
    """``question`` with each of ``names`` (and its possessive) said as "someone", for the
    words that point at attributes: "Where does Ana's sister work?", asked of the person
    named "Ana's sister", asks for an employer only. Pure."""
    for name in sorted(names, key=len, reverse=True):
        if len(name) >= 2:
            question = re.sub(rf"(?<!\w){re.escape(name)}(?:['’]s?)?(?!\w)", "someone", question, flags=re.IGNORECASE)
    return question


_COUNT_OF_HELD: Final = re.compile(
    r"^\s*how\s+many\s+(?P<counted>(?:[\w-]+\s+){1,3}?)(?:does|do|has|have)\s+(?:[\w-]+(?:['’]s)?\s+){1,4}?"
    r"(?:have|got|own)\b"
    r"(?:\s+(?:now|today|currently|at\s+the\s+moment))?\s*\??\s*$",
    re.IGNORECASE,
)
"""A count of what one holds now, asked in the present ("How many kids does Ana have?", "How
many pets has Bo got?"): the count a state's line of values answers. "How many times did …",
"How many dogs has Ana had?" and "How many kids does Ana want?" ask for no held state."""


def counted_words(question: str) -> tuple[str, ...]:
    """The words a count of what one holds counts ("How many brothers and sisters does Ana
    have?" → brothers, and, sisters), case-folded; none for any other question. Pure."""
    found = _COUNT_OF_HELD.match(question)
    return tuple(_words(found.group("counted"))) if found else ()


def asks_current_state(question: str, shape: Shape, window: tuple[datetime, datetime] | None) -> bool:
    """Whether the question asks what holds now about one attribute.

    A state shape in the present tense with no time window, not a "why"/"how" question
    (reasons and manners are not states), and attribute words that agree on an attribute:
    "Is Dario married?" (married → relationship status, partner) does, "What do Priya's
    kids like?" (kids → children, like → likes) asks about a chain of two and does not.
    A count is a state's when it counts what one holds now (``_COUNT_OF_HELD``): "How many
    kids does Ana have?" is answered by her children's line.
    """
    if shape == "count":
        if not _COUNT_OF_HELD.match(question):
            return False
    elif shape not in STATE_SHAPES:
        return False
    if window is not None or _REASON.search(question):
        return False
    groups = [set(found) for found in attribute_groups(question)]
    agreed = set.intersection(*groups) if groups else set()
    if _PAST.search(question):
        # "Where did Priya grow up?", "Was Ben born in Leeds?": the past tense is how one
        # asks about a state that never changes, so it is still asked of the present, when
        # the question word is one that asks for it ("what did Ana receive from …" is not);
        # so is "Where did Priya study?" of what stays told once it ends (a school attended).
        wh = question_word(question)
        return bool(agreed) and all(
            _timeless(name) and (shape == "yes_no" or wh in get_attribute(name).wh_words) for name in agreed
        )
    if not groups:
        return shape != "count"  # a count says what it counts: "How many does Ana have?" is no state's
    return bool(agreed)


def _timeless(attribute: str) -> bool:
    """A single-valued attribute that holds for a lifetime (origin), or one whose values stay
    part of the subject's story once they end (education, ``AttributeSpec.lasting``): asked
    in any tense."""
    spec = get_attribute(attribute)
    return spec.lasting or (spec.cardinality == "single" and spec.tau_days >= _LIFETIME_DAYS)


# "How long / how many weeks … between A and B", "How many months after A did B".
_INTERVAL = re.compile(r"^\s*(how long|how many \w+|after how many \w+|how much time)\b", re.I)
# The word that opens the two phrases, and the words that close the first one: "between A
# *and* B"; "after A *did* B". Split on words, not by a regular expression: a pattern with
# two free spans backtracks badly on long input.
_AFTER_WORDS: Final = frozenset({"after", "before", "since"})
_AFTER_CLOSE: Final = frozenset("did does do was were is has had have will would".split())
# At most this many words in the second phrase borrow the first phrase's head: "between
# adopting Rex and Fido" → "adopting Fido".
_ELLIPSIS_WORDS: Final = 2


def interval_events(question: str, window: tuple[datetime, datetime] | None) -> tuple[str, ...]:
    """The two event phrases of a question asking for the time between two events; () for
    any other question, and when the two ends are dates (a window, not events). A short
    second phrase shares the first one's verb: "between Ana adopting Rex and Fido" asks
    about "Ana adopting Rex" and "Ana adopting Fido"."""
    if window is not None or not _INTERVAL.search(question):
        return ()
    words = question.strip().rstrip("?.! ").split()
    spans = _between_spans(words) or _after_spans(words)
    if spans is None:
        return ()
    first = [w.rstrip(",") for w in words[spans[0] : spans[1]]]
    second = words[spans[2] :]
    if not first or not second or _INTERVAL.match(" ".join(first)):  # "After how many weeks did…": one event
        return ()
    if len(second) <= _ELLIPSIS_WORDS < len(first):
        second = first[: -len(second)] + second
    return (" ".join(first), " ".join(second))


# "Which happened first, A or B?", "What came earlier: A or B?": the question word, then the
# order word closing its clause ("first,"), then the two events joined by "or". "Did A
# happen before or after B?": the two events on each side of "before or after". Split on
# words, not by a regular expression, for the reason ``_AFTER_WORDS`` gives.
_ORDER_OPENERS: Final = frozenset({"which", "what"})
_ORDER_WORDS: Final = frozenset({"first", "earlier", "sooner"})
_ORDER_AUXILIARIES: Final = frozenset("did was were is has had".split())
_BEFORE_OR_AFTER: Final = ("before", "or", "after")


def order_events(question: str, window: tuple[datetime, datetime] | None) -> tuple[str, ...]:
    """The two event phrases of a question asking which of two events came first ("Which
    happened first, Ana's move or Ben's wedding?", "Did Ana move before or after Ben's
    wedding?"); () for any other question, and when its ends are dates (a window). Like an
    interval, an order needs both events' turns, and searched as one text the better-worded
    event fills the candidates (``interval_events``)."""
    if window is not None:
        return ()
    words = question.strip().rstrip("?.! ").split()
    lowered = [w.casefold() for w in words]
    if not lowered:
        return ()
    if lowered[0] in _ORDER_AUXILIARIES:
        at = next((i for i in range(1, len(lowered) - 2) if tuple(lowered[i : i + 3]) == _BEFORE_OR_AFTER), None)
        if at is None:
            return ()
        first, second = words[1:at], words[at + 3 :]
    elif lowered[0] in _ORDER_OPENERS:
        closing = next((i for i, w in enumerate(lowered) if w[-1:] in {",", ":", "?"}), None)
        if closing is None or lowered[closing].rstrip(",:") not in _ORDER_WORDS:
            return ()
        rest = words[closing + 1 :]
        ors = [i for i, w in enumerate(rest) if w.casefold() == "or"]
        if len(ors) != 1:
            return ()
        first, second = rest[: ors[0]], rest[ors[0] + 1 :]
    else:
        return ()
    first_text, second_text = " ".join(first).strip(" ,"), " ".join(second).strip(" ,")
    return (first_text, second_text) if first_text and second_text else ()


def _between_spans(words: Sequence[str]) -> tuple[int, int, int] | None:
    """"between A and B": (start of A, end of A, start of B), or None."""
    lowered = [w.casefold() for w in words]
    if "between" not in lowered:
        return None
    start = lowered.index("between") + 1
    if "and" not in lowered[start:]:
        return None
    end = lowered.index("and", start)
    return start, end, end + 1


def _after_spans(words: Sequence[str]) -> tuple[int, int, int] | None:
    """"after A did B" (also before, since): (start of A, end of A, start of B), or None."""
    lowered = [w.casefold().rstrip(",") for w in words]
    start = next((i + 1 for i, w in enumerate(lowered) if w in _AFTER_WORDS), None)
    if start is None:
        return None
    end = next((i for i in range(start, len(lowered)) if lowered[i] in _AFTER_CLOSE), None)
    return None if end is None else (start, end, end + 1)


# Idioms whose words would point at another attribute than the one they mean, or at none:
# "what does Ana do for a living?" asks for her work, though "living" alone is a residence
# word; "where did Ana grow up?" for her origin, though "grow" alone is no attribute's;
# "where is Ana based?" for where she lives.
_DOER: Final = (
    r"(?:someone|he|she|they|you|(?-i:[A-Z])[\w'’.-]*)(?:\s+(?:and\s+|&\s+)?(?:someone|(?-i:[A-Z])[\w'’.-]*))*"
)
"""Who "What does … do?" asks about: names (``without_names`` has made the known ones
"someone"), joined by "and", or a pronoun; no relation ("Ana's husband") or other word."""

_ATTRIBUTE_IDIOMS: Final[tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]] = (
    (re.compile(r"\bfor\s+a\s+living\b", re.I), ("occupation", "employer")),
    (re.compile(r"\b(?:grow|grew|grown|growing)\s+up\b", re.I), ("origin",)),
    (re.compile(r"\bbased\b(?!\s+(?:on|upon)\b)", re.I), ("residence",)),  # "where is Ana based?", not "based on"
    # "What city does Ana call home?": where she lives, though "call" alone is no attribute's
    # and "home" may be a house ("Ana's home was flooded").
    (re.compile(r"\bcall(?:s|ed|ing)?\s+home\b", re.I), ("residence",)),
    # "What line of work is Ana in?", "What's Ana's field of work?": her work; "line" and
    # "field" are no topic of it.
    (re.compile(r"\b(?:line|field)\s+of\s+(?:work|business)\b", re.I), ("occupation", "employer")),
    # "What does Ana do?" (nothing after "do" but the present, or a known name she does it
    # at: "What does Ana do at Globex?"): her work, not a pastime. Of a
    # person by name or pronoun (`_DOER`), or of a relation ("What does Ana's husband do?"),
    # whose words stay to be read (the `keep` group): the idiom took the whole question, and
    # her own job, or "married", answered it. Not "What does Ana like to do?".
    (re.compile(rf"^\s*what\s+(?:does|do)\s+(?:{_DOER}|(?P<keep>(?:[\w'’]+\s+)?[\w'’]+))(?:\s+\w+ly)?(?<!\bto)\s+do(?:\s+at\s+someone)?(?:\s+(?:now|nowadays|these\s+days|for\s+work))?\s*[?.!]*\s*$", re.I),
     ("occupation", "employer")),
    # "What does Ana like to do?", "… do for fun?": her pastimes, though "like" alone is a taste
    # (after the idiom above, which "What does Ana do for fun?" must not match once stripped;
    # that one skips "… like to do?").
    (re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys)\s+(?:to\s+do|doing)\b|\bfor\s+fun\b", re.I), ("hobbies",)),
    # "Who does Ana work with?": her colleagues, whom no attribute holds, though "work" points
    # at her employer (which "who" may ask for: "Who does Ana work for?").
    (re.compile(r"\bwork(?:s|ed|ing)?\s+(?:along\s*side|alongside|together\s+with|with)\b", re.I), ()),
    # "Is Ana seeing anyone?": whether she has a partner, though "seeing" alone is no attribute's.
    (re.compile(r"\bseeing\s+(?:anyone|anybody|someone|somebody)\b", re.I), ("relationship_status", "partner")),
    # "What does Ana do in her free time?": her pastimes; "time" is no topic of them.
    (re.compile(r"\b(?:free|spare|leisure)\s+time\b|\bdowntime\b", re.I), ("hobbies",)),
    # "Where does Tom teach?": where one teaches is where one works, though "teach" alone is
    # no attribute's word ("What does Tom teach?" asks for a subject, which no attribute holds).
    (re.compile(r"^\s*where\b.*\bteach(?:es|ing)?\b", re.I), ("employer",)),
    # "What diet does Ana follow?", "Is Ana following a diet?": "follow" says nothing the
    # diet does not (it was read as a topic the diet could not answer).
    (re.compile(r"\bdiet\b.*\bfollow(?:s|ing)?\b|\bfollow(?:s|ing)?\s+(?:a|an|the|any)?\s*(?:\w+\s+)?diet\b", re.I),
     ("diet",)),
    # "What health issues does Ana have?", "Does Ana have any medical problems?": her health;
    # "issues" or "problems" is no topic the health dimension could not answer (alone it may
    # be anything's: "What problems did Ana have with her car?").
    (re.compile(r"\b(?:health|medical)\s+(?:issues?|problems?|conditions?|concerns?|troubles?)\b", re.I), ("health",)),
    # "What language is Ana learning?", "Is Ana learning a new language?": a language being
    # learned is her education until she is said to speak it (the registry's languages note),
    # not the languages she speaks; "learning" is no topic of it ("What languages has Ana
    # learned?", done, asks what she speaks).
    # Not "Which language does Ana want to learn?": a wish, which her education does not hold.
    (re.compile(r"\blanguages?\b.*(?<!\bto\s)\blearn(?:s|ing)?\b|(?<!\bto\s)\blearn(?:s|ing)?\b.*\blanguages?\b", re.I),
     ("education",)),
    # "Where is Ana moving?", "Where will Ana live?", "Where does Ana plan to move?": a move
    # to come is one of her plans, not where she lives (which "moving" and "live" point at):
    # her residence answered it with the place she is leaving. Not "Where did Ana move?",
    # done, nor "Where is Ana living?", now.
    (re.compile(
        r"^\s*where\b(?:.*\b(?:is|are|am)\b.*\b(?:moving|relocating)\b"
        r"|.*\b(?:will|going\s+to|gonna|planning\s+to|plans?\s+to|wants?\s+to|hoping\s+to|hopes?\s+to)\b"
        r".*\b(?:move|relocate|live|settle)\b)", re.I),
     ("plans",)),
)
# A lifetime, in days (the registry's own for origin): an attribute whose values last this
# long does not change.
_LIFETIME_DAYS: Final = 50 * YEAR_DAYS


_GOVERNING: Final = r"(?:to|with)"
"""The prepositions after which an attribute's word takes what its value is of ("allergic *to*
cats", "diagnosed *with* …")."""
_ARTICLES: Final = r"(?:(?:a|an|the|any|some|my|his|her|their)\s+)?"
_PHRASE_WORD: Final = r"[^\W\d_][\w'’-]*"


@cache
def _value_phrase_patterns() -> tuple[re.Pattern[str], ...]:
    """The patterns of ``value_phrases``, made from the registry: for each attribute named by
    word forms (``AttributeSpec.word_forms``), its words before a governing preposition and
    its name and one-word aliases (nouns) after a modifier."""
    patterns: list[re.Pattern[str]] = []
    for spec in ATTRIBUTES.values():
        if not spec.word_forms:
            continue
        nouns = {normalise_name(n) for n in (spec.name, *spec.aliases) if "_" not in normalise_name(n)}
        words = nouns | {normalise_name(w) for w in spec.words}
        heads = "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))
        named = "|".join(sorted((re.escape(w) for w in nouns), key=len, reverse=True))
        # "allergic to cats (or dogs)", to the end of the question.
        complement = (
            rf"\b(?:{heads})\s+{_GOVERNING}\s+{_ARTICLES}"
            rf"(?P<phrase>{_PHRASE_WORD}(?:\s+{_PHRASE_WORD}){{0,2}})(?=\s*[?.!,;]*\s*$)"
        )
        # "cat allergy", "dog-allergy"; not a possessive ("Ana's cat's allergy" is the cat's).
        modifier = rf"(?<![\w'’-])(?P<phrase>{_PHRASE_WORD})(?<!['’]s)[\s-]+(?:{named})\b"
        patterns += [re.compile(complement, re.IGNORECASE), re.compile(modifier, re.IGNORECASE)]
    return tuple(patterns)


def value_phrases(question: str) -> tuple[str, tuple[str, ...]]:
    """The question without the words that say what a condition is of, and those words,
    case-folded: "Is Ana allergic to cats?" → "Is Ana allergic to ?", ("cats",); "Does Ana
    have a cat allergy?" → ("cat",). Pure.

    An attribute named by word forms (``AttributeSpec.word_forms``, the conditions of health)
    has values of several words, a condition and what it is of ("cats allergy"). Asked about,
    the thing is the complement of the attribute's word ("allergic to cats", "allergy to
    cats") or a modifier before its noun ("cat allergy"): a word of the value, not a topic,
    though "cats" alone points at the pets. Read as a topic it made the question ask about two
    attributes at once, which no current state answers. The words stay the question's other
    words (``other_words``): "Is Ana allergic to dogs?" names no condition of hers.
    """
    said: list[str] = []

    def without_phrase(found: re.Match[str]) -> str:
        whole, at = found.group(0), found.start()
        words = [w for w in _words(found.group("phrase")) if w not in STOP_WORDS and w not in _STATE_WORDS]
        if not words:
            return whole  # "any allergies", "allergic to anything": no thing named
        said.extend(words)
        return whole[: found.start("phrase") - at] + whole[found.end("phrase") - at :]

    for pattern in _value_phrase_patterns():
        question = pattern.sub(without_phrase, question)
    return question, tuple(dict.fromkeys(said))


def _idioms(question: str) -> tuple[list[list[str]], str]:
    """The attributes of the question's idioms, and the question without them (but for the
    words of a pattern's ``keep`` group, which point at attributes of their own) and without
    the words of a value's phrase (``value_phrases``)."""
    question = value_phrases(question)[0]
    groups: list[list[str]] = []
    for pattern, attributes in _ATTRIBUTE_IDIOMS:
        if pattern.search(question):
            groups.append(list(attributes))
            question = pattern.sub(_kept, question)
    return groups, question


def _kept(match: re.Match[str]) -> str:
    kept = match.groupdict().get("keep")
    return f" {kept} " if kept else " "


def attribute_groups(question: str) -> list[list[str]]:
    """The attributes each word (or idiom) of the question points at, in order of mention:
    "Is Dario married?" → [[relationship_status, partner]]; "What does Ana do for a
    living?" → [[occupation, employer]], not residence."""
    groups, rest = _idioms(question)
    return groups + [found for word in _words(rest) if (found := attributes_for_words([word]))]


_WH_HEAD: Final = re.compile(r"^\s*(?:what|which)\s+(?P<head>[A-Za-z]+)\b(?!\s+of\b)", re.I)
"""The noun right after "what"/"which" ("what company", "which city"): what the question asks
for ("what kind of work" names a kind, not the noun)."""


_RELATION_PREFIXES: Final = frozenset({"ex", "step", "half"})


def asked_attributes(question: str) -> tuple[str, ...]:
    """The registry attributes the question's words point at, those its question word asks
    for first ("What is Ana's job?" → occupation, employer; "Where does Ana work?" →
    employer, occupation; see ``AttributeSpec.wh_words``), otherwise in order of mention."""
    groups, rest = _idioms(question)
    words = rest.split()
    # A relation behind a prefix counts too: "ex-husband" asks about a husband, "half-sister"
    # about a sibling (not "dairy-free" about free time).
    words += [
        relation for prefix, dash, relation in (w.lower().partition("-") for w in words)
        if dash and prefix in _RELATION_PREFIXES
    ]  # fmt: skip
    found = list(dict.fromkeys([*(name for group in groups for name in group), *attributes_for_words(words)]))
    wh = question_word(question)
    head = head_attribute(question)
    return tuple(sorted(found, key=lambda name: (name != head, wh is None or wh not in get_attribute(name).wh_words)))


def head_attribute(question: str) -> str | None:
    """The one attribute the noun right after "what"/"which" names ("What company does Ana
    work for?" → employer, which "what" alone would put after the occupation), or None
    ("what job" names two, "what kind of work" a kind). Pure."""
    head = _WH_HEAD.match(question)
    named = attributes_for_words([head.group("head").lower()]) if head is not None else []
    return named[0] if len(named) == 1 else None


_BEFORE_VALUE: Final = re.compile(
    r"^\s*(?i:where|what|which|who)\b.*?\b(?i:before)\s+"
    r"(?i:(?:moving|relocating|going|joining|starting|working|living)(?:\s+(?:to|at|for|in|with))?\s+)?(?:the\s+)?"
    r"(?P<value>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*)*)\s*[?.!]*\s*$"
)
"""A question for what held before a value, named at its end ("Where did Ana live before
Lisbon?", "… before moving to Lisbon?", "Who was Ana's manager before Tom?"), with a lower-case
article left out ("… before the NHS?" → "NHS", as the value is kept; "The Hague" keeps its own)."""


def value_before(question: str, window: tuple[datetime, datetime] | None) -> str | None:
    """The value a question asks what held before ("Where did Ana work before Globex?" →
    "Globex"), or None: a name at its end after "before", not a date ("before June" is a
    time window). Pure."""
    found = _BEFORE_VALUE.match(question) if window is None else None
    return found.group("value") if found is not None else None


_WH_START: Final = re.compile(r"^\s*(?:where|what|which|who|whom)\b", re.IGNORECASE)
_PREVIOUS: Final = re.compile(r"\b(?:used\s+to|previous(?:ly)?|former(?:ly)?)\b|\bbefore\s*[?.!]*\s*$", re.IGNORECASE)
_DID_USE_TO: Final = re.compile(r"\bdid\b.*\buse\s+to\s+(?P<verb>[a-z]+)", re.IGNORECASE)
""""Where did Ana use to live?" — but "What did Ana use to make the cake?" names a tool: only
a verb an attribute is asked by ("live", "work"), "be" or "do" asks for the previous state."""
_OLD_OR_EX: Final = re.compile(r"(?:['’]s|\bhis|\bher|\btheir)\s+(?:old|ex)\b(?:-|\s+)?(?P<noun>[a-z]+)?", re.IGNORECASE)
_PREVIOUS_WORDS: Final = frozenset("use used previous previously former formerly old ex".split())
"""Words that only say the question is about the state before the present one."""


@cache
def _attribute_nouns() -> frozenset[str]:
    """Every attribute's name and aliases, normalised ("job", "girlfriend", "address")."""
    return frozenset(normalise_name(n) for spec in ATTRIBUTES.values() for n in (spec.name, *spec.aliases))


def _attribute_noun(word: str | None) -> bool:
    """Whether ``word`` is missing or names an attribute (its name or an alias: "job",
    "girlfriend", "address"), as after "Ana's old" / "Ana's ex"; "Ana's ex moved" names the
    ex, a person, not an earlier partner of Ana's asked about."""
    return word is None or normalise_name(word) in _attribute_nouns()


def asks_previous(question: str, window: tuple[datetime, datetime] | None) -> bool:
    """Whether the question asks what held before the present state, naming no value or time
    it held before ("Where did Ana use to work?", "What was Ana's old job?", "Who is Ana's
    ex?", "Where did Ana live before?"; not "… before Globex?", ``value_before``, nor "… in
    2019?", nor "What old car does Ana drive?"). Pure."""
    if window is not None or _WH_START.match(question) is None or value_before(question, window) is not None:
        return False
    if _PREVIOUS.search(question) is not None:
        return True
    did = _DID_USE_TO.search(question)
    if did is not None and (did.group("verb").lower() in {"be", "do"} or attributes_for_words([did.group("verb")])):
        return True
    return any(_attribute_noun(m.group("noun")) for m in _OLD_OR_EX.finditer(question))


def asks_latest_amount(question: str, window: tuple[datetime, datetime] | None) -> bool:
    """Whether the question asks how much something is now: "how much" in the present tense
    and no time window ("How much rent does Tomas pay?", not "How much did he pay in May?")."""
    return bool(_AMOUNT.search(question)) and window is None and not _PAST.search(question)


def other_words(question: str, entities: Sequence[str]) -> tuple[str, ...]:
    """The question's content words left once entity names, attribute words ("work",
    "married", "pets") and idioms ("grow up"), function words and present-tense words
    ("now", "still") are set aside, case-folded, in order."""
    named = {w for name in entities for w in _words(name)}
    of_values = value_phrases(question)[1]
    left: list[str] = []
    for word in _words(_idioms(question)[1]) + list(of_values):
        if word in STOP_WORDS or word in _STATE_WORDS or word in named:
            continue
        if word not in of_values and attributes_for_words([word]):
            continue
        if word not in left:
            left.append(word)
    return tuple(left)


def question_word(question: str) -> str | None:
    """The first question word of the question ("where", "what", "who", …), if any."""
    return next((w for w in _words(question) if w in _WH_WORDS), None)


def _words(text: str) -> list[str]:
    return [re.sub(r"['’]s$", "", w.casefold()) for w in _TOKEN.findall(text)]


def time_window(question: str, anchor: datetime) -> tuple[datetime, datetime] | None:
    """The span of the question's date expressions ("in May 2023", "last year"), if any."""
    return _span(_dates(question, anchor))


def _dates(question: str, anchor: datetime) -> list[Signal]:
    """The question's date expressions that resolve to a window against ``anchor``."""
    from eywa.signals import resolve_time_expressions

    return [
        s for s in resolve_time_expressions(question, anchor)
        if s.kind is SignalKind.DATE and s.window_start is not None and s.window_end is not None
    ]  # fmt: skip


def _span(dates: Sequence[Signal]) -> tuple[datetime, datetime] | None:
    starts = [d.window_start for d in dates if d.window_start is not None]
    ends = [d.window_end for d in dates if d.window_end is not None]
    return (min(starts), max(ends)) if starts and ends else None


def _when_words(question: str, dates: Sequence[Signal], names: Sequence[str]) -> tuple[str, ...]:
    """The ``other_words`` that only stand in the question's date expressions ("march",
    "2024" of "in March 2024"): they say when, not what (``Plan.when_words``)."""
    if not dates:
        return ()
    undated = question
    for d in sorted(dates, key=lambda d: -d.start):
        undated = undated[: d.start] + " " + undated[d.end :]
    kept = set(other_words(undated, names))
    return tuple(w for w in other_words(question, names) if w not in kept)


def state_asked_at(
    question: str, shape: Shape, window: tuple[datetime, datetime] | None, anchor: datetime
) -> datetime | None:
    """For a question about a state at a past time ("Where did Ana work in March 2024?",
    "Where did Ben live two years ago?"), the time to read the dimension at: the window's
    last instant, at most ``anchor``. The dimension as of then answers it as it answers
    "Where does Ana work now?" at the asker's time: the delta log up to that time decides,
    so what was said later cannot leak into it, and its line says what it replaced ("since
    2 Sep 2024 (was Acme)"). None for other questions: no window, a window that has not
    begun by ``anchor``, not a fact or list question, a reason or manner ("why", "how"), and
    attribute words that do not agree on one attribute (or none at all: a question that
    names no attribute asks about no state). A yes/no question is left out: "Did Ana work at
    Acme in 2024?" holds if she did at any time of the year, which the state at its end
    does not say."""
    if window is None or window[0] >= anchor or shape not in _PAST_STATE_SHAPES or _REASON.search(question):
        return None
    groups = [set(found) for found in attribute_groups(question)]
    if not groups or not set.intersection(*groups):
        return None
    return min(window[1] - timedelta(microseconds=1), anchor)


# A shift of the anchor that moves every relative expression: a year, a month and a day
# ("last year", "in June", "on the 3rd", "yesterday" all move; "May 2023" does not).
_ANCHOR_SHIFT: Final = timedelta(days=365 + 31 + 1)


def window_is_relative(
    question: str, anchor: datetime, window: tuple[datetime, datetime] | None | Literal["unresolved"] = "unresolved"
) -> bool:
    """Whether the question's time window depends on when it is asked: resolved against an
    anchor some 13 months earlier, it moves. "In May 2023" does not; "in May" ("of which
    year?"), "last week" and "on August 11" do; "between March 3 and March 9 2023" does
    not (a range's first end takes the year its second names). ``window``: the question's
    window against ``anchor`` when the caller has it already (the planner), so that it is
    not resolved twice."""
    if window == "unresolved":
        window = time_window(question, anchor)
    if window is None or anchor - datetime.min.replace(tzinfo=anchor.tzinfo) <= _ANCHOR_SHIFT:
        return False  # no window, or an anchor too early to shift (year 1)
    return window != time_window(question, anchor - _ANCHOR_SHIFT)


def make_plan(
    question: str,
    entities: Sequence[Entity],
    anchor: datetime,
    disabled: frozenset[Stage] = frozenset(),
) -> Plan:
    """Plan a question against the entities known in its space.

    ``anchor`` resolves relative time expressions (the ``as_of`` time, else now);
    ``disabled`` switches routes off (ablations), which the trace notes.
    """
    shape = question_shape(question)
    dates = _dates(question, anchor)
    window = _span(dates)
    weights = dict(ROUTE_WEIGHTS[shape])
    notes: list[str] = []
    if window is not None:
        weights["temporal"] = max(weights.get("temporal", 0.0), 1.0)
        notes.append("time window from the question")
    latest_amount = asks_latest_amount(question, window)
    events = interval_events(question, window)
    if events:
        weights["events"] = max(weights.get("events", 0.0), EVENTS_WEIGHT)
        notes.append("interval: both events retrieved")
    elif events := order_events(question, window):
        weights["events"] = max(weights.get("events", 0.0), EVENTS_WEIGHT)
        notes.append("order: both events retrieved")
    if latest_amount:
        weights["temporal"] = max(weights.get("temporal", 0.0), 1.0)
        notes.append("latest amount: newest first")
    for name in ROUTE_NAMES:
        if name in disabled and name in weights:
            del weights[name]
            notes.append(f"route {name} disabled")
    named = named_entities(question, entities)
    names = [n for e in entities if e.name in named for n in (e.name, *e.aliases)]
    # A name is no attribute word: "Ana's sister" (a relative the memory knows by no other
    # name, ``eywa.read.relatives``) names a person, not her siblings.
    about = without_names(question, names)
    attributes = asked_attributes(about)
    previous = bool(attributes) and asks_previous(question, window)
    return Plan(
        shape=shape,
        entities=named,
        weights=MappingProxyType(weights),
        window=window,
        window_relative=window_is_relative(question, anchor, window),
        notes=tuple(notes),
        attributes=attributes,
        current_state=asks_current_state(about, shape, window) and not previous,
        state_at=state_asked_at(about, shape, window, anchor),
        latest_amount=latest_amount,
        events=events,
        aggregate=asks_aggregate(question, shape, window is not None),
        before=value_before(question, window),
        previous=previous,
        other_words=tuple(w for w in other_words(question, names) if not (previous and w in _PREVIOUS_WORDS)),
        when_words=_when_words(question, dates, names),
        wh_word=question_word(question),
        objects=objects_named(question, [e.name for e in entities if e.name in named and e.kind == "person"]),
    )
