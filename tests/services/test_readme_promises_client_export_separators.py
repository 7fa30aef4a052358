"""README, "The input contract": control characters (any C1 one among them) are "stored as
given and returned the same on both backends and every surface", ``eywa.Client`` included;
and Portability: ``eywa.Client`` / ``AsyncClient`` ``export_space``.

``GET …/export`` writes NEL (U+0085) and the separators U+2028 / U+2029 raw inside its JSON
strings, as JSON allows; the clients split the NDJSON answer with ``str.splitlines``, which
breaks lines there too, so ``export_space`` of a space holding one failed with a
``StoreError`` (found by probing, audit of s32). NDJSON lines end at ``\\n`` alone.
"""

from __future__ import annotations

import anyio

from eywa import AsyncClient, Client, Memory
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture

TEXTS = [f"I moved to Lyon{c} last spring, day {i}." for i, c in enumerate("\x85\u2028\u2029")]


def test_both_clients_export_a_space_holding_nel_or_line_separators(live: tuple[str, Service], memory: Memory) -> None:
    url, svc = live
    space = "client-export-sep"
    memory.remember(space, [{"text": text, "speaker": "An\x85a"} for text in TEXTS])
    key = svc.headers([space], "read,write,admin")["Authorization"].removeprefix("Bearer ")
    with Client(url, key) as client:
        records = client.export_space(space)

    async def exported() -> list[str]:
        async with AsyncClient(url, key) as client:
            return [r.evidence.text for r in await client.export_space(space) if r.kind == "turn"]

    assert sorted(r.evidence.text for r in records if r.kind == "turn") == sorted(TEXTS)
    assert {r.evidence.speaker for r in records if r.kind == "turn"} == {"An\x85a"}
    assert sorted(anyio.run(exported)) == sorted(TEXTS)
