"""Shared by the demo and held-out conversation tests: a Memory holding one conversation
(offline rules, the real embedder, one per backend and module), and how a ranked result is
judged against expected and stale answers."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from eywa import Memory
from eywa.embedding import Embedder
from eywa.extraction.rules import RuleExtractor
from eywa.loaders import load_turns_file
from eywa.models import RecallResult

from .conftest import server_settings


def remembered(request: pytest.FixtureRequest, folder: Path, embedder: Embedder, turns: Path, space: str) -> Iterator[tuple[Memory, list[str]]]:
    """A Memory on ``request.param``'s backend holding the turns of ``turns`` in ``space``,
    with Level 1 done; yields it with the evidence ids in file order and closes it."""
    if request.param == "server":
        mem = Memory.connect(server_settings(request, folder), embedder=embedder, extractor=RuleExtractor())
    else:
        mem = Memory.open(folder / "mem", embedder=embedder, extractor=RuleExtractor())
    ids = [i for _, batch in load_turns_file(turns) for i in mem.remember(space, batch, wait=True)]
    yield mem, ids
    mem.close()


def _carries(text: str, strings: Sequence[str]) -> bool:
    folded = text.casefold()
    return any(s.casefold() in folded for s in strings)


def answer_rank(result: RecallResult, expected: Sequence[str]) -> int | None:
    """The rank (from 1) of the first item whose text carries an expected answer."""
    return next((rank for rank, item in enumerate(result.items, 1) if _carries(item.text, expected)), None)


def stale_rank(result: RecallResult, stale: Sequence[str], expected: Sequence[str]) -> int | None:
    """The rank of the first item that carries a stale value and no expected answer (an item
    saying "Fernbrook (was Halden)" or "not moving to Berlin" is not stale)."""
    return next(
        (rank for rank, item in enumerate(result.items, 1)
         if _carries(item.text, stale) and not _carries(item.text, expected)),
        None,
    )  # fmt: skip
