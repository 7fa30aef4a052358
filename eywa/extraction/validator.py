"""The validator: evidence before belief.

Each candidate is checked against the turns it cites and their signals. Five checks, each
with a score in [0, 1]:

- ``citation``: the cited turns exist in this space (the caller looks them up in the store
  for this space, so another space's or an erased turn is simply absent);
- ``support``: the candidate's content words occur (up to inflection and fuzzy spelling) in
  the cited text, above a threshold; sentences that instruct the memory ("store that…",
  "ignore the above…") are masked out first, because asking is not stating;
- ``anchors``: every date, amount, number, id, email or URL in the candidate matches a
  normalised signal of the cited evidence;
- ``subject``: the subject is the speaker of a cited turn or is mentioned in the clause that
  supports the claim;
- ``polarity`` and ``modality``: negation, cessation ("I quit pottery" ends pottery) and
  hedges of the supporting clause are kept (``eywa.extraction.polarity``).

Candidates arrive in canonical form (``eywa.attributes.canonical_fact``): a value carries no
negation and may be the canonical form of what the speaker said ((meat, negative) for "I'm
vegetarian"), so the value is looked for under each of its surface forms
(``eywa.attributes.value_surfaces``) and the best-supported one is checked.

Only polarity and modality failures are repairable: the fix is to change a flag.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from eywa.attributes import AttributeSpec, get_attribute, value_surfaces
from eywa.attributes.kin import KIN_AGE, KIN_WORDS
from eywa.cessation import cessations
from eywa.extraction.anchors import Anchor, anchor_signals, evidence_anchors, match_anchor
from eywa.extraction.polarity import modality_check, polarity_check, value_segment
from eywa.extraction.replies import Reply, bare_reply, opening_reply
from eywa.extraction.text import (
    STOPWORDS,
    Clause,
    best_match,
    clauses,
    content_words,
    instruction_spans,
    mask,
    tokens,
)
from eywa.models import (
    CandidateFact,
    CheckScore,
    Evidence,
    Polarity,
    ReasonCode,
    Signal,
    SignalKind,
    SupportLink,
    ValidationReport,
)

Detector = Callable[[str, datetime], Sequence[Signal]]
"""Signal detection over a text at an anchor time (``eywa.signals.detect_signals``)."""

REPAIRABLE = frozenset({ReasonCode.POLARITY_FLIP, ReasonCode.MODALITY_LOST})

_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll)\b", re.IGNORECASE)


@dataclass
class _Support:
    """Intermediate result of the support check."""

    score: float = 0.0
    turn: Evidence | None = None
    clause: Clause | None = None
    links: dict[str, tuple[tuple[int, int] | None, float]] = field(default_factory=dict)
    detail: str = ""
    claim_words: list[str] = field(default_factory=list)
    surface: tuple[list[str], Polarity] | None = None
    """The value's words as found in the evidence and the polarity they must carry."""


def _default_detector() -> Detector:
    from eywa.signals import detect_signals

    def detect(text: str, observed_at: datetime) -> Sequence[Signal]:
        return detect_signals(text, observed_at)

    return detect


