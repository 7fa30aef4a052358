"""The read path's orchestration: plan → routes → fusion → adjustments → floor → packing.

A route may claim an item as the answer (the dimension route, for a current-state question
its dimension is sure of): fusion puts the first claim first (``lead_with``) and the
adjustments leave it there. No LLM is called here. Every stage is timed and traced; any
route or post-filter can be switched off by name (``disabled``) for ablations.

The query embedding runs in a thread of its own while the plan and the routes that do not
need it run (onnxruntime and SQLite both release the GIL): a recall waits for the embedding
only when the vector route needs it, after the others. ``embed`` in the trace is the
embedding's own time; it overlaps ``plan`` and ``routes``, so ``total`` is the recall's
elapsed time, not a sum.

Degrade, don't fail: a route whose store fails (``StoreError``; the query embedding's
``EmbedderError`` for the vector route) is skipped and the others answer; the trace's
``skipped`` maps each skipped route to the reason. Only when no route answered does the
recall raise the first failure.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Final, get_args

import numpy as np
import numpy.typing as npt

from eywa.errors import EmbedderError, EywaError, InvalidInputError, StoreError
from eywa.ids import entity_id, entity_key
from eywa.models import Entity, ItemKind, Policy, PostFilter, RecallItem, RecallResult, RouteName, Stage
from eywa.read import adjust
from eywa.read.adjust import Scored
from eywa.read.asked import answering
from eywa.read.fusion import (
    BELIEF_SHARE,
    SCORE_ORDERED,
    ItemKey,
    belief_turns,
    lead_with,
    shared_ranks,
    vote_groups,
    weighted_rrf,
)
from eywa.read.items import Hydrated, ItemSource
from eywa.read.packing import pack
from eywa.read.plan import Plan, embedding_texts, make_plan, name_spans
from eywa.read.relatives import (
    Kin,
    RelativeAsk,
    ask_of_relatives,
    asked_through,
    relation_count_unclaimed,
    relation_unclaimed,
    relatives_asked,
)
from eywa.read.policies import answer_instructions
from eywa.read.strength import LEXICAL_DEPTH, evidence_strength
from eywa.read.thing_kinds import ThingKind, kind_asked, member_order, member_query
from eywa.read.routes import Query, Route, RouteHit
from eywa.read.routes.base import KeywordHits, SearchesVectors, keyword_search
from eywa.stores.beliefs import BeliefCites
from eywa.stores.evidence import KeywordIndex

# Each route retrieves this many candidates per requested item (at least MIN_CANDIDATES).
CANDIDATES_PER_ITEM = 5
MIN_CANDIDATES = 50
# Only the best fused candidates are loaded (the floor and rescue work among them).
HYDRATE_PER_ITEM = 4
MIN_HYDRATED = 40
# The best fused turns whose neighbours are read while the items load, for the rescue (its
# RESCUE_PARENTS parents are the best turns after the boosts, nearly always among these).
PREFETCH_PARENTS = 8
# Query embeddings computed at once, at most (each recall embeds one question).
EMBED_THREADS = 8
# How long a recall waits, at most, for its embedding thread to start (``_start_embedding``):
# it normally starts within a fraction of a millisecond. The bound keeps a recall going when
# every embedding thread is busy with other recalls' questions, or the machine is too busy to
# run the thread soon; it is the interpreter's switch interval, after which a thread waiting
# for the interpreter is given it anyway.
HANDOFF_WAIT_S = 0.005
# The routes that search with a query embedding (run once it is computed), and which: the
# question's (0) or the question's without the people it names (1).
EMBEDDING_ROUTES: Final[Mapping[RouteName, int]] = {"vector": 0, "person": 1}
# How many relatives a question may go through ("Ana's sister's husband": two): each step is
# one dimension and one belief read of the owner, only for questions that say "…'s <relative>".
RELATIVE_STEPS = 2
# The member search of an aggregate question asking for a kind of thing reads this many
# keyword hits (``Reader._member``); 100 and 200 gave the same recall on the LoCoMo
# development file (docs/evaluation.md, session 49).
MEMBER_DEPTH = 50
# Names of the post-fusion stages, for ``disabled``.
POST_FILTERS: Final[tuple[PostFilter, ...]] = get_args(PostFilter)


class Reader:
    """Runs recall for one Memory. Dependencies are passed in; nothing is global.

    With ``pool``, the routes of one recall run at once in it (server backends answer
    several queries in parallel, so a recall costs its slowest route rather than the sum);
    each route's own time is still traced as ``route.<name>``, and the phase as ``routes``.
    With a pool and ``keyword`` (the index the routes share a search of), that search is
    started before the entities are looked up and the plan is made: it needs only the
    question, and the keyword, graph, temporal and inference routes all wait for it, so
    the lookup's round trip no longer comes before it. The items still to load after
    fusion are loaded a kind per pool thread, at once, and beside them the neighbours of
    the best fused turns are read for the rescue (``PREFETCH_PARENTS``; a parent outside
    them is read when the rescue asks).

    ``snapshot`` holds one committed state of the stores for a recall's reads in the asking
    thread (the embedded store's one SQLite read transaction: a statement no longer begins
    and ends its own, and what every read of one state shares is read once); a write
    committed meanwhile is seen by the next recall.
    """

    def __init__(
        self,
        routes: Sequence[Route],
        sources: Sequence[ItemSource],
        embed_queries: Callable[[Sequence[str]], npt.NDArray[np.float32]],
        entities_named: Callable[[str, Sequence[str]], list[Entity]],
        neighbours: Callable[[str, Sequence[str]], Mapping[str, Sequence[Hydrated]]],
        rrf_k: int,
        max_k: int,
        disabled: frozenset[Stage] = frozenset(),
        pool: Executor | None = None,
        speakers: Callable[[str, Sequence[str]], Mapping[str, str | None]] | None = None,
        keyword: KeywordIndex | None = None,
        belief_cites: Callable[[str, Sequence[str]], Sequence[BeliefCites]] | None = None,
        relatives: Callable[[str, Sequence[RelativeAsk], datetime | None], Mapping[RelativeAsk, Kin]] | None = None,
        snapshot: Callable[[], AbstractContextManager[None]] = nullcontext,
    ) -> None:
        self._routes = list(routes)
        # The routes that plan their vector searches, found once: an ``isinstance`` of a
        # runtime-checkable protocol walks its members (~6 us).
        self._planners: dict[RouteName, SearchesVectors] = {
            r.name: r for r in self._routes if isinstance(r, SearchesVectors)
        }
        self._sources: dict[ItemKind, ItemSource] = {s.kind: s for s in sources}
        self._embed_queries = embed_queries
        self._entities_named = entities_named
        self._neighbours = neighbours
        self._rrf_k = rrf_k
        self._max_k = max_k
        self._disabled = disabled
        self._pool = pool
        self._speakers_of = speakers
        self._keyword = keyword
        self._belief_cites = belief_cites
        self._relatives = relatives
        self._snapshot = snapshot
        # Threads for query embeddings, made on first use (one per recall running at once, up
        # to EMBED_THREADS: the HTTP service recalls from several threads) and shut down by
        # ``close``.
        self._embedder: ThreadPoolExecutor | None = None
        self._embedder_pid = 0

    def close(self) -> None:
        """Stop the query-embedding thread (after the embedding it may be running)."""
        if self._embedder is not None:
            self._embedder.shutdown(wait=True)

    def recall(
        self,
        space: str,
        question: str,
        *,
        k: int,
        budget_tokens: int | None,
        policy: Policy,
        as_of: datetime | None,
    ) -> RecallResult:
        """See ``Memory.recall``. Its reads are made in one snapshot of the stores (``snapshot``)."""
        self._check(question, k, budget_tokens)
        with self._snapshot():
            return self._recall(space, question, k=k, budget_tokens=budget_tokens, policy=policy, as_of=as_of)

    def _recall(
        self,
        space: str,
        question: str,
        *,
        k: int,
        budget_tokens: int | None,
        policy: Policy,
        as_of: datetime | None,
    ) -> RecallResult:
        instructions = answer_instructions(policy)
        timings: dict[str, float] = {}
        changes: dict[str, list[str]] = {}

        began = clock = time.perf_counter()
        limit = max(k * CANDIDATES_PER_ITEM, MIN_CANDIDATES)
        searched = self._start_search(space, question, limit)
        # Every plan weighs the vector route unless it is switched off: the embedding starts
        # before the plan is made, and is left unused if the plan does not weigh it after all.
        # The person route's is of the question without the people it names
        # (``embedding_texts``): the entities are looked up first, and both are embedded at once.
        entities = self._entities_named(space, name_spans(question))
        embedded = not EMBEDDING_ROUTES.keys() <= self._disabled
        embedding = self._start_embedding(embedding_texts(question, entities, self._disabled)) if embedded else None
        anchor = as_of or datetime.now(timezone.utc)
        plan = relation_count_unclaimed(make_plan(question, entities, anchor, self._disabled), question)
        if self._relatives is not None and plan.entities:
            plan, entities = self._through_relatives(space, question, plan, entities, anchor, as_of)
        timings["plan"] = _ms(clock)

        skipped: dict[str, str] = {}
        failures: list[EywaError] = []
        query = Query(space, question, plan, np.zeros(1, np.float32), as_of, limit, searched=searched)
        rankings: dict[RouteName, list[ItemKey]] = {}
        route_scores: dict[RouteName, list[float]] = {}
        cosine: list[float] = []
        route_trace: dict[str, list[dict[str, Any]]] = {}
        built: dict[ItemKey, Hydrated] = {}
        claims: list[ItemKey] = []
        clock = time.perf_counter()
        active = [r for r in self._routes if plan.weights.get(r.name, 0.0) > 0.0]
        needed = embedding if any(plan.weights.get(r, 0.0) > 0 for r in EMBEDDING_ROUTES) else None
        outcomes, timings["embed"], unembedded = self._run_routes(active, query, needed)
        if unembedded is not None:  # degrade: the other routes still answer
            skipped.update({r.name: f"query embedding failed: {unembedded}" for r in active if r.name in EMBEDDING_ROUTES})
            failures = [unembedded]
        for route, outcome, ms in outcomes:
            if isinstance(outcome, StoreError):  # degrade: a route whose store is down is skipped, traced
                skipped[route.name] = str(outcome)
                failures.append(outcome)
                continue
            hits = outcome
            timings[f"route.{route.name}"] = ms
            rankings[route.name] = [(h.kind, h.id) for h in hits]
            if route.name in SCORE_ORDERED:
                route_scores[route.name] = [h.score for h in hits]
            if route.name == "vector":
                cosine = [h.score for h in hits]
            route_trace[route.name] = _hits_trace(hits[:50])
            built.update({(h.kind, h.id): h.item for h in hits if h.item is not None})
            claims.extend((h.kind, h.id) for h in hits if h.claim)
        timings["routes"] = _ms(clock)
        if failures and not rankings:
            raise failures[0]  # nothing answered: the failure is the answer

        clock = time.perf_counter()
        # A belief resting on one turn is that turn in fusion (``fusion.belief_turns``).
        found_beliefs = {key for ranked in rankings.values() for key in ranked if key[0] == "belief"}
        same, subjects = self._belief_turns(space, sorted(found_beliefs - built.keys()), built, as_of)
        shared = {route: shared_ranks(scores) for route, scores in route_scores.items()}
        # An aggregate question's lexical routes are one witness: they vote once (``vote_groups``).
        fused = weighted_rrf(rankings, plan.weights, self._rrf_k, same, BELIEF_SHARE, shared, vote_groups(plan.aggregate))
        # One claimed answer per person asked about ("Where do Ana and Ben live?"), in the
        # order the route claimed them; the first is the answer the trace names.
        answers = _one_per_subject(claims, built)
        answer = answers[0] if answers else None
        if answers:
            fused = lead_with(fused, answers, plan.weights, self._rrf_k)
        ranks = _route_ranks(
            {route: [same.get(key, key) for key in ranked] for route, ranked in rankings.items()}, shared
        )
        best = fused[: max(k * HYDRATE_PER_ITEM, MIN_HYDRATED)]
        wanted = [key for key, _ in best]
        hydrated = {key: built[key] for key in wanted if key in built}
        around = self._start_neighbours(space, [key[1] for key in wanted if key[0] == "evidence"])
        hydrated.update(self._hydrate(space, [key for key in wanted if key not in built], as_of))
        timings["fuse"] = _ms(clock)

        clock = time.perf_counter()
        # Only the best fused candidates were loaded (``hydrated`` holds none of the others):
        # the hundreds of fused keys past them are not walked.
        items = [
            Scored(hydrated[key], score, dict(ranks.get(key, {})), answer=key in answers)
            for key, score in best
            if key in hydrated and _visible(hydrated[key], as_of)
        ]
        named_ids = {e.id for e in entities if e.name in plan.people}
        # Whose own turns answer: the named people but those named only as an object ("What
        # did Ana lend to Ben?": Ana's, ``eywa.read.asked``), when Ana is one of the speakers;
        # items about either still count. A listener named so is who the answer was said to.
        voices = {entity_key(s.item.speaker) for s in items if s.item.speaker} if plan.objects else set()
        answerers, listeners = answering(plan.people, plan.objects, voices)
        speaking_ids = {e.id for e in entities if e.name in answerers}
        speaker_ids = {entity_key(e.name): e.id for e in entities}
        if "boost" not in self._disabled:
            changes["boost"] = adjust.speaker_boost(items, speaking_ids, speaker_ids)
        if "specific" not in self._disabled and plan.shape in adjust.SPECIFIC_SHAPES:
            # Each speaker's id once (a hash per call), not once per candidate turn.
            talking = {entity_id(space, speaker) for speaker in {s.item.speaker for s in items if s.item.speaker}}
            changes["specific"] = adjust.specific_boost(items, talking)
        if "demotion" not in self._disabled:
            changes["demotion"] = adjust.person_demotion(items, named_ids)
        if "sessions" not in self._disabled:
            changes["sessions"] = adjust.session_boost(items, adjust.SESSION_SHARE)
        if "rescue" not in self._disabled:
            changes["rescue"] = adjust.rescue_neighbours(
                items,
                lambda ids: {
                    i: [h for h in found if _visible(h, as_of)]
                    for i, found in self._neighbours_of(space, ids, around).items()
                },
                adjust.rescue_share(plan.shape),
                (lambda h: speaker_ids.get(entity_key(h.subject or "")) in speaking_ids)
                if plan.aggregate and speaking_ids
                else None,
            )
        # A question naming the listener something was said or given to ("What did Ana promise
        # to Ben?") asks for a turn addressed to that listener: none is lowered for it.
        if "addressed" not in self._disabled and plan.shape in adjust.ADDRESSED_SHAPES and not listeners:
            changes["addressed"] = adjust.addressed_demotion(items)
        if "dedupe" not in self._disabled:
            changes["dedupe"] = adjust.deduplicate(items)
        asked = {e.id for e in entities if e.kind == "person" and e.name in plan.people}
        topics = {e.id for e in entities if e.kind != "person"}
        if plan.current_state and asked and topics and "latest" not in self._disabled:
            changes["latest"] = adjust.latest_first(
                items, lambda h: speaker_ids.get(entity_key(h.speaker or "")) in asked, topics
            )
        if plan.aggregate and "sessions" not in self._disabled:
            # An aggregate question's places go to occasions: a turn telling none sinks, and
            # beyond a session's best few its turns sink, for other sessions' to take them.
            changes["terse"] = adjust.sink_terse(items, plan.entities)
            changes["spread"] = adjust.spread_sessions(items)
        # A one-answer question's session that the routes agree on: the named person's own
        # turn of it nearest to what is asked challenges the last places (``session_voice``).
        if plan.shape in adjust.ONE_ANSWER_SHAPES and "sessions" not in self._disabled:
            changes["voice"] = adjust.session_voice(items, k)
        if "floor" in self._disabled:
            chosen = sorted(items, key=lambda s: -s.score)[:k]
        else:
            chosen, changes["floor"] = adjust.select_with_floor(items, k, plan.weights)
        # An aggregate question asking for a kind of thing ("Which films has Ana seen?"): the
        # weakest repeat of a session gives its place to the named person's turn that best
        # speaks of a member of that kind (``adjust.reserve_place``, ``eywa.read.thing_kinds``).
        kind = kind_asked(question) if plan.aggregate and plan.people and "sessions" not in self._disabled else None
        if kind is not None:
            offered = self._member(space, kind, plan, chosen, ranks, as_of)
            if offered is not None:
                changes["members"] = adjust.reserve_place(chosen, offered)
        timings["adjust"] = _ms(clock)

        clock = time.perf_counter()
        kept, context, tokens = pack([_to_item(s) for s in chosen], budget_tokens)
        known = {**built, **hydrated}
        whose = self._speakers(space, rankings.get("vector", []), known, subjects)
        strength = evidence_strength(
            cosine, whose, plan.people, plan.other_words, self._texts(space, rankings.get("keyword", []), known, as_of)
        )
        timings["pack"] = _ms(clock)
        timings["total"] = _ms(began)

        trace: dict[str, Any] = {
            "plan": plan.as_trace(),
            "routes": route_trace,
            "fused": [{"kind": key[0], "id": key[1], "score": round(s, 6)} for key, s in fused[: k * 3]],
            "answer": None if answer is None else {"kind": answer[0], "id": answer[1]},
            "answers": [{"kind": kind, "id": item_id} for kind, item_id in answers],
            "changes": changes,
            "skipped": skipped,
            "tokens": tokens,
            "evidence_strength": strength,
            "timings_ms": timings,
        }
        return RecallResult(
            query=question,
            items=tuple(kept),
            context=context,
            answer_instructions=instructions,
            trace=trace,
            tokens=tokens,
            evidence_strength=strength,
        )

    def _member(
        self,
        space: str,
        kind: ThingKind,
        plan: Plan,
        chosen: Sequence[Scored],
        ranks: Mapping[ItemKey, Mapping[str, int]],
        as_of: datetime | None,
    ) -> Scored | None:
        """The named people's turn that best speaks of a member of ``kind`` and is not among
        ``chosen`` (nor cited by one of them), for ``adjust.reserve_place``; None without a
        keyword index or such a turn. One keyword search of the kind's cue words and the
        question's topic words (``thing_kinds.member_query``, ``MEMBER_DEPTH`` turns), the
        speakers of its hits, and the texts of the named people's among them."""
        if self._keyword is None:
            return None
        found = self._keyword.search(space, member_query(kind, plan.other_words), MEMBER_DEPTH)
        hits = [(item_id, score) for _, item_id, score in found]
        spoken = self._speakers(space, [("evidence", item_id) for item_id, _ in hits], {})
        people = {entity_key(name) for name in plan.people}
        theirs = [hit for hit, speaker in zip(hits, spoken) if speaker is not None and entity_key(speaker) in people]
        if not theirs:
            return None
        loaded = {
            key[1]: item
            for key, item in self._hydrate(space, [("evidence", item_id) for item_id, _ in theirs], as_of).items()
            if _visible(item, as_of)
        }
        speakers = {*plan.people, *(speaker for speaker in spoken if speaker is not None)}
        taken = {s.key for s in chosen} | {("evidence", ref.id) for s in chosen for ref in s.item.provenance}
        texts = {item_id: item.text for item_id, item in loaded.items()}
        best = next((i for i in member_order(kind, theirs, texts, speakers) if ("evidence", i) not in taken), None)
        if best is None:
            return None
        return Scored(loaded[best], 0.0, dict(ranks.get(("evidence", best), {})))

    def _through_relatives(
        self, space: str, question: str, plan: Plan, entities: list[Entity], anchor: datetime, as_of: datetime | None
    ) -> tuple[Plan, list[Entity]]:
        """"Where does Ana's sister work?" planned as "Where does Eva work?" when the memory
        knows Ana's sister is Eva (``eywa.read.relatives``), with the entities that names; a
        relative's relative ("Ana's sister's husband") one step further, up to
        ``RELATIVE_STEPS``."""
        assert self._relatives is not None
        text = question
        for _ in range(RELATIVE_STEPS):
            asks = relatives_asked(text, plan.entities)
            found = self._relatives(space, asks, as_of) if asks else {}
            if not found:
                break
            relatives = list(dict.fromkeys(name for known in found.values() for name in known.names))
            kin = self._entities_named(space, relatives)
            # A relative known by no name ("Ana's sister") is no entity of Level 0's: planned as one.
            kin += [
                Entity(id=entity_id(space, name), space=space, name=name, kind="person")
                for name in relatives if name not in {e.name for e in kin}
            ]  # fmt: skip
            # A relative known by no name has her owner's name inside hers ("Ana's sister"):
            # planned without the owner, or both would be named.
            owners = {
                ask.owner for ask, known in found.items() if any(n.startswith(f"{ask.owner}'") for n in known.names)
            }  # fmt: skip
            planned = [e for e in entities if e.name not in owners]
            rewritten = ask_of_relatives(text, found)
            through = asked_through(make_plan(rewritten, [*planned, *kin], anchor, self._disabled), plan, found)
            if through is plan:
                # "Who is Ana's sister?": her siblings' line names her brothers too.
                plan = relation_unclaimed(plan, found)
                break
            plan = replace(
                through,
                through=tuple(dict.fromkeys((*plan.through, *through.through))),
                notes=tuple(dict.fromkeys((*plan.notes, *through.notes))),
            )
            text, entities = rewritten, [*entities, *kin]
        return plan, entities

    def _run_routes(
        self, routes: Sequence[Route], query: Query, embedding: Embedding | None
    ) -> tuple[list[tuple[Route, RouteOutcome, float]], float, EywaError | None]:
        """Each route's hits (or its store's failure) and time (ms), in the order given;
        the query embedding's own time (0 without one) and its failure, if it failed.

        The routes that need no embedding run first (at once when there is a pool), while
        the embedding is computed; then the vector route, once the embedding is there.
        """
        others = [r for r in routes if r.name not in EMBEDDING_ROUTES]
        if self._pool is not None and others:
            pending = [self._pool.submit(_timed, route, query) for route in others]
            done = []
        else:
            pending, done = [], [_timed(route, query) for route in others]
        embed_ms, failure = 0.0, None
        if embedding is not None:
            vector, embed_ms = embedding.result()
            if isinstance(vector, EywaError):
                failure = vector
            else:
                embedded = {
                    route.name: replace(query, vector=vector[EMBEDDING_ROUTES[route.name]])
                    for route in routes
                    if route.name in EMBEDDING_ROUTES
                }
                # Their searches, planned together: one batch per kind (``Query.vector_hits``).
                searches = tuple(
                    (kind, embedded[route.name].vector, limit)
                    for route in routes
                    if route.name in embedded and (planner := self._planners.get(route.name)) is not None
                    for kind, limit in planner.vector_searches(embedded[route.name])
                )
                done.extend(
                    _timed(route, replace(embedded[route.name], searches=searches))
                    for route in routes
                    if route.name in embedded
                )
        done.extend(future.result() for future in pending)
        order = {route.name: n for n, route in enumerate(routes)}
        return sorted(done, key=lambda run: order[run[0].name]), embed_ms, failure

    def _start_embedding(self, texts: tuple[str, str]) -> Embedding:
        """The embeddings of the question and of its text without names, computed in the
        embedding thread: (their vectors or the failure to degrade on, their own time in ms).

        Returns once the embedding thread has started (``HANDOFF_WAIT_S`` at most). A thread
        woken while another holds the interpreter waits until the holder lets go of it for
        long enough, or for the switch interval (5 ms), which starts anew each time the
        holder drops and retakes it (every SQLite call): the embedding thread waited behind
        the plan's and the routes' Python, and began 3.0-3.5 ms (p50) after it was asked for
        at 10k (load ~15; up to 16 ms at p90). Waiting here gives the interpreter away until
        the thread has it (0.33-0.37 ms p50); onnxruntime then runs without it."""
        if self._embedder is None or self._embedder_pid != os.getpid():
            # A forked child inherits the pool but not its threads: it makes its own.
            self._embedder = ThreadPoolExecutor(max_workers=EMBED_THREADS, thread_name_prefix="eywa-embed")
            self._embedder_pid = os.getpid()
        started = threading.Event()
        future = self._embedder.submit(_embedded, self._embed_queries, texts, started)
        started.wait(HANDOFF_WAIT_S)
        return future

    def _start_search(self, space: str, question: str, limit: int) -> Future[KeywordHits] | None:
        """The routes' shared keyword search, started in the pool (None without a pool or
        an index, or with the keyword route switched off: the routes then search as they
        need, or not at all)."""
        if self._pool is None or self._keyword is None or "keyword" in self._disabled:
            return None
        return self._pool.submit(keyword_search, self._keyword, space, question, limit)

    def _start_neighbours(self, space: str, fused_turns: Sequence[str]) -> Neighbours | None:
        """The neighbours of the best fused turns, read in the pool while the items load
        (None without a pool, or with the rescue off): the rescue's parents are the best
        turns once adjusted, nearly always among these, so its read no longer comes after
        the loading."""
        if self._pool is None or "rescue" in self._disabled or not fused_turns:
            return None
        return self._pool.submit(self._neighbours, space, list(fused_turns[:PREFETCH_PARENTS]))

    def _neighbours_of(
        self, space: str, ids: Sequence[str], around: Neighbours | None
    ) -> Mapping[str, Sequence[Hydrated]]:
        """The neighbours of ``ids``: those read ahead (``_start_neighbours``), the others now."""
        known = dict(around.result()) if around is not None else {}
        missing = [i for i in ids if i not in known]
        if missing:
            known.update(self._neighbours(space, missing))
        return {i: known[i] for i in ids if i in known}

    def _hydrate(self, space: str, keys: Sequence[ItemKey], as_of: datetime | None) -> dict[ItemKey, Hydrated]:
        """The items of ``keys`` that their sources find; with a pool, a kind per thread."""
        by_kind: dict[ItemKind, list[str]] = {}
        for kind, item_id in keys:
            by_kind.setdefault(kind, []).append(item_id)
        loads = [(kind, source, ids) for kind, ids in by_kind.items() if (source := self._sources.get(kind)) is not None]
        if self._pool is not None and len(loads) > 1:
            pending = [(kind, self._pool.submit(source.hydrate, space, ids, as_of)) for kind, source, ids in loads]
            loaded = [(kind, future.result()) for kind, future in pending]
        else:
            loaded = [(kind, source.hydrate(space, ids, as_of)) for kind, source, ids in loads]
        return {(kind, item_id): item for kind, items in loaded for item_id, item in items.items()}

    def _belief_turns(
        self, space: str, found: Sequence[ItemKey], built: dict[ItemKey, Hydrated], as_of: datetime | None
    ) -> tuple[dict[ItemKey, ItemKey], dict[str, str]]:
        """Each belief among ``found`` and ``built`` resting on one turn → that turn
        (``fusion.belief_turns``), and the subject of each of ``found`` that is served
        (active, a cited turn still stored) when it was not loaded.

        With ``belief_cites``, the beliefs ``found`` are not loaded: only whose they are
        and which turns they cite are read, and the few that fusion keeps are loaded with
        the other items after it (10k synthetic turns: ~65 beliefs found per recall,
        0.6 against 2.1-2.8 ms CPU for the read before fusion). Without it, they are
        loaded into ``built`` here; the result is the same either way."""
        if self._belief_cites is None:
            built.update(self._hydrate(space, found, as_of))
            return belief_turns(built), {}
        read = self._belief_cites(space, [key[1] for key in found]) if found else []
        same = belief_turns(built)
        same.update({("belief", b.id): ("evidence", b.cited[0]) for b in read if len(b.cited) == 1})
        return same, {b.id: b.subject for b in read if b.cited}

    def _speakers(
        self,
        space: str,
        ranked: Sequence[ItemKey],
        known: Mapping[ItemKey, Hydrated],
        subjects: Mapping[str, str] | None = None,
    ) -> list[str | None]:
        """Whose each ranked hit is, for the evidence strength: a turn's speaker, a belief's
        subject (``subjects``: every found belief's, read before fusion), ``None`` for other items.

        Turns not hydrated yet have their speakers read alone (``speakers``): loading whole
        turns (text, signals, metadata) for ~50 vector hits per recall only to read who said
        them cost more than the rest of the stage."""
        missing = [key[1] for key in ranked if key[0] == "evidence" and key not in known]
        spoken = {key[1]: item.speaker for key, item in known.items() if key[0] == "evidence"}
        if missing and self._speakers_of is not None:
            spoken.update(self._speakers_of(space, missing))
        elif missing:
            loaded = self._hydrate(space, [("evidence", i) for i in missing], None)
            spoken.update((key[1], item.speaker) for key, item in loaded.items())
        about = {**(subjects or {}), **{key[1]: item.subject for key, item in known.items() if key[0] == "belief"}}
        return [spoken.get(key[1]) if key[0] == "evidence" else about.get(key[1]) for key in ranked]

    def _texts(
        self, space: str, ranked: Sequence[ItemKey], known: Mapping[ItemKey, Hydrated], as_of: datetime | None
    ) -> list[tuple[str, str | None]]:
        """The text and speaker of each turn among the first ``LEXICAL_DEPTH`` of ``ranked``,
        for the evidence strength. They are loaded already (the best fused items); a turn
        that is not is loaded here. Beliefs among them are left out: those fusion does not
        keep are not loaded, and reading their statements cost 2-4 ms at p95 (10k turns)."""
        top = [key for key in ranked[:LEXICAL_DEPTH] if key[0] == "evidence"]
        missing = [key for key in top if key not in known]
        loaded = self._hydrate(space, missing, as_of) if missing else {}
        return [(item.text, item.speaker) for key in top if (item := known.get(key) or loaded.get(key)) is not None]

    def _check(self, question: str, k: int, budget_tokens: int | None) -> None:
        if not isinstance(question, str) or not question.strip():
            raise InvalidInputError("query must be a non-empty string")
        if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= self._max_k:
            raise InvalidInputError(f"k must be an integer between 1 and {self._max_k}")
        if budget_tokens is not None and (
            not isinstance(budget_tokens, int) or isinstance(budget_tokens, bool) or budget_tokens < 1
        ):
            raise InvalidInputError("budget_tokens must be a positive integer")


