"""The recall line of a dimension: the state as of the query and the last evidence, both."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from eywa.models import Dimension, ObservedValue
from eywa.nous import UNSEEN, dimension_line, engine
from eywa.nous.describe import day_text
from eywa.nous.observations import Observation

JOINED = datetime(2024, 5, 6, 9, 30, tzinfo=timezone.utc)
LAST = datetime(2024, 10, 22, 18, 0, tzinfo=timezone.utc)
TODAY = datetime(2026, 1, 3, 8, 0, tzinfo=timezone.utc)


def said(value: str, at: datetime, polarity: str = "positive", modality: str = "asserted") -> ObservedValue:
    return ObservedValue.model_validate({
        "value": value, "polarity": polarity, "modality": modality, "at": at, "belief_id": "bl_1",
        "evidence_ids": ("ev_1",),
    })  # fmt: skip


def dimension(cardinality: str, distribution: dict[str, float], mode: str | None, **kw: object) -> Dimension:
    fields: dict[str, object] = {
        "space": "s", "entity": "Ana", "attribute": "employer", "cardinality": cardinality,
        "distribution": distribution, "mode": mode, "entropy_bits": 1.0, "updated_at": LAST, "as_of": TODAY,
    }  # fmt: skip
    fields.update(kw)
    return Dimension.model_validate(fields)


def test_the_issue_example_line() -> None:
    d = dimension("single", {"Fernbrook": 0.41, "Google": 0.2, UNSEEN: 0.39}, "Fernbrook",
                  since=JOINED, previous="Google", last_observed=said("Fernbrook", LAST))  # fmt: skip
    assert dimension_line(d, TODAY) == (
        "employer: Fernbrook since 6 May 2024 (was Google) — last said 22 Oct 2024; p 0.41 as of today"
    )


def test_a_past_as_of_is_dated_and_no_as_of_means_the_last_evidence() -> None:
    d = dimension("single", {"Fernbrook": 0.9, UNSEEN: 0.1}, "Fernbrook", since=JOINED,
                  last_observed=said("Fernbrook", LAST))  # fmt: skip
    assert dimension_line(d, TODAY + timedelta(days=3)).endswith("p 0.90 as of 3 Jan 2026")
    assert dimension_line(d.model_copy(update={"as_of": None})).endswith("p 0.90 as of the last evidence")


def test_when_the_last_word_was_an_ending_the_line_says_so() -> None:
    d = dimension("single", {"Google": 0.15, UNSEEN: 0.85}, None, since=LAST, previous="Google",
                  last_observed=said("Google", LAST, "negative"))  # fmt: skip
    assert dimension_line(d, TODAY) == (
        "employer: unknown since 22 Oct 2024 (was Google) — last said 22 Oct 2024: not Google; Google p 0.15 as of today"
    )
    hedged = d.model_copy(update={"last_observed": said("Google", LAST, "negative", "hedged")})
    assert "last said 22 Oct 2024: not Google (hedged)" in dimension_line(hedged, TODAY)


def test_multi_valued_lines_list_members_then_what_ended() -> None:
    # Each probability is that of what the line says beside it: "not meat" at 0.92, not the
    # 0.08 membership of meat (which read as "not meat, 8 % sure").
    diet = dimension("multi", {"meat": 0.08}, None, attribute="diet", last_observed=said("meat", LAST, "negative"))
    assert dimension_line(diet, TODAY) == "diet: not meat (p 0.92) — last said 22 Oct 2024: not meat; as of today"
    hobbies = dimension("multi", {"hiking": 0.74, "pottery": 0.31, "painting": 0.62}, "hiking", attribute="hobbies",
                        since=JOINED, last_observed=said("pottery", LAST, "negative"))  # fmt: skip
    assert dimension_line(hobbies, TODAY) == (
        "hobbies: hiking since 6 May 2024 (p 0.74), painting (p 0.62); not pottery (p 0.69)"
        " — last said 22 Oct 2024: not pottery; as of today"
    )


def test_the_line_of_a_real_fold_is_deterministic() -> None:
    observations = [
        Observation.model_validate({
            "space": "s", "entity": "Ana", "attribute": "employer", "value": value, "polarity": polarity,
            "at": at, "reliability": 0.85, "change_signal": polarity == "negative", "belief_id": belief,
        })  # fmt: skip
        for value, polarity, at, belief in [
            ("Google", "positive", datetime(2023, 1, 10, tzinfo=timezone.utc), "b1"),
            ("Google", "negative", datetime(2024, 4, 30, tzinfo=timezone.utc), "b2"),
            ("Fernbrook", "positive", JOINED, "b3"),
            ("Fernbrook", "positive", LAST, "b4"),
        ]
    ]
    state, _ = engine.replay(observations, "single", 2159.0)
    view = engine.to_dimension(engine.decay_to(state, TODAY, 2159.0), "s", "Ana", "employer", TODAY)
    line = dimension_line(view, TODAY)
    assert line.startswith("employer: Fernbrook since 6 May 2024 (was Google) — last said 22 Oct 2024; p 0.")
    assert line.endswith(" as of today") and line == dimension_line(view, TODAY)


def test_dates_are_utc_and_locale_free() -> None:
    assert day_text(datetime(2024, 12, 31, 23, 30, tzinfo=timezone(timedelta(hours=-5)))) == "1 Jan 2025"


def test_a_diet_the_registry_has_a_word_for_is_named_before_its_values() -> None:
    # "What diet does Ana follow?" is answered "vegetarian", not only by the foods left out.
    last = said("meat", LAST, "negative")
    vegetarian = dimension("multi", {"meat": 0.08, "fish": 0.08}, None, attribute="diet", last_observed=last)
    assert dimension_line(vegetarian, TODAY) == (
        "diet: vegetarian: not meat (p 0.92), not fish (p 0.92) — last said 22 Oct 2024: not meat; as of today"
    )
    vegan = vegetarian.model_copy(update={"distribution": {"meat": 0.08, "fish": 0.08, "animal products": 0.1}})
    assert dimension_line(vegan, TODAY).startswith("diet: vegan: ")  # the word that says the most
    pescatarian = vegetarian.model_copy(update={"distribution": {"meat": 0.08, "fish": 0.8}})
    assert dimension_line(pescatarian, TODAY).startswith("diet: pescatarian: fish (p 0.80); not meat (p 0.92)")
    # one food left out has no other word; fish unknown is no vegetarian
    for distribution in ({"meat": 0.08}, {"meat": 0.08, UNSEEN: 0.5}, {"alcohol": 0.1, "meat": 0.08}):
        plain = vegetarian.model_copy(update={"distribution": distribution})
        assert dimension_line(plain, TODAY).startswith("diet: not ")