class Validator:
    """Checks candidates against their cited evidence.

    Args:
        support_threshold: minimum share of the candidate's content words found in the
            cited text (and of its value's words, when it has a value).
        detector: signal detection used on the candidate's own statement; defaults to
            ``eywa.signals.detect_signals`` so candidate and evidence are normalised alike.
        attributes: the attribute registry whose value synonyms count as surface forms
            (default registry when None).

    Example:
        >>> report = Validator().validate("s", fact, {turn.id: turn})  # doctest: +SKIP
    """

    def __init__(
        self,
        support_threshold: float = 0.5,
        detector: Detector | None = None,
        attributes: Mapping[str, AttributeSpec] | None = None,
    ) -> None:
        self.support_threshold = support_threshold
        self._detect = detector if detector is not None else _default_detector()
        self._attributes = attributes

    def validate(self, space: str, fact: CandidateFact, cited: Mapping[str, Evidence]) -> ValidationReport:
        """Run every check and return the verdict; never raises on odd candidates."""
        found = [cited[i] for i in dict.fromkeys(fact.evidence_ids) if i in cited and _usable(cited[i], space)]
        missing = [i for i in fact.evidence_ids if i not in {t.id for t in found}]
        citation = CheckScore(
            name="citation",
            score=len(found) / max(len(fact.evidence_ids), 1),
            passed=bool(found) and not missing,
            detail=f"missing or foreign: {', '.join(missing)}" if missing else "",
        )
        if not found:
            return ValidationReport(
                accepted=False, score=0.0, checks=(citation,), reasons=(ReasonCode.BAD_CITATION,)
            )
        masks = {t.id: instruction_spans(t.text) for t in found}
        texts = {t.id: mask(t.text, masks[t.id]) for t in found}
        anchor_time = found[0].observed_at
        statement_signals = list(self._detect(fact.statement, anchor_time))
        claim_signals = statement_signals + (list(self._detect(fact.value, anchor_time)) if fact.value else [])

        # Cessation counts where the attribute's values can end; without a value the
        # statement and the turn are read alike, so it always counts.
        ends = get_attribute(fact.attribute, self._attributes).cessation_ends if fact.attribute and fact.value else True

        support = self._support(fact, found, texts, statement_signals, ends)
        anchors_check, matched = self._anchors(fact, found, texts, masks, claim_signals)
        subject = self._subject(fact, found, texts, support)
        polarity, modality = self._polarity_modality(fact, found, support, claim_signals, statement_signals, ends)

        checks = (citation, support_check := self._support_check(support), anchors_check, subject, polarity, modality)
        reasons: list[ReasonCode] = []
        for check, code in (
            (citation, ReasonCode.BAD_CITATION),
            (support_check, ReasonCode.UNSUPPORTED),
            (anchors_check, ReasonCode.ANCHOR_MISMATCH),
            (subject, ReasonCode.SUBJECT_MISSING),
            (polarity, ReasonCode.POLARITY_FLIP),
            (modality, ReasonCode.MODALITY_LOST),
        ):
            if not check.passed:
                reasons.append(code)
        links = tuple(
            SupportLink(evidence_id=eid, span=span, score=round(score, 4), anchors=tuple(matched.get(eid, ())))
            for eid, (span, score) in support.links.items()
        )
        return ValidationReport(
            accepted=not reasons,
            score=round(sum(c.score for c in checks) / len(checks), 4),
            checks=checks,
            reasons=tuple(reasons),
            support=links,
            repairable=bool(reasons) and set(reasons) <= REPAIRABLE,
        )

    # --- support --------------------------------------------------------------------

    def _support(
        self,
        fact: CandidateFact,
        found: list[Evidence],
        texts: Mapping[str, str],
        statement_signals: list[Signal],
        cessation: bool,
    ) -> _Support:
        exclude = frozenset(t.norm for t in tokens(fact.subject))
        # Anchors are checked on their own, and so are negation and (where it counts)
        # cessation words, by the polarity check: support is about content.
        masked = [(s.start, s.end) for s in anchor_signals(statement_signals)]
        masked += [(s.start, s.end) for s in statement_signals if s.kind is SignalKind.NEGATION]
        if cessation:
            masked += [(c.start, c.end) for c in cessations(fact.statement)]
        claim = list(dict.fromkeys(content_words(mask(fact.statement, masked), exclude)))
        out = _Support(claim_words=claim)
        value_words: list[str] = []
        if fact.value:
            value_words, polarity = self._best_surface(fact, [texts[t.id] for t in found], exclude)
            out.surface = (value_words, polarity)
        words = list(dict.fromkeys(claim + value_words))
        numbers_only = False
        if not words and fact.value:
            # "Alice is 40." (an age): the number is the whole claim. The anchors check
            # matches it as an amount; support must still find the clause that says it, so
            # that negation and hedges are read there ("I'm not 40" is no age of 40), also
            # when the turn says it in words ("I'm forty": Level 0 read the number 40 there).
            words = [w for w in content_words(fact.value, exclude) if w.isdigit()]
            numbers_only = bool(words)
        if not words:
            out.detail = "the candidate has no content words to support"
            return out
        matched_all: set[str] = set()
        best: tuple[int, float] = (-1, 0.0)
        for turn in found:
            text = texts[turn.id]
            turn_hits: set[str] = set()
            best_clause: Clause | None = None
            best_clause_hits = 0
            for clause in clauses(text):
                vocab = [t.norm for t in tokens(clause.text)]
                if numbers_only:
                    vocab += _numbers_said(turn, clause)
                hits = {w for w in words if best_match(w, vocab) is not None}
                turn_hits |= hits
                if len(hits) > best_clause_hits:
                    best_clause, best_clause_hits = clause, len(hits)
            matched_all |= turn_hits
            turn_score = len(turn_hits) / len(words)
            span = None if best_clause is None else (best_clause.start, best_clause.end)
            if turn_hits:
                out.links[turn.id] = (span, turn_score)
            if best_clause is not None and (best_clause_hits, turn_score) > best:
                best = (best_clause_hits, turn_score)
                out.turn, out.clause = turn, best_clause
        coverage = len(matched_all) / len(words)
        value_cov = (
            sum(1 for w in value_words if w in matched_all) / len(value_words) if value_words else coverage
        )
        out.score = min(coverage, value_cov)
        missing = [w for w in words if w not in matched_all]
        out.detail = f"missing: {', '.join(missing)}" if missing else ""
        if any(instruction_spans(t.text) for t in found) and out.score < self.support_threshold:
            out.detail = "the claim rests on an instruction in the turn, which asks rather than states; " + out.detail
        return out

    def _best_surface(
        self, fact: CandidateFact, texts: list[str], exclude: frozenset[str]
    ) -> tuple[list[str], Polarity]:
        """The surface form of the value best covered by the cited texts; among those covered
        alike, one said there as a whole phrase that the candidate's statement says too (on "I
        eat fish again, so I'm not vegetarian anymore", "Ana eats fish again" is about "fish",
        not about the "not vegetarian" that also says fish is eaten), then the longest said
        there ("ex smoker" over "smoker", whose content words are the same: "ex" is none), then
        the canonical."""
        vocab = [t.norm for text in texts for t in tokens(text)]
        said = " ".join(texts).casefold()
        stated = fact.statement.casefold()
        surfaces = (
            value_surfaces(fact.attribute, fact.value or "", fact.polarity, self._attributes)
            if fact.attribute
            else [(fact.value or "", fact.polarity)]
        )
        best: tuple[tuple[float, bool, int], list[str], Polarity] | None = None
        for surface, polarity in surfaces:
            words = [w for w in dict.fromkeys(content_words(surface, exclude)) if not w.isdigit()]
            if not words:
                continue
            covered = sum(1 for w in words if best_match(w, vocab) is not None) / len(words)
            if not _ends_its_noun_phrase(surface, said):
                covered = 0.0  # "have a job" said only in "have a job interview"
            whole = rf"(?<!\w){re.escape(surface.casefold())}(?!\w)"
            phrase = re.search(whole, said) is not None
            rank = (covered, phrase and re.search(whole, stated) is not None, len(surface) if phrase else 0)
            if best is None or rank > best[0]:
                best = (rank, words, polarity)
        return ([], fact.polarity) if best is None else (best[1], best[2])

    def _support_check(self, support: _Support) -> CheckScore:
        return CheckScore(
            name="support",
            score=round(support.score, 4),
            passed=support.score >= self.support_threshold,
            detail=support.detail,
        )

    # --- anchors --------------------------------------------------------------------

    def _anchors(
        self,
        fact: CandidateFact,
        found: list[Evidence],
        texts: Mapping[str, str],
        masks: Mapping[str, list[tuple[int, int]]],
        claim_signals: list[Signal],
    ) -> tuple[CheckScore, dict[str, list[str]]]:
        claims = [Anchor.of(s) for s in anchor_signals(claim_signals)]
        for label, moment in (("valid_from", fact.valid_from), ("valid_to", fact.valid_to)):
            if moment is not None:
                claims.append(Anchor.day(moment, label))
        matched: dict[str, list[str]] = {}
        stored = {t.id: evidence_anchors(t, masks[t.id]) for t in found}
        # The claim is read by today's detector, the turns' signals by the one that stored them:
        # a claim they do not match is tried again on the turns read by today's ("on Sunday",
        # which an older Level 0 left undated, is a date now), so that reprocessing a store
        # ingested before a detector change does not refuse what its turns still say.
        fresh: dict[str, list[Anchor]] = {}
        failed: list[str] = []
        for claim in claims:
            hit = False
            for offered in (stored, fresh):
                if offered is fresh and not fresh:
                    fresh.update({t.id: evidence_anchors(t, masks[t.id], self._detect(t.text, t.observed_at)) for t in found})
                for turn in found:
                    got = match_anchor(claim, offered[turn.id], texts[turn.id])
                    if got is not None:
                        hit = True
                        if got.text != "observed_at":
                            matched.setdefault(turn.id, []).append(f"{got.kind.value}:{got.normalized}")
                        break
                if hit:
                    break
            if not hit:
                failed.append(f"{claim.kind.value} {claim.text!r} ({claim.normalized})")
        score = 1.0 if not claims else (len(claims) - len(failed)) / len(claims)
        check = CheckScore(
            name="anchors",
            score=round(score, 4),
            passed=not failed,
            detail=f"unmatched: {'; '.join(failed)}" if failed else f"{len(claims)} matched",
        )
        return check, {k: list(dict.fromkeys(v)) for k, v in matched.items()}

    # --- subject --------------------------------------------------------------------

    def _subject(
        self, fact: CandidateFact, found: list[Evidence], texts: Mapping[str, str], support: _Support
    ) -> CheckScore:
        subject = fact.subject.strip().casefold()
        name_words = [t.norm for t in tokens(subject) if t.norm not in STOPWORDS or t.norm == "user"]
        if not name_words:
            return CheckScore(name="subject", score=0.0, passed=False, detail="no subject")
        for turn in found:
            for who in (turn.speaker, turn.role):
                if who and _same_name(subject, who.casefold()):
                    return CheckScore(name="subject", score=1.0, passed=True, detail=f"speaker of {turn.id}")
        if support.turn is not None and support.clause is not None:
            clause_text = support.clause.text
            if _kin_in_clause(subject, support.turn, clause_text):
                return CheckScore(name="subject", score=1.0, passed=True, detail="a relative the clause speaks of")
            mentioned_in_clause = _mentions(support.turn, name_words, support.clause) or _has_words(
                clause_text, name_words
            )
            if mentioned_in_clause:
                return CheckScore(name="subject", score=1.0, passed=True, detail="mentioned in the supporting clause")
            if _FIRST_PERSON.search(clause_text):
                return CheckScore(
                    name="subject", score=0.0, passed=False,
                    detail="the supporting clause is about the speaker, not the subject",
                )
        for turn in found:
            if _mentions(turn, name_words, None) or _has_words(texts[turn.id], name_words):
                return CheckScore(name="subject", score=0.8, passed=True, detail=f"mentioned in {turn.id}")
        return CheckScore(name="subject", score=0.0, passed=False, detail="neither speaker nor mentioned")

    # --- polarity and modality ------------------------------------------------------

    def _polarity_modality(
        self,
        fact: CandidateFact,
        found: Sequence[Evidence],
        support: _Support,
        claim_signals: list[Signal],
        statement_signals: list[Signal],
        cessation: bool,
    ) -> tuple[CheckScore, CheckScore]:
        if support.turn is None or support.clause is None:
            skip = "no supporting clause"
            return (
                CheckScore(name="polarity", score=1.0, passed=True, detail=skip),
                CheckScore(name="modality", score=1.0, passed=True, detail=skip),
            )
        turn, clause = support.turn, support.clause
        in_clause = [s for s in turn.signals if clause.start <= s.start < clause.end]
        if (clause.is_question and (reply := _bare_reply_to(turn, found)) is not None
                and not _told_by_reply(fact, clause, turn, found)):  # fmt: skip
            polarity = _replied_polarity(fact, reply)
            if fact.modality == "asserted":
                return polarity, CheckScore(name="modality", score=1.0, passed=True, detail="a bare reply asserts")
            # A plan asked about ("Do you want to move?" — "Yes.") keeps the question's words.
            return polarity, modality_check(fact, clause, in_clause, bool(turn.signals), claim_signals)
        if clause.is_question and (replied := _reply_clause(turn, found)) is not None:
            # "Where do you work?" — "At Globex.": the reply, not the question, asserts.
            turn, clause = replied
            in_clause = [s for s in turn.signals if clause.start <= s.start < clause.end]
        polarity = polarity_check(
            fact, turn.text, turn.signals, clause, statement_signals, support.claim_words, support.surface, cessation
        )
        segment = value_segment(turn.text, clause, support.claim_words, support.surface)
        modality = modality_check(fact, clause, in_clause, bool(turn.signals), claim_signals, segment)
        return polarity, modality


