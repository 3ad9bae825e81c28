"""Load on the Streamable HTTP server (lesson 11): many concurrent sessions, each making many calls.

Every call is answered, each session sees only its own results and its own progress
notifications (the request ids, and so the progress tokens, are the same numbers in every
session), and once the clients have closed, no session is left open on the server.
"""

import asyncio
import socket

import pytest

from wirelab.mcp.server import Context, Server
from wirelab.mcp.transports.http.client import connect_http
from wirelab.mcp.transports.http.server import serve_http

pytestmark = pytest.mark.timeout(120)

SESSIONS, CALLS = 8, 25


def tagging_server() -> Server:
    server = Server("load")

    @server.tool()
    async def tag(ctx: Context, owner: str, n: int) -> str:
        """Report progress naming the owner, yield to the others, then answer with owner and n."""
        ctx.report_progress(n, CALLS, f"{owner}:{n}")
        await asyncio.sleep(0)
        return f"{owner}:{n}"

    return server


async def one_client(url: str, owner: str, era: str) -> tuple[list[str], list[str]]:
    """CALLS concurrent calls from one client; its results and the progress messages it heard."""
    heard: list[str] = []
    async with connect_http(url, era=era, timeout=60) as client:
        results = await asyncio.gather(
            *(
                client.call_tool(
                    "tag", {"owner": owner, "n": n}, on_progress=lambda p: heard.append(p["message"])
                )
                for n in range(CALLS)
            )
        )
    return [r["content"][0]["text"] for r in results], heard


async def load(url: str, era: str) -> list[tuple[list[str], list[str]]]:
    return await asyncio.gather(*(one_client(url, f"client{i}", era) for i in range(SESSIONS)))


@pytest.mark.parametrize("era", ["2025-11-25", "2026-07-28"])
def test_concurrent_sessions_get_every_answer_and_only_their_own(era):
    with serve_http(tagging_server()) as running:
        outcomes = asyncio.run(load(running.url, era))
        left_open = dict(running.app.sessions)
    for i, (results, heard) in enumerate(outcomes):
        expected = [f"client{i}:{n}" for n in range(CALLS)]
        assert results == expected
        assert sorted(heard) == sorted(expected)
    assert left_open == {}


def test_the_http_server_sends_small_answers_without_waiting_for_nagle():
    """Accepted connections get TCP_NODELAY from a listener that has it, or from asyncio when
    the listener is a TCP-protocol socket (asyncio checks `sock.proto`)."""
    with serve_http(tagging_server()) as running:
        listener = running._socket
        assert (
            listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
            or listener.proto == socket.IPPROTO_TCP
        )
