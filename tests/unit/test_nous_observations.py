"""From beliefs to observations: event time, reliability, change signals, and the no-flip rule."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from eywa.attributes import get_attribute
from eywa.errors import ConfigurationError
from eywa.models import Belief, Evidence, Signal, SignalKind, ValidationReport
from eywa.nous import NousParams, apply_beliefs, get_dimension, observation_from_belief
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore

SAID = datetime(2023, 5, 25, tzinfo=timezone.utc)


def evidence(ident: str, text: str, *, role: str = "user", correction: bool = False,
             at: datetime = SAID) -> Evidence:  # fmt: skip
    signals = (Signal(kind=SignalKind.CORRECTION, text="just started", start=2, end=14),) if correction else ()
    return Evidence(
        id=ident, space="s", session="s1", seq=0, speaker="Cecilia", role=role, text=text,
        observed_at=at, recorded_at=at, content_hash="x", signals=signals,
    )  # fmt: skip


def belief(value: str | None = "Microsoft", **kw: object) -> Belief:
    fields: dict[str, object] = {
        "id": "bl_1", "space": "s", "statement": f"Cecilia works at {value}",
        "subject": "Cecilia", "attribute": "employer", "value": value,
        "polarity": "positive", "modality": "asserted", "valid_from": None, "valid_to": None,
        "recorded_at": datetime(2024, 1, 1, tzinfo=timezone.utc), "status": "active",
        "extractor": "rules", "evidence_ids": ("ev_1",),
    }  # fmt: skip
    fields.update(kw)
    return Belief.model_validate(fields)


def report(score: float) -> ValidationReport:
    return ValidationReport(accepted=True, score=score, checks=())


def test_event_time_defaults_to_when_the_cited_turn_was_said() -> None:
    o = observation_from_belief(belief(), [evidence("ev_1", "I work at Microsoft")])
    assert o is not None and o.at == SAID and o.reliability == 0.85 and not o.change_signal


def test_an_open_validity_is_placed_when_said_a_bounded_one_at_its_start() -> None:
    since = datetime(2015, 3, 1, tzinfo=timezone.utc)
    until = datetime(2019, 1, 1, tzinfo=timezone.utc)
    cited = [evidence("ev_1", "I have worked at Microsoft since 2015")]
    open_ended = observation_from_belief(belief(valid_from=since), cited)
    bounded = observation_from_belief(belief(valid_from=since, valid_to=until), cited)
    event = observation_from_belief(belief(event_at=since), cited)
    no_evidence = observation_from_belief(belief(), [])
    assert open_ended is not None and open_ended.at == SAID
    assert bounded is not None and bounded.at == since
    assert event is not None and event.at == since
    assert no_evidence is not None and no_evidence.at == datetime(2024, 1, 1, tzinfo=timezone.utc)


def test_reliability_follows_the_validation_score_modality_and_source() -> None:
    cited = [evidence("ev_1", "I work at Microsoft")]
    strong = observation_from_belief(belief(report=report(1.0)), cited)
    weak = observation_from_belief(belief(report=report(0.0)), cited)
    hedged = observation_from_belief(belief(report=report(1.0), modality="hedged"), cited)
    second_hand = observation_from_belief(
        belief(report=report(1.0)), [evidence("ev_1", "You work at Microsoft", role="assistant")]
    )
    assert strong is not None and weak is not None and hedged is not None
    assert second_hand is not None
    assert strong.reliability == pytest.approx(0.95)
    assert weak.reliability == pytest.approx(0.6)
    assert hedged.reliability == pytest.approx(0.55) and hedged.tentative
    assert second_hand.reliability == pytest.approx(0.725)


def test_a_correction_signal_in_a_cited_turn_marks_a_change() -> None:
    cited = [evidence("ev_1", "I just started at Microsoft", correction=True),
             evidence("ev_2", "unrelated", correction=True)]  # fmt: skip
    o = observation_from_belief(belief(), cited)
    uncited = observation_from_belief(belief(evidence_ids=("ev_3",)), cited)
    assert o is not None and o.change_signal
    assert uncited is not None and not uncited.change_signal


def test_beliefs_without_a_dimension_observe_nothing() -> None:
    cited = [evidence("ev_1", "I work at Microsoft")]
    assert observation_from_belief(belief(value=None), cited) is None
    assert observation_from_belief(belief(attribute=None), cited) is None
    assert observation_from_belief(belief(status="retracted"), cited) is None


def test_a_hedged_belief_with_a_change_signal_does_not_flip_the_employer(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "eywa.db")
    store = SqliteDimensionStore(db)
    spec = type("Spec", (), {"name": "employer", "cardinality": "single", "tau_days": 1095.0})()
    old = evidence("ev_0", "I work at Google", at=datetime(2022, 1, 1, tzinfo=timezone.utc))
    first = observation_from_belief(belief("Google", id="bl_0", evidence_ids=("ev_0",)), [old])
    maybe = observation_from_belief(
        belief("Microsoft", modality="hedged", report=report(1.0)),
        [evidence("ev_1", "I might just start at Microsoft", correction=True)],
    )
    assert first is not None and maybe is not None
    apply_beliefs(store, [first, maybe], spec_for=lambda _: spec)
    assert get_dimension(store, "s", "Cecilia", "employer", spec_for=lambda _: spec).mode == "Google"
    db.close()


def test_params_refuse_a_tentative_reliability_that_could_list_a_value() -> None:
    with pytest.raises(ConfigurationError):
        NousParams(rho_tentative=0.65, set_floor=0.6)
    with pytest.raises(ConfigurationError):
        NousParams(rho_default=1.0)


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("Initech hired me last week!", True),
        ("I joined Initech last month.", True),
        ("I got hired at Initech.", True),
        ("No, I left last spring and joined Initech.", True),
        ("If Initech hired me I would go.", False),
        ("I want to join Initech.", False),
        ("I work at Initech.", False),
        ("Initech hired my sister, and I joined a gym.", False),
    ],
)  # fmt: skip
def test_a_single_value_said_to_begin_marks_a_change(text: str, change: bool) -> None:
    """"Initech hired me" ends whichever job was held before: one employer at a time."""
    o = observation_from_belief(belief("Initech"), [evidence("ev_1", text)], get_attribute("employer"))
    assert o is not None and o.change_signal is change


def test_a_value_said_to_begin_marks_no_change_of_a_set() -> None:
    """A hobby taken up adds to the set; nothing held before ended."""
    hobby = belief("Rotary", attribute="hobbies", statement="Cecilia joined Rotary")
    o = observation_from_belief(hobby, [evidence("ev_1", "I joined Rotary last month.")], get_attribute("hobbies"))
    assert o is not None and not o.change_signal


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("Now I work at Initech.", True),
        ("These days, I work at Initech.", True),
        ("I now work at Initech.", True),
        ("I'm now at Initech.", True),
        ("I work at Initech these days!", True),
        ("We moved, and now I work at Initech.", True),
        ("Right now I'm at Initech.", False),
        ("I'm at Initech right now.", False),
        ("For now I work at Initech.", False),
        ("Now I still work at Initech.", False),
        ("Do you work at Initech now?", False),
        ("Now I'm learning French, and I work at Initech.", False),
    ],
)  # fmt: skip
def test_a_single_value_said_of_now_marks_a_change(text: str, change: bool) -> None:
    """"Now I work at Initech" says the job held before is not held now; a moment ("right
    now", "for now"), "still", a question or a "now" said of something else says nothing of it."""
    o = observation_from_belief(belief("Initech"), [evidence("ev_1", text)], get_attribute("employer"))
    assert o is not None and o.change_signal is change


def test_a_derived_value_said_of_now_is_found_by_its_statement() -> None:
    """"Now I'm dating Sam" names no word of ``in a relationship``; the statement's words do."""
    dating = belief("in a relationship", attribute="relationship_status", statement="Cecilia is dating Sam.")
    now = observation_from_belief(dating, [evidence("ev_1", "Now I'm dating Sam.")], get_attribute("relationship_status"))
    plain = observation_from_belief(dating, [evidence("ev_1", "I'm dating Sam.")], get_attribute("relationship_status"))
    assert now is not None and now.change_signal
    assert plain is not None and not plain.change_signal


def test_a_value_said_of_now_marks_no_change_of_a_set() -> None:
    """A hobby said of now ("these days I play chess") adds to the set; nothing held before ended."""
    hobby = belief("chess", attribute="hobbies", statement="Cecilia plays chess")
    o = observation_from_belief(hobby, [evidence("ev_1", "These days I play chess.")], get_attribute("hobbies"))
    assert o is not None and not o.change_signal
