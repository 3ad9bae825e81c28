"""Streamable HTTP interoperability with the official MCP Python SDK, both ways and both eras.

- The SDK's `streamable_http_client` + `ClientSession`, and `mcp.Client` (auto-detecting,
  pinned to legacy, pinned to 2026-07-28), use our example server over HTTP.
- Our HTTP client uses a server written with the SDK (`mcp.server.MCPServer`) over
  streamable HTTP: the reference server of tests/servers.py, started by the
  `sdk_server_url` fixture of tests/conftest.py.
"""

import asyncio

import pytest

from wirelab.mcp.transports.http.client import connect_http

pytestmark = pytest.mark.timeout(90)


# --- the SDK's clients, our server ---


def test_the_sdk_session_initializes_and_calls_tools_over_http(running):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def use():
        progress = []

        async def on_progress(done, total, message):
            progress.append(done)

        async with (
            streamable_http_client(running.url) as (read, write),
            ClientSession(read, write) as session,
        ):
            initialized = await session.initialize()
            tools = await session.list_tools()
            rebuilt = await session.call_tool("rebuild_index", {"passes": 2}, progress_callback=on_progress)
            invalid = await session.call_tool("search_notes", {"query": 5})
        return initialized, tools, rebuilt, invalid, progress

    initialized, tools, rebuilt, invalid, progress = asyncio.run(use())
    assert initialized.protocol_version == "2025-11-25"
    assert initialized.server_info.name == "wirelab-notes"
    assert len(tools.tools) == 4
    assert rebuilt.content[0].text == "Index rebuilt in 2 passes."
    assert progress == [1, 2]
    assert invalid.is_error is True


@pytest.mark.parametrize(("mode", "modern"), [("auto", True), ("legacy", False), ("2026-07-28", True)])
def test_the_sdk_client_uses_our_server_in_every_mode(running, mode, modern):
    from mcp import Client

    async def use():
        async with Client(running.url, mode=mode) as client:
            discovered = client.session.discover_result is not None
            return (
                discovered,
                await client.list_tools(),
                await client.call_tool("search_notes", {"query": "stdout"}),
                await client.read_resource("notes://note/stdio"),
                await client.get_prompt("quiz_me", {"topic": "ids", "questions": "2"}),
            )

    discovered, tools, found, note, prompt = asyncio.run(use())
    assert discovered is modern
    assert [t.name for t in tools.tools][0] == "search_notes"
    assert found.content[0].text == "stdio: The stdio transport"
    assert note.contents[0].text.startswith("# The stdio transport")
    assert prompt.messages[0].content.text == "Quiz me on ids: ask 2 questions, one at a time."


# --- our client, the SDK's server ---


@pytest.mark.parametrize("era", ["2025-11-25", "2026-07-28"])
def test_our_client_uses_an_sdk_server_over_http(sdk_server_url, era):
    async def use():
        async with connect_http(sdk_server_url, era=era) as client:
            return (
                client.protocol_version,
                client.server_info,
                await client.list_tools(),
                await client.call_tool("multiply", {"a": 6, "b": 7}),
                await client.read_resource("memo://greeting"),
                await client.get_prompt("review", {"topic": "HTTP"}),
            )

    version, info, tools, product, greeting, prompt = asyncio.run(use())
    assert version == era
    assert info["name"] == "sdk-reference"
    assert [t["name"] for t in tools] == ["multiply"]
    assert product["content"][0]["text"] == "42"
    assert greeting["contents"][0]["text"] == "hello from the SDK"
    assert prompt["messages"][0]["content"]["text"] == "Please review HTTP."
