"""A scripted extractor for conformance tests: it proposes fixed facts for turns whose text
contains a key (a stand-in for an LLM), so that a test controls exactly what Level 1 sees."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from eywa.models import CandidateFact, Evidence


class ScriptedExtractor:
    """Proposes fixed facts for turns whose text contains a key (a stand-in for an LLM)."""

    name = "scripted"

    def __init__(self, facts: dict[str, list[dict[str, Any]]]) -> None:
        self.facts = facts

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        for turn in evidence:
            for key, facts in self.facts.items():
                if key in turn.text:
                    for fact in facts:
                        yield CandidateFact(evidence_ids=(turn.id,), **fact)
