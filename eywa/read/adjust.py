"""Post-fusion adjustments: who the question is about, neighbours of strong hits,
de-duplication, and the preservation floor. Each returns what it changed, for the trace.

A claimed answer (a dimension sure of the current state, see ``eywa.read.answers``) is
something the routes found, not a guess: no adjustment may overrule it. It is about the
named person, so the boost raises it like that person's turns; demotion, de-duplication and
the floor never sink, remove or displace it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import get_args

from rapidfuzz import fuzz

from eywa.ids import entity_key
from eywa.models import ItemKind, RouteName
from eywa.read.addressed import addressed_to_listener
from eywa.read.items import Hydrated
from eywa.read.overlap import more_terms_than, terms
from eywa.read.plan import Shape

# A turn spoken by a person the question names (or a belief or dimension about them) is worth
# this much more.
NAMED_SPEAKER_BOOST = 1.3
# For a one-answer fact question ("What did Ana buy?", "Which city did Ben visit?"), a turn
# that names someone or something besides the people talking is worth this much more
# (``specific_boost``). Chosen by leave one conversation out on the LoCoMo development file
# among 1.05, 1.1, 1.15 and 1.2: 1.15 in four folds, 1.1 in one (docs/evaluation.md).
SPECIFIC_BOOST = 1.15
SPECIFIC_SHAPES: frozenset[Shape] = frozenset({"fact"})
# Items about nobody the question names (when it names someone) keep this share.
DEMOTION_FACTOR = 0.8
# A turn that talks of its listener more than of its speaker keeps this share of its score
# (``addressed_demotion``), for a question of ADDRESSED_SHAPES. Among the turns the read path
# returned on the LoCoMo development file such turns were 5-12% of the gold turns and 17-32%
# of the others, in every category. Chosen by leave one conversation out among 0.5-0.9, before
# or after the rescue, for every shape or all but "when" questions: 0.7 after the rescue
# without "when" questions in four folds (docs/evaluation.md). "When" questions lost at every
# factor (two of 156 at 0.7): the turn that dates an event can be a question back or a plan
# said to the listener ("see you at your party on Saturday!").
ADDRESSED_FACTOR = 0.7
ADDRESSED_SHAPES: frozenset[Shape] = frozenset(shape for shape in get_args(Shape) if shape != "temporal")
# Neighbours of the strongest turns enter at this share of their parent's score.
RESCUE_SHARE = 0.5
# For a question with one answer (a fact, a "when", a yes/no) the rescued turns enter at this
# share instead (``rescue_share``): its answer is one turn, often the one after the turn whose
# words matched, while a list, count, inference or comparison question needs its other
# places for evidence elsewhere. Chosen by leave one conversation out among 0.5, 0.6 and 0.7
# on the LoCoMo development file: 0.6 in every fold (docs/evaluation.md).
RESCUE_SHARE_ONE_ANSWER = 0.6
ONE_ANSWER_SHAPES: frozenset[Shape] = frozenset({"fact", "temporal", "yes_no"})
RESCUE_PARENTS = 3
# Texts at least this similar (rapidfuzz ratio) are one item.
NEAR_DUPLICATE_RATIO = 95.0
# Each route whose weight is at least FLOOR_MIN_WEIGHT keeps its best FLOOR_PER_ROUTE. One,
# not more: on the LoCoMo dev questions protecting two per route cost 0.6 points of turn
# recall@10 against one (the second-best vector hit is usually noise), and no floor at all
# scored 0.6 higher still; one is kept for questions only a minor route can answer.
FLOOR_PER_ROUTE = 1
FLOOR_MIN_WEIGHT = 1.0
# Turns of the session holding the most fused score gain this share of their score; other
# sessions' turns in proportion to their session's total (see ``session_boost``). Chosen by
# leave-one-conversation-out between 0 (off), 0.15 and 0.3 on the LoCoMo dev file: 0.15 was
# chosen in every fold (+0.4 recall@10 over categories 1-4; per conversation +1.5, 0.0,
# +0.2, +0.7, -0.6); 0.3 hurt multi-hop and one conversation by a point.
SESSION_SHARE = 0.15
# An aggregate question (``Plan.aggregate``: "What books has Ana read?") wants its evidence
# from many sessions: beyond the AGGREGATE_SESSION_CAP best turns of one session, a turn
# sinks below every other candidate (``spread_sessions``), the rescued turns spared; and the
# rescue brings in only the named people's own turns. Chosen by leave one conversation out on
# the LoCoMo development file among caps of 2, 3 and 4, with and without sparing the rescued
# turns and restricting the rescue: 3, with both, in every fold (docs/evaluation.md).
AGGREGATE_SESSION_CAP = 3
# An aggregate question wants every occasion of a kind, and a turn of at most TERSE_TERMS
# content words (``overlap.terms``: no function word, none under three letters), the names
# the question names aside, tells none: a greeting ("Bye Ana!"), a thanks, an exclamation
# ("That's so cool!"). ``sink_terse`` drops such a turn below every other candidate. Read from
# the LoCoMo development file's traces: among the fused thirty of its aggregate questions
# (categories 1-4) such turns were 251, one of them gold, and 47 of the turns returned, none
# gold. Chosen by leave one conversation out among 3, 4 and 5: 5 in four folds, 4 in one
# (docs/evaluation.md).
TERSE_TERMS = 5
# For a question with one answer (``ONE_ANSWER_SHAPES``), when the k best turns hold two or
# more turns of one session, the routes agree the answer was said there, and a turn of that
# session below the k that the person route ranks among its best k (the named person's own
# turn nearest to what is asked, ``session_voice``) is worth this much more. Chosen by leave
# one conversation out on the LoCoMo development file among 1.1, 1.2 and 1.3: 1.2 in every
# fold (docs/evaluation.md, session 47).
SESSION_VOICE_BOOST = 1.2
# For a question about the current state, a later turn of the asked person on the asked thing
# scored at least this share of the best such turn's takes its place (``latest_first``).
LATEST_NEAR = 0.9


@dataclass
class Scored:
    """An item on its way to the result: content, fused score, route ranks."""

    item: Hydrated
    score: float
    routes: dict[str, int] = field(default_factory=dict)
    answer: bool = False

    @property
    def key(self) -> tuple[ItemKind, str]:
        return (self.item.kind, self.item.id)


def speaker_boost(items: list[Scored], named_ids: set[str], speaker_ids: Mapping[str, str]) -> list[str]:
    """Turns spoken by a named person rise, and so do dimensions about one (their
    ``subject``): what a person says and what is known of their state rise together, so the
    boost never lifts the person's small talk over their dimension. Beliefs are left alone:
    their statement names their subject, which the keyword route has already matched, and
    boosting them again lifted one-line beliefs ("Tomas might visit in December") over the
    turns that answer. Returns the ids boosted."""
    changed: list[str] = []
    if not named_ids:
        return changed
    named: dict[str, bool] = {}  # each subject's key once: the ~40 items have a few subjects
    for s in items:
        subject = s.item.subject
        if s.item.kind == "belief" or not subject:
            continue
        boosted = named.get(subject)
        if boosted is None:
            boosted = named[subject] = speaker_ids.get(entity_key(subject)) in named_ids
        if boosted:
            s.score *= NAMED_SPEAKER_BOOST
            changed.append(s.item.id)
    return changed


def specific_boost(items: list[Scored], talking: set[str], factor: float = SPECIFIC_BOOST) -> list[str]:
    """Turns that name someone or something besides the people talking rise: a fact
    question's answer is specific ("I bought a Canon", "we went to Lisbon"), while the named
    person's other turns on the topic, which every route agrees on and which fill a fact
    question's top ten, are often small talk between the two ("that sounds great, Ana!").
    ``talking`` holds the entity ids of the speakers; a turn whose ``about`` holds another
    entity is multiplied by ``factor``, and so are dimensions (a value of someone's state is
    specific by nature) and a claimed answer, so that the boost never lifts a turn over the
    state it gives, nor over the answer. Beliefs are left alone, as by the named-speaker
    boost. Returns the ids raised."""
    changed = []
    for s in items:
        if s.answer or s.item.kind == "dimension" or (s.item.kind == "evidence" and not talking.issuperset(s.item.about)):
            s.score *= factor
            changed.append(s.item.id)
    return changed


def person_demotion(items: list[Scored], named_ids: set[str]) -> list[str]:
    """Items about someone other than the person asked about sink; returns the ids demoted."""
    if not named_ids:
        return []
    changed = []
    for s in items:
        if not s.answer and not named_ids.intersection(s.item.about):
            s.score *= DEMOTION_FACTOR
            changed.append(s.item.id)
    return changed


def addressed_demotion(items: list[Scored], factor: float = ADDRESSED_FACTOR) -> list[str]:
    """Turns that talk of their listener more than of their speaker sink
    (``eywa.read.addressed``): a reaction, an encouragement or a question back ("you must be
    so proud of your garden!") rather than the speaker's own news, which is what recall is
    asked for. Run after the rescue, so that an addressed strong turn still brings its
    neighbours (the reply that tells) and an addressed neighbour sinks with the others.
    Beliefs, dimensions and a claimed answer are left alone. Returns the ids lowered."""
    changed = []
    for s in items:
        if not s.answer and s.item.kind == "evidence" and addressed_to_listener(s.item.text):
            s.score *= factor
            changed.append(s.item.id)
    return changed


def session_boost(items: list[Scored], share: float) -> list[str]:
    """Sessions first, then turns: a conversation's session is a coherent unit, so a turn
    whose session holds much of the fused score (several candidates, or strong ones) is
    more likely the one that answers than an equally ranked turn alone in its session. Each
    turn's score is multiplied by ``1 + share * total(session) / total(best session)``, the
    totals summing the fused scores of the candidate turns. A claimed answer is multiplied by
    ``1 + share``: fusion puts it only ``(k + 1) / k`` above a turn every route ranked first,
    and without this that turn, in the best session, overtook it. Returns the ids raised."""
    totals: dict[str, float] = {}
    for s in items:
        if s.item.kind == "evidence" and s.item.session is not None:
            totals[s.item.session] = totals.get(s.item.session, 0.0) + s.score
    best = max(totals.values(), default=0.0)
    if best <= 0.0 or share <= 0.0:
        return []
    changed = []
    for s in items:
        if s.answer:  # raised as much as the best session's turns: no turn overtakes it
            s.score *= 1.0 + share
            changed.append(s.item.id)
        elif s.item.kind == "evidence" and s.item.session is not None:
            s.score *= 1.0 + share * totals[s.item.session] / best
            changed.append(s.item.id)
    return changed


def rescue_share(shape: Shape) -> float:
    """The share of its parent's score a rescued turn enters at, for a question of ``shape``."""
    return RESCUE_SHARE_ONE_ANSWER if shape in ONE_ANSWER_SHAPES else RESCUE_SHARE


def rescue_neighbours(
    items: list[Scored],
    neighbours: Callable[[Sequence[str]], Mapping[str, Sequence[Hydrated]]],
    share: float = RESCUE_SHARE,
    admit: Callable[[Hydrated], bool] | None = None,
) -> list[str]:
    """Raw-episode rescue: the turns around the strongest hits join (the one before and the
    two after, ``eywa.read.items.NEIGHBOURS_AFTER``), so a one-word reply keeps its question
    and a turn that opens a topic the words that follow it. ``neighbours`` reads the turns
    around all the parents at once; a neighbour enters at ``share`` of its parent's score
    (``rescue_share``), if ``admit`` (when given) admits it: an aggregate question's rescue
    admits only the named people's turns, since the other speaker's replies would fill the
    places its evidence from other sessions needs. Returns the ids added or raised."""
    ranked = sorted((s for s in items if s.item.kind == "evidence"), key=lambda s: -s.score)
    parents = ranked[:RESCUE_PARENTS]
    around = neighbours([p.item.id for p in parents]) if parents else {}
    present = {s.key: s for s in items}
    changed = []
    for parent in parents:
        for hydrated in around.get(parent.item.id, ()):
            if admit is not None and not admit(hydrated):
                continue
            score = parent.score * share
            existing = present.get((hydrated.kind, hydrated.id))
            if existing is None:
                new = Scored(hydrated, score, {"rescue": 1})
                items.append(new)
                present[new.key] = new
                changed.append(hydrated.id)
            elif existing.score < score:
                existing.score = score
                existing.routes.setdefault("rescue", 1)
                changed.append(hydrated.id)
    return changed


def spread_sessions(items: list[Scored], cap: int = AGGREGATE_SESSION_CAP) -> list[str]:
    """Sessions spread, for an aggregate question: beyond the ``cap`` best turns of one
    session, a turn's score drops to 0, so that the places left go to other sessions' turns
    (it stays a candidate, last). A turn the rescue brought or raised is spared, and not
    counted: it is the reply or the continuation of a strong turn, which a one-answer
    question planned as an aggregate often wants (a cap counting them cost single-hop
    questions). A claimed answer is never lowered. Returns the ids lowered."""
    seen: dict[str, int] = {}
    changed = []
    for s in sorted(items, key=lambda s: -s.score):
        if s.item.kind != "evidence" or s.item.session is None or s.answer or "rescue" in s.routes:
            continue
        seen[s.item.session] = seen.get(s.item.session, 0) + 1
        if seen[s.item.session] > cap:
            s.score = 0.0
            changed.append(s.item.id)
    return changed


def sink_terse(items: list[Scored], names: Iterable[str], most: int = TERSE_TERMS) -> list[str]:
    """For an aggregate question: a turn of at most ``most`` content words, beyond the words
    of ``names`` (the names the question names), drops to 0 (it stays a candidate, last),
    since it tells no occasion (``TERSE_TERMS``). The photo a turn shares is part of its text,
    so "Look at this! [shares a photo: a clay bowl with a blue glaze]" keeps its place. A
    claimed answer is never lowered, nor a belief or a dimension (a statement, not a turn).
    Returns the ids lowered."""
    named = {term for name in names for term in terms(name)}
    changed = []
    for s in items:
        if s.item.kind == "evidence" and not s.answer and not more_terms_than(s.item.text, most, named):
            s.score = 0.0
            changed.append(s.item.id)
    return changed


def session_voice(items: list[Scored], k: int, factor: float = SESSION_VOICE_BOOST) -> list[str]:
    """The session the routes agree on, told in the asked person's own words: when the ``k``
    best turns hold two or more turns of one session, a turn of that session outside them
    that the person route ranks among its best ``k`` is multiplied by ``factor``.

    A session holding several of the best turns is where the answer was said, but which of
    its turns says it is mostly the lexical routes' choice, and they score a session's turns
    alike: a turn's keyword row and its vector both borrow its neighbours' words, so the
    turns around the one that says it share its score or outrank it ("Which camera does
    Priya use?": her turns about the photo walk rank first, and "I still shoot everything on
    the little Fujifilm my dad gave me", two turns on, ranks below them). The person route
    ranks the named person's own turns by their meaning against the question without names:
    a second opinion on which turn of that session answers. For a question with one answer
    only (the reader checks): a list or inference question's last places are wanted for
    evidence from other sessions. Only turns outside the ``k`` best rise (they challenge the
    last places; the order of the ten is left as fused), and a claimed answer, a belief or a
    dimension is never raised. Returns the ids raised."""
    ranked = sorted(items, key=lambda s: -s.score)
    sessions = Counter(s.item.session for s in ranked[:k] if s.item.kind == "evidence" and s.item.session is not None)
    agreed = {session for session, count in sessions.items() if count >= 2}
    changed = []
    for s in ranked[k:]:
        if (
            s.item.kind == "evidence"
            and not s.answer
            and s.item.session in agreed
            and s.routes.get("person", k + 1) <= k
        ):
            s.score *= factor
            changed.append(s.item.id)
    return changed


def latest_first(items: list[Scored], said_by_asked: Callable[[Hydrated], bool], topics: set[str]) -> list[str]:
    """For a question about what holds now ("Is Ana moving to Oslo?"), the asked person's
    last word on the asked thing comes first. Among the turns spoken by a person the question
    names that mention something else it names (``topics``: entity ids, not people), the
    latest one within ``LATEST_NEAR`` of the best one's score trades scores with it: a
    revision ("I'm not moving after all") and what it revises ("I might move to Oslo") share
    their words, so the routes score them about alike and which leads is left to chance (two
    backends' BM25 order them apart). Only the order of the two changes, never which items
    are kept; a claimed answer is never moved. Returns the ids moved."""
    dated = [
        (s.item.observed_at, s)
        for s in items
        if s.item.kind == "evidence" and not s.answer and topics.intersection(s.item.about) and said_by_asked(s.item)
        if s.item.observed_at is not None
    ]
    if len(dated) < 2:
        return []
    when, best = max(dated, key=lambda pair: pair[1].score)
    later = [(at, s) for at, s in dated if at > when and s.score >= LATEST_NEAR * best.score]
    if not later:
        return []
    _, latest = max(later, key=lambda pair: (pair[0], pair[1].score))
    best.score, latest.score = latest.score, best.score
    return [latest.item.id, best.item.id]


def deduplicate(items: list[Scored]) -> list[str]:
    """A belief and its own turn are one item (the better-scored one stays, with both
    routes); near-identical texts collapse. A claimed answer is always kept as it is (a
    dimension is never one of a turn's copies). Returns the ids removed."""
    items.sort(key=lambda s: -s.score)
    kept: list[Scored] = []
    turn_holder: dict[str, Scored] = {}
    removed = []
    for s in items:
        if s.answer:
            kept.append(s)
            continue
        cited = [ref.id for ref in s.item.provenance]
        text = s.item.text
        holder = next((turn_holder[c] for c in cited if c in turn_holder), None)
        single_source = len(cited) == 1 and s.item.kind in ("evidence", "belief")
        if holder is not None and single_source and holder.item.kind != s.item.kind:
            _merge_routes(holder, s)
            removed.append(s.item.id)
            continue
        # With ``score_cutoff`` a pair under the ratio scores 0 without the full comparison
        # (their lengths alone often rule it out); a pair at or above it scores as without.
        twin = next(
            (
                k for k in kept
                if not k.answer and fuzz.ratio(k.item.text, text, score_cutoff=NEAR_DUPLICATE_RATIO) >= NEAR_DUPLICATE_RATIO
            ),
            None,
        )  # fmt: skip
        if twin is not None:
            _merge_routes(twin, s)
            removed.append(s.item.id)
            continue
        kept.append(s)
        if single_source:
            turn_holder.setdefault(cited[0], s)
    items[:] = kept
    return removed


def select_with_floor(
    items: Sequence[Scored], k: int, weights: Mapping[RouteName, float]
) -> tuple[list[Scored], list[str]]:
    """The top ``k`` by score, except that each strong route's best few keep a place, and a
    claimed answer always does.

    Returns the selection (by score) and the ids the floor brought in.
    """
    ordered = sorted(items, key=lambda s: -s.score)
    chosen = ordered[:k]
    chosen_keys = {s.key for s in chosen}
    protected: list[Scored] = [s for s in ordered if s.answer][:k]
    for route, weight in weights.items():
        if weight < FLOOR_MIN_WEIGHT:
            continue
        best = sorted((s for s in ordered if route in s.routes), key=lambda s: s.routes[route])
        protected.extend(best[:FLOOR_PER_ROUTE])
    brought: list[str] = []
    protected_keys = {p.key for p in protected}
    for s in protected:
        if s.key in chosen_keys:
            continue
        victims = [c for c in reversed(chosen) if c.key not in protected_keys]
        if not victims:
            break
        chosen.remove(victims[0])
        chosen_keys.discard(victims[0].key)
        chosen.append(s)
        chosen_keys.add(s.key)
        brought.append(s.item.id)
    chosen.sort(key=lambda s: -s.score)
    return chosen, brought


def reserve_place(chosen: list[Scored], offered: Scored) -> list[str]:
    """A place of the result given to ``offered``: the lowest-ranked turn of ``chosen`` (best
    first) that repeats the session of a better-ranked one gives up its place, and ``offered``
    takes the last place, at the score of the lowest chosen item. Nothing changes when no
    chosen turn repeats a session (every place already tells a different occasion), or when
    ``offered`` or a turn it stands for is chosen already.

    For an aggregate question whose kind of thing is known (``eywa.read.thing_kinds``): a list
    is spread over sessions, and of the result's last places a second turn of one session is
    the weakest (on the LoCoMo development file a returned turn at the ninth or tenth place
    that repeats a session was gold 5.5% of the time, the member search's best turn outside
    the result 7.7%). A claimed answer is never the one to go. Returns the ids changed: the
    one brought in, then the one that left.
    """
    cited = {ref.id for s in chosen for ref in s.item.provenance}
    if offered.key in {s.key for s in chosen} or cited.intersection(ref.id for ref in offered.item.provenance):
        return []
    seen: set[str] = set()
    victim: Scored | None = None
    for s in chosen:
        session = s.item.session
        if s.item.kind == "evidence" and session is not None:
            if session in seen and not s.answer:
                victim = s
            seen.add(session)
    if victim is None:
        return []
    chosen.remove(victim)
    offered.score = min((s.score for s in chosen), default=victim.score)
    offered.routes.setdefault("members", 1)
    chosen.append(offered)
    return [offered.item.id, victim.item.id]


def _merge_routes(into: Scored, other: Scored) -> None:
    for route, rank in other.routes.items():
        into.routes[route] = min(into.routes.get(route, rank), rank)


__all__ = [
    "Scored",
    "addressed_demotion",
    "deduplicate",
    "person_demotion",
    "rescue_neighbours",
    "reserve_place",
    "rescue_share",
    "select_with_floor",
    "session_boost",
    "session_voice",
    "sink_terse",
    "speaker_boost",
    "spread_sessions",
]
