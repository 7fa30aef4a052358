"""``OPTIONAL_MODULES`` names the extra that installs each optional module, so a command
that meets a missing one can say ``pip install 'eywa[EXTRA]'``. Nothing else ties that
table to pyproject.toml: this test reads both, so a wrong extra or a new extra the table
forgets fails here rather than in a user's shell."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from eywa.runtime.commands import OPTIONAL_MODULES

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
# Extras for working on Eywa itself; no command tells a user to install them.
DEVELOPMENT_EXTRAS = {"dev"}
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _normalised(distribution: str) -> str:
    """A distribution name as PEP 503 compares them (``Jinja2`` is ``jinja2``)."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _extras() -> dict[str, set[str]]:
    """Each extra of pyproject.toml with the distributions it lists."""
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    extras: dict[str, set[str]] = {}
    for extra, requirements in declared.items():
        names = (_REQUIREMENT_NAME.match(requirement) for requirement in requirements)
        extras[extra] = {_normalised(match.group(1)) for match in names if match}
    return extras


def test_each_optional_module_is_installed_by_the_extra_it_names() -> None:
    extras, providers = _extras(), packages_distributions()
    wrong: list[str] = []
    for module, extra in sorted(OPTIONAL_MODULES.items()):
        distributions = {_normalised(d) for d in providers.get(module, [])}
        assert distributions, f"{module} is not installed here; the dev extra should bring every optional module"
        if not distributions & extras.get(extra, set()):
            wrong.append(f"{module} ({', '.join(sorted(distributions))}) is not in eywa[{extra}]")
    assert not wrong, "; ".join(wrong)


def test_every_extra_a_user_installs_has_a_module_in_the_table() -> None:
    extras = _extras()
    assert DEVELOPMENT_EXTRAS <= set(extras), "a development extra was renamed; update DEVELOPMENT_EXTRAS"
    uncovered = set(extras) - DEVELOPMENT_EXTRAS - set(OPTIONAL_MODULES.values())
    assert not uncovered, f"extras no OPTIONAL_MODULES entry names: {sorted(uncovered)}"
