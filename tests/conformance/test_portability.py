"""Portability through ``Memory``: a space exported from the embedded store, imported into
Neo4j, exported again and imported into a new embedded store exports the same records each
time (the header's time aside), and every copy answers the same: recall, beliefs, candidates,
dimensions (to 1e-9). An erased turn stays erased in the copies; the same import again is
answered as done (``already_imported``) and writes nothing; an import refuses a space holding
anything else, another space's export, and a bad line (naming its number), writing
nothing."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.cli.demo import DEMO_SPACE, demo_as_of, demo_questions
from eywa.embedding import Embedder
from eywa.errors import ErasedError, InvalidInputError, SpaceNotEmptyError
from eywa.extraction.context import Earlier
from eywa.extraction.rules import RuleExtractor
from eywa.loaders import load_turns_file
from eywa.models import CandidateFact, Evidence
from eywa.portability import record_json

from .conftest import server_settings


class _RulesAndOneUnsupported(RuleExtractor):
    """The rules, plus one fact no turn supports (on Priya's first turn of the second session),
    which the validator refuses: the export must carry a refused candidate
    whatever the rules come to accept (the demo's own refusal, a notice handed in, became a
    cessation the rules read)."""

    def propose_after(self, space: str, evidence: Sequence[Evidence], earlier: Earlier) -> Iterable[CandidateFact]:
        yield from super().propose_after(space, evidence, earlier)
        for turn in evidence:
            if turn.session == "s2" and turn.speaker == "Priya":
                yield CandidateFact(statement="Priya owns a yacht.", subject="Priya", attribute="owns",
                                    value="yacht", evidence_ids=(turn.id,))  # fmt: skip
                return


@pytest.fixture(scope="module")
def source(
    tmp_path_factory: pytest.TempPathFactory, embedder: Embedder
) -> Iterator[tuple[Memory, list[dict[str, Any]]]]:
    """The first two sessions of the demo conversation (26 turns: beliefs, a refused
    candidate (``_RulesAndOneUnsupported``), dimensions with their deltas) in an embedded memory, with an erasure, a
    retraction and an undone merge; yields it with the erased turn. Every copy embeds with
    the session's MiniLM, the embedder every other test of the shared Neo4j records: another
    one would switch the database's recorded embedder and mark all its turns for embedding."""
    mem = Memory.open(tmp_path_factory.mktemp("source") / "mem", embedder=embedder, extractor=_RulesAndOneUnsupported())
    with resources.as_file(resources.files("eywa").joinpath("data/demo/conversation.jsonl")) as path:
        turns = [turn for _, batch in load_turns_file(path) for turn in batch if turn.get("session") in ("s1", "s2")]
    ids = mem.remember(DEMO_SPACE, turns, wait=True)
    mem.forget(DEMO_SPACE, evidence_ids=[ids[0]], author="tester")
    belief = mem.beliefs(DEMO_SPACE)[0]
    mem.retract_belief(DEMO_SPACE, belief.id, reason="said in jest", author="tester")
    names = sorted({d.entity for d in mem.dimensions(DEMO_SPACE)})
    mem.accept_merge(DEMO_SPACE, names[0], names[1], score=0.5)
    mem.undo_merge(DEMO_SPACE, names[0], names[1])
    yield mem, [dict(turns[0])]
    mem.close()


def lines_of(mem: Memory) -> list[str]:
    return [record_json(record) for record in mem.export_space(DEMO_SPACE)]


def body(lines: list[str]) -> list[Any]:
    """The records after the header, as JSON values (key order of maps aside)."""
    return [json.loads(line) for line in lines[1:]]


def answers(mem: Memory) -> dict[str, Any]:
    """What a memory answers: recall items per demo question, beliefs, candidates, dimensions."""
    recalls = {
        q.question: [(i.kind, i.id) for i in mem.recall(DEMO_SPACE, q.question, k=5, as_of=demo_as_of()).items]
        for q in demo_questions()
    }
    return {
        "recall": recalls,
        "beliefs": [(b.id, b.status) for b in mem.beliefs(DEMO_SPACE, status=None)],
        "candidates": sorted(c.id for c in mem.candidates(DEMO_SPACE, status=None)),
        "dimensions": {(d.entity, d.attribute): d.distribution for d in mem.dimensions(DEMO_SPACE)},
    }


def assert_same_answers(got: dict[str, Any], expected: dict[str, Any]) -> None:
    assert got["recall"] == expected["recall"]
    assert got["beliefs"] == expected["beliefs"]
    assert got["candidates"] == expected["candidates"]
    assert got["dimensions"].keys() == expected["dimensions"].keys()
    for key, distribution in expected["dimensions"].items():
        assert got["dimensions"][key].keys() == distribution.keys(), key
        for value, p in distribution.items():
            assert got["dimensions"][key][value] == pytest.approx(p, abs=1e-9), (key, value)


@pytest.mark.neo4j
def test_embedded_to_neo4j_to_embedded_exports_and_answers_the_same(
    request: pytest.FixtureRequest, tmp_path: Path, source: tuple[Memory, list[dict[str, Any]]], embedder: Embedder
) -> None:
    original, erased = source
    first = lines_of(original)
    kinds = {json.loads(line)["kind"] for line in first}
    assert kinds >= {"header", "turn", "entity", "belief", "candidate", "dimension", "delta", "merge", "correction",
                     "erasure"}  # fmt: skip
    expected = answers(original)

    server = Memory.connect(server_settings(request, tmp_path), embedder=embedder, extractor=RuleExtractor())
    try:
        report = server.import_space(DEMO_SPACE, first, wait=True)
        assert report.counts["turn"] == sum(1 for line in first if '"kind":"turn"' in line)
        assert not report.already_imported
        second = lines_of(server)
        # The same import again (a retry whose first answer was lost) is answered as done and writes nothing.
        again = server.import_space(DEMO_SPACE, first, wait=True)
        assert again.already_imported and again.counts == report.counts and body(lines_of(server)) == body(second)
        on_server = answers(server)
    finally:
        server.close()
    assert body(second) == body(first)
    # Keyword scores differ between SQLite FTS5 and Neo4j's Lucene, so the backends may
    # order a recall differently; what a dimension answers is the same, every item is one of
    # the space's, and everything stored must be the same.
    turn_ids = {json.loads(line)["evidence"]["id"] for line in first if '"kind":"turn"' in line}
    assert any(items[0][0] == "dimension" for items in expected["recall"].values())
    for question, items in expected["recall"].items():
        got = on_server["recall"][question]
        assert got and all(kind != "evidence" or item in turn_ids for kind, item in got), question
        if items[0][0] == "dimension":
            assert got[0] == items[0], question
    assert_same_answers({**on_server, "recall": expected["recall"]}, expected)

    with Memory.open(tmp_path / "copy", embedder=embedder, extractor=RuleExtractor()) as copy:
        copy.import_space(DEMO_SPACE, iter(second), wait=True)
        assert body(lines_of(copy)) == body(first)
        assert_same_answers(answers(copy), expected)
        with pytest.raises(ErasedError):
            copy.remember(DEMO_SPACE, erased)
        assert copy.import_space(DEMO_SPACE, first).already_imported  # it holds just this export
        copy.remember(DEMO_SPACE, [{"text": "A turn written since.", "speaker": "Ana", "session": "s9"}])
        with pytest.raises(SpaceNotEmptyError, match="not empty"):
            copy.import_space(DEMO_SPACE, first)


def test_a_bad_line_or_another_space_is_refused_and_nothing_is_written(
    tmp_path: Path, source: tuple[Memory, list[dict[str, Any]]], embedder: Embedder
) -> None:
    first = lines_of(source[0])
    broken = [*first[:3], '{"kind": "turn", "evidence": {"id": "x"}}', *first[3:]]
    with Memory.open(tmp_path / "copy", embedder=embedder, extractor=None) as copy:
        with pytest.raises(InvalidInputError) as refused:
            copy.import_space(DEMO_SPACE, broken)
        assert refused.value.problems[0].field == "line.4"
        with pytest.raises(InvalidInputError, match="line.1"):
            copy.import_space(DEMO_SPACE, first[1:])
        with pytest.raises(InvalidInputError, match="imported into 'demo'"):
            copy.import_space("elsewhere", first)
        turn = next(line for line in first if '"kind":"turn"' in line)
        with pytest.raises(InvalidInputError, match="appears twice"):
            copy.import_space(DEMO_SPACE, [*first, turn])
        assert copy.stats(DEMO_SPACE)["evidence"] == 0
        assert copy.import_space(DEMO_SPACE, source[0].export_space(DEMO_SPACE)).counts["turn"] > 0


def test_a_source_that_is_not_lines_or_records_is_refused_and_nothing_is_written(
    tmp_path: Path, source: tuple[Memory, list[dict[str, Any]]], embedder: Embedder
) -> None:
    """A Python caller's wrong argument is an InvalidInputError naming it, never an
    AttributeError or TypeError from inside the import (README, "Every input is accepted or
    refused")."""
    first = lines_of(source[0])
    with Memory.open(tmp_path / "copy", embedder=embedder, extractor=None) as copy:
        for wrong in (42, None, "\n".join(first), b"{}"):
            with pytest.raises(InvalidInputError) as refused:
                copy.import_space(DEMO_SPACE, wrong)  # type: ignore[arg-type]
            assert refused.value.problems[0].field == "source"
        with pytest.raises(InvalidInputError) as refused:
            copy.import_space(DEMO_SPACE, [*first[:2], {"kind": "turn"}, *first[2:]])  # type: ignore[list-item]
        assert refused.value.problems[0].field == "line.3"
        assert "dict" in str(refused.value)
        assert copy.stats(DEMO_SPACE)["evidence"] == 0
        records = list(source[0].export_space(DEMO_SPACE))
        assert copy.import_space(DEMO_SPACE, [records[0], *first[1:]]).counts["turn"] > 0
