"""Text helpers shared by the extractors and the validator: tokens, content words, clauses,
fuzzy word matching and the instruction-injection mask.

Kept deliberately small and deterministic: the validator must give the same verdict on the
same input forever, so there is no model here, only rules and rapidfuzz.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")

STOPWORDS = frozenset(
    """a an the and or but if of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then once
    here there when where why how all any both each few more most other some such no nor not
    only own same so than too very s t can will just don should now i me my myself we our ours
    ourselves you your yours yourself yourselves he him his himself she her hers herself it its
    itself they them their theirs themselves what which who whom this that these those am is are
    was were be been being have has had having do does did doing would could might must shall
    may also really actually still even much many lot lots get got gets getting go goes going
    went gone one ones thing things something anything everything user assistant i'm i've i'll
    i'd it's that's they're he's she's we're you're i’m it’s""".split()
)

# Relation words an extractor may use to phrase a claim that the speaker never says literally
# ("works at" for "my job at"). Each group is a set of interchangeable forms.
_EQUIVALENTS: tuple[frozenset[str], ...] = (
    frozenset({"work", "works", "working", "worked", "job", "employed", "employer", "employee"}),
    frozenset({"live", "lives", "living", "lived", "home", "reside", "resides", "based"}),
    frozenset({"kid", "kids", "child", "children", "son", "sons", "daughter", "daughters"}),
    frozenset({"like", "likes", "love", "loves", "enjoy", "enjoys", "adore", "adores", "fan"}),
    frozenset({"dislike", "dislikes", "hate", "hates", "detest", "detests"}),
    frozenset({"married", "marriage", "husband", "wife", "spouse", "wed", "wedding"}),
    frozenset({"plan", "plans", "planning", "planned", "intend", "intends"}),
    # A trade said by its verb is its doer's occupation ("I'm not teaching anymore": a teacher no
    # longer); "teach" and "teacher" differ past the share of a prefix that counts as one word.
    frozenset({"teacher", "teachers", "teach", "teaches", "teaching"}),
    # A pet's canonical value is its species ("dog" for "puppy"): the validator must see it as said.
    frozenset({"pet", "pets", "dog", "dogs", "puppy", "puppies", "pup", "pups", "greyhound", "labrador", "retriever",
               "poodle", "terrier", "beagle", "spaniel", "collie", "husky", "bulldog", "dachshund", "chihuahua", "pug"}),
    frozenset({"pet", "pets", "cat", "cats", "kitten", "kittens", "kitty", "tabby"}),
    frozenset({"pet", "pets", "rabbit", "rabbits", "bunny", "bunnies"}),
)
_EQUIV_INDEX: dict[str, frozenset[str]] = {}
for _group in _EQUIVALENTS:  # a word in several groups ("pet") matches the words of all of them
    for _word in _group:
        _EQUIV_INDEX[_word] = _EQUIV_INDEX.get(_word, frozenset()) | _group

_CLAUSE_BREAK = re.compile(
    r"[.!?;]+(?:\s+|$)|\n+|,?\s+\b(?:but|although|though|however|whereas|while|except)\b\s+|\s+[-–—]+\s+",
    re.IGNORECASE,
)

# Instructions aimed at the memory or the model. A turn may *ask* for something to be
# stored; that request is not evidence that it is true.
_INSTRUCTION = re.compile(
    r"""\b(?:
        (?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|my\s+|previous\s+|prior\s+)*
            (?:above|previous|prior|earlier|preceding|instructions?|rules?|prompts?|context)
      | (?:store|save|record|write\s+down|log|memori[sz]e|add|insert|put|update|set)\s+
            (?:it\s+|this\s+)?(?:in(?:to)?\s+(?:your\s+|the\s+)?(?:memory|database|profile|notes)\s+)?
            (?:that|the\s+fact\s+that)\b
      | (?:add|insert|put|write)\s+(?:this\s+|that\s+)?(?:to|in(?:to)?)\s+(?:your\s+|the\s+)?(?:memory|database|profile)
      | you\s+are\s+now\b | from\s+now\s+on\b | new\s+instructions?\b | system\s+prompt\b
      | (?:system|assistant|developer)\s*: | act\s+as\b | pretend\s+(?:to\s+be|that)\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)


