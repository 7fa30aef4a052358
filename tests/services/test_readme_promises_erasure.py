"""README erasure promises over HTTP that were tested only below it (audit of s14).

- docs/service.md, Errors: 410 ``erased`` — "a turn whose id was erased was sent again;
  nothing of the batch written". The whole-batch refusal was shown on the evidence store
  alone (tests/conformance/test_stage_ledger.py); the HTTP tests sent the erased turn alone.
- README, Erasure: "an evidence or external id that names no turn is an error and nothing is
  erased"; "Selectors combine with AND". Over HTTP only an unknown id alone was sent (which
  erases nothing whether or not the check holds); the mixed case and AND were shown on
  ``Memory`` only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from eywa import Memory
from eywa.cli import app as cli
from eywa.stores.embedded.factory import open_embedded_graph
from tests.services.conftest import Service

TURNS: list[dict[str, Any]] = [
    {"text": "My locker code is Vrellbrook.", "speaker": "Bo", "session": "s1", "external_id": "m-1",
     "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I live in Boston.", "speaker": "Ana", "session": "s1", "external_id": "m-2",
     "observed_at": "2023-05-01T10:01:00Z"},
    {"text": "I still live in Boston.", "speaker": "Bo", "session": "s2", "external_id": "m-3",
     "observed_at": "2023-06-01T10:00:00Z"},
]  # fmt: skip
NEW_TURN = {"text": "Quintessa is my new cat.", "speaker": "Ana", "session": "s3", "external_id": "m-4"}


def _evidence_count(service: Service, space: str, headers: dict[str, str]) -> int:
    count: int = service.client.get(f"/v1/spaces/{space}/stats", headers=headers).json()["evidence"]
    return count


def _erasures(service: Service, space: str, headers: dict[str, str]) -> int:
    listed = service.client.get("/v1/spaces", headers=headers).json()["items"]
    return sum(int(item["erasures"]) for item in listed if item["space"] == space)


def test_a_batch_holding_an_erased_turn_is_refused_whole(service: Service) -> None:
    space = "pr-erased-batch"
    writer, eraser = service.headers([space], "read,write"), service.headers([space], "erase")
    posted = service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=writer)
    assert posted.status_code == 201, posted.text
    erased = service.client.post(f"/v1/spaces/{space}/erase", json={"external_ids": ["m-1"]}, headers=eraser)
    assert erased.status_code == 200 and erased.json()["counts"]["turns"] == 1
    assert _evidence_count(service, space, writer) == 2

    refused = service.client.post(f"/v1/spaces/{space}/turns", json={"turns": [NEW_TURN, TURNS[0]]}, headers=writer)
    assert refused.status_code == 410 and refused.json()["code"] == "erased", refused.text
    assert posted.json()["ids"][0] in refused.json()["detail"]
    assert _evidence_count(service, space, writer) == 2  # the new turn of the batch was not written either
    recall = service.client.post(f"/v1/spaces/{space}/recall", json={"query": "Quintessa cat"}, headers=writer)
    assert "Quintessa" not in recall.json()["context"]

    alone = service.client.post(f"/v1/spaces/{space}/turns", json={"turns": [NEW_TURN]}, headers=writer)
    assert alone.status_code == 201  # the same turn without the erased one is welcome
    assert _evidence_count(service, space, writer) == 3


def test_an_unknown_id_beside_known_ones_erases_nothing_and_selectors_combine_with_and(service: Service) -> None:
    space = "pr-erase-select"
    writer, eraser = service.headers([space], "read,write"), service.headers([space], "erase")
    ids = service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=writer).json()["ids"]
    for selector in ({"evidence_ids": [ids[0], "ev_nope"]}, {"external_ids": ["m-1", "m-nope"]},
                     {"evidence_ids": [ids[0]], "external_ids": ["m-nope"]}):  # fmt: skip
        refused = service.client.post(f"/v1/spaces/{space}/erase", json=selector, headers=eraser)
        assert refused.status_code == 404 and refused.json()["code"] == "not_found", (selector, refused.text)
        assert _evidence_count(service, space, writer) == 3, selector
        assert service.client.get(f"/v1/spaces/{space}/evidence/{ids[0]}", headers=writer).status_code == 200
    assert _erasures(service, space, writer) == 0

    # AND: Bo's turns of session s2 only; then Ana's said before 10:00:30 (none: hers came at 10:01).
    both = service.client.post(f"/v1/spaces/{space}/erase", json={"speaker": "Bo", "session": "s2"}, headers=eraser)
    assert both.status_code == 200 and both.json()["counts"]["turns"] == 1
    kept = [service.client.get(f"/v1/spaces/{space}/evidence/{i}", headers=writer).status_code for i in ids]
    assert kept == [200, 200, 404]
    before = service.client.post(f"/v1/spaces/{space}/erase", json={"speaker": "Ana", "before": "2023-05-01T10:00:30Z"},
                                 headers=eraser)  # fmt: skip
    assert before.status_code == 200 and before.json()["counts"]["turns"] == 0
    assert _evidence_count(service, space, writer) == 2 and _erasures(service, space, writer) == 2


def test_a_malformed_selector_is_a_422_naming_it_never_a_500(service: Service) -> None:
    """docs/service.md: "Nothing a client sends gets a 5xx". A lone surrogate in a selector
    (JSON carries it as ``\\ud800``) reached SQLite and answered 500 ``internal_error``; a
    session over ``EYWA_MAX_LABEL_CHARS`` was accepted."""
    space = "pr-erase-selectors"
    headers = service.headers([space], "read,write,erase")
    assert service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=headers).status_code == 201
    json_headers = {**headers, "Content-Type": "application/json"}
    cases = [
        ('{"speaker": "\\ud800"}', "body.speaker", "invalid_input"),
        ('{"session": "s\\ud800"}', "body.session", "invalid_input"),
        ('{"evidence_ids": ["\\ud800"]}', "body.evidence_ids.0", "invalid_input"),
        ('{"session": "%s"}' % ("s" * 501), "body.session", "limit_exceeded"),
    ]
    for body, field, code in cases:
        answer = service.client.post(f"/v1/spaces/{space}/erase", content=body, headers=json_headers)
        assert answer.status_code == 422, (body[:40], answer.status_code, answer.text)
        problem = answer.json()
        assert problem["code"] == code and [e["field"] for e in problem["errors"]] == [field], problem
    assert _evidence_count(service, space, headers) == len(TURNS) and _erasures(service, space, headers) == 0


def test_the_erasure_record_names_who_erased_the_key_over_http_and_cli_from_the_shell(
    service: Service, tmp_path: Path
) -> None:
    """README, "The erasure record": it "keeps who (the key id, ``cli`` from the shell)"; the
    author of an erasure was asserted on neither surface."""
    space = "pr-erase-author"
    headers = service.headers([space], "read,write,erase")
    key_id = headers["Authorization"].removeprefix("Bearer ").split("_")[1]
    assert service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=headers).status_code == 201
    assert service.client.post(f"/v1/spaces/{space}/erase", json={"speaker": "Bo"}, headers=headers).status_code == 200
    assert service.client.delete(f"/v1/spaces/{space}", headers=headers).status_code == 200
    memory: Memory = service.app.state.eywa.memory
    assert [record.author for record in memory.erasures(space)] == [key_id, key_id]

    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps(turn) for turn in TURNS))
    data = ["--data-dir", str(tmp_path / "shell")]
    runner = CliRunner()
    assert runner.invoke(cli, ["ingest", "--space", space, str(turns), *data]).exit_code == 0
    assert runner.invoke(cli, ["forget", "--space", space, "--speaker", "Bo", "--yes", *data]).exit_code == 0
    assert runner.invoke(cli, ["drop-space", space, "--yes", *data]).exit_code == 0
    graph = open_embedded_graph(tmp_path / "shell")  # the graph alone: the CLI embedded with MiniLM
    try:
        assert [record.author for record in graph.erasure.erasures(space)] == ["cli", "cli"]
    finally:
        graph.close()
