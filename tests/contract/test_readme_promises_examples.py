"""The README's Python examples run as written (audit of s25): "Python API" (open, remember,
recall, the items' kind/score/routes/text/provenance metadata, context, answer
instructions, evidence) and "Beliefs and dimensions" (beliefs, candidates, explain,
dimension, deltas, audit). No test ran them: a renamed argument or attribute would have
left the README's first example broken with the suite green.

The blocks are read from README.md itself, run in a temporary directory with the offline
defaults (MiniLM, the rule extractor), and what they print is checked against what they
promise in their comments.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_the_python_api_and_beliefs_examples_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api, beliefs = _python_blocks()[:2]
    assert "Memory.open(" in api and "mem.dimension(" in beliefs
    monkeypatch.chdir(tmp_path)
    answers: list[Any] = []
    scope: dict[str, Any] = {"answers": answers}
    printed = io.StringIO()
    # The beliefs block continues the first one: it runs inside its ``with`` (the memory
    # open), with the ids it names taken from what the first one stored.
    opened, body = api.split("\n", 1)[0], api.split("\n", 1)[1]
    assert opened.startswith("from eywa import Memory")
    calls = [line.split("  #", 1)[0].strip() for line in beliefs.splitlines() if line.strip()]
    tail = "\n".join(f"    answers.append({call})" for call in calls)
    bind = "    belief_id = bid = mem.beliefs('alice')[0].id\n"
    with contextlib.redirect_stdout(printed):
        exec(compile(f"{opened}\n{body}{bind}{tail}\n", str(README), "exec"), scope)  # noqa: S102 (the README's own code)

    assert (tmp_path / "my-memory").is_dir()  # "embedded; creates the directory"
    out = printed.getvalue()
    assert "evidence" in out and "I just started at Acme as a data engineer." in out
    assert "{'message_id': 'm-17'}" in out  # the caller's metadata, returned as given
    assert "2024-03-02" in out  # the context groups by session with dates
    assert scope["ids"] and all(i.startswith("ev_") for i in scope["ids"])
    assert scope["res"].answer_instructions and scope["res"].answer_instructions not in scope["res"].context
    active, rejected, explained, dimension, deltas, audit = answers
    assert [(b.subject, b.attribute, b.value) for b in active] == [("Alice", "employer", "Acme")]
    assert all(c.reasons for c in rejected)
    assert explained.belief.id == active[0].id and [t.id for t in explained.turns] == scope["ids"]
    assert dimension.mode == "Acme" and [d.belief_id for d in deltas] == [active[0].id]
    assert audit.records() and active[0].id in str(audit.records())
