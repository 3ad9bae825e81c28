"""Server-to-client requests over Streamable HTTP, answered by the official Python SDK's client.

`wirelab/mcp/transports/http/server.py` says a tool's requests to the client (sampling, roots, elicitation)
travel on the SSE stream of the request that runs it, and that the SDKs' clients answer
them. tests/mcp/transports/http/test_http_limits.py proves it with our own client; this file proves it
with `mcp.ClientSession` over `streamable_http_client` (the handshake era, 2025-11-25), and
tests/mcp/transports/http/test_http_server_requests_ts_sdk.py with the TypeScript SDK's client. The server,
`asking_server()`, is in tests/servers.py.
"""

import asyncio

import pytest

from tests.servers import asking_server
from wirelab.mcp.transports.http.server import serve_http

pytestmark = pytest.mark.timeout(90)


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