def _bare_reply_to(question: Evidence, found: Sequence[Evidence]) -> Reply | None:
    """The bare yes or no (``eywa.extraction.replies``) a cited turn gives to the question
    ``question`` asks: a turn of the same session by someone else, whose first clause is
    nothing but the reply."""
    for turn in found:
        if turn.id == question.id or turn.session != question.session or turn.speaker == question.speaker:
            continue
        first = clauses(turn.text)
        if first and (reply := bare_reply(first[0].text) or opening_reply(first[0].text)) is not None:
            return reply
    return None


def _told_by_reply(fact: CandidateFact, question: Clause, asker: Evidence, found: Sequence[Evidence]) -> bool:
    """Whether the fact's value is one the reply says and the question does not: "Do you
    still live in Leeds?" — "No, York now." denies Leeds, the question's, and asserts York,
    the reply's own (read from the reply, as any other fact of it)."""
    value = (fact.value or "").casefold()
    if not value or value in question.text.casefold():
        return False
    replied = _reply_clause(asker, found)
    return replied is not None and value in replied[1].text.casefold()


def _reply_clause(question: Evidence, found: Sequence[Evidence]) -> tuple[Evidence, Clause] | None:
    """The first clause of a cited reply to ``question`` (a turn of the same session by
    someone else) that is no question itself: where a fact read from a question and its
    reply ("Where do you work?" — "At Globex.") is asserted, or not."""
    for turn in found:
        if turn.id == question.id or turn.session != question.session or turn.speaker == question.speaker:
            continue
        first = clauses(turn.text)
        if first and not first[0].is_question:
            return turn, first[0]
    return None


