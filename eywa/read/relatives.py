"""People asked about through a relative: "Where does Ana's sister work?".

The question names Ana, but asks about her sister. When the memory knows the sister by name
("My sister Eva works at Globex" makes Eva one of Ana's siblings, with a statement that
keeps the word "sister": ``eywa.extraction.rules.family.relatives``), the question is about
Eva: her employer answers it, not Ana's. The plan then asks about Eva
(``Plan.entities``) and keeps Ana as whom she was found through (``Plan.through``): Ana's
turns, where her sister is spoken of, are still the question's people's turns.

A sister never named ("My sister works at Globex") is the person "Ana's sister"
(``eywa.attributes.kin``): the question is asked of her the same way, beside any sister known
by name.

Only a question that asks something *of* the relative is rewritten. "Who is Ana's sister?"
asks for the relation itself, which Ana's siblings answer as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final

from eywa.attributes import get_attribute
from eywa.attributes.kin import KIN_AGE, KIN_WORDS, RELATIVE_ATTRIBUTE, kin_subject
from eywa.nous import ledger as nous
from eywa.read.plan import Plan, counted_words
from eywa.stores.bundle import Stores

__all__ = [
    "Kin", "RelativeAsk", "Relatives", "ask_of_relatives", "asked_through", "is_name", "relation_count_unclaimed",
    "relation_unclaimed", "relatives_asked", "said_so",
]  # fmt: skip


@dataclass(frozen=True)
class _Relation:
    says: frozenset[str] = frozenset()
    """Words of a statement that say this relation ("sister")."""
    other: frozenset[str] = frozenset()
    """Words of a statement that say the other relation of its attribute ("brother")."""


_OPPOSITES: Final = (
    ("sister sisters", "brother brothers"),
    ("mom mum mother mommy", "dad father daddy"),
    ("son sons", "daughter daughters"),
    ("husband boyfriend", "wife girlfriend"),
)
"""The relations one attribute keeps apart only by the words its statements use."""


def _relations() -> dict[str, _Relation]:
    found = {word: _Relation() for word in RELATIVE_ATTRIBUTE}  # "sibling", "kids", "partner": either
    for one, other in _OPPOSITES:
        a, b = frozenset(one.split()), frozenset(other.split())
        found |= {word: _Relation(a, b) for word in a} | {word: _Relation(b, a) for word in b}
    return found


_RELATIONS: Final[Mapping[str, _Relation]] = _relations()
"""Each relation word a question may use (``RELATIVE_ATTRIBUTE``: where such relatives are
kept), with the words that tell it from the other relation there."""

_WORD = re.compile(r"[a-z]+")
_RELATION_WORDS: Final = "|".join(sorted(_RELATIONS, key=len, reverse=True))
_POSSESSED_RELATION: Final = re.compile(rf"['’]s?\s+{KIN_AGE}(?:{_RELATION_WORDS})(?!\w)", re.IGNORECASE)
"""Any "…'s sister" at all: most questions have none, and are left before a pattern of their
names is made."""


@dataclass(frozen=True)
class RelativeAsk:
    """One "<person>'s <relation>" of a question."""

    owner: str
    """The named person, as the plan names them ("Ana")."""
    word: str
    """The relation's word as asked ("sister")."""

    @property
    def attribute(self) -> str:
        """Where the owner's relatives of this kind are kept ("siblings")."""
        return RELATIVE_ATTRIBUTE[self.word]


@dataclass(frozen=True)
class Kin:
    """Who one "<person>'s <relation>" is, as the memory believes."""

    names: tuple[str, ...]
    """The relatives of the asked kind ("Eva" for Ana's sister)."""
    others: tuple[str, ...] = ()
    """Relatives kept under the same attribute but said to be the other relation (Ana's
    brothers Tom and Jake, beside her sister among her siblings)."""


def relatives_asked(question: str, names: Sequence[str]) -> tuple[RelativeAsk, ...]:
    """The "<name>'s <relation>" phrases of ``question`` whose name is one of ``names`` (the
    plan's entities). Pure."""
    if not names or _POSSESSED_RELATION.search(question) is None:
        return ()
    owners = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"(?<!\w)(?P<owner>{owners})['’]s?\s+{KIN_AGE}(?P<word>{_RELATION_WORDS})(?!\w)", re.I)
    found: list[RelativeAsk] = []
    for m in pattern.finditer(question):
        owner = next(n for n in names if n.casefold() == m.group("owner").casefold())
        ask = RelativeAsk(owner, m.group("word").lower())
        if ask not in found:
            found.append(ask)
    return tuple(found)


def is_name(value: str) -> bool:
    """Whether a relative's value is a name ("Eva", "Leo"), not what was said of them where
    no name was given ("children", "two kids", "baby girl"). Pure."""
    return value[:1].isupper() and value.casefold() not in _RELATIONS


def said_so(statements: Iterable[str], word: str) -> bool | None:
    """Whether a relative's statements say the asked relation (True), the other one of its
    attribute (False), or neither (None: "Eva is Ana's sibling"). Pure."""
    relation = _RELATIONS[word]
    words = {w for s in statements for w in _WORD.findall(s.lower())}
    if not relation.says or words & relation.says:
        return True
    return False if words & relation.other else None


