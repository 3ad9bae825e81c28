"""The stdio server speaks both eras on one connection, each message picking its own:
a request whose `_meta` names a protocol version (and `server/discover`) is 2026-07-28,
answered statelessly; everything else is the `initialize` session's. Proved with raw
lines to a real subprocess and with the SDK's `mcp.Client` pinned to each era."""

import asyncio
import json
import subprocess
import sys

import pytest

from wirelab.mcp.stateless import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY

pytestmark = pytest.mark.timeout(60)

SERVER = [sys.executable, "-m", "wirelab.mcp.example"]


def modern(id_, method, params=None, version="2026-07-28"):
    meta = {PROTOCOL_VERSION_KEY: version, CLIENT_CAPABILITIES_KEY: {}}
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": {**(params or {}), "_meta": meta}}


def legacy(id_, method, params=None):
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params or {}}


INITIALIZE = legacy(
    "init",
    "initialize",
    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
)
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def exchange(*messages: dict) -> dict:
    """Send `messages` as lines to a fresh server, close stdin; its answers by id."""
    data = b"".join(json.dumps(m).encode() + b"\n" for m in messages)
    done = subprocess.run(SERVER, input=data, capture_output=True, timeout=30, check=True)
    return {r["id"]: r for r in map(json.loads, done.stdout.splitlines()) if "id" in r}


def test_a_2026_request_needs_no_initialize_over_stdio():
    answers = exchange(
        modern(1, "server/discover"),
        modern(2, "tools/list"),
        modern(3, "tools/call", {"name": "search_notes", "arguments": {"query": "stdout"}}),
    )
    discover = answers[1]["result"]
    assert discover["supportedVersions"][0] == "2026-07-28" and "2025-11-25" in discover["supportedVersions"]
    assert "tools" in discover["capabilities"] and discover["resultType"] == "complete"
    assert len(answers[2]["result"]["tools"]) == 4 and answers[2]["result"]["resultType"] == "complete"
    assert answers[3]["result"]["content"][0]["text"] == "stdio: The stdio transport"


def test_both_eras_share_one_connection_and_a_legacy_request_still_needs_initialize():
    answers = exchange(
        legacy("early", "tools/list"),
        modern("m1", "tools/list"),
        INITIALIZE,
        INITIALIZED,
        legacy("l1", "tools/list"),
        modern("m2", "ping"),
    )
    assert answers["early"]["error"]["code"] == -32600  # the handshake era is unchanged
    assert answers["m1"]["result"]["resultType"] == "complete"
    assert answers["init"]["result"]["protocolVersion"] == "2025-11-25"
    assert "resultType" not in answers["l1"]["result"] and len(answers["l1"]["result"]["tools"]) == 4
    assert answers["m2"]["error"]["code"] == -32601  # ping was removed in 2026-07-28


def test_an_unknown_version_or_a_missing_envelope_gets_the_specifications_error():
    answers = exchange(
        modern(1, "tools/list", version="2030-01-01"),
        legacy(2, "server/discover"),
    )
    assert answers[1]["error"]["code"] == -32022
    assert answers[1]["error"]["data"]["supported"][0] == "2026-07-28"
    assert answers[1]["error"]["data"]["requested"] == "2030-01-01"
    assert answers[2]["error"]["code"] == -32602 and "_meta" in answers[2]["error"]["message"]


def sdk_client(mode: str):
    from mcp import Client, StdioServerParameters

    return Client(StdioServerParameters(command=sys.executable, args=SERVER[1:]), mode=mode)


@pytest.mark.parametrize("mode", ["2026-07-28", "auto"])
def test_the_sdk_client_on_2026_07_28_uses_our_stdio_server(mode):
    async def scenario():
        async with asyncio.timeout(30), sdk_client(mode) as client:
            return (
                client.protocol_version,
                await client.list_tools(),
                await client.call_tool("search_notes", {"query": "stdout"}),
                await client.read_resource("notes://index"),
                await client.get_prompt("summarize_note", {"slug": "stdio"}),
            )

    version, tools, result, note, prompt = asyncio.run(scenario())
    assert version == "2026-07-28"
    assert [t.name for t in tools.tools] == ["search_notes", "add_note", "note_stats", "rebuild_index"]
    assert result.content[0].text == "stdio: The stdio transport"
    assert "- stdio: The stdio transport" in note.contents[0].text
    assert "Summarize" in prompt.messages[0].content.text


def test_the_sdk_client_pinned_to_2026_07_28_receives_progress_over_stdio():
    async def scenario():
        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, total, message))

        async with asyncio.timeout(30), sdk_client("2026-07-28") as client:
            await client.call_tool("rebuild_index", {"passes": 2}, progress_callback=on_progress)
        return seen

    assert asyncio.run(scenario()) == [(1, 2, "pass 1 of 2"), (2, 2, "pass 2 of 2")]
