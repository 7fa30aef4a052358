"""The dimension route: the dimensions of the named entities (Nous), and the answer to a
current-state question when one of them is sure of it.

The plan names (entity, attribute) pairs: the people the question names × the registry
attributes its words point at ("Where does Priya work now?" → Priya × employer, occupation),
and any dimension of theirs whose values the question names ("Does Dario still go
climbing?" → Dario × hobbies, which holds climbing).
Their dimensions, read as of the query's time, come first, each worded for the question
(``eywa.read.answers``); for a current-state question the first one whose answer reaches
``ANSWER_THRESHOLD`` is *claimed*, and the reader ranks it first. Other dimensions of the
named entities follow, ranked by word overlap with the question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Final

from eywa.attributes import get_attribute, normalise_name
from eywa.ids import entity_key
from eywa.models import Delta
from eywa.nous import ledger as nous
from eywa.errors import NotFoundError
from eywa.read.answers import (
    ANSWER_THRESHOLD,
    EVENT_ATTRIBUTES,
    StateAnswer,
    asked_values,
    counted,
    gives_names,
    last_held,
    names_only_values,
    once_held,
    unrealised_plan,
)
from eywa.read.dimension_reads import DimensionReads
from eywa.read.items import DimensionSource, dimension_id, dimension_key
from eywa.read.overlap import rank_by_overlap
from eywa.read.pastime_kinds import HOBBIES, holds_kind, pastime_kind_asked
from eywa.read.pet_kinds import PETS, another_kind, asks_for_kinds, gone_by_kind, kind_asked, names_kind, only_kinds
from eywa.read.plan import Plan, head_attribute
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["DimensionReads", "DimensionRoute", "asks_for_a_name", "dimension_id", "dimension_key", "last_change", "may_claim", "named_first"]

_JUST_BEFORE: Final = timedelta(seconds=1)
"""How long before a value began the state that preceded it is read."""


def last_change(deltas: Sequence[Delta], as_of: datetime | None) -> datetime | None:
    """The moment just before which a single-valued attribute's previous value still held,
    as of ``as_of``: when its latest value was said to end ("I left Initech"), that end; else
    the start of the latest value's run (stated start, else when said), or the end of the
    value before it when that came first (Sara, "we split up", then Julia: the split). None
    when no value held before the present one. Pure."""
    said = sorted(
        (d for d in deltas if d.modality == "asserted" and (as_of is None or d.at <= as_of)),
        key=lambda d: (d.valid_from or d.at, d.at),
    )
    held = [d for d in said if d.polarity == "positive"]
    if not held:
        return None

    def ends(value: str, after: datetime) -> list[datetime]:
        return [
            d.valid_from or d.at
            for d in said
            if d.polarity == "negative" and d.observed.casefold() == value.casefold() and d.at > after
        ]

    latest = held[-1].observed
    if ended := ends(latest, held[-1].at):
        return min(ended)
    run = len(held)
    while run > 0 and held[run - 1].observed.casefold() == latest.casefold():
        run -= 1
    if run == 0:
        return None
    began = held[run].valid_from or held[run].at
    return min([began, *(t for t in ends(held[run - 1].observed, held[run - 1].at) if t <= began)])


def may_claim(answer: StateAnswer, plan: Plan) -> bool:
    """Whether an answer may rank first: a current-state question (or one about the state at
    a past time, ``Plan.state_at``, the answer then read as of that time) about nothing but this
    person, this attribute and its values (``Plan.other_words``), a state attribute, and a
    confidence of at least ``ANSWER_THRESHOLD``. A question that names a value is answered
    only if it asks whether the value holds (yes/no): "What kind of sculpture does Dario make?"
    asks about the value, which the dimension does not know. A count ("How many kids does
    Ana have?") is answered only by a set whose members say how many (``counted``). An event
    or a plan answers no state question, only whether the one it names happened
    (``_asks_whether_it_happened``)."""
    return (
        (plan.current_state or plan.state_at is not None)
        and (plan.shape != "count" or counted(answer.members))
        and (answer.attribute not in EVENT_ATTRIBUTES or _asks_whether_it_happened(answer, plan))
        and answer.confidence >= ANSWER_THRESHOLD
        and (not answer.asked or plan.shape == "yes_no")
        and names_only_values(answer, [w for w in plan.other_words if w not in plan.when_words])
        and _answers_question_word(answer.attribute, plan.wh_word)
    )


def _asks_whether_it_happened(answer: StateAnswer, plan: Plan) -> bool:
    """Whether a yes/no question names an event of the dimension and asks nothing of its
    time: "Is Priya pregnant?" after "I'm pregnant" is answered by how sure the life events
    are that it happened, which is what their membership says (``EVENT_ATTRIBUTES``). Not
    with a time ("Was Priya pregnant last spring?": the event's date, not its membership,
    answers), nor a question for a value ("What happened to Priya?": the set says what
    happened, not what matters to the asker)."""
    return plan.shape == "yes_no" and bool(answer.asked) and plan.window is None and plan.state_at is None


_NOW_PHRASE: Final = re.compile(
    r"\b(?:(?:at|in)\s+this\s+(?:point|stage)(?:\s+in\s+(?:time|life))?|at\s+the\s+moment|at\s+present|right\s+now"
    r"|for\s+now|as\s+of\s+(?:now|today)|presently|these\s+days|nowadays)\b",
    re.IGNORECASE,
)
"""Phrases that say the question is about now ("Where is Ana living at the moment?"): their
words say when, as a date's do (``Plan.when_words``), not what."""


def with_now_phrases(plan: Plan, question: str) -> Plan:
    """``plan`` with the words of the question's phrases of now counted as when-words, so
    "at the moment" does not read as a topic the dimension cannot answer."""
    words = tuple(w.casefold() for m in _NOW_PHRASE.finditer(question) for w in m.group(0).split())
    extra = tuple(w for w in plan.other_words if w in words and w not in plan.when_words)
    return replace(plan, when_words=plan.when_words + extra) if extra else plan


# Question words that ask for a kind of value (a place, a person), not for anything at all
# as "what" and "which" do ("what city", "which company").
_KIND_WH_WORDS: Final = frozenset({"where", "who", "whom"})


def _answers_question_word(attribute: str, wh: str | None) -> bool:
    """Whether the attribute's values answer the question word: "Where does Ana work?" is
    answered by her employer, not by her occupation ("nurse" is no place), though "work"
    points at both. Attributes that name no question words answer any."""
    if wh not in _KIND_WH_WORDS:
        return True
    words = get_attribute(attribute).wh_words
    return not words or wh in words


_QUESTION_WORD: Final = re.compile(r"[a-z][a-z'-]*")
_NAME_WORDS: Final = frozenset({"name", "names", "called", "named"})
"""Words of a question that ask for a name."""


def _question_words(question: str) -> set[str]:
    return {normalise_name(w.removesuffix("'s")) for w in _QUESTION_WORD.findall(question.lower().replace("’", "'"))}


def asks_for_a_name(question: str) -> bool:
    """Whether the question asks for a name ("What is Ana's husband's name?", "What are her
    kids called?"): only a line that gives names answers it (``answers.gives_names``). Pure."""
    return not _question_words(question).isdisjoint(_NAME_WORDS)


def named_first(attributes: Sequence[str], question: str, wh: str | None = None) -> list[str]:
    """``attributes`` with those the question calls by their name or an alias first, the
    rest in their order: "Does Ana have a partner?" names the partner, and only points at
    the relationship status (whose words include "partner"), so the partner's name answers
    it, not "married". The question word still goes first (the plan's order,
    ``AttributeSpec.wh_words``): "What is Ana's job?" asks for her occupation, though "job"
    is an alias of the employer; a noun right after it that names one attribute goes before
    both ("What company does Ana work for?": the employer, ``plan.head_attribute``). A question
    for a name ("What is Ana's husband's name?", "… called?") asks for an attribute whose values
    are names (``value_case`` "keep": the partner, not "married") before the question word's. Pure."""
    words = _question_words(question)

    def called(attribute: str) -> bool:
        spec = get_attribute(attribute)
        return not words.isdisjoint(normalise_name(n) for n in (spec.name, *spec.aliases))

    def asked(attribute: str) -> bool:
        return wh is not None and wh in get_attribute(attribute).wh_words

    def a_name(attribute: str) -> bool:
        return asks_name and get_attribute(attribute).value_case == "keep"

    asks_name = asks_for_a_name(question)
    head = head_attribute(question)
    return sorted(
        attributes,
        key=lambda attribute: (attribute != head, not a_name(attribute), not asked(attribute), not called(attribute)),
    )


def _with_an_end(
    answer: StateAnswer, reads: DimensionReads, query: Query, subject: str, attribute: str
) -> StateAnswer:
    """``answer``, as sure as the end it reports when a single value's last word was its
    end: "I work at Initech", then "I quit Initech", leaves the employer unknown ("employer:
    unknown since 1 Jun 2024 (was Initech) — last said …: not Initech; Initech p 0.07"),
    which ``state_answer`` gives a confidence of 0 (no value is the mode), so "Where does
    Ana work now?" was answered by the older turn that had the job. Like a set whose every
    value ended (``eywa.read.answers.ended_values``), the answer is that the value held
    before holds no longer, as sure as 1 − its probability. Only when nothing else became
    the value and the question names no value (a yes/no about one is answered already)."""
    if answer.confidence >= ANSWER_THRESHOLD or answer.asked:
        return answer
    at = query.plan.state_at if query.plan.state_at is not None else query.as_of
    try:
        dimension = nous.get_dimension(reads, query.space, subject, attribute, at)
    except NotFoundError:
        return answer
    last, previous = dimension.last_observed, dimension.previous
    if (
        dimension.cardinality != "single" or dimension.mode is not None or previous is None or last is None
        or last.polarity != "negative" or last.value.casefold() != previous.casefold()
    ):  # fmt: skip
        return answer
    return replace(answer, confidence=1.0 - dimension.distribution.get(previous, 0.0))


def _may_be_unrealised(plan: Plan) -> bool:
    """Whether the plan's answers may be "not <value>, only planned" (a past-tense yes/no
    question with no time window): then the named people's plans are read too."""
    return plan.shape == "yes_no" and not plan.current_state and plan.window is None


class DimensionRoute:
    """Dimension lines of the named entities; the planned (entity, attribute) pairs first,
    the confident answer to a current-state question claimed."""

    name: Final = "dimension"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        if not query.plan.entities:
            return []
        if query.plan.before is not None and query.plan.state_at is None and not query.plan.current_state:
            query = replace(query, plan=self._just_before(query, query.plan.before))
        elif query.plan.previous and query.plan.state_at is None:
            query = replace(query, plan=self._before_the_last_change(query))
        plan = query.plan
        # "Where did Ana work in March 2024?": every dimension is read as it stood then
        # (``Plan.state_at``), and worded for the asker's time.
        at = plan.state_at if plan.state_at is not None else query.as_of
        # Every answer here is read as of the query's time: the reads may take only the
        # deltas an answer can cite (``eywa.nous.citations``), not each pair's whole history.
        reads = DimensionReads(self._stores.dimensions, cited_as_of=at)
        plans = [(subject, "plans") for subject in plan.entities] if _may_be_unrealised(plan) else []
        reads.prefetch(query.space, plan.entities, plan.attributes, also=plans)
        if at is not None:
            reads.prefetch_history(query.space, plan.entities, at)
        listed = {
            subject: nous.list_dimensions(reads, query.space, subject, at) for subject in plan.entities
        }
        # The pairs to answer: the planned attributes of each named entity; when the question
        # names no attribute, its dimensions whose values the question names ("Does Dario
        # still go climbing?" names a value of his hobbies without saying "hobby"). With an
        # attribute named, a value of another one is a modifier ("What kind of diet do
        # Dario's parrots follow?").
        attributes = named_first(plan.attributes, query.text, plan.wh_word)
        pairs = [(subject, attribute) for subject in plan.entities for attribute in attributes]
        if not plan.attributes:
            pairs += [
                (subject, dim.attribute) for subject, dims in listed.items() for dim in dims
                if asked_values(query.text, dim)
            ]  # fmt: skip
        # The deltas of pairs found by their values, read together (the planned ones are).
        reads.prefetch_deltas(query.space, [(entity_key(s), a) for s, a in pairs])
        planned = self._planned(query, pairs, reads, at)
        seen = {h.id for h in planned}
        # The rest needs only which attributes and values exist: rank by overlap; the source
        # words the few that get hydrated, as of the query's time.
        candidates = [
            ("dimension", dimension_id(dim.entity, dim.attribute),
             f"{dim.attribute.replace('_', ' ')} {' '.join(dim.distribution)}", 1.0)
            for dims in listed.values()
            for dim in dims
            if dimension_id(dim.entity, dim.attribute) not in seen
        ]  # fmt: skip
        ranked = rank_by_overlap(query.text, candidates)
        rest = [RouteHit("dimension", i, score) for _, i, score in ranked]
        return (planned + rest)[: query.limit]

    def _planned(
        self, query: Query, pairs: Sequence[tuple[str, str]], reads: DimensionReads, at: datetime | None
    ) -> list[RouteHit]:
        """The pairs' answers as of ``at``: claimed ones first (in the pairs' order), then by
        confidence."""
        source = DimensionSource(reads, self._stores.evidence)
        claimed: list[RouteHit] = []
        others: list[RouteHit] = []
        done: set[tuple[str, str]] = set()
        answered: list[tuple[str, str, StateAnswer]] = []
        for subject, attribute in pairs:
            if (entity_key(subject), attribute) in done:
                continue
            done.add((entity_key(subject), attribute))
            answer = source.answer(query.space, subject, attribute, query.text, query.as_of, held_at=query.plan.state_at)
            if answer is not None:
                answered.append((subject, attribute, _with_an_end(answer, reads, query, subject, attribute)))
        # The turns of every answer, read at once.
        turns = source.turns(query.space, [i for _, _, answer in answered for i in answer.evidence_ids])
        # What the question allows to be claimed, read once for all its answers.
        claiming, asks_name = with_now_phrases(query.plan, query.text), asks_for_a_name(query.text)
        for subject, attribute, answer in answered:
            item = source.item(query.space, answer, at, turns)
            if item is None:
                continue
            claim = may_claim(answer, claiming)
            if claim and asks_name:
                claim = gives_names(answer)  # not "married" to "What is Ana's husband's name?"
            if claim and get_attribute(attribute).ended_by is not None:
                claim = not self._ended_by_status(query.space, subject, attribute, reads, at)
            if claim and attribute == PETS:
                claim = self._pets_answer(query, subject, answer)
            if claim and attribute == HOBBIES and (pastime := pastime_kind_asked(query.text)) is not None:
                claim = self._holds_pastime(query.space, subject, pastime)
            if not claim and (past := self._once_held(query, subject, attribute, answer)) is not None:
                answer, claim = past, True
                item = source.item(query.space, answer, at) or item
            elif not claim and (unrealised := self._unrealised_plan(query, subject, attribute, answer, reads)) is not None:
                answer, claim = unrealised, True
                item = source.item(query.space, answer, at) or item
            hit = RouteHit("dimension", item.id, answer.confidence, claim=claim, item=item)
            (claimed if claim else others).append(hit)
        others.sort(key=lambda h: -h.score)
        return claimed + others

    def _just_before(self, query: Query, value: str) -> Plan:
        """The plan of "Where did Ana work before Globex?" asked as of the moment before
        Globex first held (its stated start, else when it was said), the value's words no
        longer a topic: the state then answers it ("employer: Initech", or "unknown (was
        Initech)" after she left). Only a single-valued attribute's value says when the one
        before it ended; the plan unchanged when no named person's such value is it."""
        plan = query.plan
        reads = DimensionReads(self._stores.dimensions)
        starts = [
            delta.valid_from or delta.at
            for subject in plan.entities
            for attribute in plan.attributes
            if get_attribute(attribute).cardinality == "single"
            for delta in nous.list_deltas(reads, query.space, subject, attribute)
            if delta.polarity == "positive" and delta.modality == "asserted"
            and delta.observed.casefold() == value.casefold() and (query.as_of is None or delta.at <= query.as_of)
        ]  # fmt: skip
        if not starts:
            return plan
        # The words from "before" on name the value and how it began ("before joining Globex").
        asked = query.text.casefold()
        words = set(_QUESTION_WORD.findall(asked[asked.rfind("before") :]))
        return replace(
            plan,
            state_at=min(starts) - _JUST_BEFORE,
            other_words=tuple(w for w in plan.other_words if w not in words),
            notes=(*plan.notes, f"asked as of just before {value}"),
        )

    def _before_the_last_change(self, query: Query) -> Plan:
        """The plan of "Where did Ana use to live?" asked as of the moment before her present
        state began (``last_change``) of the first asked single-valued attribute that has
        changed: "residence: Leeds" when she has lived in Manchester since. The plan
        unchanged when none has: the present state does not answer (``Plan.previous``)."""
        plan = query.plan
        reads = DimensionReads(self._stores.dimensions)
        for attribute in named_first(plan.attributes, query.text, plan.wh_word):
            if get_attribute(attribute).cardinality != "single":
                continue
            changes = [
                change
                for subject in plan.entities
                if (change := last_change(nous.list_deltas(reads, query.space, subject, attribute), query.as_of))
                is not None
            ]
            if changes:
                # The attribute that changed answers, as of then: "What was Ana's previous job?"
                # is her employer before the last one, not her occupation then if it never changed.
                return replace(
                    plan,
                    attributes=(attribute,),
                    state_at=max(changes) - _JUST_BEFORE,
                    notes=(*plan.notes, f"{attribute} asked as of its last change"),
                )
        return plan

    def _pets_answer(self, query: Query, subject: str, answer: StateAnswer) -> bool:
        """Whether the subject's pets line answers the question (``eywa.read.pet_kinds``): not
        when the question asks for one kind and a pet the line names is said to be of another
        ("What is Bo's dog called?" with a parrot among them: the line does not say which is
        which), nor when it asks what kind a pet is and the line names pets rather than kinds
        ("What kind of dog does Bo have?": "Rex" is no breed). A pet no longer had is not in
        the line (the dog of "I don't have the dog anymore" says nothing of which pet is the
        cat), and a pet named by its kind says which it is ("pets: cat, dog" answers "Does
        Bo have a cat?")."""
        kind, for_kinds = kind_asked(query.text), asks_for_kinds(query.text)
        lines = self._stores.beliefs.beliefs_about(query.space, [subject], [PETS]).get(subject, [])
        named = [member for member in answer.members if not only_kinds([member])]
        if named and any(line.value is not None and only_kinds([line.value]) for line in lines):
            # A kind no longer had, said after a pet named on the line was said to be of it:
            # the line says the pet is had and gone at once (``gone_by_kind``).
            deltas = nous.list_deltas(DimensionReads(self._stores.dimensions), query.space, subject, PETS)
            at = query.plan.state_at if query.plan.state_at is not None else query.as_of
            statements = [(line.value, line.statement) for line in lines if line.value is not None]
            if gone_by_kind(named, statements, [d for d in deltas if at is None or d.at <= at]):
                return False
        if kind is None and not for_kinds:
            return True
        held = {member.casefold() for member in answer.members}
        said = [
            (line.value, line.statement) for line in lines
            if line.value is not None and (not held or line.value.casefold() in held)
        ]  # fmt: skip
        if for_kinds and not only_kinds(value for value, _ in said):
            return False
        return kind is None or names_kind(held, kind) or not another_kind(said, kind)

    def _ended_by_status(
        self, space: str, subject: str, attribute: str, reads: DimensionReads, at: datetime | None
    ) -> bool:
        """Whether the subject's other attribute that can end this one (``AttributeSpec.ended_by``)
        says, since this value began, that it holds nothing: "My husband Tom is a chef", then
        "We divorced last year" leaves the partner Tom (no turn names him as ended, so no belief
        can say "not Tom") but makes the relationship status divorced; Tom is then no present
        answer to "Who is Nadia's partner?". The value is still listed, unclaimed: the turns
        answer. A status said before the value began ("I'm divorced", then "my boyfriend Sam")
        ends nothing."""
        ended_by = get_attribute(attribute).ended_by
        if ended_by is None:
            return False
        other, values = ended_by
        try:
            held = nous.get_dimension(reads, space, subject, attribute, at)
            status = nous.get_dimension(reads, space, subject, other, at)
        except NotFoundError:
            return False
        if held.mode is None or status.mode is None or status.mode.casefold() not in {v.casefold() for v in values}:
            return False  # no value held ("unknown since … (was Tom)" already says it ended)
        began, ended = held.changed_at or held.since, status.changed_at or status.since
        return began is not None and ended is not None and ended >= began

    def _holds_pastime(self, space: str, subject: str, kind: str) -> bool:
        """Whether the subject's pastimes hold one of the kind asked ("What instrument does Ana
        play?"): only then does their line answer it (``eywa.read.pastime_kinds``)."""
        lines = self._stores.beliefs.beliefs_about(space, [subject], [HOBBIES]).get(subject, [])
        return holds_kind((line.value for line in lines if line.value is not None), kind)

    def _once_held(self, query: Query, subject: str, attribute: str, answer: StateAnswer) -> StateAnswer | None:
        """For a past-tense yes/no question with no time window that names values of a state
        attribute and nothing else ("Did Priya break her wrist?", "Did Ana work at Initech?"),
        the yes of ``answers.once_held`` when the values held as surely as a claim needs when
        they were last said to: the present state does not answer whether they ever held.
        Their whole history is read (not only what a present answer cites): the state then."""
        plan = query.plan
        if (
            not _may_be_unrealised(plan) or plan.state_at is not None or attribute in EVENT_ATTRIBUTES
            or not answer.asked or not _answers_question_word(attribute, plan.wh_word)
            or not names_only_values(answer, [w for w in plan.other_words if w not in plan.when_words])
        ):  # fmt: skip
            return None
        reads = DimensionReads(self._stores.dimensions)
        deltas = [
            d for d in nous.list_deltas(reads, query.space, subject, attribute)
            if query.as_of is None or d.at <= query.as_of
        ]  # fmt: skip
        said = last_held(deltas, answer.asked)
        if said is None:
            return None
        try:
            now = nous.get_dimension(reads, query.space, subject, attribute, query.as_of)
            then = nous.get_dimension(reads, query.space, subject, attribute, said)
        except NotFoundError:
            return None
        return once_held(answer, now, then, deltas)

    def _unrealised_plan(
        self, query: Query, subject: str, attribute: str, answer: StateAnswer, reads: DimensionReads
    ) -> StateAnswer | None:
        """For a past-tense yes/no question about a state attribute with no time window, the
        confident answer "not <value>, only planned/hedged" when the subject's plans hold the
        named value only tentatively (``eywa.read.answers.unrealised_plan``)."""
        plan = query.plan
        if not _may_be_unrealised(plan) or attribute in EVENT_ATTRIBUTES:
            return None
        try:
            dimension = nous.get_dimension(reads, query.space, subject, attribute, query.as_of)
        except NotFoundError:
            return None
        plans = [
            d for d in nous.list_deltas(reads, query.space, subject, "plans")
            if query.as_of is None or d.at <= query.as_of
        ]  # fmt: skip
        # The value the question names: its other words, and the names of the other
        # entities it names ("Did Ines move to Lisbury?" names the place Lisbury).
        named = [w for e in plan.entities if entity_key(e) != entity_key(subject) for w in e.split()]
        found = unrealised_plan(answer, dimension, plans, (*named, *plan.other_words))
        return found if found is not None and found.confidence >= ANSWER_THRESHOLD else None