def _replied_polarity(fact: CandidateFact, reply: Reply) -> CheckScore:
    """The polarity of a fact read from a question and its bare reply: the question asserts
    nothing and the reply says which way, "Yes." keeping the question's sense, a "no"
    denying it."""
    agrees = (fact.polarity == "positive") == (reply == "yes")
    return CheckScore(
        name="polarity", score=1.0 if agrees else 0.0, passed=agrees,
        detail=f"the reply says {reply}" if agrees else f"the reply says {reply}, the candidate {fact.polarity}",
    )  # fmt: skip


def _usable(turn: Evidence, space: str) -> bool:
    return turn.space == space and not turn.metadata.get("erased", False)


def _same_name(a: str, b: str) -> bool:
    if a == b:
        return True
    first_a, first_b = a.split()[:1], b.split()[:1]
    return bool(first_a) and first_a == first_b and (len(a.split()) == 1 or len(b.split()) == 1)


def _kin_in_clause(subject: str, turn: Evidence, clause_text: str) -> bool:
    """Whether ``subject`` (case-folded) is a relative the clause speaks of by no name
    (``eywa.attributes.kin``): "Ana's sister" in "my (older) sister works at Globex" said by
    Ana, or in "Ana's sister works at Globex" said by anyone."""
    for word, canonical in KIN_WORDS.items():
        if not subject.endswith(f" {canonical}"):
            continue
        owner = re.sub(r"['’]s?$", "", subject[: -len(canonical) - 1])
        said = [rf"{re.escape(owner)}['’]s?"] + (["my"] if turn.speaker and turn.speaker.casefold() == owner else [])
        if re.search(rf"\b(?:{'|'.join(said)})\s+{KIN_AGE}{word}\b", clause_text, re.IGNORECASE):
            return True
    return False


