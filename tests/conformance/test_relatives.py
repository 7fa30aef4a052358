"""A question about someone's relative is answered from the relative's own dimensions on
every backend: "Where does Alice's sister work?" by Eva's employer once Alice said "my sister
Eva", not by Alice's employer, and not by her brother's; the siblings and parents a speaker
names are dimensions of their own ("Who is Alice's sister?")."""

from __future__ import annotations

from eywa import Memory

_AS_OF = "2024-09-01T00:00:00"


def _turns(*texts: str) -> list[dict[str, str]]:
    return [
        {"text": text, "speaker": "Alice", "session": "s1", "observed_at": f"2024-08-{i + 1:02d}T10:00:00"}
        for i, text in enumerate(texts)
    ]


def _answer(memory: Memory, question: str) -> str:
    """The text of the claimed answer (the first item, when the trace names it)."""
    result = memory.recall("kin", question, k=3, as_of=_AS_OF)
    claimed = result.trace["answer"]
    top = result.items[0]
    return top.text if claimed is not None and (top.kind, top.id) == (claimed["kind"], claimed["id"]) else ""


def test_a_relatives_state_is_answered_from_the_relatives_dimension(memory: Memory) -> None:
    memory.remember("kin", _turns(
        "I work at Initech.",
        "My sister Eva works at Globex.",
        "My brother Tom works at Acme.",
        "Tom lives in Oslo.",
        "My dad's name is Carl. He is retired.",
    ))  # fmt: skip
    assert _answer(memory, "Where does Alice's sister work?").startswith("Eva — employer: Globex")
    assert _answer(memory, "Where does Alice's brother work?").startswith("Tom — employer: Acme")
    assert _answer(memory, "Where does Alice's older brother live?").startswith("Tom — residence: Oslo")
    assert _answer(memory, "Where does Alice work?").startswith("Alice — employer: Initech")
    assert _answer(memory, "Is Alice's sister still at Globex?").startswith("Eva — employer: Globex")
    siblings = memory.dimension("kin", "Alice", "siblings")
    assert siblings is not None and set(siblings.distribution) >= {"Eva", "Tom"}, siblings
    parents = memory.dimension("kin", "Alice", "parents")
    assert parents is not None and parents.mode == "Carl", parents


def test_an_unknown_relative_is_not_answered_by_the_owner(memory: Memory) -> None:
    """Nothing says where Alice's mother works: her own employer must not answer for her mother."""
    memory.remember("kin", _turns("I work at Initech.", "My mom visited us last week."))
    assert _answer(memory, "Where does Alice's mom work?") == ""


def test_a_relatives_workplace_said_by_its_kind_answers_for_the_relative(memory: Memory) -> None:
    """"My mom works at a bakery" once said nothing (a workplace without a name), which this
    file's test above relied on; now it is the mother's employer, and it answers for her."""
    memory.remember("kin", _turns("I work at Initech.", "My mom works at a bakery."))
    assert _answer(memory, "Where does Alice's mom work?").startswith("Alice's mother — employer: bakery")


def test_a_former_partner_is_not_the_partner_asked_about(memory: Memory) -> None:
    memory.remember("kin", _turns(
        "My ex-husband Tom works at Acme.",
        "My husband Ben works at Globex.",
    ))  # fmt: skip
    assert _answer(memory, "Where does Alice's husband work?").startswith("Ben — employer: Globex")


def test_a_relative_spoken_of_by_no_name_is_answered_as_the_speakers_relative(memory: Memory) -> None:
    """"My sister works at Globex": Alice's sister works there (not Alice), and "Where does
    Alice's sister work?" is answered from her dimension, "Alice's sister"."""
    memory.remember("kin", _turns(
        "I work at Initech.",
        "My sister works at Globex.",
        "My husband is a nurse at City Hospital.",
        "My mom just retired.",
    ))  # fmt: skip
    assert _answer(memory, "Where does Alice's sister work?").startswith("Alice's sister — employer: Globex")
    assert _answer(memory, "What does Alice's husband do?").startswith("Alice's husband — occupation: nurse")
    assert _answer(memory, "Does Alice's mom still work?").startswith("Alice's mother — employer: retired")
    assert _answer(memory, "Where does Alice work?").startswith("Alice — employer: Initech")
    assert _answer(memory, "Where does Alice's brother work?") == ""
    employer = memory.dimension("kin", "Alice", "employer")
    assert employer is not None and set(employer.distribution) - {"__unseen__"} == {"Initech"}, employer


def test_the_relatives_a_speaker_spoke_of_are_erased_with_her_turns(memory: Memory) -> None:
    """What Alice said of her sister (named or not) rests on Alice's turns: forgetting them
    leaves no sibling of hers, no dimension of her sister and no answer about either."""
    memory.remember("kin", _turns("My sister works at Globex.", "My brother Tom works at Acme."))
    memory.remember("kin", [{"text": "I work at Initech.", "speaker": "Bob", "session": "s1",
                             "observed_at": "2024-08-05T10:00:00"}])  # fmt: skip
    memory.forget("kin", speaker="Alice")
    assert {d.entity for d in memory.dimensions("kin")} == {"Bob"}
    assert _answer(memory, "Where does Alice's sister work?") == ""
    assert _answer(memory, "Where does Alice's brother work?") == ""


