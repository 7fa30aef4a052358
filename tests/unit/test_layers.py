"""The layers contract (``[tool.importlinter]`` in pyproject.toml) covers every module of the
core and catches a violation: in a copy of the source tree, a core module that imports an
entry point, or two entry points that import each other, break it."""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import eywa

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return [name.strip() for layer in layers for name in layer.split("|")]


def test_every_module_of_the_core_has_a_layer() -> None:
    named = set(_layers())
    modules = {f"eywa.{m.name}" for m in pkgutil.iter_modules(eywa.__path__)}
    assert modules - named == set(), "give these modules a layer in pyproject.toml"
    assert {"services", "workers", "eywa.cli", "eywa.bench", "eywa.runtime"} <= named


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(tree / "pyproject.toml"), "--no-cache"],
        cwd=tree, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the three packages and the contract, which lint-imports reads instead of
    the installed ones (``PYTHONPATH`` comes before the editable install's finder)."""
    copy = tmp_path_factory.mktemp("tree")
    for package in ("eywa", "services", "workers"):
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__", "data"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


def test_the_copied_tree_keeps_the_contracts(tree: Path) -> None:
    result = _lint(tree)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 2 kept, 0 broken." in result.stdout


@pytest.mark.parametrize(
    ("module", "source", "importer"),
    [
        ("eywa/read/uses_queue.py", "from services.queue import CeleryJobRunner\n", "eywa.read.uses_queue"),
        ("eywa/stores/uses_runtime.py", "from eywa.runtime import open_memory\n", "eywa.stores.uses_runtime"),
        ("workers/uses_api.py", "import services.api.app\n", "workers.uses_api"),
    ],
    ids=["core-imports-an-entry-point", "store-imports-the-runtime", "entry-points-import-each-other"],
)
def test_an_upward_or_sideways_import_breaks_the_layers(tree: Path, module: str, source: str, importer: str) -> None:
    probe = tree / module
    probe.write_text(source, encoding="utf-8")
    try:
        result = _lint(tree)
    finally:
        probe.unlink()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Entry points -> runtime -> Memory -> read/extraction/nous -> stores -> models BROKEN" in result.stdout
    assert importer in result.stdout
