"""README, "Current state answered from dimensions": "The item's provenance is the turns that
made the current value current, the last thing said and the turn of the previous value (at
most five), so the answer carries its evidence ids." The bound had no test: eight pets said
in eight turns are answered by one dimension line citing five of them, the newest first."""

from __future__ import annotations

from eywa import Memory

PETS = ["a dog named Rex", "a cat named Miso", "a parrot named Kiwi", "a rabbit named Bun", "a hamster named Nib",
        "a turtle named Shelly", "a goldfish named Bubbles", "a lizard named Spike"]  # fmt: skip


def test_a_dimension_answer_cites_at_most_five_turns_of_the_space(memory: Memory) -> None:
    turns = [{"text": f"I have {pet}.", "speaker": "Ana", "observed_at": f"2024-01-{day + 1:02d}T10:00:00"}
             for day, pet in enumerate(PETS)]  # fmt: skip
    ids = memory.remember("prov-pets", turns)
    answer = memory.recall("prov-pets", "What pets does Ana have?").items[0]
    assert answer.kind == "dimension" and all(pet.rsplit(" ", 1)[1] in answer.text for pet in PETS), answer.text
    cited = [ref.id for ref in answer.provenance]
    assert len(cited) == 5 and set(cited) <= set(ids), cited  # eight turns support it; five are cited
    assert cited[0] == ids[-1]  # the last thing said leads


def test_a_changed_value_cites_the_change_and_the_last_thing_said(memory: Memory) -> None:
    said = [{"text": "I work at Initech.", "speaker": "Ana", "observed_at": f"2024-01-{day:02d}T10:00:00"}
            for day in range(1, 8)]  # fmt: skip
    said.append({"text": "I quit Initech and joined Globex.", "speaker": "Ana", "observed_at": "2024-02-01T10:00:00"})
    said += [{"text": "I work at Globex.", "speaker": "Ana", "observed_at": f"2024-03-{day:02d}T10:00:00"}
             for day in range(1, 8)]  # fmt: skip
    ids = memory.remember("prov-job", said)
    answer = memory.recall("prov-job", "Where does Ana work now?").items[0]
    assert answer.kind == "dimension" and "Globex" in answer.text and "was Initech" in answer.text, answer.text
    cited = [ref.id for ref in answer.provenance]
    assert 1 <= len(cited) <= 5 and ids[7] in cited and ids[-1] in cited, [ids.index(i) for i in cited]
