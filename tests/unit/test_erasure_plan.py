"""The pure part of erasure: selector checks and the keyed hash of erased content; and where
the embedded store keeps its secret (a 0600 file beside the database, stable across opens,
overridden by ``EYWA_ERASURE_SECRET``)."""

from __future__ import annotations

import hashlib
import stat
from datetime import datetime, timezone
from pathlib import Path

import pytest
from pydantic import SecretStr

from eywa import Memory
from eywa.erasure import content_mac, selector_of
from eywa.errors import InvalidInputError
from eywa.ids import content_hash
from eywa.settings import EywaSettings
from tests.reliability.support import HashEmbedder


def test_a_selector_needs_a_field_and_well_formed_values() -> None:
    with pytest.raises(InvalidInputError, match="at least one selector"):
        selector_of()
    malformed: list[dict[str, object]] = [
        {"evidence_ids": []}, {"evidence_ids": "ev_a"}, {"external_ids": [""]}, {"speaker": " "}
    ]
    for bad in malformed:
        with pytest.raises(InvalidInputError):
            selector_of(**bad)  # type: ignore[arg-type]  # wrong on purpose: refused
    chosen = selector_of(evidence_ids=["ev_a", "ev_a"], speaker="Bo", before=datetime(2024, 1, 1))
    assert chosen.evidence_ids == ("ev_a",) and chosen.before == datetime(2024, 1, 1, tzinfo=timezone.utc)


def test_the_record_keeps_a_keyed_hash_not_the_guessable_plain_one() -> None:
    plain = content_hash("yes")
    assert plain == hashlib.sha256(b"yes").hexdigest()  # anyone can test a guess against this
    keyed = content_mac(b"k" * 32, plain)
    assert keyed != plain and keyed == content_mac(b"k" * 32, plain) and keyed != content_mac(b"j" * 32, plain)


def test_the_embedded_secret_is_a_private_file_kept_across_opens(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "m", embedder=HashEmbedder(), settings=EywaSettings(data_dir=tmp_path)) as mem:
        first = mem._stores.erasure.secret()
    key = tmp_path / "m" / "erasure.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(first) == 32
    with Memory.open(tmp_path / "m", embedder=HashEmbedder(), settings=EywaSettings(data_dir=tmp_path)) as mem:
        assert mem._stores.erasure.secret() == first
    configured = EywaSettings(data_dir=tmp_path, erasure_secret=SecretStr("from-the-environment"))
    with Memory.open(tmp_path / "m", embedder=HashEmbedder(), settings=configured) as mem:
        assert mem._stores.erasure.secret() == b"from-the-environment"
