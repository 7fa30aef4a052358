"""Negative and ended observations in Nous: the math's direction, change points, scenarios.

A negative observation never raises its value and a positive one never lowers it (both
measured against the decayed prior the delta records, and against the previous state when no
time passed); for a single-valued attribute the released mass goes to the other values and
to "unseen", so a later positive value becomes the mode. Cessations ("I quit", "I left")
raise the hazard; the dimension keeps the last observation and the mode's change point.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.models import Belief, Evidence
from eywa.nous import apply_beliefs, get_dimension, list_deltas, observation_from_belief, set_members
from eywa.nous import engine
from eywa.nous import math as nm
from eywa.nous.observations import Observation
from eywa.stores.dimensions import DimensionRecord, DimensionStore
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore

from .test_nous_math import TOL, categorical, hazards, rhos, values

T0 = datetime(2023, 1, 10, tzinfo=timezone.utc)


# --- the math ---------------------------------------------------------------------------


@given(categorical(), values, st.booleans(), rhos, hazards, st.booleans())
def test_an_observation_moves_its_value_only_in_its_own_direction(
    p: dict[str, float], value: str, positive: bool, rho: float, h: float, may_flip: bool
) -> None:
    update = nm.categorical_update(
        p, value, positive=positive, rho=rho, h=h, may_flip_mode=may_flip, unseen_split=0.5
    )
    moved = update.posterior[value] - update.prior[value]
    assert moved >= -TOL if positive else moved <= TOL


@given(categorical(), values, rhos)
def test_with_no_time_elapsed_a_known_value_moves_in_the_observed_direction(
    p: dict[str, float], value: str, rho: float
) -> None:
    known = {**p, value: p.get(value, 0.0) + 0.1}
    known = {k: v / sum(known.values()) for k, v in known.items()}
    up = nm.categorical_update(known, value, positive=True, rho=rho, h=0.0, may_flip_mode=True, unseen_split=0.5)
    down = nm.categorical_update(known, value, positive=False, rho=rho, h=0.0, may_flip_mode=True, unseen_split=0.5)
    assert up.posterior[value] >= known[value] - TOL
    assert down.posterior[value] <= known[value] + TOL


@given(categorical(), values, rhos, hazards)
def test_a_negative_observation_hands_its_mass_to_the_other_values_and_unseen(
    p: dict[str, float], value: str, rho: float, h: float
) -> None:
    update = nm.categorical_update(p, value, positive=False, rho=rho, h=h, may_flip_mode=True, unseen_split=0.5)
    for other, before in update.prior.items():
        if other != value:
            assert update.posterior[other] >= before - TOL


@given(st.floats(0.5, 20.0), st.floats(0.5, 20.0), st.booleans(), rhos, st.booleans())
def test_a_membership_report_with_no_time_elapsed_moves_toward_the_report(
    alpha: float, beta: float, positive: bool, rho: float, tentative: bool
) -> None:
    before = nm.beta_mean(alpha, beta)
    after = nm.beta_update(alpha, beta, positive=positive, rho=rho, h=0.0, prior=0.5, tentative=tentative)
    assert after.posterior_mean >= before - TOL if positive else after.posterior_mean <= before + TOL


# --- engine scenarios ---------------------------------------------------------------------


def obs(value: str, at: datetime, belief: str, polarity: str = "positive", **kw: object) -> Observation:
    fields: dict[str, object] = {
        "space": "s", "entity": "Ana", "attribute": "employer", "value": value, "polarity": polarity,
        "at": at, "reliability": 0.85, "belief_id": belief, "evidence_ids": (f"ev_{belief}",),
    }  # fmt: skip
    fields.update(kw)
    return Observation.model_validate(fields)


def fold(cardinality: str, *observations: Observation, tau: float = 2159.0) -> engine.DimensionState:
    state, _ = engine.replay(observations, cardinality, tau)  # type: ignore[arg-type]
    return state


def view(state: engine.DimensionState, as_of: datetime | None = None) -> object:
    return engine.to_dimension(state, "s", "Ana", "employer", as_of)


def test_job_change_left_then_joined_makes_the_new_employer_the_mode_since_it_was_said() -> None:
    joined, left, started = T0, T0 + timedelta(days=470), T0 + timedelta(days=480)
    a = obs("Google", joined, "b1")
    gone = obs("Google", left, "b2", "negative", change_signal=True)
    b = obs("Fernbrook", started, "b3")
    after_a = engine.to_dimension(fold("single", a), "s", "Ana", "employer", None)
    after_left = engine.to_dimension(fold("single", a, gone), "s", "Ana", "employer", None)
    after_b = engine.to_dimension(fold("single", a, gone, b), "s", "Ana", "employer", None)
    assert (after_a.mode, after_a.since, after_a.previous) == ("Google", joined, None)
    assert after_left.mode is None and after_left.distribution["Google"] < 0.2
    assert (after_left.since, after_left.previous) == (left, "Google")
    assert (after_b.mode, after_b.since, after_b.previous) == ("Fernbrook", started, "Google")
    assert after_b.distribution["Google"] < 0.05 < 0.8 < after_b.distribution["Fernbrook"]
    assert after_b.last_observed is not None and after_b.last_observed.belief_id == "b3"


def test_a_confirmation_keeps_the_change_point_and_moves_the_last_observation() -> None:
    state = fold("single", obs("Fernbrook", T0, "b1"), obs("Fernbrook", T0 + timedelta(days=100), "b2"))
    dimension = engine.to_dimension(state, "s", "Ana", "employer", None)
    assert dimension.since == T0
    assert dimension.last_observed is not None
    assert (dimension.last_observed.at, dimension.last_observed.evidence_ids) == (T0 + timedelta(days=100), ("ev_b2",))


def test_a_quit_hobby_leaves_the_members_and_a_plain_contradiction_only_lowers_it() -> None:
    liked = obs("pottery", T0, "b1", attribute="hobbies")
    quit = obs("pottery", T0 + timedelta(days=90), "b2", "negative", attribute="hobbies", change_signal=True)
    denied = quit.model_copy(update={"change_signal": False})
    before = engine.distribution_of(fold("multi", liked, tau=730.0))["pottery"]
    after_quit = fold("multi", liked, quit, tau=730.0)
    after_denial = fold("multi", liked, denied, tau=730.0)
    assert engine.distribution_of(after_quit)["pottery"] < 0.5 < before
    assert engine.distribution_of(after_denial)["pottery"] < before
    assert after_quit.member_since == {} and engine.to_dimension(after_quit, "s", "Ana", "hobbies", None).mode is None


def test_a_membership_keeps_the_time_it_began() -> None:
    state = fold("multi", obs("hiking", T0, "b1"), obs("hiking", T0 + timedelta(days=30), "b2"), tau=730.0)
    dimension = engine.to_dimension(state, "s", "Ana", "hobbies", None)
    assert (dimension.mode, dimension.since, dimension.previous) == ("hiking", T0, None)


# --- through the service: as_of, legacy states -------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[DimensionStore]:
    db = SqliteDatabase(tmp_path / "eywa.db")
    yield SqliteDimensionStore(db)
    db.close()


def test_reads_are_deterministic_for_an_injected_as_of(store: DimensionStore) -> None:
    changed = T0 + timedelta(days=400)
    apply_beliefs(store, [obs("Google", T0, "b1"), obs("Fernbrook", changed, "b2", change_signal=True)],
                  recorded_at=T0)  # fmt: skip
    then = get_dimension(store, "s", "Ana", "employer", T0 + timedelta(days=200))
    now = T0 + timedelta(days=4000)
    assert (then.mode, then.since, then.last_observed and then.last_observed.value) == ("Google", T0, "Google")
    assert get_dimension(store, "s", "Ana", "employer", now) == get_dimension(store, "s", "Ana", "employer", now)
    later = get_dimension(store, "s", "Ana", "employer", now)
    assert (later.mode, later.since, later.previous) == ("Fernbrook", changed, "Google")
    assert later.distribution["Fernbrook"] < get_dimension(store, "s", "Ana", "employer").distribution["Fernbrook"]


def test_a_state_saved_before_change_points_existed_is_rebuilt_from_its_deltas(store: DimensionStore) -> None:
    apply_beliefs(store, [obs("Google", T0, "b1")], recorded_at=T0)
    record = store.get("s", "ana", "employer")
    assert record is not None
    legacy = {k: v for k, v in record.state.items() if k in {"cardinality", "probabilities", "counts", "last_at"}}
    store.save(record.model_copy(update={"state": legacy}), [])
    assert get_dimension(store, "s", "Ana", "employer").since == T0
    apply_beliefs(store, [obs("Google", T0 + timedelta(days=5), "b2")], recorded_at=T0)
    saved = store.get("s", "ana", "employer")
    assert isinstance(saved, DimensionRecord) and engine.DimensionState.has_history(saved.state)


def test_set_members_drop_a_value_whose_latest_word_was_that_it_ended(store: DimensionStore) -> None:
    apply_beliefs(store, [
        obs("pottery", T0, "b1", attribute="hobbies"), obs("hiking", T0, "b2", attribute="hobbies"),
        obs("pottery", T0 + timedelta(days=30), "b3", "negative", attribute="hobbies", change_signal=True),
    ], recorded_at=T0)  # fmt: skip
    dimension = get_dimension(store, "s", "Ana", "hobbies")
    assert set_members(dimension, list_deltas(store, "s", "Ana", "hobbies")) == ["hiking"]


# --- observations: a cessation is a change ------------------------------------------------


def belief(value: str, polarity: str, text: str) -> tuple[Belief, list[Evidence]]:
    ev = Evidence(id="ev_1", space="s", session="s1", seq=0, speaker="Ana", role="user", text=text,
                  observed_at=T0, recorded_at=T0, content_hash="h")  # fmt: skip
    found = Belief.model_validate({
        "id": "bl_1", "space": "s", "statement": f"Ana ... {value}", "subject": "Ana", "attribute": "hobbies",
        "value": value, "polarity": polarity, "modality": "asserted", "valid_from": None, "valid_to": None,
        "recorded_at": T0, "status": "active", "extractor": "rules", "evidence_ids": ("ev_1",),
    })  # fmt: skip
    return found, [ev]


@pytest.mark.parametrize(
    ("value", "polarity", "text", "change"),
    [
        ("pottery", "negative", "I quit pottery, it was too messy.", True),
        ("pottery", "negative", "I gave up pottery last year.", True),
        ("Rex", "negative", "Our dog Rex died in March.", True),
        ("pottery", "negative", "I don't do pottery.", False),  # a denial, not a change
        ("pottery", "negative", "I never quit pottery.", False),  # cancelled
        ("hiking", "negative", "I quit pottery but not hiking.", False),  # another value ended
        ("pottery", "positive", "I quit pottery, it was too messy.", False),  # only negatives end
    ],
)
def test_a_negative_belief_that_a_turn_says_ended_raises_the_hazard(
    value: str, polarity: str, text: str, change: bool
) -> None:
    found, cited = belief(value, polarity, text)
    observation = observation_from_belief(found, cited)
    assert observation is not None and observation.change_signal is change
