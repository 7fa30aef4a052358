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
