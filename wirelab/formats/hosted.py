"""The course's own MCP client, handed to the offline model for the Responses API's hosted
`mcp` tool (lesson 17).

    enable_hosted_mcp()    # then: tools=[{"type": "mcp", "server_url": …, "require_approval": …}]

The offline model is lesson 00's and MCP comes in lesson 08, so the offline model does not
import an MCP client: lesson 17 gives it one (`offline_model.wire.hosted_mcp.use_mcp_client`).
`CourseClient` opens a session per request with `wirelab.mcp.transports.http.client.connect_http`
(the 2025-11-25 era), as a provider's side would, and closes it again.
"""

from __future__ import annotations

import asyncio
from typing import Any

from wirelab.mcp.transports.http.client import connect_http
from wirelab.offline_model.wire.hosted_mcp import use_mcp_client

TIMEOUT_S = 10.0


class CourseClient:
    """Lists tools and calls one on a Streamable HTTP server, each in a short session of its own."""

    def list_tools(self, url: str) -> list[dict[str, Any]]:
        return asyncio.run(self._session(url, None, None))

    def call_tool(self, url: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return asyncio.run(self._session(url, name, arguments))

    async def _session(self, url: str, name: str | None, arguments: dict[str, Any] | None) -> Any:
        async with connect_http(url, timeout=TIMEOUT_S) as client:
            if name is None:
                return await client.list_tools()
            return await client.call_tool(name, arguments or {})


def enable_hosted_mcp() -> None:
    """Let the offline model reach `mcp` tools' servers with the course's own client."""
    use_mcp_client(CourseClient())
