"""Servers the tests share: the fuzz target, a server that asks its client, the MCP SDK's reference server.

`fuzz_server()` is what the stdio and HTTP fuzz tests throw bad input at: tools that echo,
add, raise and report progress, and one resource. `asking_server()` has one tool per request
a server sends its client (elicitation, sampling, roots), for the tests that prove the SDKs'
clients answer them over HTTP. `sdk_reference_server()` is a small server
written with the MCP SDK, to prove our client against a reference; run this file to serve it:

    python tests/servers.py stdio
    python tests/servers.py http PORT
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script, tests/ comes first on sys.path: tests/mcp would hide the SDK
    del sys.path[0]

from wirelab.mcp.server import Context, Server

SDK_SERVER_STDIO = [sys.executable, str(Path(__file__).resolve()), "stdio"]


def fuzz_server() -> Server:
    server = Server("fuzz")

    @server.tool()
    def echo(text: str) -> str:
        """Return the text."""
        return text

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def fail() -> str:
        """Always raise."""
        raise RuntimeError("a tool bug")

    @server.tool()
    def steps(ctx: Context, count: int = 2) -> str:
        """Report progress (at most three steps), which turns the answer into an SSE stream."""
        for done in range(1, min(count, 3) + 1):
            ctx.report_progress(done, 3)
        return "done"

    @server.resource("fuzz://static")
    def static() -> str:
        """A fixed text."""
        return "static"

    return server


def asking_server() -> Server:
    """Tools that ask the client: `greet` elicits a name, `summarize` samples, `roots` lists roots."""
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


def sdk_reference_server():
    """An MCPServer with one tool, two resources (one a template) and one prompt."""
    from mcp.server import MCPServer

    server = MCPServer("sdk-reference")

    @server.tool()
    def multiply(a: int, b: int) -> int:
        """Multiply two integers."""
        return a * b

    @server.resource("memo://greeting")
    def greeting() -> str:
        """A greeting."""
        return "hello from the SDK"

    @server.resource("memo://echo/{word}")
    def echo(word: str) -> str:
        """Echo a word."""
        return word

    @server.prompt()
    def review(topic: str) -> str:
        """Ask for a review."""
        return f"Please review {topic}."

    return server


if __name__ == "__main__":
    if sys.argv[1:2] == ["stdio"]:
        sdk_reference_server().run("stdio")
    elif sys.argv[1:2] == ["http"] and len(sys.argv) == 3:
        asyncio.run(sdk_reference_server().run_streamable_http_async(host="127.0.0.1", port=int(sys.argv[2])))
    else:
        sys.exit("usage: python tests/servers.py stdio | http PORT")
