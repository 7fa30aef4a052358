"""The public API is pinned: adding or removing a name is a deliberate change."""

import eywa


def test_all_is_pinned() -> None:
    assert sorted(eywa.__all__) == sorted(
        [
            "Belief", "Candidate", "CandidateFact", "Client", "ClosedError", "ConfigurationError", "Delta",
            "Dimension", "Entity", "Evidence", "EvidenceRef", "EywaError", "EywaSettings",
            "ExtractorError", "InvalidInputError", "InvalidTurnError", "Memory", "NotFoundError",
            "RecallItem", "RecallResult", "Signal", "SignalKind", "StoreError", "Turn",
            "DirectoryInUseError", "FieldProblem", "Limits", "QuotaExceededError",
            "ErasedError", "ErasureProof", "ErasureReport",  # erasure (#13)
            "AsyncClient",  # asyncio twin of Client (#14)
            "ConflictError", "CorrectionRecord",  # corrections (#13)
            "ImportReport", "SpaceNotEmptyError",  # portability (#13)
        ]
    )
    for name in eywa.__all__:
        assert getattr(eywa, name).__module__.startswith("eywa.")
