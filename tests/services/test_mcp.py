"""The MCP server over stdio, driven by the official SDK's client: every tool and the
space summary resource, against a real embedded memory in a temporary directory."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import TextResourceContents

from services.mcp.server import TOOLS

TURNS = [
    {"text": "I work at Google now.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I live in Boston.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:01:00Z"},
]


def _payload(result: Any) -> Any:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text) if len(result.content) == 1 else [json.loads(c.text) for c in result.content]


async def _session_run(data_dir: Path) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "eywa.cli", "mcp", "--data-dir", str(data_dir)],
        cwd=str(Path(__file__).resolve().parents[2]),
    )
    out: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        out["tools"] = sorted(t.name for t in (await session.list_tools()).tools)
        out["remember"] = _payload(await session.call_tool("remember", {"space": "mcp", "turns": TURNS}))
        out["recall"] = _payload(await session.call_tool("recall", {"space": "mcp", "query": "Where does Cecilia work?"}))
        out["beliefs"] = _payload(await session.call_tool("beliefs", {"space": "mcp", "attribute": "employer"}))
        belief_id = out["beliefs"]["id"] if isinstance(out["beliefs"], dict) else out["beliefs"][0]["id"]
        out["explain"] = _payload(await session.call_tool("explain", {"space": "mcp", "belief_id": belief_id}))
        out["dimensions"] = _payload(await session.call_tool("dimensions", {"space": "mcp", "entity": "Cecilia"}))
        out["bad"] = await session.call_tool("explain", {"space": "mcp", "belief_id": "bel_missing"})
        resource = await session.read_resource("eywa://spaces/mcp/summary")
        summary = resource.contents[0]
        assert isinstance(summary, TextResourceContents), summary  # JSON text, not a blob
        out["summary"] = json.loads(summary.text)
        target = {"space": "mcp", "belief_id": belief_id}
        out["confirm"] = _payload(await session.call_tool("correct_belief", {**target, "action": "confirm"}))
        out["no_reason"] = await session.call_tool("correct_belief", {**target, "action": "retract"})
        out["retract"] = _payload(await session.call_tool("correct_belief", {**target, "action": "retract", "reason": "wrong"}))
        out["again"] = _payload(await session.call_tool("correct_belief", {**target, "action": "retract", "reason": "wrong"}))
        out["other"] = await session.call_tool("correct_belief", {**target, "action": "retract", "reason": "other"})
        out["no_candidate"] = await session.call_tool(
            "correct_candidate", {"space": "mcp", "candidate_id": "cand_missing", "action": "dismiss"}
        )
        out["corrections"] = _payload(await session.call_tool("corrections", {"space": "mcp", "target_id": belief_id}))
        out["merges"] = _payload(await session.call_tool("merges", {"space": "mcp"}))
        pair = {"space": "mcp", "source": "Google", "target": "Boston"}
        out["merge_unknown"] = await session.call_tool("merge", {**pair, "target": "Zed", "action": "accept"})
        out["merge"] = _payload(await session.call_tool("merge", {**pair, "action": "accept"}))
        out["unmerge"] = _payload(await session.call_tool("merge", {**pair, "action": "undo"}))
        out["no_selector"] = await session.call_tool("forget", {"space": "mcp"})
        out["forget"] = _payload(await session.call_tool("forget", {"space": "mcp", "speaker": "Cecilia"}))
        out["after"] = _payload(await session.call_tool("recall", {"space": "mcp", "query": "Where does Cecilia work?"}))
        out["drop"] = _payload(await session.call_tool("drop_space", {"space": "mcp"}))
    return out


def test_mcp_tools_over_stdio(tmp_path: Path) -> None:
    out = anyio.run(_session_run, tmp_path)
    assert out["tools"] == sorted(TOOLS)
    ids = out["remember"]["ids"]
    assert len(ids) == 2
    assert "Google" in out["recall"]["context"] and "trace" not in out["recall"]
    assert ids[0] in {ref["id"] for item in out["recall"]["items"] for ref in item["provenance"]}
    beliefs = out["beliefs"] if isinstance(out["beliefs"], list) else [out["beliefs"]]
    assert [b["value"] for b in beliefs] == ["Google"]
    assert [t["id"] for t in out["explain"]["turns"]] == [ids[0]]
    dims = out["dimensions"] if isinstance(out["dimensions"], list) else [out["dimensions"]]
    assert {d["attribute"] for d in dims} == {"employer", "residence"}
    assert out["no_selector"].is_error and "at least one selector" in out["no_selector"].content[0].text
    assert out["confirm"]["reliability_after"] > out["confirm"]["reliability_before"]
    assert out["no_reason"].is_error and out["no_reason"].content[0].text.split(": ")[1] == "invalid_input"
    assert (out["retract"]["kind"], out["retract"]["reason"], out["retract"]["author"]) == ("retract_belief", "wrong", None)
    assert out["again"] == out["retract"]  # the same retraction sent again: answered by its record
    assert out["other"].is_error and ": conflict: " in out["other"].content[0].text
    assert out["no_candidate"].is_error and ": not_found: " in out["no_candidate"].content[0].text
    assert out["merges"] == {"merges": [], "proposals": []}
    assert out["merge_unknown"].is_error and ": not_found: " in out["merge_unknown"].content[0].text
    assert (out["merge"]["source"], out["merge"]["target"]) == ("google", "boston") and out["unmerge"] == {"undone": True}
    assert out["merge"]["author"] is None  # stdio: no key
    corrections = out["corrections"] if isinstance(out["corrections"], list) else [out["corrections"]]
    assert [c["kind"] for c in corrections] == ["confirm_belief", "retract_belief"]
    assert out["forget"]["state"] == "done" and out["forget"]["counts"]["turns"] == 2
    assert "Google" not in out["after"]["context"] and out["after"]["items"] == []
    assert out["drop"]["counts"]["turns"] == 0
    assert out["bad"].is_error and "not found" in out["bad"].content[0].text
    assert out["summary"]["stats"]["evidence"] == 2 and len(out["summary"]["beliefs"]) == 2


def test_eywa_mcp_help_names_every_tool() -> None:
    """``eywa mcp --help`` tells a user which tools the server offers (it named five of twelve)."""
    from typer.testing import CliRunner

    from eywa.cli import app

    shown = " ".join(CliRunner().invoke(app, ["mcp", "--help"], env={"COLUMNS": "300"}).stdout.split())
    listed = set(re.findall(r"\w+", shown.partition("Tools:")[2].partition(".")[0]))
    missing = [tool for tool in TOOLS if tool not in listed]
    assert not missing, shown
