"""Server-to-client requests over Streamable HTTP, answered by the official Python SDK's client.

`wirelab/mcp/http.py` says a tool's requests to the client (sampling, roots, elicitation)
travel on the SSE stream of the request that runs it, and that the SDKs' clients answer
them. tests/mcp/test_http_limits.py proves it with our own client; this file proves it
with `mcp.ClientSession` over `streamable_http_client` (the handshake era, 2025-11-25).
"""

import asyncio

import pytest

from wirelab.mcp.http import serve_http
from wirelab.mcp.server import Context, Server

pytestmark = pytest.mark.timeout(90)


def asking_server() -> Server:
    server = Server("asks")

    @server.tool()
    async def greet(ctx: Context) -> str:
        """Ask the user's name."""
        answer = await ctx.elicit("Name?", {"type": "object", "properties": {"name": {"type": "string"}}})
        return f"Hello, {answer['content']['name']}!"

    @server.tool()
    async def summarize(ctx: Context) -> str:
        """Ask the client's model for a summary."""
        reply = await ctx.sample("Summarize: tools on the wire", max_tokens=20)
        return f"model said: {reply['content']['text']}"

    @server.tool()
    async def roots(ctx: Context) -> str:
        """List the client's roots."""
        return ", ".join(root["uri"] for root in await ctx.list_roots())

    return server


def test_the_sdk_client_answers_elicitation_sampling_and_roots_over_http():
    from mcp import ClientSession, types
    from mcp.client.streamable_http import streamable_http_client

    asked = []

    async def on_elicitation(context, params):
        asked.append(("elicitation", params.message))
        return types.ElicitResult(action="accept", content={"name": "Ada"})

    async def on_sampling(context, params):
        asked.append(("sampling", params.messages[0].content.text))
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="a short summary"), model="test"
        )

    async def on_roots(context):
        asked.append(("roots", None))
        return types.ListRootsResult(roots=[types.Root(uri="file:///work/notes", name="notes")])

    async def use(url):
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(
                read,
                write,
                elicitation_callback=on_elicitation,
                sampling_callback=on_sampling,
                list_roots_callback=on_roots,
            ) as session,
        ):
            await session.initialize()
            names = ("greet", "summarize", "roots")
            return [(await session.call_tool(name, {})).content[0].text for name in names]

    with serve_http(asking_server()) as running:
        texts = asyncio.run(use(running.url))
    assert texts == ["Hello, Ada!", "model said: a short summary", "file:///work/notes"]
    assert asked == [
        ("elicitation", "Name?"),
        ("sampling", "Summarize: tools on the wire"),
        ("roots", None),
    ]
