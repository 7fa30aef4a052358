"""Names a person's earlier beliefs hold, for the speaker and for the people a turn names.

"Left X" alone may be a town, a party or a team; it is a job or a home left only when the
person who left is believed to work or live at X (``Ctx.holds``). That person may be the
speaker ("I left Initech") or someone the speaker talks about ("Melinda left Initech"):
each is looked up under their own name, never under another's.
"""

from __future__ import annotations

import pytest

from eywa.extraction.context import Earlier, people_of
from eywa.extraction.rules import RuleExtractor
from tests.unit.rules_support import turn

Named = dict[str, dict[str, tuple[str, str]]]


def _read(text: str, named: Named) -> set[tuple[str, str | None, str | None, str]]:
    proposed = RuleExtractor().propose_after("home", [turn(text)], Earlier(named=named))
    return {(f.subject, f.attribute, f.value, f.polarity) for f in proposed if f.attribute in ("employer", "residence")}


MELINDA_AT_GLOBEX: Named = {"melinda": {"globex": ("employer", "Globex")}}
TOBIAS_IN_LEEDS: Named = {"tobias": {"leeds": ("residence", "Leeds")}}


@pytest.mark.parametrize(
    ("text", "named", "expected"),
    [
        ("Melinda quit Globex and joined Initech.", MELINDA_AT_GLOBEX,
         {("Melinda", "employer", "Globex", "negative"), ("Melinda", "employer", "Initech", "positive")}),
        ("Melinda left Globex last week.", MELINDA_AT_GLOBEX, {("Melinda", "employer", "Globex", "negative")}),
        ("Tobias left Leeds.", TOBIAS_IN_LEEDS, {("Tobias", "residence", "Leeds", "negative")}),
        ("I left Globex.", {"cecilia": {"globex": ("employer", "Globex")}},
         {("Cecilia", "employer", "Globex", "negative")}),
    ],
)
def test_leaving_what_the_person_was_believed_to_have_ends_it(text: str, named: Named,
                                                                expected: set[tuple[str, str, str, str]]) -> None:
    assert _read(text, named) == expected


def test_still_at_the_employer_one_was_believed_to_have_says_one_still_works_there() -> None:
    """"I'm still at Globex" may be where one is standing; after "I work at Globex" it is the job."""
    assert _read("I'm still at Globex, sadly.", {"cecilia": {"globex": ("employer", "Globex")}}) == {
        ("Cecilia", "employer", "Globex", "positive")
    }
    assert _read("I'm still at Globex, sadly.", {}) == set()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # the name is the speaker's employer, not Melinda's: Melinda leaving it is no job left
        ("Melinda left Globex last week.", {"cecilia": {"globex": ("employer", "Globex")}}),
        # Melinda's, not the speaker's
        ("I left Globex.", MELINDA_AT_GLOBEX),
        # another person's home
        ("Melinda left Leeds.", TOBIAS_IN_LEEDS),
        # the name held as neither a job nor a home (a pet)
        ("Tobias left Biscuit.", {"tobias": {"biscuit": ("pets", "Biscuit")}}),
    ],
)
def test_leaving_a_name_someone_else_holds_ends_nothing(text: str, named: Named) -> None:
    assert _read(text, named) == set()


def test_the_people_of_turns_are_their_speakers_and_the_people_they_name() -> None:
    said = [turn("Melinda and Tobias came by.", speaker="Cecilia"), turn("Nice!", speaker="cecilia")]
    assert people_of(said) == ["Cecilia", "Melinda", "Tobias"]
    assert people_of([turn("It rained all day.", speaker=None)]) == []


CECILIA_AT_GLOBEX: Named = {"cecilia": {"globex": ("employer", "Globex")}}


@pytest.mark.parametrize(
    "text",
    ["I moved from Globex to Initech.", "I switched from Globex to Initech last month.",
     "I went from Globex to Initech in April."],
)
def test_moving_from_the_believed_employer_to_another_is_a_new_job(text: str) -> None:
    """"Moved from X to Y" is a home's move unless X is the job the speaker was believed to
    have: then Y is the employer and X is left, and no home moves."""
    assert _read(text, CECILIA_AT_GLOBEX) == {
        ("Cecilia", "employer", "Globex", "negative"), ("Cecilia", "employer", "Initech", "positive")
    }


def test_moving_from_a_place_no_job_is_held_at_stays_a_home_move() -> None:
    assert _read("I moved from Denver to Austin.", CECILIA_AT_GLOBEX) == {
        ("Cecilia", "residence", "Denver", "negative"), ("Cecilia", "residence", "Austin", "positive")
    }
    # "switched from X to Y" with no job held at X is no job at all (a phone, a diet, a team)
    assert _read("I switched from Android to iOS.", CECILIA_AT_GLOBEX) == set()


def test_jumping_ship_is_a_new_job_without_an_earlier_belief() -> None:
    assert _read("I jumped ship to Initech last month.", {}) == {("Cecilia", "employer", "Initech", "positive")}


def test_a_named_persons_last_day_ends_their_job() -> None:
    """"Melinda's last day at Globex was Friday" as "my last day …" is the speaker's."""
    assert _read("Melinda's last day at Globex was Friday.", {}) == {("Melinda", "employer", "Globex", "negative")}


AT_THE_LAW_FIRM: Named = {"cecilia": {"law firm": ("employer", "law firm")}}
"""After "I work at a law firm": a workplace held by its kind."""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I left the law firm in April.", {("Cecilia", "employer", "law firm", "negative")}),
        ("I don't work at the law firm anymore.", {("Cecilia", "employer", "law firm", "negative")}),
        ("I quit the law firm.", {("Cecilia", "employer", "law firm", "negative")}),
        ("I got laid off from the law firm.",
         {("Cecilia", "employer", "law firm", "negative"), ("Cecilia", "employer", "unemployed", "positive")}),
        ("The law firm let me go last week.",
         {("Cecilia", "employer", "law firm", "negative"), ("Cecilia", "employer", "unemployed", "positive")}),
    ],
)
def test_leaving_a_workplace_held_by_its_kind_ends_it(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert _read(text, AT_THE_LAW_FIRM) == expected


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("I left the law firm at six.", AT_THE_LAW_FIRM),  # the building, for the day
        ("I left the law firm this morning.", AT_THE_LAW_FIRM),
        ("I didn't leave the law firm.", AT_THE_LAW_FIRM),
        ("I left the hospital in April.", AT_THE_LAW_FIRM),  # not the kind held
        ("I quit the law firm.", {}),  # no workplace held: whose law firm?
    ],
)
def test_leaving_a_building_or_a_kind_not_held_ends_no_job(text: str, named: Named) -> None:
    assert {f for f in _read(text, named) if f[3] == "negative"} == set()
