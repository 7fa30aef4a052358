"""The reader rescues the neighbours of its best turns at the share the question's shape
asks for (``adjust.rescue_share``): more for a question with one answer, which often sits in
the turn after the one whose words matched."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import numpy as np
import pytest

from eywa.read import adjust
from eywa.read.items import Hydrated
from eywa.read.plan import question_shape
from eywa.read.reader import Reader
from eywa.read.routes import Query, RouteHit

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)


class OneTurn:
    name = "keyword"

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", "t0", 1.0)]


class Turns:
    kind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, f"turn {i}", (), "s1", AT, None, ()) for i in ids}


def reader() -> Reader:
    return Reader(
        routes=[OneTurn()],
        sources=[Turns()],
        embed_queries=lambda texts: np.ones((len(texts), 4), np.float32),
        entities_named=lambda space, names: [],
        neighbours=lambda space, ids: {
            i: [Hydrated("evidence", f"{i}-next", f"after {i}", (), "s1", AT, None, ())] for i in ids
        },
        rrf_k=20,
        max_k=50,
        pool=None,
        disabled=frozenset({"vector", "person", "boost", "demotion", "sessions"}),
    )


@pytest.mark.parametrize(
    ("question", "shape"),
    [("Where does the team meet on Fridays?", "fact"), ("What hobbies does the team share?", "list")],
)
def test_the_rescued_turn_enters_at_the_share_of_the_question_shape(question: str, shape: str) -> None:
    assert question_shape(question) == shape
    result = reader().recall("s", question, k=4, budget_tokens=None, policy="balanced", as_of=None)
    scores = {i.id: i.score for i in result.items}
    assert result.trace["changes"]["rescue"] == ["t0-next"]
    assert scores["t0-next"] == pytest.approx(scores["t0"] * adjust.rescue_share(question_shape(question)), rel=1e-4)
    assert adjust.rescue_share("fact") > adjust.rescue_share("list")
