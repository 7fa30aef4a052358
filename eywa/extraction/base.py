"""The extractor protocol: anything that proposes candidate facts from stored turns.

Extractors only propose. Nothing they return is believed until the validator has checked
it against the turns it cites, so a plug-in extractor (an LLM, rules, a caller's own model)
cannot write a belief the evidence does not support.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from eywa.models import CandidateFact, Evidence


@runtime_checkable
class Extractor(Protocol):
    """Proposes candidate facts about the turns of one space.

    ``name`` is recorded on every belief and candidate, so an audit can tell which extractor
    proposed what. ``evidence`` is a sequence of stored turns carrying their Level 0 signals.

    Example:
        >>> class Nothing:
        ...     name = "nothing"
        ...     def propose(self, space, evidence):
        ...         return []
        >>> isinstance(Nothing(), Extractor)
        True
    """

    @property
    def name(self) -> str:
        """A short, stable name for provenance ("rules", "openai:gpt-4o-mini")."""
        ...

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        """Candidate facts, each citing the ids of the turns it rests on."""
        ...


def extractor_version(extractor: Extractor) -> str | None:
    """The ``version`` an extractor declares, as a string; None when it declares none.

    ``version`` is optional so that any object with ``name`` and ``propose`` stays an
    extractor; the built-in ones declare it and bump it whenever what they propose changes.
    It is recorded on every belief and candidate, and ``eywa reprocess`` re-runs Level 1 on
    the turns a different version read.
    """
    version = getattr(extractor, "version", None)
    return None if version is None else str(version)


def extractor_label(extractor: Extractor) -> str:
    """``name@version`` (``name@`` without a version): who did a turn's Level 1."""
    return f"{extractor.name}@{extractor_version(extractor) or ''}"