def _has_words(text: str, name_words: list[str]) -> bool:
    vocab = {t.norm for t in tokens(text)}
    return all(w in vocab for w in name_words[:1]) and bool(name_words)


def _mentions(turn: Evidence, name_words: list[str], clause: Clause | None) -> bool:
    for s in turn.signals_of(SignalKind.PERSON, SignalKind.ENTITY):
        if clause is not None and not clause.start <= s.start < clause.end:
            continue
        names = {t.norm for t in tokens(s.normalized or s.text)}
        if name_words[0] in names:
            return True
    return False


_DETERMINERS = frozenset({"a", "an", "the", "no", "any", "own", "my", "our", "your", "his", "her", "their"})
_CLAUSE_WORDS = frozenset(
    "right anymore yet either though again anyway until till since currently last next yesterday today tonight "
    "tomorrow".split()
)
"""Content words that may follow a noun phrase without continuing it ("no job right now", "a
job yet", "the knot last year")."""


def _ends_its_noun_phrase(surface: str, said: str) -> bool:
    """Whether a surface that ends in a noun after its determiner ("have a job", "no job") is
    said somewhere in ``said`` (case-folded) as a whole noun phrase: its noun not followed by
    another that makes it a modifier ("I don't have a job interview today" says no "have a
    job"; "… a job right now" does). A participle, an adverb in -ly or a function word after it
    ends the phrase ("a job lined up", "a boyfriend named Tom"); any other surface holds."""
    words = surface.casefold().split()
    if len(words) < 2 or words[-2] not in _DETERMINERS:
        return True
    for m in re.finditer(rf"(?<![\w'’-]){re.escape(words[-1])}(?![\w'’-])(?:\s+(?P<next>[a-z]+)(?![\w'’-]))?", said):
        after = m.group("next")
        if after is None or after in _CLAUSE_WORDS or after.endswith(("ly", "ed", "ing")) or not content_words(after):
            return True
    return False


_NUMERIC_KINDS = frozenset({SignalKind.NUMBER, SignalKind.QUANTITY, SignalKind.DURATION})
_WHOLE_NUMBER = re.compile(r"(?<![\d.,])\d+(?![\d.,])")


def _numbers_said(turn: Evidence, clause: Clause) -> list[str]:
    """The whole numbers Level 0 read inside ``clause`` of ``turn``, in digits: "forty" is
    "40", "twenty five years" is "25" (its duration P25Y). Only for a claim that is a number
    alone (an age): its digits are then found in the clause that says them in words."""
    return [
        found.group(0)
        for s in turn.signals
        if s.kind in _NUMERIC_KINDS and clause.start <= s.start < clause.end
        and (found := _WHOLE_NUMBER.search(s.normalized or "")) is not None
    ]  # fmt: skip
