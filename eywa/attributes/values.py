"""Canonical values: one spelling and one polarity per fact, however it was said.

The convention every extractor's output is brought to before validation:

* **No negation inside a value.** Negation lives in ``polarity``: "no meat" (positive) is
  ("meat", negative); "not vegetarian" is ("vegetarian", negative) before synonyms. A value
  that negates and a negative polarity cancel: ("no meat", negative) is ("meat", positive),
  the literal reading of a double negative; the validator then refuses it as a
  ``polarity_flip`` when the evidence says the speaker does *not* eat meat.
* **Ended is negative.** Cessation words inside a value ("quit pottery", "ex-husband",
  "former employer", "used to …") are stripped with the same flip: the value stopped being
  true, which is what a negative observation says to a dimension. Only for attributes whose
  values are states that can end (``cessation_ends``): "quit my job" is a life event, not
  the end of one.
* **Synonyms** of the registry map a surface to its canonical (value, polarity): for diet,
  "vegetarian" → (meat, negative), so "I don't eat meat", "I'm vegetarian" and "I'm
  meat-free" are one value of one dimension.
* **Spelling:** whitespace collapsed, surrounding punctuation, leading articles and
  possessives removed, the attribute's ``leading_words`` stripped ("eating meat" → "meat"),
  lower case for common-noun attributes (acronyms kept), case kept for names and for likes
  and dislikes, which hold titles.
  Words that only look negative stay: "non-fiction" is not fiction with negative polarity,
  and a capitalised "Never" in a title ("Never Let Me Go") is part of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from eywa.attributes.lookup import canonical_name, get_attribute
from eywa.attributes.spec import AttributeSpec
from eywa.models import CandidateFact, Polarity

_A = r"['’]"
_NEGATING_PREFIX = re.compile(
    r"^(?:no\s+longer|not\s+any\s*more|not|no|never|without"
    rf"|(?:do|does|did|is|am|are|was|were)(?:n{_A}t|\s+not)|don{_A}t|doesn{_A}t|didn{_A}t|isn{_A}t"
    rf"|wasn{_A}t|aren{_A}t|can{_A}t|cannot)(?:\s+|(?<=-))",
    re.IGNORECASE,
)
_ENDING_PREFIX = re.compile(
    r"^(?:ex-|ex|formerly|former|used\s+to"
    r"|(?:has\s+|have\s+)?(?:quit|quitting|stopped|stopping|gave\s+up|given\s+up|giving\s+up))(?:\s+|(?<=-))",
    re.IGNORECASE,
)
"""Cessation inside a value; only for attributes whose values can end (``cessation_ends``)."""
_NEGATING_SUFFIX = re.compile(r"(?<=\w)(?:-|\s+)free$", re.IGNORECASE)
_REINFORCING_SUFFIX = re.compile(r"\s+(?:any\s*more|any\s+longer|now)$", re.IGNORECASE)
_GENERIC_LEADING = frozenset("a an the my his her their our your its some i he she they we".split())
_EDGE_PUNCTUATION = " \t\n\"'“”‘’`.,;:!?()[]{}"


def flip(polarity: Polarity) -> Polarity:
    """The other polarity."""
    return "negative" if polarity == "positive" else "positive"


def _strip_leading_word(text: str, words: frozenset[str], spec: AttributeSpec) -> str:
    """``text`` without a first word from ``words``.

    For names (``value_case="keep"``) only a lower-case word is stripped: "Work & Co" is a
    name. The pronoun "I" is always a word.
    """
    head, _, rest = text.partition(" ")
    key = head.lower() if spec.value_case == "lower" or head == "I" else head
    if rest.strip() and key in words:
        return rest.strip()
    return text


def _negation_rest(text: str, spec: AttributeSpec) -> str | None:
    """``text`` without its negating prefix or suffix, or None when it has none.

    A capitalised affix negates only in sentence case ("Not vegetarian"): in a name or a
    title ("Not Your Average Company", "Never Let Me Go") it is part of the value. Nothing is
    stripped that would leave an empty value.
    """
    affixes: list[tuple[re.Match[str], str]] = []
    prefixes = (_NEGATING_PREFIX, _ENDING_PREFIX) if spec.cessation_ends else (_NEGATING_PREFIX,)
    for pattern in prefixes:
        if (prefix := pattern.match(text)) is not None:
            affixes.append((prefix, text[prefix.end() :]))
    if (suffix := _NEGATING_SUFFIX.search(text)) is not None:
        affixes.append((suffix, text[: suffix.start()]))
    for match, rest in affixes:
        if not rest.strip():
            continue
        if not any(c.isupper() for c in match.group(0)) or not any(c.isupper() for c in rest):
            return rest.strip()
    return None


def _strip_once(text: str, polarity: Polarity, spec: AttributeSpec) -> tuple[str, Polarity]:
    """One pass of every rule; the caller repeats until nothing changes."""
    text = text.strip(_EDGE_PUNCTUATION)
    rest = _negation_rest(text, spec)
    if rest is not None:
        return rest, flip(polarity)
    if (m := _REINFORCING_SUFFIX.search(text)) and text[: m.start()].strip():
        return text[: m.start()].strip(), polarity
    text = _strip_leading_word(text, _GENERIC_LEADING, spec)
    return _strip_leading_word(text, frozenset(spec.leading_words), spec), polarity


def _case(text: str, spec: AttributeSpec) -> str:
    """Lower case for common-noun attributes, acronyms kept; names and titles untouched."""
    if spec.value_case == "keep":
        return text
    return " ".join(w if len(w) > 1 and w.isupper() else w.lower() for w in text.split())


def canonical_value(
    attribute: str,
    value: str,
    polarity: Polarity = "positive",
    registry: Mapping[str, AttributeSpec] | None = None,
) -> tuple[str, Polarity]:
    """The canonical (value, polarity) of ``value`` said with ``polarity`` about ``attribute``.

    Pure and idempotent (canonicalising a canonical pair returns it unchanged). A value that
    would be empty after stripping is returned with only its whitespace collapsed.

    Example:
        >>> canonical_value("diet", "no meat", "positive")
        ('meat', 'negative')
        >>> canonical_value("diet", "Vegetarian")
        ('meat', 'negative')
        >>> canonical_value("hobbies", "quit pottery")
        ('pottery', 'negative')
    """
    spec = get_attribute(attribute, registry)
    original = " ".join(value.split())
    text, pol = original, polarity
    for _ in range(12):  # each pass removes a word or changes case, or stops
        stripped, pol_next = _strip_once(text, pol, spec)
        stripped = _case(" ".join(stripped.split()), spec)
        if stripped == text and pol_next == pol:
            break
        text, pol = stripped, pol_next
    if not text:
        return original, polarity
    for synonym in spec.synonyms:
        if synonym.surface.casefold() == text.casefold():
            return synonym.value, pol if synonym.polarity == "positive" else flip(pol)
    return text, pol


def value_surfaces(
    attribute: str,
    value: str,
    polarity: Polarity = "positive",
    registry: Mapping[str, AttributeSpec] | None = None,
) -> list[tuple[str, Polarity]]:
    """The ways a canonical (value, polarity) may be said: itself first, then its synonyms,
    then the surfaces that imply it besides their own value (``AttributeSpec.implied``:
    "pescatarian" also says fish).

    Each surface comes with the polarity it must be said with: (meat, negative) is also
    ("vegetarian", positive); (meat, positive) is also ("vegetarian", negative). The
    validator looks for any of them in the cited evidence.
    """
    spec = get_attribute(attribute, registry)
    out: list[tuple[str, Polarity]] = [(value, polarity)]
    for synonym in (*spec.synonyms, *spec.implied):
        if synonym.value.casefold() == value.casefold():
            said: Polarity = polarity if synonym.polarity == "positive" else flip(polarity)
            if (synonym.surface, said) not in out:
                out.append((synonym.surface, said))
    return out


def combined_label(
    attribute: str,
    membership: Mapping[str, float],
    registry: Mapping[str, AttributeSpec] | None = None,
) -> str | None:
    """The one word a multi-valued state amounts to, when the registry has a surface for a
    combination of values: "vegan" for not meat, not fish and not animal products, "vegetarian"
    for not meat and not fish, "pescatarian" for not meat but fish. So "What diet does Ana
    follow?" reads the diet's name, not only the foods it leaves out.

    A surface counts when it stands for two values or more (its synonym and the values it
    implies, ``AttributeSpec.implied``; a single value's synonym adds nothing to "not alcohol")
    and ``membership`` holds each as the surface says it: a member (above 0.5) when positive,
    a known non-member (present, below 0.5) when negative. The surface that says the most wins,
    the first listed among equals; None when none holds.
    """
    spec = get_attribute(attribute, registry)
    meanings: dict[str, set[tuple[str, Polarity]]] = {}
    for synonym in (*spec.synonyms, *spec.implied):
        meanings.setdefault(synonym.surface, set()).add((synonym.value.casefold(), synonym.polarity))
    held = {value.casefold(): p for value, p in membership.items()}

    def holds(value: str, polarity: Polarity) -> bool:
        p = held.get(value)
        return p is not None and (p > 0.5 if polarity == "positive" else p < 0.5)

    best: tuple[int, str] | None = None
    for surface, said in meanings.items():
        if len(said) >= 2 and all(holds(v, pol) for v, pol in said) and (best is None or len(said) > best[0]):
            best = (len(said), surface)
    return None if best is None else best[1]


def canonical_fact(fact: CandidateFact, registry: Mapping[str, AttributeSpec] | None = None) -> CandidateFact:
    """``fact`` with its attribute, value and polarity in canonical form (statement untouched).

    Applied by the Level 1 pipeline to every candidate, whatever the extractor, before the
    validator sees it.
    """
    if not fact.attribute:
        return fact
    attribute = canonical_name(fact.attribute, registry)
    if not fact.value or not fact.value.strip():
        return fact.model_copy(update={"attribute": attribute})
    value, polarity = canonical_value(attribute, fact.value, fact.polarity, registry)
    return fact.model_copy(update={"attribute": attribute, "value": value, "polarity": polarity})
