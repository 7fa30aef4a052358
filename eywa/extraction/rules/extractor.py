"""The offline rule-based extractor, the default when no LLM is configured.

It reads one turn at a time, clause by clause and part by part (see ``clause``), and hands
each part to the rule families: work, home, family, pets, pastimes, life (education and
health), plans and events. Each family proposes a fact only when a narrow pattern matches
around a subject it can resolve: the speaker ("I", "we" for a household, "<Name> and I")
or a person Level 0 recognised in the clause. A wrong belief is worse than a missing one.

Before any rule runs, the turn is masked where it does not speak for its speaker: quoted
speech, sentences that instruct the memory ("ignore the above and store that …"), and the
captions of shared photos. Questions assert nothing and are skipped. Every proposal cites
only the turn it was read from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from eywa.extraction.context import Earlier, Named, named_values
from eywa.extraction.rules.answers import value_reply
from eywa.extraction.rules.age import age
from eywa.extraction.rules.casual import standard_turn
from eywa.extraction.rules.clause import Ctx, Part, parts, persons_in, second_part, subject_dropped, subject_shared
from eywa.extraction.rules.correction import correction
from eywa.extraction.rules.endings import endings
from eywa.extraction.rules.ellipsis import answer_reply, elliptical_answer, place_reply, yes_no_reply
from eywa.extraction.rules.family import children, relationships, relatives
from eywa.extraction.rules.family_news import family_news
from eywa.extraction.rules.habits import habits
from eywa.extraction.rules.home import possessions, residence
from eywa.extraction.rules.languages import languages
from eywa.extraction.rules.life import education, health
from eywa.extraction.rules.diet import diet
from eywa.extraction.rules.pastimes import hobbies, tastes
from eywa.extraction.rules.pets import pets
from eywa.extraction.rules.events import events
from eywa.extraction.rules.plans import plans
from eywa.extraction.rules.work import employment
from eywa.extraction.text import Clause, clauses, instruction_spans, mask
from eywa.models import CandidateFact, Evidence, SignalKind

Family = Callable[[Ctx], Iterator[CandidateFact]]

FAMILIES: tuple[Family, ...] = (
    employment, residence, relationships, children, relatives, pets, hobbies, tastes, diet, habits, education,
    languages, health, possessions, age, plans, events, family_news, endings,
)
"""Every rule family, in the order their proposals are listed."""

_SPEAKER_WORDS = frozenset("i we my our me us home".split())
"""A part with none of these words and no recognised person has no subject a rule could resolve
("home" says the speaker's: "Lisbon is home now")."""

_LASTED = frozenset({"last", "lasted"})
"""The words of a diet said not to have lasted, which the diet family reads with no subject word."""
_WEDDING = frozenset({"wedding"})
"""The word of a wedding called off ("The wedding's off"), which the endings family reads with no
subject word (the speaker's, when their partner is known: ``endings._WEDDING_OFF``)."""
_NOT_CONTRASTED = frozenset({"life_events", "plans", "events"})
"""Attributes whose values are not states one is instead of another: "I went hiking, not
climbing" says nothing about climbing as a life event."""


def _contrasted(found: CandidateFact, part: Part) -> CandidateFact | None:
    """The negative fact a trailing contrast makes of a positive one: "I work at Initech,
    not Globex" also says Globex is not the employer ("Alice works at Initech, not Globex.",
    negative), so that a correction of what was said before ("Sorry, I misspoke: …") moves
    the dimension rather than splitting it. Only for an asserted, positive state whose value
    the part names (the contrast is about that value), never for events or plans."""
    value = _CONTRAST_VALUE.sub("", part.contrast)
    if (not value or found.polarity != "positive" or found.modality != "asserted" or not found.value
            or found.attribute in _NOT_CONTRASTED or found.value.casefold() not in part.text.casefold()
            or found.value.casefold() == value.casefold()):  # fmt: skip
        return None
    statement = f"{found.statement.rstrip('.!? ')}, not {part.contrast}."
    return found.model_copy(update={"statement": statement, "value": value, "polarity": "negative"})


_SHARED = frozenset({"employer", "residence"})
"""States "<Name> and I" share: "Ben and I both work at Initech", "Tom and I live in Leeds"
(not a pet or a wedding, which the rules already give whom they name, nor a hobby two may
share for a day)."""
_WITH_ME = re.compile(
    r"^\s*(?:[Bb]oth\s+)?(?:(?P<with>[A-Z][a-z]+(?:[-'’][A-Z][a-z]+)?)\s+and\s+I\b"
    r"|I\s+and\s+(?P<with_after>[A-Z][a-z]+(?:[-'’][A-Z][a-z]+)?)\b)"
)


def _shared(found: CandidateFact, part: Part, speaker: str | None, persons: Mapping[str, str]) -> CandidateFact | None:
    """The same fact of the person named beside "I" at the start of the part, when Level 0
    recognised them ("Ben and I both work at Initech" is also "Ben works at Initech."), for
    a positive, asserted state both hold (``_SHARED``) whose statement names the speaker
    only as its subject."""
    m = _WITH_ME.match(part.text)
    other = persons.get(m.group("with") or m.group("with_after")) if m else None
    if (other is None or not speaker or found.subject != speaker or found.attribute not in _SHARED
            or found.polarity != "positive" or found.modality != "asserted"
            or not found.statement.startswith(f"{speaker} ") or speaker in found.statement[len(speaker):]):  # fmt: skip
        return None
    return found.model_copy(update={"subject": other, "statement": other + found.statement[len(speaker):]})


_CONTRAST_VALUE = re.compile(r"^(?:(?:in|at|for|with|from|to|as)\s+)?(?:(?:the|a|an)\s+)?", re.I)
"""What stands before the value a contrast names ("in York", "a doctor")."""


_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
_SPEECH = re.compile(
    r"(?<![\w'’])(?:I|I'm|I’m|I'll|I’ll|I've|I’ve|we|you|you'll|you’ll|my|your)\b|\s\S+\s\S+\s\S+\s\S+\s", re.I
)
"""What makes a quotation speech rather than a title: a pronoun, or five words or more."""
_CAPTION = re.compile(r"\[\s*shares?\s+(?:a\s+)?(?:photo|picture|image)[^\]]*\]", re.IGNORECASE)


def masked(text: str) -> str:
    """``text`` with quoted speech, instructions to the memory and photo captions blanked.

    A short quoted title ("Charlotte's Web") is kept: it names something, it is not speech.
    """
    spans = [(m.start(), m.end()) for m in _QUOTED.finditer(text) if _SPEECH.search(m.group(0))]
    spans += [(m.start(), m.end()) for m in _CAPTION.finditer(text)]
    text = mask(text, spans)
    return mask(text, instruction_spans(text))


class RuleExtractor:
    """Deterministic, offline pattern extractor over turns and their Level 0 signals.

    Example:
        >>> facts = list(RuleExtractor().propose("home", [turn]))  # doctest: +SKIP
    """

    name = "rules"
    # Bump when the rules propose something different for the same turn: beliefs record it,
    # and `eywa reprocess` re-reads the turns an older version read.
    version = "107"

    def __init__(self, families: Sequence[Family] = FAMILIES) -> None:
        self._families = tuple(families)

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        """Candidate facts for each turn of ``space``, each citing only that turn."""
        return self.propose_after(space, evidence, Earlier())

    def propose_after(self, space: str, evidence: Sequence[Evidence], earlier: Earlier) -> Iterable[CandidateFact]:
        """``propose``, knowing what came before the batch (``eywa.extraction.context``).

        The turns are read in the order given; each turn's previous turn in its session and
        the names its speaker gave to values so far (``earlier``, then this batch's own
        proposals) are known to the rules that need them: short answers and pets named alone;
        so are the names the earlier beliefs of the people a turn names hold ("Eva left
        Globex", once Eva's employer is known).
        """
        previous: dict[str, Evidence] = {}
        named = {speaker: dict(names) for speaker, names in earlier.named.items()}
        for turn in evidence:
            if turn.space != space:
                continue
            before = previous.get(turn.session)
            if before is None or before.seq != turn.seq - 1:
                before = earlier.previous.get(turn.id)
            seen: set[tuple[str, str | None, str, str, str]] = set()
            proposed: list[CandidateFact] = []
            for fact in self._turn(turn, before, named):
                key = (fact.subject.casefold(), fact.attribute, (fact.value or "").casefold(), fact.polarity,
                       fact.modality)
                if key not in seen:
                    seen.add(key)
                    proposed.append(fact)
                    yield fact
            for subject, names in named_values(proposed).items():
                named.setdefault(subject, {}).update(names)
            previous[turn.session] = turn

    def _turn(self, turn: Evidence, previous: Evidence | None, everyone: Named) -> Iterator[CandidateFact]:
        # "im working at Initech now": read as "I'm working …" (the proposal cites the turn as typed).
        turn = standard_turn(turn)
        previous = None if previous is None else standard_turn(previous)
        dates = [s for s in turn.signals if s.kind is SignalKind.DATE and s.window_start is not None]
        text = masked(turn.text)
        named = everyone.get((turn.speaker or "").casefold(), {})
        pets = frozenset(name for name, (attribute, _) in named.items() if attribute == "pets")
        last: Clause | None = None
        for clause in clauses(text):
            before, last = last, clause
            if clause.is_question or len(clause.text) > 400:
                continue
            persons = persons_in(turn, clause)
            if not turn.speaker and not persons:
                continue
            answer = elliptical_answer(turn, clause, previous)
            # "Do you still work at Initech?" — "Yes.": the reply is read as the question
            # says, and what it makes cites the question beside the reply.
            # "Do you still live in Leeds?" — "No, York now.": a reply with its value says
            # more than one thing ("I don't live in Leeds anymore.", "I live in York now.").
            told = None if answer is not None else value_reply(turn, clause, previous, everyone)
            reply = None if answer is not None else (
                (told[0][0], told[1]) if told is not None else
                yes_no_reply(turn, clause, previous, pets) or place_reply(turn, clause, previous)
                or answer_reply(turn, clause, previous))  # fmt: skip
            if reply is not None:
                answer = reply[0]
            if answer is None:
                # "… but live in York now", "Moved to Lisbon!": the subject the clause lacks.
                answer = subject_shared(text, before, clause) or subject_dropped(turn, text, clause)
                # "Lived in Leeds, then moved to York": each verb is read, as ``parts`` cuts them.
                second = None if answer is None else second_part(answer)
            else:
                second = None
            clause_parts: list[Part] = (parts(clause) if answer is None else list(told[0]) if told
                                        else [answer] if second is None else [answer, second])
            for said in clause_parts:
                # "Actually it's Initech, not Globex": read as "I work at Initech, not Globex".
                part = correction(said, named) or said
                end = said.start + len(said.text)
                ctx = Ctx(turn=turn, clause=clause, part=part, persons=persons,
                          dates=tuple(d for d in dates if part.start <= d.start < end), named=everyone,
                          previous=previous)
                speaks = bool(persons) or not _SPEAKER_WORDS.isdisjoint(part.words) or not part.words.isdisjoint(named)
                for family in self._families:
                    # Events also read clauses that drop their "I"; a diet, one said of no one
                    # to have lasted ("The vegetarian thing didn't last": the speaker's,
                    # ``diet._DIET_OVER``); endings, a wedding called off ("The wedding's off").
                    if (speaks or family is events or (family is diet and not _LASTED.isdisjoint(part.words))
                            or (family is endings and not _WEDDING.isdisjoint(part.words))):
                        for found in family(ctx):
                            if reply is not None:
                                found = found.model_copy(update={"evidence_ids": (reply[1], *found.evidence_ids)})
                            yield found
                            if (contrasted := _contrasted(found, part)) is not None:
                                yield contrasted
                            if (shared := _shared(found, part, turn.speaker, persons)) is not None:
                                yield shared
