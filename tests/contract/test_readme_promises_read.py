"""README promises of the read path that no test showed through ``Memory`` (audit of s25):

- "``recall`` never calls an LLM" — with an LLM extractor configured, Level 1 calls the
  model and a recall never does (nothing checked it: a read path that asked the model to
  rewrite a query would have passed the suite).
- "``RecallResult.evidence_strength`` (0-1, also ``trace["evidence_strength"]``) is how likely
  the stored evidence answers the question ..., 0 when the vector route did not run" — only
  the pure function (``tests/unit/test_strength.py``) and the benchmark's record were tested;
  and its lexical contrast (the asked-about words found in the named person's turns or
  only in others') through a recall.
- "Recall always returns the nearest turns, even for a question about something never
  said; a low strength says they are probably not the answer".
- "Reads are deterministic": no test asked the same question twice.
- Python API: "``as_of`` recalls the memory as it stood at a past time: turns said after it
  are invisible" — shown for turns; not that what later turns derived (a belief, the
  dimension line that answers first) is invisible too.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import get_args

import pytest

from eywa import Memory
from eywa.embedding.minilm import MiniLMEmbedder
from eywa.models import Policy
from eywa.settings import EywaSettings
from tests.contract.conftest import HashEmbedder
from tests.suite_threads import SUITE_EMBED_THREADS

SPACE = "reads"
TURNS = [
    {"text": "I just started at Acme as a data engineer.", "speaker": "Alice", "session": "s1",
     "observed_at": "2024-03-02T10:15:00Z"},
    {"text": "My sister plays the violin in an orchestra.", "speaker": "Alice", "session": "s1",
     "observed_at": "2024-03-02T10:16:00Z"},
    {"text": "We went hiking near the lake on Sunday.", "speaker": "Bo", "session": "s2",
     "observed_at": "2024-03-09T09:00:00Z"},
]  # fmt: skip
SAID = "Which company does Alice work for as an engineer?"
NEVER_SAID = "What is the melting point of tungsten in kelvin?"  # no word of it in any turn


class _ChatModel(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint that counts its calls and proposes nothing."""

    calls = 0

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        type(self).calls += 1
        body = json.dumps({"choices": [{"message": {"content": '{"facts": []}'}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        """Quiet: the test reads the count, not the log."""


@pytest.fixture
def chat_model() -> Iterator[tuple[str, type[_ChatModel]]]:
    handler = type("ChatModel", (_ChatModel,), {"calls": 0})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    server.shutdown()
    server.server_close()
    thread.join()


def test_recall_never_calls_the_llm_that_level1_calls(tmp_path: Path, chat_model: tuple[str, type[_ChatModel]]) -> None:
    url, model = chat_model
    settings = EywaSettings(data_dir=tmp_path, extractor="openai", llm_base_url=url, llm_model="m", llm_max_retries=0)
    with Memory.open(tmp_path / "mem", settings=settings, embedder=HashEmbedder()) as mem:
        mem.remember(SPACE, TURNS, wait=True)
        assert model.calls > 0  # the extractor is the LLM: Level 1 asked it
        asked = model.calls
        for policy in get_args(Policy):
            for question in (SAID, NEVER_SAID, "What did Alice say in March 2024?", "Does Alice like music?"):
                assert mem.recall(SPACE, question, k=5, policy=policy).items
        assert model.calls == asked


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder(threads=SUITE_EMBED_THREADS)


def test_evidence_strength_is_higher_for_what_was_said_and_zero_without_the_vector_route(
    tmp_path: Path, minilm: MiniLMEmbedder
) -> None:
    with Memory.open(tmp_path / "all", settings=EywaSettings(data_dir=tmp_path / "all"), embedder=minilm) as mem:
        mem.remember(SPACE, TURNS, wait=True)
        said, never = mem.recall(SPACE, SAID), mem.recall(SPACE, NEVER_SAID)
    for result in (said, never):
        assert 0.0 < result.evidence_strength <= 1.0
        assert result.trace["evidence_strength"] == result.evidence_strength
    # Nothing matches the never-said question by keyword: the nearest turns come from the
    # vector route all the same, and the strength says they are weaker.
    assert never.items and never.trace["routes"].get("keyword", []) == []
    assert never.evidence_strength < said.evidence_strength
    assert said.items[0].text == TURNS[0]["text"]

    off = EywaSettings(data_dir=tmp_path / "off", disabled_stages=["vector"])
    with Memory.open(tmp_path / "off", settings=off, embedder=minilm) as mem:
        mem.remember(SPACE, TURNS, wait=True)
        without = mem.recall(SPACE, SAID)
    assert "vector" not in without.trace["routes"] and without.items
    assert without.evidence_strength == 0.0 == without.trace["evidence_strength"]


def test_a_question_about_what_only_someone_else_said_is_weaker(memory: Memory) -> None:
    """README: the lexical contrast is "the share of the question's content words ... found in
    the turns among the keyword route's best five hits spoken by that person, minus the share
    found in those spoken by others". With the hashing embedder the cosines say nothing (both
    questions embed alike once the names are set aside), so the words must tell the swapped
    question from the own one."""
    memory.remember("swap", [
        {"text": "We went kayaking down the river last weekend.", "speaker": "Ana", "session": "s1",
         "observed_at": "2024-05-02T10:00:00Z"},
        {"text": "Nice! I spent mine repairing my old bicycle.", "speaker": "Bo", "session": "s1",
         "observed_at": "2024-05-02T10:01:00Z"},
        {"text": "My neighbour lent me a pump for the tyres.", "speaker": "Bo", "session": "s1",
         "observed_at": "2024-05-02T10:02:00Z"},
        {"text": "The river was calm and cold.", "speaker": "Ana", "session": "s1",
         "observed_at": "2024-05-02T10:03:00Z"},
    ], wait=True)  # fmt: skip
    own = memory.recall("swap", "When did Ana go kayaking?", k=5)
    swapped = memory.recall("swap", "When did Bo go kayaking?", k=5)
    assert own.items[0].text.startswith("We went kayaking")
    assert swapped.evidence_strength < own.evidence_strength
    lent = memory.recall("swap", "Who lent Bo a pump?", k=5)
    assert memory.recall("swap", "Who lent Ana a pump?", k=5).evidence_strength < lent.evidence_strength


def test_the_same_question_gets_the_same_answer_again_and_after_reopening(tmp_path: Path, minilm: MiniLMEmbedder) -> None:
    questions = [SAID, NEVER_SAID, "What did Alice say in March 2024?", "Who plays the violin?", "Where did Bo go hiking?"]

    def answers(mem: Memory) -> list[tuple[object, ...]]:
        found = [mem.recall(SPACE, q, k=3, policy=p) for q in questions for p in get_args(Policy)]
        return [
            ([(i.kind, i.id, i.score) for i in r.items], r.context, r.evidence_strength, r.trace["fused"]) for r in found
        ]

    settings = EywaSettings(data_dir=tmp_path)
    with Memory.open(tmp_path / "mem", settings=settings, embedder=minilm) as mem:
        mem.remember(SPACE, TURNS, wait=True)
        first = answers(mem)
        assert answers(mem) == first
    with Memory.open(tmp_path / "mem", settings=settings, embedder=minilm) as mem:
        assert answers(mem) == first


def test_as_of_hides_what_later_turns_said_and_derived(memory: Memory) -> None:
    memory.remember("as-of", [
        {"text": "I just started at Acme as a data engineer.", "speaker": "Alice", "observed_at": "2024-01-02T10:00:00Z"},
        {"text": "I quit Acme and now I work at Globex.", "speaker": "Alice", "observed_at": "2024-06-02T10:00:00Z"},
    ])  # fmt: skip
    then = memory.recall("as-of", "Where does Alice work?", k=10, as_of="2024-03-01T00:00:00Z")
    now = memory.recall("as-of", "Where does Alice work?", k=10)
    assert "Globex" in now.context and any("Globex" in i.text for i in now.items if i.kind != "evidence")
    assert then.items and "Globex" not in then.context
    assert all("Globex" not in i.model_dump_json() for i in then.items)  # no turn, belief or dimension of it
    assert then.items[0].kind == "dimension" and "Acme" in then.items[0].text
