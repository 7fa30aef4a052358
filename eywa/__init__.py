"""Eywa: provenance-first memory for AI agents.

Evidence before belief: turns are kept immutably with typed signals; facts become beliefs
only when validated against the turns they cite; reading needs no LLM.
"""

from eywa.async_client import AsyncClient
from eywa.client import Client
from eywa.contract import Limits
from eywa.erasure import ErasureProof, ErasureReport
from eywa.errors import (
    ClosedError,
    ConfigurationError,
    ConflictError,
    DirectoryInUseError,
    ErasedError,
    EywaError,
    ExtractorError,
    FieldProblem,
    InvalidInputError,
    InvalidTurnError,
    NotFoundError,
    QuotaExceededError,
    SpaceNotEmptyError,
    StoreError,
)
from eywa.memory import Memory
from eywa.models import (
    Belief,
    Candidate,
    CandidateFact,
    Delta,
    Dimension,
    Entity,
    Evidence,
    EvidenceRef,
    RecallItem,
    RecallResult,
    Signal,
    SignalKind,
    Turn,
)
from eywa.portability import ImportReport
from eywa.settings import EywaSettings
from eywa.stores.corrections import CorrectionRecord

__all__ = [
    "AsyncClient",
    "Belief",
    "Candidate",
    "CandidateFact",
    "Client",
    "ClosedError",
    "ConfigurationError",
    "ConflictError",
    "CorrectionRecord",
    "Delta",
    "Dimension",
    "DirectoryInUseError",
    "Entity",
    "ErasedError",
    "ErasureProof",
    "ErasureReport",
    "Evidence",
    "EvidenceRef",
    "EywaError",
    "EywaSettings",
    "ExtractorError",
    "FieldProblem",
    "ImportReport",
    "InvalidInputError",
    "InvalidTurnError",
    "Limits",
    "Memory",
    "NotFoundError",
    "QuotaExceededError",
    "RecallItem",
    "RecallResult",
    "Signal",
    "SignalKind",
    "SpaceNotEmptyError",
    "StoreError",
    "Turn",
]
__version__ = "0.1.0"
