"""A question naming two people, one as its subject and the other as an object ("What did Priya
lend to Bo?"), asks for what the subject said or did (``eywa.read.asked``): when she is one
of the people talking, the person route, the named-speaker boost and the aggregate rescue
read her alone, and a turn addressed to the listener is what such a question asks for, so
none is lowered for it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eywa import Memory
from eywa.ids import entity_key
from eywa.models import Entity, ItemKind, RouteName, Stage
from eywa.read.asked import answering, objects_named
from eywa.read.items import Hydrated
from eywa.read.plan import make_plan
from eywa.read.routes import Query, RouteHit
from eywa.read.routes.person import PersonRoute
from eywa.settings import EywaSettings
from tests.contract.conftest import HashEmbedder
from tests.unit.reader_stubs import stub_reader

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)


def _person(name: str) -> Entity:
    return Entity(id=f"ent_{entity_key(name)}", space="s", name=name, kind="person")


PRIYA, BO = _person("Priya"), _person("Bo")


@pytest.mark.parametrize(
    ("question", "names", "objects"),
    [
        ("What did Priya lend to Bo?", ["Priya", "Bo"], ("Bo",)),
        ("What did Priya think of Bo's band?", ["Bo", "Priya"], ("Bo",)),
        ("Which film did Priya suggest to Bo in May 2024?", ["Priya", "Bo"], ("Bo",)),
        ("What song does Priya sing for Bo?", ["Priya", "Bo"], ("Bo",)),
        ("What did Priya give to Bo and Nadia?", ["Priya", "Bo", "Nadia"], ("Bo", "Nadia")),
        ("What did Priya Shah tell Bo about?", ["Priya Shah", "Bo"], ("Bo",)),  # after a verb
        ("What does Priya tell Bo she will not do?", ["Priya", "Bo"], ("Bo",)),
        ("Would Priya enjoy the songs of Bo or Nadia?", ["Nadia", "Priya", "Bo"], ("Nadia", "Bo")),
        # No subject where a subject stands: the names after a preposition are the objects.
        ("Is it likely that Priya has friends besides Bo?", ["Priya", "Bo"], ("Bo",)),
        ("What song Priya sing with Bo?", ["Priya", "Bo"], ("Bo",)),
        ("What did Tom give to Priya Shah's son?", ["Priya Shah", "Tom"], ("Priya Shah",)),
        # Both subjects, or both objects: nobody is left out.
        ("Did Priya and Bo both go hiking?", ["Priya", "Bo"], ()),
        ("What is the topic between Priya and Bo on 3 May?", ["Priya", "Bo"], ()),
        ("Was May a good month for Priya and Bo?", ["Priya", "Bo"], ()),
        # "According to Priya" and "from Priya" name who said it.
        ("According to Priya, what makes Bo a good coach?", ["Priya", "Bo"], ("Bo",)),
        ("What has Bo heard from Priya?", ["Bo", "Priya"], ()),
        # One name: nothing to tell apart.
        ("What did Priya give to her brother?", ["Priya"], ()),
        ("What did Priya bring to Priya's party?", ["Priya"], ()),
    ],
)
def test_a_name_only_after_a_preposition_is_an_object_when_another_is_the_subject(
    question: str, names: list[str], objects: tuple[str, ...]
) -> None:
    assert objects_named(question, names) == objects


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["Priya", "Priya's", "Bo", "Bo Li", "and", "to", "did", "what", "from", "x", "&", "'s"]),
        max_size=12,
    ),
    st.lists(st.sampled_from(["Priya", "Bo", "Bo Li", "Li"]), unique=True, max_size=4),
)
def test_the_objects_are_some_of_the_names_never_all(words: list[str], names: list[str]) -> None:
    objects = objects_named(" ".join(words), names)
    assert set(objects) <= set(names)
    assert len(objects) < max(len(names), 1)


def test_a_name_both_subject_and_object_is_a_subject() -> None:
    question = "What did Bo tell Priya about Bo's trip to Nadia's?"
    assert objects_named(question, ["Bo", "Priya", "Nadia"]) == ("Priya", "Nadia")
    assert objects_named("What did Bo's sister tell Priya?", ["Bo", "Priya"]) == ("Priya",)


@pytest.mark.parametrize(
    ("talking", "answers", "listeners"),
    [
        ({"priya", "bo"}, ("Priya",), ("Bo",)),
        # Priya does not talk (a friend the two speak of): whoever told it answers.
        ({"bo", "nadia"}, ("Priya", "Bo"), ()),
        # Bo does not talk: Priya answers, to no listener named.
        ({"priya", "nadia"}, ("Priya",), ()),
    ],
)
def test_the_subjects_answer_when_one_of_them_talks_and_the_objects_who_talk_are_the_listeners(
    talking: set[str], answers: tuple[str, ...], listeners: tuple[str, ...]
) -> None:
    assert answering(("Priya", "Bo"), ("Bo",), talking) == (answers, listeners)
    assert answering(("Priya", "Bo"), (), talking) == (("Priya", "Bo"), ())


def test_the_plan_names_the_object_and_keeps_it_among_the_people() -> None:
    plan = make_plan("What did Priya promise to Bo?", [PRIYA, BO], AT)
    assert plan.people == ("Priya", "Bo")
    assert plan.objects == ("Bo",)
    assert plan.as_trace()["objects"] == ["Bo"]
    # A place after a preposition is no person: the question keeps both people.
    globex = Entity(id="ent_globex", space="s", name="Globex", kind="entity")
    plan = make_plan("What did Priya and Bo say about Globex?", [PRIYA, BO, globex], AT)
    assert plan.objects == ()


TEXTS = {
    # Bo's turn holds the question's words and is ranked first by the route.
    "asked": ("Bo", "I keep worrying about my interview and I am still nervous."),
    # Priya's reply is the answer, addressed to Bo.
    "answer": ("Priya", "You should practise your answers out loud, you will feel calmer."),
}
# The stages that would move the two turns for other reasons are switched off.
ISOLATED: frozenset[Stage] = frozenset({"vector", "person", "sessions", "rescue", "specific"})


class Keyword:
    name: RouteName = "keyword"

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", "asked", 2.0), RouteHit("evidence", "answer", 1.0)]


class Turns:
    kind: ItemKind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        said = {i: TEXTS[i] for i in ids}
        return {
            i: Hydrated("evidence", i, text, (), "s1", AT, speaker, (f"ent_{entity_key(speaker)}",), speaker)
            for i, (speaker, text) in said.items()
        }


NADIA = _person("Nadia")  # named in the questions below, never talking


def _recall(question: str, disabled: frozenset[Stage] = frozenset()) -> tuple[list[str], dict[str, list[str]]]:
    reader = stub_reader([Keyword()], [Turns()], ISOLATED | disabled, entities=[PRIYA, BO, NADIA])
    result = reader.recall("s", question, k=2, budget_tokens=None, policy="balanced", as_of=None)
    return [i.id for i in result.items], result.trace["changes"]


def test_the_subjects_reply_to_the_object_rises_over_the_objects_own_turn() -> None:
    order, changes = _recall("What did Priya suggest to Bo?")
    assert order == ["answer", "asked"]
    assert changes["boost"] == ["answer"]  # Priya's turn alone
    assert "addressed" not in changes  # the answer is said to Bo, as asked


def test_an_object_who_does_not_talk_is_no_listener_and_a_subject_who_does_not_talk_restricts_nothing() -> None:
    # Nadia is no listener: Priya's reply to Bo is lowered as any turn addressed to its listener.
    _, changes = _recall("What did Priya suggest to Nadia?")
    assert changes["boost"] == ["answer"] and changes["addressed"] == ["answer"]
    # Nadia, the subject, does not talk: whoever told it answers, both people boosted.
    _, changes = _recall("What did Nadia suggest to Priya and Bo?")
    assert sorted(changes["boost"]) == ["answer", "asked"] and changes["addressed"] == ["answer"]


def test_a_question_naming_both_as_subjects_raises_both_and_lowers_the_addressed_turn() -> None:
    order, changes = _recall("What did Priya and Bo suggest?")
    assert order == ["asked", "answer"]
    assert sorted(changes["boost"]) == ["answer", "asked"]
    assert changes["addressed"] == ["answer"]


class Vectors:
    def search(
        self, kind: str, space: str, vector: Any, limit: int, not_after: float | None = None
    ) -> list[tuple[str, float]]:
        return [("bo_1", 0.9), ("priya_1", 0.8), ("bo_2", 0.7), ("priya_2", 0.6)]


class Speakers:
    def speakers(self, space: str, ids: Sequence[str]) -> dict[str, str | None]:
        return {i: ("Bo" if i.startswith("bo") else "Priya") for i in ids}


@pytest.mark.parametrize(
    ("question", "found"),
    [
        ("What did Priya suggest to Bo?", ["priya_1", "priya_2"]),
        ("What did Priya and Bo suggest?", ["bo_1", "priya_1", "bo_2", "priya_2"]),
    ],
)
def test_the_person_route_keeps_the_turns_of_the_questions_subjects(question: str, found: list[str]) -> None:
    stores: Any = SimpleNamespace(vectors=Vectors(), evidence=Speakers())
    plan = make_plan(question, [PRIYA, BO], AT)
    query = Query("s", question, plan, np.ones(4, np.float32), None, 10)
    assert [hit.id for hit in PersonRoute(stores).run(query)] == found


SAID = [
    ("s1", "Bo", "I have a job interview at Globex next week and I feel nervous about the interview."),
    ("s1", "Priya", "I propose you practise your answers out loud, you'll feel calmer at your interview."),
    ("s1", "Bo", "Thanks, I will practise tonight."),
    ("s2", "Bo", "My last interview went badly, I forgot my notes."),
    ("s2", "Priya", "I went hiking by the lake on Sunday."),
    ("s2", "Bo", "The interview panel at Globex has three people."),
    ("s3", "Bo", "I bought a new tie for the interview."),
    ("s3", "Priya", "I repainted my kitchen yellow."),
]


@pytest.fixture()
def memory(tmp_path: Path) -> Iterator[Memory]:
    mem = Memory.open(tmp_path / "mem", settings=EywaSettings(data_dir=tmp_path / "mem"), embedder=HashEmbedder())
    yield mem
    mem.close()


def test_what_one_told_the_other_is_recalled_over_the_others_own_words(memory: Memory) -> None:
    memory.remember("interview", [
        {"text": text, "speaker": speaker, "session": session, "observed_at": f"2024-03-0{n // 3 + 1}T10:0{n % 3}:00Z"}
        for n, (session, speaker, text) in enumerate(SAID)
    ])  # fmt: skip
    found = memory.recall("interview", "What did Priya propose to Bo for his interview?", k=4)
    assert found.trace["plan"]["objects"] == ["Bo"]
    assert found.items[0].text == SAID[1][2]