RouteOutcome = list[RouteHit] | StoreError
# The turns around some turns, being read: anchor id → its neighbours.
Neighbours = Future[Mapping[str, Sequence[Hydrated]]]
# The query embeddings being computed: (their vectors or the failure to degrade on, their own ms).
Embedding = Future[tuple[tuple[npt.NDArray[np.float32], ...] | EywaError, float]]


def _timed(route: Route, query: Query) -> tuple[Route, RouteOutcome, float]:
    """Runs one route; a store failure is returned, not raised, so that the others still count."""
    clock = time.perf_counter()
    try:
        hits: RouteOutcome = route.run(query)
    except StoreError as exc:
        hits = exc
    return route, hits, _ms(clock)


def _embedded(
    embed: Callable[[Sequence[str]], npt.NDArray[np.float32]],
    texts: tuple[str, ...],
    started: threading.Event | None = None,
) -> tuple[tuple[npt.NDArray[np.float32], ...] | EywaError, float]:
    """Runs the query embeddings in one call (a batch of two costs about 1.5 times one: 13.0
    against 8.4 ms CPU per question on the loaded machine, 16.0 for two calls); each distinct
    text once, ``started`` set first (``Reader._start_embedding`` waits for it). Their
    failure is returned, to be traced as the vector route's reason for being skipped."""
    if started is not None:
        started.set()
    clock = time.perf_counter()
    try:
        distinct = list(dict.fromkeys(texts))
        rows = embed(distinct)
        vector: tuple[npt.NDArray[np.float32], ...] | EywaError = tuple(
            np.asarray(rows[distinct.index(text)], dtype=np.float32) for text in texts
        )
    except (EmbedderError, StoreError) as exc:
        vector = exc
    return vector, _ms(clock)


