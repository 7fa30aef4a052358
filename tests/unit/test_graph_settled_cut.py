"""The graph route's stop rule (``settled_cut``): a store that places the candidates only a
prefix at a time, as many as the rule asks, leaves the route's hits exactly as placing every
candidate does — same items, order and scores — while reading fewer when the cut settles
early. Scores may tie, repeat, be negative or unsorted; distances are 0..MAX_HOPS."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.read.routes.base import RouteHit
from eywa.read.routes.graph import TURN_HOPS, graph_cut, settled_cut
from eywa.stores.entity_graph import MAX_HOPS, Reach

Candidates = list[tuple[str, str, float]]
# A distance, or None: out of reach (a turn or belief the walk does not place).
distance = st.one_of(st.none(), st.integers(min_value=0, max_value=MAX_HOPS))
score = st.sampled_from([-1.5, 0.0, 0.5, 1.0, 1.0, 2.0, 3.0, 4.5, 6.0, 9.0])


def prefix_store(full: Reach, turns: Sequence[str], beliefs: Sequence[str], limit: int, candidates: Candidates) -> tuple[Reach, int, int]:
    """What a backend that reads prefixes answers (the embedded store's loop, in memory),
    with how many turns and beliefs it read."""
    until = settled_cut(turns, [(i, s) for kind, i, s in candidates if kind == "belief"], limit)
    turns_read = beliefs_read = 0

    def placed() -> Reach:
        read_turns, read_beliefs = set(turns[:turns_read]), set(beliefs[:beliefs_read])
        return Reach(
            evidence={i: d for i, d in full.evidence.items() if i in read_turns},
            beliefs={i: d for i, d in full.beliefs.items() if i in read_beliefs},
        )

    more_turns, more_beliefs = until(placed(), 0, 0)
    while (more_turns > 0 and turns_read < len(turns)) or (more_beliefs > 0 and beliefs_read < len(beliefs)):
        if more_turns > 0:
            turns_read = min(turns_read + more_turns, len(turns))
        if more_beliefs > 0:
            beliefs_read = min(beliefs_read + more_beliefs, len(beliefs))
        more_turns, more_beliefs = until(placed(), turns_read, beliefs_read)
    return placed(), turns_read, beliefs_read


def case(turns: Sequence[tuple[float, int | None]], beliefs: Sequence[tuple[float, int | None]]) -> tuple[Candidates, Reach]:
    candidates: Candidates = [("evidence", f"t{n}", s) for n, (s, _) in enumerate(turns)]
    candidates += [("belief", f"b{n}", s) for n, (s, _) in enumerate(beliefs)]
    reach = Reach(
        evidence={f"t{n}": d for n, (_, d) in enumerate(turns) if d is not None},
        beliefs={f"b{n}": d for n, (_, d) in enumerate(beliefs) if d is not None},
    )
    return candidates, reach


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(score, distance), max_size=40),
    st.lists(st.tuples(score, distance), max_size=40),
    st.integers(min_value=1, max_value=30),
    st.booleans(),
)
def test_a_prefix_read_until_settled_gives_the_hits_of_every_candidate_placed(
    turns: list[tuple[float, int | None]], beliefs: list[tuple[float, int | None]], limit: int, descending: bool
) -> None:
    if descending:  # as the keyword index gives them; unsorted scores must hold too
        turns, beliefs = sorted(turns, key=lambda t: -t[0]), sorted(beliefs, key=lambda b: -b[0])
    candidates, full = case(turns, beliefs)
    turn_ids = [i for kind, i, _ in candidates if kind == "evidence"]
    belief_ids = [i for kind, i, _ in candidates if kind == "belief"]
    partial, _, _ = prefix_store(full, turn_ids, belief_ids, limit, candidates)
    assert graph_cut(candidates, partial, limit) == graph_cut(candidates, full, limit)


def test_the_cut_settles_before_the_candidates_run_out() -> None:
    # 60 turns all in reach, 60 beliefs about the named person in keyword order: a cut of
    # 10 takes the first 5 turns and the 5 best beliefs, and the rest need not be read.
    candidates, full = case([(60.0 - n, 0) for n in range(60)], [(60.0 - n, 0) for n in range(60)])
    turn_ids = [i for kind, i, _ in candidates if kind == "evidence"]
    belief_ids = [i for kind, i, _ in candidates if kind == "belief"]
    partial, turns_read, beliefs_read = prefix_store(full, turn_ids, belief_ids, 10, candidates)
    hits = graph_cut(candidates, partial, 10)
    assert [h.id for h in hits] == ["t0", "b0", "t1", "b1", "t2", "b2", "t3", "b3", "t4", "b4"]
    assert turns_read < 20 and beliefs_read < 20


def test_a_far_belief_read_late_still_outranks_what_it_can() -> None:
    # Distance halves a belief's score: the first beliefs (far, 10 → 10/3) are outranked by
    # later near ones (6, 5), so the rule must read on until no unread one could beat the
    # cut's last; the out-of-reach turns force more turns read, and beliefs fill the cut.
    beliefs = [(10.0, 2), (9.0, 2), (6.0, 0), (5.0, 0), (3.0, 0), (1.0, 0), (0.5, 0)]
    turns = [(5.0, None), (4.0, TURN_HOPS + 1), (3.0, TURN_HOPS)]
    candidates, full = case(turns, beliefs)
    partial, _, beliefs_read = prefix_store(
        full, ["t0", "t1", "t2"], [f"b{n}" for n in range(len(beliefs))], 4, candidates
    )
    expected = [RouteHit("evidence", "t2", 3.0), RouteHit("belief", "b2", 6.0), RouteHit("belief", "b3", 5.0), RouteHit("belief", "b0", 10.0 / 3)]
    assert graph_cut(candidates, partial, 4) == graph_cut(candidates, full, 4) == expected
    assert beliefs_read < len(beliefs)


def test_a_negative_score_is_best_far_away() -> None:
    # A negative keyword score rises when divided by 1 + distance: the far belief last in
    # keyword order (-1.5 / 3 = -0.5) outranks ten near ones at -1.0, and must be read.
    beliefs = [(-1.0, 0)] * 10 + [(-1.5, MAX_HOPS)]
    candidates, full = case([], beliefs)
    partial, _, _ = prefix_store(full, [], [f"b{n}" for n in range(len(beliefs))], 1, candidates)
    assert graph_cut(candidates, partial, 1) == graph_cut(candidates, full, 1) == [RouteHit("belief", "b10", -0.5)]
