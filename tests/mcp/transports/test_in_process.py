"""The one in-process transport: real JSON both ways, and a server that may send from any thread."""

import asyncio
import json
import threading

import pytest

from wirelab.mcp.client import Client
from wirelab.mcp.server import Server, ServerTool
from wirelab.mcp.transports.in_process import InProcessTransport
from wirelab.security.demo import InMemoryTransport

pytestmark = pytest.mark.timeout(20)


def test_the_security_demo_uses_the_same_transport():
    assert InMemoryTransport is InProcessTransport


def test_a_tool_list_changed_from_another_thread_reaches_the_client():
    server = Server("threads")

    @server.tool()
    def grow() -> str:
        """Add a tool, from a thread of its own."""
        extra = ServerTool("extra", "Added later.", {"type": "object", "properties": {}}, lambda: "hi")
        worker = threading.Thread(target=server.add_tool, args=(extra,))
        worker.start()
        worker.join()
        return "grown"

    async def scenario():
        changed = asyncio.Event()
        async with Client(InProcessTransport(server)) as client:
            client.on_notification("notifications/tools/list_changed", lambda params: changed.set())
            await client.call_tool("grow", {})
            await asyncio.wait_for(changed.wait(), 5)
            return [tool["name"] for tool in await client.list_tools()]

    assert asyncio.run(scenario()) == ["grow", "extra"]


def test_messages_cross_as_json_text():
    server = Server("json")

    @server.tool()
    def echo(value: str) -> dict:
        return {"value": value}

    async def scenario():
        transport = InProcessTransport(server)
        seen = []
        transport.wire.subscribe(seen.append)
        async with Client(transport) as client:
            result = await client.call_tool("echo", {"value": "é"})
        return result, seen

    result, seen = asyncio.run(scenario())
    assert json.loads(result["content"][0]["text"]) == {"value": "é"}
    assert [m.kind for m in seen][:2] == ["request", "response"]