def _visible(item: Hydrated, as_of: datetime | None) -> bool:
    """With ``as_of``, an item is visible only if every turn it rests on was said by then."""
    if as_of is None:
        return True
    return all(ref.observed_at <= as_of for ref in item.provenance)


def _hits_trace(hits: Sequence[RouteHit]) -> list[dict[str, Any]]:
    """A route's hits as the trace shows them: kind, id, score (5 places), and ``claim`` on a
    claimed one. One comprehension, not a call per hit (~210 hits a recall at 10k)."""
    return [
        {"kind": h.kind, "id": h.id, "score": round(h.score, 5), "claim": True}
        if h.claim
        else {"kind": h.kind, "id": h.id, "score": round(h.score, 5)}
        for h in hits
    ]


def _route_ranks(
    rankings: Mapping[RouteName, Sequence[ItemKey]], shared: Mapping[RouteName, Sequence[int]]
) -> dict[ItemKey, dict[str, int]]:
    """Each candidate's rank in each route that found it, equals sharing one (``shared``, as
    fused)."""
    ranks: dict[ItemKey, dict[str, int]] = {}
    for route, ranked in rankings.items():
        positions = shared.get(route, range(1, len(ranked) + 1))
        for rank, key in zip(positions, ranked):
            ranks.setdefault(key, {}).setdefault(route, rank)
    return ranks


def _to_item(s: Scored) -> RecallItem:
    h = s.item
    return RecallItem(
        kind=h.kind,
        id=h.id,
        text=h.text,
        score=round(s.score, 6),
        routes=s.routes,
        provenance=h.provenance,
        session=h.session,
        observed_at=h.observed_at,
    )


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


def _one_per_subject(claims: Sequence[ItemKey], built: Mapping[ItemKey, Hydrated]) -> list[ItemKey]:
    """The first claim of each subject, in claim order: "What is Ana's job?" may be claimed
    by her occupation and her employer, and only the first leads; "Where do Ana and Ben
    live?" is answered for each of them."""
    seen: set[str | None] = set()
    chosen: list[ItemKey] = []
    for key in claims:
        subject = built[key].subject if key in built else None
        if subject is None or subject not in seen:
            seen.add(subject)
            chosen.append(key)
    return chosen