def test_a_relative_spoken_of_by_no_name_leaves_a_job_said_in_an_earlier_write(memory: Memory) -> None:
    """"My sister left Globex" (a later write) ends the job "My sister works at Globex" gave
    her: the earlier beliefs a turn leans on were read for the speaker and the people Level 0
    named, not for "Alice's sister", so the name Globex was unknown and nothing was read."""
    memory.remember("kin", _turns("My sister works at Globex."))
    memory.remember("kin", [{"text": "My sister left Globex last month.", "speaker": "Alice", "session": "s2",
                             "observed_at": "2024-08-20T10:00:00"}])  # fmt: skip
    employer = memory.dimension("kin", "Alice's sister", "employer")
    assert employer is not None and employer.mode != "Globex" and employer.distribution["Globex"] < 0.5, employer


def test_someone_elses_relative_spoken_of_by_no_name_is_theirs(memory: Memory) -> None:
    """"Eva's dad is retired" said by Alice: Eva's father is retired (not Alice, not Eva), and
    "Does Eva's dad still work?" is answered from his dimension; a later "Eva's dad left
    Acme" ends the job an earlier write gave him."""
    memory.remember("kin", _turns("My friend Eva works at Globex.", "Eva's dad works at Acme."))
    memory.remember("kin", [{"text": "Eva's dad left Acme last month.", "speaker": "Alice", "session": "s2",
                             "observed_at": "2024-08-20T10:00:00"}])  # fmt: skip
    father = memory.dimension("kin", "Eva's father", "employer")
    assert father is not None and father.mode != "Acme" and father.distribution["Acme"] < 0.5, father
    assert _answer(memory, "Where does Eva work?").startswith("Eva — employer: Globex")
    assert {d.attribute for d in memory.dimensions("kin", "Alice")} == set()


def test_a_sister_spoken_of_by_no_name_answers_beside_one_named(memory: Memory) -> None:
    """Alice named a sister (Eva, whose job she never said) and spoke of "my sister" working
    at Globex: the job is the unnamed sister's, and answers "Where does Alice's sister work?"."""
    memory.remember("kin", _turns("My sister Eva loves hiking.", "My sister works at Globex."))
    assert _answer(memory, "Where does Alice's sister work?").startswith("Alice's sister — employer: Globex")


def test_a_relatives_relative_is_asked_one_step_further(memory: Memory) -> None:
    """"Where does Alice's sister's husband work?": Eva's husband, Tom; his employer answers
    (the plan went through Alice, then Eva), not Eva's."""
    memory.remember("kin", _turns("My sister Eva works at Globex.", "Eva's husband is called Tom.",
                                  "Tom works at Acme."))  # fmt: skip
    assert _answer(memory, "Where does Alice's sister's husband work?").startswith("Tom — employer: Acme")
    result = memory.recall("kin", "Where does Alice's sister's husband work?", k=3, as_of=_AS_OF)
    assert result.trace["plan"]["through"] == ["Alice", "Eva"]


def test_where_a_relatives_child_goes_to_school(memory: Memory) -> None:
    """README's "Where do Priya's kids go to school?": a child named ("my son Leo") or not
    ("my daughter") is asked of by the school it goes to."""
    memory.remember("kin", _turns("My son Leo started at Hillview Academy this fall.", "My daughter goes to Oak School."))
    assert _answer(memory, "Where do Alice's kids go to school?").startswith("Leo — education: Hillview Academy")
    assert _answer(memory, "Where does Alice's daughter go to school?").startswith(
        "Alice's daughter — education: Oak School"
    )


def test_a_relation_of_a_set_that_holds_the_other_relation_too_is_answered_by_what_says_it(memory: Memory) -> None:
    """"Who is Alice's sister?" was claimed by her siblings line, which names her brothers
    first as often as her sister; with brothers in the set, the turn that says "sister" leads.
    With the sister alone in it, the line answers; "Who are Alice's siblings?" keeps the line."""
    memory.remember("kin", _turns("I have two brothers, Tom and Jake.", "I also have a sister named Eva."))
    result = memory.recall("kin", "Who is Alice's sister?", k=3, as_of=_AS_OF)
    assert result.trace["answer"] is None and "sister named Eva" in result.items[0].text, result.items
    assert _answer(memory, "Who are Alice's siblings?").startswith("Alice — siblings:")
    memory.remember("solo", _turns("I have a sister named Eva."))
    solo = memory.recall("solo", "Who is Alice's sister?", k=3, as_of=_AS_OF)
    assert solo.trace["answer"] is not None and solo.items[0].text.startswith("Alice — siblings: Eva"), solo.items
