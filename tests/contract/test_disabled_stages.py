"""README, "Read path": ``EYWA_DISABLED_STAGES='["graph"]'`` "switches routes (``keyword``,
``vector``, ``temporal``, ``graph``, ``inference``, ``dimension``, ``beliefs``, ``events``,
``person``, ``feedback``) or post-filters (``boost``, ``specific``, ``demotion``, ``sessions``,
``rescue``, ``addressed``, ``dedupe``, ``latest``, ``floor``) off"; the session spread, the terse
turns' sinking and the session voice are "switched off with ``sessions``". A typo
was tested (a configuration error); that each name switches its stage off was not.

Seven questions that together run every stage (checked with nothing disabled), then each
stage disabled alone: it leaves every question's trace (``routes`` / ``changes``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from eywa.models import Stage
from tests.contract.conftest import open_memory

SPACE = "stages"
TURNS = [
    {"text": "I work at Acme as a nurse.", "speaker": "Ana", "observed_at": "2024-01-01T10:00:00Z", "session": "a"},
    {"text": "Ana, I moved to Lyon last week.", "speaker": "Bo", "observed_at": "2024-01-02T10:00:00Z", "session": "a"},
    {"text": "We adopted a dog named Rex on 3 May 2023.", "speaker": "Ana", "observed_at": "2024-01-03T10:00:00Z",
     "session": "b"},
    {"text": "We adopted a puppy named Fido on 10 June 2023.", "speaker": "Ana", "observed_at": "2024-01-04T10:00:00Z",
     "session": "b"},
    {"text": "I read Dune and loved it.", "speaker": "Ana", "observed_at": "2024-01-05T10:00:00Z", "session": "c"},
]  # fmt: skip
QUESTIONS = [
    "What books has Ana read?",  # an aggregate question: feedback, person, spread, terse
    "When did Bo move to Lyon?",  # temporal
    "How many weeks between adopting Rex and adopting Fido?",  # events
    "Would Ana enjoy a hospital job?",  # inference
    "Where does Ana work?",
    "What did Ana say last week?",
    "Does Ana still work at Acme?",  # what holds now, about a person and something else: latest
]
STAGES: tuple[str, ...] = get_args(Stage)


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stages") / "memory"
    with open_memory(path) as mem:
        mem.remember(SPACE, TURNS)
    return path


def _stages_run(directory: Path, disabled: list[str]) -> Iterator[str]:
    with open_memory(directory, disabled_stages=disabled) as mem:
        for question in QUESTIONS:
            trace: dict[str, Any] = mem.recall(SPACE, question).trace
            yield from trace["routes"]
            yield from trace["changes"]


def test_the_questions_run_every_stage(directory: Path) -> None:
    assert len(STAGES) == 19
    assert set(STAGES) | {"spread", "terse", "voice"} <= set(_stages_run(directory, []))


@pytest.mark.parametrize("stage", STAGES)
def test_a_disabled_stage_runs_for_no_question(directory: Path, stage: str) -> None:
    ran = set(_stages_run(directory, [stage]))
    assert stage not in ran
    if stage == "sessions":
        assert "spread" not in ran and "terse" not in ran and "voice" not in ran
    assert set(STAGES) - {stage} <= ran  # the others still run
