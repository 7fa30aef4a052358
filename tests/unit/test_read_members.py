"""A list question asking for a kind of thing ("Which films has Priya seen?") gives one place of
its result to the turn that names a member of that kind in other words than the question's
("we finally watched 'Harbour Lights'"), taken from the weakest repeat of a session: the
kind's cue words find it (``eywa.read.thing_kinds``), ``adjust.reserve_place`` places it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.memory import Memory
from eywa.models import EvidenceRef
from eywa.read import adjust
from eywa.read.adjust import Scored
from eywa.read.items import Hydrated
from eywa.read.thing_kinds import NAMED_FACTOR, THING_KINDS, kind_asked, member_order, member_query, names_something
from tests.contract.conftest import open_memory

AT = datetime(2024, 3, 9, tzinfo=timezone.utc)


def _turn(i: str, session: str, text: str = "We talked about the weekend plans at length.") -> Hydrated:
    ref = EvidenceRef(id=i, session=session, speaker="Priya", observed_at=AT)
    return Hydrated("evidence", i, text, (ref,), session, AT, "Priya", (), subject="Priya")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which films has Priya seen?", "films"),
        ("What movies have Bo and Nadia watched together?", "films"),
        ("What books has Tom read this year?", "books"),
        ("What pets does Nadia have?", "pets"),
        ("Which countries has Bo visited?", "places"),
        ("What instruments does Tom play?", "instruments"),
        ("What has Priya been up to lately?", None),
        ("Which films and books has Priya enjoyed?", None),
    ],
)
def test_the_one_kind_a_question_asks_for_is_read_from_its_nouns(question: str, kind: str | None) -> None:
    found = kind_asked(question)
    assert (found.name if found else None) == kind


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many puppies has Bo raised?", "pets"),
        ("Has Nadia ever kept a parrot or a beagle?", "pets"),
    ],
)
def test_a_pet_is_asked_by_any_of_the_registrys_pet_words(question: str, kind: str) -> None:
    found = kind_asked(question)
    assert found is not None and found.name == kind


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("instruments", {"clarinet", "harp", "banjo"}),
        ("sports", {"badminton", "fencing", "archery"}),
        ("pets", {"hamster", "parrot", "beagle"}),
    ],
)
def test_the_member_search_of_a_pastime_or_a_pet_holds_the_registrys_words(kind: str, words: set[str]) -> None:
    """One list of instruments, sports and pets: the registry's, which the extractor and the
    pastime and pet readers use (a clarinet is an instrument there, so it is one here)."""
    found = next(k for k in THING_KINDS if k.name == kind)
    assert words <= set(member_query(found, ()).split())


def test_the_member_search_holds_the_kinds_cue_words_and_the_questions_topic_words_once() -> None:
    films = next(k for k in THING_KINDS if k.name == "films")
    query = member_query(films, ("films", "watched", "seen")).split()
    assert {"cinema", "sequel", "films", "seen"} <= set(query)
    assert query.count("watched") == 1


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("We finally watched 'Harbour Lights' last night.", True),
        ("The cinema showed Vertigo again and it was great.", True),
        ("Priya and I went to the cinema. It was packed.", False),
        ("I love a good film on a rainy evening!", False),
        ("Tom said the sequel was better. Loved it.", False),
    ],
)
def test_a_turn_names_something_by_a_quoted_title_or_a_capitalised_word_inside_a_sentence(text: str, names: bool) -> None:
    assert names_something(text, {"Priya", "Tom"}) is names


def test_a_named_member_outranks_small_talk_of_the_kind_its_keyword_score_does_not_double() -> None:
    films = next(k for k in THING_KINDS if k.name == "films")
    hits = [("talk", 3.0), ("named", 2.0), ("faint", 1.0)]
    texts = {"talk": "I love films, films are my thing!", "named": "We watched 'Harbour Lights'.", "faint": "Saw 'Dune'."}
    assert member_order(films, hits, texts, {"Priya"}) == ["named", "talk", "faint"]
    dishes = next(k for k in THING_KINDS if k.name == "dishes")  # a dish goes by no name of its own
    assert member_order(dishes, hits, texts, {"Priya"}) == ["talk", "named", "faint"]
    assert NAMED_FACTOR == 2.0


def test_the_weakest_repeat_of_a_session_gives_its_place_to_the_offered_turn() -> None:
    sessions = {"a": "s1", "b": "s1", "c": "s2", "d": "s1", "e": "s3"}
    chosen = [Scored(_turn(i, session), 0.9 - n / 10) for n, (i, session) in enumerate(sessions.items())]
    offered = Scored(_turn("m", "s4"), 0.0)
    assert adjust.reserve_place(chosen, offered) == ["m", "d"]
    assert [s.item.id for s in chosen] == ["a", "b", "c", "e", "m"]
    assert offered.score == 0.5 and offered.routes == {"members": 1}


def test_nothing_changes_without_a_repeat_or_when_the_offered_turn_is_chosen_already() -> None:
    spread = [Scored(_turn("a", "s1"), 0.9), Scored(_turn("c", "s2"), 0.7)]
    assert adjust.reserve_place(spread, Scored(_turn("m", "s4"), 0.0)) == []
    repeated = [Scored(_turn("a", "s1"), 0.9), Scored(_turn("b", "s1"), 0.7)]
    assert adjust.reserve_place(repeated, Scored(_turn("a", "s1"), 0.0)) == []
    assert [s.item.id for s in repeated] == ["a", "b"]


def test_a_claimed_answer_never_gives_its_place() -> None:
    chosen = [Scored(_turn("a", "s1"), 0.9), Scored(_turn("b", "s1"), 0.8, answer=True)]
    assert adjust.reserve_place(chosen, Scored(_turn("m", "s2"), 0.0)) == []


@given(st.lists(st.sampled_from(["s1", "s2", "s3"]), min_size=1, max_size=10))
def test_the_result_keeps_its_size_and_loses_at_most_one_turn_a_repeat(sessions: list[str]) -> None:
    chosen = [Scored(_turn(f"t{n}", s), 1.0 - n / 20) for n, s in enumerate(sessions)]
    before = [s.item.id for s in chosen]
    changed = adjust.reserve_place(chosen, Scored(_turn("m", "s9"), 0.0))
    assert len(chosen) == len(before)
    repeats = len(sessions) > len(set(sessions))
    assert bool(changed) is repeats
    if repeats:
        gone = changed[1]
        assert sessions[before.index(gone)] in sessions[: before.index(gone)]
        assert [s.item.id for s in chosen] == [i for i in before if i != gone] + ["m"]


SAID = [
    ("s1", "Priya", "Films are my favourite thing in the world, I could talk about films all day long."),
    ("s1", "Tom", "Same here, a weekend without films feels strange to me somehow."),
    ("s1", "Priya", "I have seen so many films this year, films with great soundtracks especially."),
    ("s1", "Tom", "Which films do you like most? I am always after new suggestions."),
    ("s1", "Priya", "Honestly any films with a twist at the end, those films stay with me for weeks."),
    ("s1", "Priya", "Films seen with friends are the best films, we argue about them for hours after."),
    ("s2", "Priya", "Films again tonight? I have seen too many films this month, my friends say."),
    ("s2", "Tom", "Ha, you and your films. I mostly read these days, mysteries mostly."),
    ("s2", "Priya", "Seen films are like old friends to me, I keep going back to the films I love."),
    ("s2", "Priya", "Short films or long films, I have seen them all and I enjoy every kind of films."),
    ("s3", "Tom", "How was your weekend, anything fun happen at all?"),
    ("s3", "Priya", "We finally watched 'Harbour Lights' at the cinema, the actors were superb."),
    ("s3", "Tom", "Oh nice, I have heard good things about that one from my sister."),
]


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """One memory, a space per conversation: "films" (``SAID``) and "pets" (``PUPPY_TALK``)."""
    mem = open_memory(tmp_path_factory.mktemp("members") / "mem")
    days = {"s1": "2024-03-02", "s2": "2024-03-09", "s3": "2024-03-16"}
    for space, said in (("films", SAID), ("pets", PUPPY_TALK)):
        mem.remember(space, [
            {"text": text, "speaker": speaker, "session": session, "observed_at": f"{days[session]}T10:{i:02d}:00"}
            for i, (session, speaker, text) in enumerate(said)
        ])  # fmt: skip
    yield mem
    mem.close()


def test_the_turn_naming_a_film_takes_a_place_from_the_small_talk_about_films(memory: Memory) -> None:
    found = memory.recall("films", "Which films has Priya seen?", k=3)
    assert any("Harbour Lights" in item.text for item in found.items)
    assert len(found.items) == 3



PUPPY_TALK = [
    ("s1", "Bo", "Puppies are the best thing in the world, I could talk about puppies all day long."),
    ("s1", "Nadia", "Same here, a weekend without puppies feels strange to me somehow."),
    ("s1", "Bo", "I have raised so many puppies over the years, puppies with big ears especially."),
    ("s1", "Nadia", "Which puppies do you like most? I am always after new pictures."),
    ("s1", "Bo", "Honestly any puppies that chew everything, those puppies stay with me for weeks."),
    ("s1", "Bo", "Puppies raised with friends are the best puppies, we laugh about them for hours."),
    ("s2", "Bo", "Puppies again tonight? I have raised too many puppies this month, my friends say."),
    ("s2", "Nadia", "Ha, you and your puppies. I mostly read these days, mysteries mostly."),
    ("s2", "Bo", "Raised puppies are like old friends to me, I keep going back to the puppies I love."),
    ("s2", "Bo", "Small puppies or big puppies, I have raised them all and I enjoy every kind of puppies."),
    ("s3", "Nadia", "How was your weekend, anything fun happen at all?"),
    ("s3", "Bo", "We took home a parrot last week, we call him Kiwi and the vet says he is healthy."),
    ("s3", "Nadia", "Oh nice, my sister always wanted one of those, they live for decades."),
]


def test_a_question_asking_for_pets_by_a_registry_word_gives_a_place_to_the_pet_named(memory: Memory) -> None:
    """"puppies" is one of the registry's pet words, so the question asks for pets and the turn
    naming the parrot takes a place from the small talk that says the question's word."""
    found = memory.recall("pets", "How many puppies has Bo raised?", k=3)
    assert any("Kiwi" in item.text for item in found.items)
    assert len(found.items) == 3
