"""Value identity inside a dimension: the same words in another case, or a name and its
leading words ("Fernbrook Health" and "Fernbrook"), are one value, so they never split the
probability of the current value between them."""

from __future__ import annotations

from datetime import datetime, timezone

from eywa.models import Cardinality
from eywa.nous import engine
from eywa.nous.engine import DimensionState
from eywa.nous.observations import Observation

TAU = 5 * 365.0


def obs(value: str, day: int, belief: str, attribute: str = "employer") -> Observation:
    return Observation(
        space="s", entity="Priya", attribute=attribute, value=value, at=datetime(2024, 4, day, tzinfo=timezone.utc),
        reliability=0.9, belief_id=belief, evidence_ids=(belief,),
    )  # fmt: skip


def replayed(values: list[str], cardinality: Cardinality = "single", attribute: str = "employer") -> DimensionState:
    state, _ = engine.replay(
        [obs(v, i + 1, f"b{i}", attribute) for i, v in enumerate(values)], cardinality, TAU
    )  # fmt: skip
    return state


def test_a_short_form_of_a_name_is_the_same_value_whichever_comes_first() -> None:
    for values in (["Fernbrook Health", "Fernbrook"], ["Fernbrook", "Fernbrook Health"]):
        state = replayed(values)
        assert state.values() == [values[0]]
        dim = engine.to_dimension(state, "s", "Priya", "employer", None)
        assert dim.mode == values[0] and dim.previous is None
        assert dim.distribution[values[0]] > 0.9


def test_a_short_form_of_a_set_member_is_that_member() -> None:
    assert replayed(["Miso", "Miso the Cat"], "multi", "pets").values() == ["Miso"]


def test_names_that_only_share_a_first_word_stay_apart() -> None:
    assert replayed(["Port Calder", "Port Erin"]).values() == ["Port Calder", "Port Erin"]


def test_an_ambiguous_short_form_stays_a_value_of_its_own() -> None:
    state = replayed(["Port Calder", "Port Erin", "Port"])
    assert state.values() == ["Port Calder", "Port Erin", "Port"]


def test_common_nouns_are_not_names() -> None:
    assert replayed(["meat", "meat pies"], "multi", "diet").values() == ["meat", "meat pies"]


def test_case_variants_are_one_value() -> None:
    assert replayed(["Acme", "ACME", "acme"]).values() == ["Acme"]
