"""A deterministic synthetic conversation corpus and query mix for the latency benchmark.

Why synthetic: latency targets are stated per space size (10k, 100k turns), and no public
conversation set is that large in one space. The generator builds multi-speaker,
multi-session chat from templates over small vocabularies (jobs, cities, pets, hobbies,
foods, relative dates, amounts, names), so the text exercises the same detectors, keyword
index and embeddings as real chat. Everything flows from ``random.Random(seed)``: the
same arguments always yield the same turns, which makes runs comparable across commits.

Example:
    >>> turns = list(generate_corpus(3, seed=1))
    >>> turns == list(generate_corpus(3, seed=1))
    True
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal, NamedTuple

from eywa.errors import InvalidInputError

__all__ = [
    "QUERY_SHAPES",
    "QueryShape",
    "SyntheticQuery",
    "corpus_speakers",
    "generate_corpus",
    "generate_queries",
]

QueryShape = Literal["fact", "temporal", "list", "count", "inference", "yes_no"]
QUERY_SHAPES: Final[tuple[QueryShape, ...]] = ("fact", "temporal", "list", "count", "inference", "yes_no")

NAMES: Final = (
    "Alice", "Bruno", "Chiara", "Dmitri", "Esme", "Farid", "Greta", "Hugo", "Ines", "Jonas",
    "Keiko", "Luca", "Maya", "Nikhil", "Olga", "Pablo", "Quinn", "Rosa", "Sven", "Tariq",
    "Uma", "Viktor", "Wen", "Ximena", "Yusuf", "Zoe",
)
JOBS: Final = ("nurse", "carpenter", "software engineer", "teacher", "chef", "pilot", "architect",
               "librarian", "electrician", "veterinarian", "accountant", "photographer")
CITIES: Final = ("Lisbon", "Oslo", "Kyoto", "Nairobi", "Lima", "Porto", "Vienna", "Hanoi", "Quebec",
                 "Seville", "Tbilisi", "Cork", "Dakar", "Perth")
PETS: Final = ("dog", "cat", "parrot", "rabbit", "tortoise", "hamster", "greyhound", "goldfish")
PET_NAMES: Final = ("Biscuit", "Pepper", "Mango", "Luna", "Ziggy", "Noodle", "Pixel", "Olive")
HOBBIES: Final = ("pottery", "rock climbing", "chess", "salsa dancing", "birdwatching", "baking",
                  "trail running", "painting", "knitting", "sailing", "gardening", "the violin")
FOODS: Final = ("ramen", "paella", "tacos", "dumplings", "lasagna", "falafel", "pho", "sushi", "curry")
WHEN: Final = ("last Saturday", "yesterday", "last week", "two days ago", "last month", "on Sunday",
               "this morning", "last weekend")
FILLER: Final = (
    "Ha, that sounds fun.", "Really? Tell me more.", "I had no idea!", "That is a lot to take in.",
    "Same here, honestly.", "Good luck with that!", "How did it go?", "Tell me how it goes.",
    "I have been so busy lately.", "That reminds me of something.",
)

# Per-speaker facts: (template, vocabulary key). Chosen once per speaker so the corpus is
# consistent, then restated with variation; the queries ask about them.
_FACT_TEMPLATES: Final = (
    ("I work as a {job} now, mostly night shifts.", "job"),
    ("Being a {job} is tiring but I love it.", "job"),
    ("I went to {city} {when} and the weather was great.", "city"),
    ("We flew to {city} {when} for a wedding.", "city"),
    ("My {pet} {pet_name} chewed my shoes {when}.", "pet"),
    ("I took {pet_name}, my {pet}, to the vet {when}.", "pet"),
    ("I started {hobby} {when}, it is harder than it looks.", "hobby"),
    ("{hobby} class was great {when}; I am getting better.", "hobby"),
    ("I cooked {food} for {n} friends {when}.", "food"),
    ("I spent ${amount} on {hobby} gear {when}.", "hobby"),
    ("I ran {n} kilometres {when}.", "run"),
    ("I told {other} about my trip to {city}.", "city"),
)


def corpus_speakers(seed: int = 0, speakers: int = 8) -> list[str]:
    """The speaker names ``generate_corpus(seed=seed, speakers=speakers)`` uses, in order.

    Raises:
        InvalidInputError: ``speakers`` is below 2 or above the name list.
    """
    if not 2 <= speakers <= len(NAMES):
        raise InvalidInputError(f"speakers must be between 2 and {len(NAMES)}")
    return random.Random(f"speakers:{seed}").sample(NAMES, speakers)


def _profiles(seed: int, names: list[str]) -> dict[str, dict[str, Any]]:
    rng = random.Random(f"profiles:{seed}")
    return {
        name: {
            "job": rng.choice(JOBS),
            "cities": rng.sample(CITIES, 3),
            "pet": rng.choice(PETS),
            "pet_name": rng.choice(PET_NAMES),
            "hobbies": rng.sample(HOBBIES, 3),
            "foods": rng.sample(FOODS, 2),
        }
        for name in names
    }


def generate_corpus(
    turns: int,
    seed: int = 0,
    speakers: int = 8,
    turns_per_session: int = 40,
    start: datetime = datetime(2023, 1, 2, 9, 0, tzinfo=UTC),
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield ``turns`` (space, turn) pairs: multi-speaker sessions with increasing dates.

    All turns go to one space (``synthetic``): the latency targets are per space size. Each
    session pairs two speakers (rotating through all of them), starts one to three days
    after the previous one and spaces its turns a minute apart. About half the turns state
    or restate a speaker's fact; the rest is small talk.

    Raises:
        InvalidInputError: ``turns`` is negative, ``turns_per_session`` below 2, or a bad
            speaker count.
    """
    if turns < 0:
        raise InvalidInputError("turns must be non-negative")
    if turns_per_session < 2:
        raise InvalidInputError("turns_per_session must be at least 2")
    names = corpus_speakers(seed, speakers)
    profiles = _profiles(seed, names)
    rng = random.Random(f"corpus:{seed}")
    session_start = start
    emitted = 0
    session = 0
    while emitted < turns:
        pair = rng.sample(names, 2)
        for index in range(min(turns_per_session, turns - emitted)):
            speaker = pair[index % 2]
            other = pair[(index + 1) % 2]
            text = _turn_text(rng, profiles[speaker], other) if rng.random() < 0.5 else rng.choice(FILLER)
            yield "synthetic", {
                "text": text,
                "speaker": speaker,
                "session": f"s{session:05d}",
                "observed_at": (session_start + timedelta(minutes=index)).isoformat(),
                "metadata": {"turn": emitted},
            }
            emitted += 1
        session += 1
        session_start += timedelta(days=rng.randint(1, 3), hours=rng.randint(0, 8))


