"""Interoperability with the official MCP Python SDK (`mcp` on PyPI), both ways.

- The SDK's clients (`stdio_client` + `ClientSession`, and `mcp.Client`) use our
  example server over stdio (`mcp.Client` on 2026-07-28: see test_stdio_two_eras.py).
- Our client uses a server written with the SDK (`mcp.server.MCPServer`), the reference
  server of tests/servers.py (`python tests/servers.py stdio`).
"""

import asyncio
import sys

import pytest

from tests.servers import SDK_SERVER_STDIO

pytestmark = pytest.mark.timeout(60)

OUR_SERVER = ["-m", "wirelab.mcp.example"]


def our_server_parameters():
    from mcp import StdioServerParameters

    return StdioServerParameters(command=sys.executable, args=OUR_SERVER)


# --- the SDK's clients, our server ---


async def with_session(use):
    from mcp import ClientSession, stdio_client

    async with stdio_client(our_server_parameters()) as (read, write), ClientSession(read, write) as session:
        initialized = await session.initialize()
        return initialized, await use(session)


def test_the_sdk_session_initializes_with_our_server():
    initialized, _ = asyncio.run(with_session(lambda session: asyncio.sleep(0)))
    assert initialized.protocol_version == "2025-11-25"
    assert initialized.server_info.name == "wirelab-notes"
    assert initialized.capabilities.tools.list_changed is True
    assert initialized.capabilities.resources.subscribe is True


def test_the_sdk_session_lists_and_calls_our_tools():
    async def use(session):
        tools = await session.list_tools()
        text = await session.call_tool("search_notes", {"query": "stdout"})
        stats = await session.call_tool("note_stats", {})
        invalid = await session.call_tool("search_notes", {"query": 5})
        return tools, text, stats, invalid

    _, (tools, text, stats, invalid) = asyncio.run(with_session(use))
    assert [t.name for t in tools.tools] == ["search_notes", "add_note", "note_stats", "rebuild_index"]
    assert text.content[0].text == "stdio: The stdio transport"
    assert stats.structured_content["tags"] == ["protocol", "tools", "transport"]
    assert invalid.is_error is True


def test_the_sdk_session_reads_our_resources_and_gets_our_prompts():
    async def use(session):
        return (
            await session.list_resources(),
            await session.list_resource_templates(),
            await session.read_resource("notes://note/lifecycle"),
            await session.list_prompts(),
            await session.get_prompt("quiz_me", {"topic": "ids", "questions": "2"}),
        )

    _, (resources, templates, note, prompts, prompt) = asyncio.run(with_session(use))
    assert str(resources.resources[0].uri) == "notes://index"
    assert templates.resource_templates[0].uri_template == "notes://note/{slug}"
    assert note.contents[0].text.startswith("# The MCP lifecycle")
    assert {p.name for p in prompts.prompts} == {"summarize_note", "quiz_me"}
    assert prompt.messages[0].content.text == "Quiz me on ids: ask 2 questions, one at a time."


def test_the_sdk_session_receives_progress_from_our_server():
    async def use(session):
        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, total, message))

        await session.call_tool("rebuild_index", {"passes": 2}, progress_callback=on_progress)
        return seen

    _, seen = asyncio.run(with_session(use))
    assert seen == [(1, 2, "pass 1 of 2"), (2, 2, "pass 2 of 2")]


def test_the_sdk_client_connects_without_waiting_for_its_discover_timeout():
    """`mcp.Client` first sends server/discover, which our server answers: it adopts 2026-07-28.

    A server that stayed silent would cost it 10 s; the 5 s bound fails that case.
    """
    from mcp import Client

    async def scenario():
        async with asyncio.timeout(5) as connecting, Client(our_server_parameters()) as client:
            connecting.reschedule(None)  # the bound is on connecting; the calls below are free
            tools = await client.list_tools()
            result = await client.call_tool("search_notes", {"query": "stdout"})
            note = await client.read_resource("notes://index")
            prompt = await client.get_prompt("summarize_note", {"slug": "stdio"})
            return client.protocol_version, tools, result, note, prompt

    version, tools, result, note, prompt = asyncio.run(scenario())
    assert version == "2026-07-28"
    assert len(tools.tools) == 4 and result.content[0].text == "stdio: The stdio transport"
    assert "- stdio: The stdio transport" in note.contents[0].text
    assert "Summarize" in prompt.messages[0].content.text


# --- our client, the SDK's server ---


def test_our_client_uses_a_server_written_with_the_sdk():
    from wirelab.mcp.client import connect_stdio

    async def scenario():
        async with connect_stdio(SDK_SERVER_STDIO, timeout=20) as client:
            return (
                client.server_info,
                await client.list_tools(),
                await client.call_tool("multiply", {"a": 6, "b": 7}),
                await client.call_tool("multiply", {"a": "six", "b": 7}),
                await client.list_resources(),
                await client.read_resource("memo://greeting"),
                await client.read_resource("memo://echo/ping"),
                await client.list_prompts(),
                await client.get_prompt("review", {"topic": "x"}),
                await client.ping(),
            )

    (info, tools, product, invalid, resources, greeting, echo, prompts, prompt, pong) = asyncio.run(
        scenario()
    )
    assert info["name"] == "sdk-reference"
    assert [t["name"] for t in tools] == ["multiply"]
    assert product["content"][0]["text"] == "42" and not product.get("isError")
    assert invalid["isError"] is True
    assert [r["uri"] for r in resources] == ["memo://greeting"]
    assert greeting["contents"][0]["text"] == "hello from the SDK"
    assert echo["contents"][0]["text"] == "ping"
    assert [p["name"] for p in prompts] == ["review"]
    assert prompt["messages"][0]["content"]["text"] == "Please review x."
    assert pong == {}


def test_our_client_sees_the_sdk_servers_errors_as_json_rpc_errors():
    from wirelab.jsonrpc import JsonRpcError
    from wirelab.mcp.client import connect_stdio

    async def scenario():
        async with connect_stdio(SDK_SERVER_STDIO, timeout=20) as client:
            with pytest.raises(JsonRpcError) as unknown:
                await client.request("no/such/method")
            return unknown.value

    assert asyncio.run(scenario()).code == -32601