class Relatives:
    """Looks up who a "<person>'s <relation>" is, as the memory believes at a time."""

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def __call__(self, space: str, asks: Sequence[RelativeAsk], as_of: datetime | None) -> dict[RelativeAsk, Kin]:
        """For each ask, the owner's relatives of that kind: the values of the owner's
        dimension whose last word (as of ``as_of``) was a positive assertion ("my ex-husband
        Tom" leaves Tom out), those whose statements say the asked relation first; one whose
        statements say the other relation ("brother" for "sister") is left out, and named
        among ``Kin.others``."""
        found: dict[RelativeAsk, Kin] = {}
        for ask in asks:
            deltas = [
                d for d in nous.list_deltas(self._stores.dimensions, space, ask.owner, ask.attribute)
                if as_of is None or d.at <= as_of
            ]  # fmt: skip
            latest = {d.observed.casefold(): d for d in deltas}
            held = [
                d.observed for d in latest.values()
                if d.polarity == "positive" and d.modality == "asserted" and is_name(d.observed)
            ]  # fmt: skip
            lines = self._stores.beliefs.beliefs_about(space, [ask.owner], [ask.attribute]) if held else {}
            said: dict[str, list[str]] = {}
            for line in lines.get(ask.owner, []):
                if line.value is not None:
                    said.setdefault(line.value.casefold(), []).append(line.statement)
            verdicts = {name: said_so(said.get(name.casefold(), ()), ask.word) for name in held}
            names = [n for n, v in verdicts.items() if v] or [n for n, v in verdicts.items() if v is None]
            if (unnamed := self._unnamed(space, ask, as_of)) is not None:
                names.append(unnamed)
            if names:
                found[ask] = Kin(tuple(names), tuple(n for n, v in verdicts.items() if v is False))
        return found

    def _unnamed(self, space: str, ask: RelativeAsk, as_of: datetime | None) -> str | None:
        """The owner's relative spoken of by no name ("my sister works at Globex" → "Ana's
        sister", ``eywa.attributes.kin``), when the memory holds anything about them."""
        if ask.word not in KIN_WORDS:
            return None
        subject = kin_subject(ask.owner, ask.word)
        return subject if nous.list_dimensions(self._stores.dimensions, space, subject, as_of) else None


def ask_of_relatives(question: str, found: Mapping[RelativeAsk, Kin]) -> str:
    """``question`` with each "<owner>'s <relation>" found replaced by the relatives' names:
    "Where does Ana's sister work?" → "Where does Eva work?", the question a plan of the
    relatives is made from (its attributes, tense and other words are then theirs). Pure."""
    for ask, kin in found.items():
        said = " and ".join(dict.fromkeys(kin.names))  # "Eva", "Eva and Lia", "Ana's sister"
        question = re.sub(
            rf"(?<!\w){re.escape(ask.owner)}['’]s?\s+{KIN_AGE}{re.escape(ask.word)}(?!\w)",
            lambda _: said,
            question,
            flags=re.IGNORECASE,
        )
    return question


def asked_through(asked: Plan, plan: Plan, found: Mapping[RelativeAsk, Kin]) -> Plan:
    """The plan of the rewritten question (``ask_of_relatives``) when it asks something of
    the relatives besides the relation (an attribute: "Where does Eva work?", or another
    entity: "Is Eva still at Globex?"), with the owners as whom they were found through;
    ``plan`` otherwise ("Who is Ana's sister?" asks for the relation itself, which the
    owner's siblings answer). Pure."""
    relatives = [name for kin in found.values() for name in kin.names]
    # Something asked of them: an attribute ("work"), or another entity the answer may be
    # ("Is Ana's sister still at Globex?": a value of hers the dimension route finds).
    others = [e for e in asked.entities if e not in relatives]
    if not (asked.attributes or others) or not any(n in asked.entities for n in relatives):
        return plan
    owners = tuple(e for e in plan.entities if e not in asked.entities)
    return replace(
        asked,
        through=owners,
        notes=(*asked.notes, f"asked through {', '.join(owners)}: {', '.join(dict.fromkeys(relatives))}"),
    )


def relation_unclaimed(plan: Plan, found: Mapping[RelativeAsk, Kin]) -> Plan:
    """``plan`` without its claim when it asks for a relation itself and the attribute that
    answers it holds the other relation too: "Who is Ana's sister?" is planned on Ana's
    siblings, whose line names her brothers as well ("siblings: Eva, Tom, Jake"), so the line
    may not answer first; the turns and beliefs that say "sister" do. The claim stays where
    the set holds only the relation asked ("What is Ana's daughter called?" with one
    daughter), and for "Who are Ana's siblings?". Pure."""
    mixed = {ask.attribute for ask, kin in found.items() if kin.others}
    if not (plan.current_state and mixed and set(plan.attributes) <= mixed):
        return plan
    if any(get_attribute(a).cardinality != "multi" for a in mixed):
        return plan
    return replace(plan, current_state=False, notes=(*plan.notes, "a relation of a mixed set asked: no claim"))


def relation_count_unclaimed(plan: Plan, question: str) -> Plan:
    """``plan`` without its claim when it counts one relation of a pair kept together: "How
    many brothers does Ana have?" is planned on her siblings, whose line does not say which
    of them are brothers, so it may not answer first. A count of the whole set keeps the
    claim: "How many siblings / kids / brothers and sisters does Ana have?". Pure."""
    words = set(counted_words(question))
    if not (plan.shape == "count" and plan.current_state and words):
        return plan
    if not any(_RELATIONS[w].says and not words & _RELATIONS[w].other for w in words & _RELATIONS.keys()):
        return plan
    return replace(plan, current_state=False, notes=(*plan.notes, "one relation of a set counted: no claim"))