def _turn_text(rng: random.Random, profile: dict[str, Any], other: str) -> str:
    template, _ = rng.choice(_FACT_TEMPLATES)
    text = template.format(
        job=profile["job"],
        city=rng.choice(profile["cities"]),
        when=rng.choice(WHEN),
        pet=profile["pet"],
        pet_name=profile["pet_name"],
        hobby=rng.choice(profile["hobbies"]),
        food=rng.choice(profile["foods"]),
        n=rng.randint(2, 12),
        amount=rng.choice((25, 40, 120, 300, 850)),
        other=other,
    )
    return text[0].upper() + text[1:]


class SyntheticQuery(NamedTuple):
    """One question of the mix and the shape it was written to have."""

    shape: QueryShape
    text: str


_QUERY_TEMPLATES: Final[dict[QueryShape, tuple[str, ...]]] = {
    "fact": ("What does {name} do for work?", "What is the name of {name}'s {pet}?",
             "Where did {name} fly for a wedding?"),
    "temporal": ("When did {name} go to {city}?", "When did {name} start {hobby}?",
                 "When did {name} take {pet_name} to the vet?"),
    "list": ("What are all the hobbies {name} has?", "Which places has {name} visited?",
             "What are the foods {name} cooks?"),
    "count": ("How many kilometres did {name} run?", "How much did {name} spend on {hobby} gear?",
              "How many friends did {name} cook for?"),
    "inference": ("Would {name} enjoy a {city} travel guide?", "Would {name} likely adopt another {pet}?",
                  "Might {name} like a {hobby} workshop?"),
    "yes_no": ("Does {name} have a {pet}?", "Is {name} a {job}?", "Did {name} ever visit {city}?"),
}


def generate_queries(seed: int = 0, n: int = 200, speakers: int = 8) -> list[SyntheticQuery]:
    """A fixed mix of ``n`` questions, shapes in equal rotation, naming corpus speakers.

    The questions use the same profiles as ``generate_corpus`` with the same ``seed`` and
    ``speakers``, so most have an answer in the corpus (some deliberately do not, as in
    real traffic: the yes/no and inference questions also draw values a speaker lacks).

    Raises:
        InvalidInputError: ``n`` is negative or a bad speaker count.
    """
    if n < 0:
        raise InvalidInputError("n must be non-negative")
    names = corpus_speakers(seed, speakers)
    profiles = _profiles(seed, names)
    rng = random.Random(f"queries:{seed}")
    queries: list[SyntheticQuery] = []
    for index in range(n):
        shape = QUERY_SHAPES[index % len(QUERY_SHAPES)]
        name = rng.choice(names)
        profile = profiles[name]
        real = shape not in ("yes_no", "inference") or rng.random() < 0.5
        question = rng.choice(_QUERY_TEMPLATES[shape]).format(
            name=name,
            pet=profile["pet"] if real else rng.choice(PETS),
            pet_name=profile["pet_name"],
            city=rng.choice(profile["cities"]) if real else rng.choice(CITIES),
            hobby=rng.choice(profile["hobbies"]) if real else rng.choice(HOBBIES),
            job=profile["job"] if real else rng.choice(JOBS),
        )
        queries.append(SyntheticQuery(shape, question))
    return queries
