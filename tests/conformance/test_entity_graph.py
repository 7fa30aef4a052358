"""EntityGraph contract, on every backend: co-mention weights kept by Level 0 writes, the
bounded breadth-first walk, and the placement of candidate turns and beliefs.

Both backends must give these exact answers for the same writes (the read path ranks by
them), so every expectation is a literal, not a comparison with the other backend.

The graph written below (weights = turns mentioning both):

    A ──2── B ──1── D ──1── E        F alone;  A ──1── C
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa.batches import coerce_turns, prepare_batch
from eywa.ids import entity_id
from eywa.models import Belief, Entity, SupportLink
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.entity_graph import Reach

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)
MENTIONS = {"t1": "AB", "t2": "BA", "t3": "AC", "t4": "BD", "t5": "DE", "t6": "F"}


def ent(space: str, name: str) -> str:
    return entity_id(space, name)


def write(stores: Stores, space: str, turns: dict[str, str], session: str = "s1") -> dict[str, str]:
    """Store one turn per key, mentioning exactly the entities its letters name."""
    batch = prepare_batch(
        space,
        coerce_turns([{"text": f"Turn {key}.", "session": session, "external_id": key} for key in turns]),
        stores.evidence,
        detect_signals,
    )
    ids = dict(zip(turns, batch.ids, strict=True))
    mentions = [
        (ids[key], Entity(id=ent(space, name), space=space, name=name, kind="person"))
        for key, names in turns.items()
        for name in names
    ]
    stores.evidence.add(batch.new, mentions)
    return ids


def belief(space: str, bid: str, subject: str, evidence: str, status: str = "active") -> Belief:
    return Belief.model_validate({
        "id": bid, "space": space, "statement": f"{subject} plays the cello.", "subject": subject,
        "attribute": "hobbies", "value": "cello", "polarity": "positive", "modality": "asserted",
        "valid_from": None, "valid_to": None, "recorded_at": AT, "status": status, "extractor": "rules", "evidence_ids": (evidence,),
        "support": (SupportLink(evidence_id=evidence, span=(0, 4), score=0.9, anchors=()),),
    })  # fmt: skip


@pytest.fixture
def graph(stores: Stores) -> dict[str, str]:
    return write(stores, "g", MENTIONS)


def named(space: str, distances: dict[str, int]) -> dict[str, int]:
    """Distances keyed by entity name (A…F) instead of id, for readable expectations."""
    names = {ent(space, n): n for n in "ABCDEF"}
    return {names.get(e, e): d for e, d in distances.items()}


def test_the_walk_reaches_two_hops_and_no_further(stores: Stores, graph: dict[str, str]) -> None:
    reach = stores.graph.neighbours("g", [ent("g", "A")], 2, 10)
    assert named("g", dict(reach.entities)) == {"A": 0, "B": 1, "C": 1, "D": 2}
    assert named("g", dict(stores.graph.neighbours("g", [ent("g", "A")], 1, 10).entities)) == {
        "A": 0, "B": 1, "C": 1,
    }  # fmt: skip
    assert named("g", dict(stores.graph.neighbours("g", [ent("g", "A")], 0, 10).entities)) == {"A": 0}


def test_each_entity_expands_to_its_heaviest_edges_only(stores: Stores, graph: dict[str, str]) -> None:
    # A keeps B (weight 2) over C (1); B's heaviest edge leads back to A, so D is not reached.
    assert named("g", dict(stores.graph.neighbours("g", [ent("g", "A")], 2, 1).entities)) == {"A": 0, "B": 1}
    # With two edges each, B also expands to D.
    assert named("g", dict(stores.graph.neighbours("g", [ent("g", "A")], 2, 2).entities)) == {
        "A": 0, "B": 1, "C": 1, "D": 2,
    }  # fmt: skip


def test_several_starts_and_unknown_entities(stores: Stores, graph: dict[str, str]) -> None:
    reach = stores.graph.neighbours("g", [ent("g", "E"), ent("g", "F"), ent("g", "Nobody")], 2, 10)
    assert named("g", dict(reach.entities)) == {"E": 0, "F": 0, ent("g", "Nobody"): 0, "D": 1, "B": 2}


def test_candidates_are_placed_by_nearest_mention_and_by_belief_subject(
    stores: Stores, graph: dict[str, str]
) -> None:
    stores.beliefs.add(
        [
            belief("g", "b-near", "b", graph["t1"]),  # subject matched by entity key
            belief("g", "b-retracted", "C", graph["t3"], status="retracted"),
            belief("g", "b-far", "E", graph["t5"]),
        ],
        [],
    )
    reach = stores.graph.neighbours(
        "g", [ent("g", "A")], 2, 10,
        evidence_ids=[graph["t3"], graph["t5"], graph["t6"], graph["t4"], "ev_missing"],
        belief_ids=["b-near", "b-retracted", "b-far", "b-missing"],
    )  # fmt: skip
    assert dict(reach.evidence) == {graph["t3"]: 0, graph["t5"]: 2, graph["t4"]: 1}
    assert dict(reach.beliefs) == {"b-near": 1}


def test_resent_turns_add_no_weight(stores: Stores, graph: dict[str, str]) -> None:
    for _ in range(2):  # t3 again: were it counted, A-C (3) would outweigh A-B (2)
        write(stores, "g", {"t3": "AC"})
    assert named("g", dict(stores.graph.neighbours("g", [ent("g", "A")], 1, 1).entities)) == {"A": 0, "B": 1}
    write(stores, "g", {"t7": "AC", "t8": "CA"}, session="s2")  # new turns do count: A-C is 3
    assert named("g", dict(stores.graph.neighbours("g", [ent("g", "A")], 1, 1).entities)) == {"A": 0, "C": 1}


def test_spaces_do_not_share_edges(stores: Stores, graph: dict[str, str]) -> None:
    write(stores, "h", {"u1": "AF"})
    assert named("g", dict(stores.graph.neighbours("g", [ent("g", "F")], 2, 10).entities)) == {"F": 0}
    reach = stores.graph.neighbours("h", [ent("h", "A")], 2, 10, evidence_ids=[graph["t1"]])
    assert named("h", dict(reach.entities)) == {"A": 0, "F": 1}
    assert dict(reach.evidence) == {}  # a turn of another space is never placed


def test_a_stop_rule_places_at_least_the_prefixes_it_asks_for(stores: Stores, graph: dict[str, str]) -> None:
    # The graph route's placement with a stop rule: the candidates are given best first; a
    # backend places at least the prefixes the rule asks for, each as the full placement
    # would, and may place more (never a candidate wrongly).
    stores.beliefs.add([belief("g", "b-near", "b", graph["t1"]), belief("g", "b-two", "D", graph["t4"])], [])
    turns = [graph["t3"], graph["t6"], graph["t5"], graph["t4"]]
    beliefs = ["b-two", "b-missing", "b-near"]
    full = stores.graph.neighbours("g", [ent("g", "A")], 2, 10, evidence_ids=turns, belief_ids=beliefs)
    asked: list[tuple[int, int]] = []

    def first_two(reach: Reach, evidence_read: int, beliefs_read: int) -> tuple[int, int]:
        asked.append((evidence_read, beliefs_read))
        return (2, 1) if evidence_read == beliefs_read == 0 else (0, 0)

    reach = stores.graph.neighbours(
        "g", [ent("g", "A")], 2, 10, evidence_ids=turns, belief_ids=beliefs, until=first_two
    )  # fmt: skip
    assert dict(full.evidence) == {graph["t3"]: 0, graph["t5"]: 2, graph["t4"]: 1}
    assert dict(full.beliefs) == {"b-near": 1, "b-two": 2}
    assert dict(reach.entities) == dict(full.entities)
    assert reach.evidence.items() <= full.evidence.items() and reach.beliefs.items() <= full.beliefs.items()
    assert reach.evidence[graph["t3"]] == 0 and reach.beliefs["b-two"] == 2  # the prefixes asked
    assert all(read in {(0, 0), (2, 1)} for read in asked)  # told what was read, if asked at all

    def everything(reach: Reach, evidence_read: int, beliefs_read: int) -> tuple[int, int]:
        return 1, 1  # one at a time until none are left

    reach = stores.graph.neighbours(
        "g", [ent("g", "A")], 2, 10, evidence_ids=turns, belief_ids=beliefs, until=everything
    )  # fmt: skip
    assert reach == full