@dataclass(frozen=True)
class Token:
    """A word of a text with its character span."""

    text: str
    start: int
    end: int

    @property
    def norm(self) -> str:
        """Lower-cased, with curly apostrophes straightened and possessive 's dropped."""
        word = self.text.lower().replace("’", "'")
        return word[:-2] if word.endswith("'s") else word


def tokens(text: str) -> list[Token]:
    """The words of ``text`` with their spans."""
    return [Token(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def content_words(text: str, exclude: frozenset[str] = frozenset()) -> list[str]:
    """Normalised words of ``text`` that carry meaning (no stopwords, no excluded names)."""
    out: list[str] = []
    for tok in tokens(text):
        word = tok.norm
        if word in STOPWORDS or word in exclude or (len(word) < 2 and not word.isdigit()):
            continue
        out.append(word)
    return out


def words_match(a: str, b: str) -> bool:
    """Whether two normalised words are the same word up to inflection or a near spelling."""
    if a == b:
        return True
    if a.isdigit() or b.isdigit():
        return False
    group = _EQUIV_INDEX.get(a)
    if group is not None and b in group:
        return True
    shorter = min(len(a), len(b))
    if shorter >= 4:
        prefix = 0
        for x, y in zip(a, b):
            if x != y:
                break
            prefix += 1
        if prefix >= 4 and prefix >= 0.75 * shorter:
            return True
        return bool(fuzz.ratio(a, b) >= 85)
    return False


def best_match(word: str, candidates: list[str]) -> str | None:
    """The candidate word that ``word`` matches, or None."""
    if word in candidates:
        return word
    for cand in candidates:
        if words_match(word, cand):
            return cand
    if len(word) >= 5:
        found = process.extractOne(word, candidates, scorer=fuzz.ratio, score_cutoff=85)
        if found is not None:
            return str(found[0])
    return None


@dataclass(frozen=True)
class Clause:
    """A clause of a turn: its text span. Negation and hedges are scoped to a clause."""

    start: int
    end: int
    text: str

    @property
    def is_question(self) -> bool:
        """A clause phrased as a question asserts nothing."""
        return self.text.rstrip().endswith("?")


_TITLE_ABBREVIATION = re.compile(r"(?<![\w.])(?:Mr|Mrs|Ms|Dr|St|Mt|Ft|Prof|Rev|Sgt|Capt|Lt)$")
"""A title or a place-name prefix abbreviated with a period ("Dr. Osei", "St. Jude's", "Mt.
Hood"): the period before the name is no sentence end."""
_SENTENCE_OPENER = re.compile(r"(?:I|It|We|He|She|They|You|The|This|That|My|Our|But|And|So|Then)\b")
"""Words that open a sentence far more often than they follow "St." in a name."""


def clauses(text: str) -> list[Clause]:
    """Split ``text`` into clauses at sentence ends, contrastive conjunctions and dashes.

    A spaced dash ("guess what - I got the job") starts a new clause, so a
    negation or hedge on one side does not reach the other. The period of an abbreviated
    title before a capitalised word ends nothing (``_TITLE_ABBREVIATION``): "I'm a nurse at
    St. Jude's" is one clause, whose employer is "St. Jude's", not "St".
    """
    out: list[Clause] = []
    pos = 0
    for m in _CLAUSE_BREAK.finditer(text):
        if _abbreviation_period(text, m):
            continue
        end = m.start() + (len(m.group(0).rstrip()) if m.group(0)[:1] in ".!?;" else 0)
        if text[pos:end].strip():
            out.append(_trimmed(text, pos, end))
        pos = m.end()
    if text[pos:].strip():
        out.append(_trimmed(text, pos, len(text)))
    return out


def _abbreviation_period(text: str, m: re.Match[str]) -> bool:
    """Whether break ``m`` is the lone period of a title abbreviation before a capitalised word."""
    return (
        m.group(0).rstrip() == "."
        and m.end() < len(text)
        and text[m.end()].isupper()
        and _SENTENCE_OPENER.match(text, m.end()) is None
        and _TITLE_ABBREVIATION.search(text, 0, m.start()) is not None
    )


def _trimmed(text: str, start: int, end: int) -> Clause:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Clause(start, end, text[start:end])


_INSTRUCTION_WORDS = frozenset(
    """ignore disregard forget override store save record write log memorise memorize add insert put update
    set now from new system assistant developer act pretend""".split()
)
"""Words one of which an instruction must contain: a cheap gate before the regex."""


def instruction_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text`` that contain an instruction aimed at the memory."""
    if _INSTRUCTION_WORDS.isdisjoint(re.findall(r"[a-z]+", text.lower())):
        return []
    spans: list[tuple[int, int]] = []
    for sentence in re.finditer(r"[^.!?\n]+[.!?]*", text):
        if _INSTRUCTION.search(sentence.group(0)):
            spans.append((sentence.start(), sentence.end()))
    return spans


def mask(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with ``spans`` blanked out (offsets preserved)."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, min(end, len(chars))):
            chars[i] = " "
    return "".join(chars)


_CONTRAST = re.compile(
    r",\s*(?:and\s+|but\s+)?not\s+"
    r"(?!(?:only|just|even|sure|really|much|yet|quite|always|anymore|any\s+more|any\s+longer|now|that|so|too|at\s+all"
    r"|far|near|close|long|bad|good|great|easy|enough|exactly|entirely|necessarily|everyone|everything|all|many|one"
    r"|least|often|once|twice|since|until|because|like|as)\b)"
    r"[^,;.!?]{1,40}[.!?]*\s*$"
)


def trailing_contrast(text: str, start: int = 0, end: int | None = None) -> int | None:
    """Where a trailing contrast begins in ``text[start:end]``, the offset of its comma, or
    None: "I work at Initech, not Globex", "we live in Leeds, not York", "I love hiking, not
    running". Its negation scopes over the contrast alone, so what comes before it is read
    without it (the rule extractor's parts, the validator's polarity). "Not sure", "not yet",
    "not anymore", "not really", "not far from …" and the like qualify the whole statement
    and are no contrast."""
    stop = len(text) if end is None else end
    m = _CONTRAST.search(text[start:stop])
    return None if m is None else start + m.start()


COMMA_SPLICE = (
    r",\s+(?=(?:(?:[Nn]ow|[Tt]hese\s+days|[Nn]owadays),?\s+)?"
    r"(?:I|[Ww]e)(?:\s+(?!(?:think|guess|mean|suppose|believe|hope|bet|reckon|swear|know|feel|wish)\b)"
    r"[a-z]+|['’](?:m|ve|d|ll|re)\b)|(?:so\s+)?[Nn]o\s+[a-z])"
)
"""A comma that opens a new first-person clause ("I don't live in Leeds anymore, I moved to
York", "I used to work at Globex, now I'm at Initech"), not a hedge tacked on ("…, I think",
"…, I guess"), or a "no …" (", so no …") that tells what the clause before it gave up or
goes without ("I've gone pescatarian, no more red meat", "I'm diabetic, so no cake for me"):
what comes after it has its own negation and hedges, when what comes before it is a clause
too (``opens_own_clause``): the "no" negates what follows it, not the finished clause before
("I'm not diabetic, so no worries" keeps its own "not")."""
SO_NO = r"\s+so\s+(?=no\s+[a-z])"
"""A "so no …" with no comma before it ("I'm diabetic so no cake for me"): as ``COMMA_SPLICE``'s
", so no …", the "no" is the next clause's."""
_COMMA_SPLICE = re.compile(
    COMMA_SPLICE + r"|(?P<conjunction>,?\s+(?:and|so)\s+(?=(?:I|[Ww]e)(?:\s+[a-z]+|['’](?:m|ve|d|ll|re)\b))"
    + "|" + SO_NO + ")"
)
"""Where the validator cuts a clause, as the rule extractor cuts its parts: a comma splice, or
"and" / "so" opening a first-person clause ("I don't eat meat and I love hiking": the negation
is not hiking's; "I love hiking and I might move": the hedge is not hiking's), or "so no …"."""
_FIRST_PERSON = re.compile(r"(?<![\w'’])(?:I|[Ww]e)(?![\w])")


_REPLY = re.compile(
    r"(?:(?:oh|well|haha|hmm|um|no|nope|nah|actually|sorry)[\s,!.]+)*"
    r"(?:(?:that|this|it)(?:['’]s|\s+is|\s+was)\s+(?:not\s+(?:true|right|correct|accurate|so|the\s+case)"
    r"|(?:just\s+)?(?:wrong|false|incorrect|outdated|old\s+news))"
    r"|(?:that|this|it)\s+(?:isn['’]t|wasn['’]t)\s+(?:true|right|correct|accurate|so|the\s+case)"
    r"|not\s+(?:anymore|any\s+more|any\s+longer|really|at\s+all|quite|exactly)|nope|nah)[\s!.]*",
    re.IGNORECASE,
)
"""A reply that is a clause of its own before a comma: what it denies is what another speaker
said ("That's not true, I still live in Lyon", "Not anymore, I live in Leeds now"), not
what follows it."""


STATE_ENDED = re.compile(
    r"(?:[Nn]o\s+longer\s+(?:(?:a|an)\s+)?[a-z][a-z-]*(?:\s+(?:anymore|any\s+more))?"
    r"|[Nn]ot\s+(?:(?:a|an)\s+)?[a-z][a-z-]*\s+(?:anymore|any\s+more|any\s+longer))[!.]*"
)
"""A state said ended with its subject dropped ("Not vegetarian anymore", "No longer vegan"),
as a sentence opens before a first-person clause: a clause of its own, the speaker's."""


def opens_own_clause(before: str) -> bool:
    """Whether the text before a comma splice is a clause of its own (it has a first-person
    subject, it is a reply such as "That's not true", or a state said ended with its subject
    dropped, ``STATE_ENDED``): "I don't live in Leeds anymore, I moved to York" is two, while
    "On Sunday, I visited a street market" is one clause whose date belongs to what follows."""
    before = before.strip()
    return _FIRST_PERSON.search(before) is not None or bool(_REPLY.fullmatch(before) or STATE_ENDED.fullmatch(before))


def splice_segment(text: str, start: int, end: int, words: Sequence[str]) -> tuple[int, int]:
    """The stretch of ``text[start:end]`` between comma splices and first-person clauses
    opened by "and" or "so" (``_COMMA_SPLICE``) that holds the first of ``words`` (case-folded,
    whole words), else that holds one in another form (``best_match``, as support found it:
    "diabetic" of "diabetes" in "I'm diabetic, so no cake for me"); the whole span when none
    does or there is no cut. The validator reads a value's polarity and modality there, as the
    rule extractor reads each part on its own."""
    cuts = [start]
    for m in _COMMA_SPLICE.finditer(text[start:end]):
        # ", and I …" joins two clauses; a comma alone may follow an adverbial ("Last week, I …")
        # and "and" alone may join a subject ("Tobias and I broke up").
        joined = (m.group("conjunction") or "").startswith(",")
        if joined or opens_own_clause(text[cuts[-1] : start + m.start()]):
            cuts.append(start + m.start())
    cuts.append(end)
    if len(cuts) == 2:
        return start, end
    for a, b in zip(cuts, cuts[1:]):
        if holds_word(text[a:b], words):
            return a, b
    wanted = [w.casefold() for w in words if w]
    for a, b in zip(cuts, cuts[1:]):
        said = [t.norm for t in tokens(text[a:b])]
        if any(best_match(w, said) is not None for w in wanted):
            return a, b
    return start, end


def holds_word(text: str, words: Sequence[str]) -> bool:
    """Whether any of ``words`` stands in ``text`` as a whole word, case-folded."""
    folded = text.casefold()
    return any(re.search(rf"(?<!\w){re.escape(w.casefold())}(?!\w)", folded) for w in words if w)

