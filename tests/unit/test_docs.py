"""Every CLI command is documented in the README (sqlite-utils' test_docs idea), and every
link, anchor and README section name in the documents and the code resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from eywa.cli.app import app

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def _commands(typer_app: typer.Typer, prefix: str = "eywa") -> list[str]:
    names = [f"{prefix} {c.name or c.callback.__name__}" for c in typer_app.registered_commands if c.callback]
    for group in typer_app.registered_groups:
        assert group.typer_instance is not None
        names += _commands(group.typer_instance, f"{prefix} {group.name}")
    return names


def test_every_cli_command_is_in_the_readme() -> None:
    commands = _commands(app)
    assert "eywa recall" in commands and "eywa bench locomo" in commands
    missing = [c for c in commands if f"`{c}" not in README]
    assert not missing, f"undocumented CLI commands: {missing}"


# ---------------------------------------------------------------- links and anchors
# README.md and docs/*.md link to each other and into the repository; the measurement history
# moved from the README into docs/ in session 29, and code, tests and the changelog name README
# sections by their headings. These checks keep every such link and name resolving.

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _prose_lines(text: str) -> list[str]:
    """The document's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading: its rendered text lower-cased, every character but a
    letter, digit, underscore, hyphen or space dropped, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown file: a heading's slug, and -1, -2 … for its repeats."""
    seen: dict[str, int] = {}
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        found = _HEADING.match(line)
        if found:
            slug = github_slug(found.group(2))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            if count:
                seen[f"{slug}-{count}"] = 1
    return set(seen)


def test_github_slugs() -> None:
    assert github_slug('Evidence strength: "not in memory"') == "evidence-strength-not-in-memory"
    assert github_slug("Settings (environment, `EYWA_` prefix)") == "settings-environment-eywa_-prefix"
    assert github_slug("What a request costs the API process (#14)") == "what-a-request-costs-the-api-process-14"
    assert github_slug("Server backends (Neo4j)") == "server-backends-neo4j"


def _links(path: Path) -> list[str]:
    targets: list[str] = []
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        line = re.sub(r"``[^`]*``|`[^`]*`", "code", line)  # a code span shows, never links
        targets += _LINK.findall(line)
    return targets


def test_documents_were_found() -> None:
    names = {p.name for p in DOCUMENTS}
    assert {"README.md", "service.md", "evaluation.md", "latency.md"} <= names
    assert len(_links(ROOT / "README.md")) >= 20


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(document: Path) -> None:
    broken: list[str] = []
    for target in _links(document):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        linked = (document.parent / path_part).resolve() if path_part else document
        if not linked.exists():
            broken.append(f"{target}: no such file")
            continue
        if anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
            broken.append(f"{target}: no heading with that anchor in {linked.relative_to(ROOT)}")
    assert not broken, f"{document.relative_to(ROOT)}: {broken}"


# `README "Read latency"`, `README, "The input contract"`, `README, Erasure:`: a README section
# named in code, tests, docs or the changelog is a heading of the README, or the bold label or
# opening words of one of its paragraphs ("**Times**", "Quotas are checked …", "Upgrades: …").
_NAMED = re.compile(r'README,? "#*\s*([^"]+?)"|README,? ([A-Z][a-z]+(?: [a-z0-9]+)*)[:,)]')
_NAMING_FILES = ("eywa", "services", "workers", "ops", "tests", "docs")


def _naming_texts() -> list[tuple[str, str]]:
    texts: list[tuple[str, str]] = []
    files = [ROOT / "Makefile", ROOT / "CHANGELOG.md"]
    for folder in _NAMING_FILES:
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in ("", ".py", ".md", ".sh")]
    for path in files:
        if (ROOT / "eywa" / "data") in path.parents or "__pycache__" in path.parts:
            continue  # eywa/data holds the tokenizer file, not prose
        try:
            texts.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue
    return texts


def test_readme_sections_named_elsewhere_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    headings = {
        found.group(2).strip() for found in map(_HEADING.match, _prose_lines(readme)) if found is not None
    }
    paragraphs = {line.strip() for line in readme.splitlines()}
    named: dict[str, str] = {}
    for where, text in _naming_texts():
        for quoted, bare in _NAMED.findall(text):
            name = re.sub(r"\s*\n\s*(?:#\s*)?", " ", quoted or bare).strip()  # wrapped, or in a comment
            named.setdefault(name, where)
    assert {"Read path", "Read latency", "Erasure", "How the read path is evaluated"} <= set(named)

    def found(name: str) -> bool:
        if any(h == name or h.startswith(f"{name}:") for h in headings):
            return True
        return any(p.startswith((name, f"**{name}", f"- **{name}")) for p in paragraphs)

    missing = {name: where for name, where in named.items() if not found(name)}
    assert not missing, f"README sections named but not in the README: {missing}"
