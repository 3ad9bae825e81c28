"""Faults (lessons 08, 10, 11): a server killed mid-call, a tool that hangs, a tool that raises,
a client that hangs up mid-stream, a slow consumer. Each is reported clearly and no message
is lost. This file serves its fault server on stdio when run as a script:
`python tests/mcp/test_faults.py`.
"""

import asyncio
import concurrent.futures
import json
import sys
import threading

import httpx2
import pytest

from wirelab import jsonrpc
from wirelab.loop import execute_tool_call
from wirelab.mcp.client import RequestTimeout, ServerDied, connect_stdio
from wirelab.mcp.host import McpHost
from wirelab.mcp.server import Context, Server
from wirelab.mcp.transports.http.client import connect_http
from wirelab.mcp.transports.http.server import SESSION_HEADER, serve_http
from wirelab.mcp.transports.stdio import run_stdio

pytestmark = pytest.mark.timeout(60)

FAULT_SERVER = [sys.executable, __file__]
ACCEPT = {"Accept": "application/json, text/event-stream"}
INITIALIZE = jsonrpc.request(
    0,
    "initialize",
    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "faults", "version": "1"}},
)


def fault_server(events: dict[str, asyncio.Event] | None = None) -> Server:
    """Tools that misbehave on purpose; `events` lets an in-process test see a tool end."""
    server, events = Server("faults"), events if events is not None else {}

    @server.tool()
    async def hang() -> str:
        """Never answer (until cancelled)."""
        try:
            await asyncio.Event().wait()
        finally:
            events.setdefault("hang_ended", asyncio.Event()).set()
        return "unreachable"

    @server.tool()
    def explode(why: str) -> str:
        """Raise an exception."""
        raise RuntimeError(f"boom: {why}")

    @server.tool()
    async def chatty(ctx: Context, count: int, pause: float = 0.0) -> str:
        """Send `count` progress notifications of about 1 kB, then answer."""
        for done in range(1, count + 1):
            ctx.report_progress(done, count, f"step {done} " + "x" * 1000)
            await asyncio.sleep(pause)
        return f"sent {count}"

    @server.tool()
    def echo(text: str) -> str:
        """Return the text."""
        return text

    return server


# --- the server killed mid-call ---


def test_a_server_killed_mid_call_fails_that_call_with_its_exit_code_and_later_calls_at_once():
    async def scenario():
        async with connect_stdio(FAULT_SERVER, timeout=20) as client:
            progress = []
            call = asyncio.create_task(
                client.call_tool("chatty", {"count": 1000, "pause": 0.01}, on_progress=progress.append)
            )
            while len(progress) < 3:
                await asyncio.sleep(0.01)
            client.transport.process.kill()
            with pytest.raises(ServerDied) as died:
                await call
            with pytest.raises(ServerDied) as later:
                await client.ping()
            return died.value, later.value, progress

    died, later, progress = asyncio.run(scenario())
    assert "exit code -9" in str(died) and later is died
    assert [p["progress"] for p in progress] == list(range(1, len(progress) + 1))  # none lost


def test_the_loop_gets_a_clear_tool_error_when_the_server_is_killed_mid_call():
    with McpHost.stdio(FAULT_SERVER, timeout=20) as host:
        sent = threading.Event()
        host.client.wire.subscribe(lambda m: m.method == "tools/call" and sent.set())
        call = {"id": "c1", "type": "function", "function": {"name": "hang", "arguments": "{}"}}
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            running = pool.submit(execute_tool_call, call, host.tools)
            assert sent.wait(10)
            host.client.transport.process.kill()
            content = running.result(20)
    error = json.loads(content)["error"]
    assert error["code"] == "tool_failed"
    assert "ServerDied" in error["message"] and "exit code -9" in error["message"]


@pytest.mark.parametrize(
    "arguments", ['{"x": ' + "1" * 5000 + "}", "[" * 100_000], ids=["long-integer", "deep-nesting"]
)
def test_the_loop_turns_unreadable_arguments_into_an_error_result(arguments):
    from wirelab.tools import ToolRegistry

    def identity(x: int) -> int:
        """Return x."""
        return x

    call = {"id": "c1", "type": "function", "function": {"name": "identity", "arguments": arguments}}
    assert json.loads(execute_tool_call(call, ToolRegistry([identity])))["error"]["code"] == "invalid_json"


# --- a tool that hangs, a tool that raises ---


def test_a_hanging_tool_times_out_with_a_clear_error_and_the_session_goes_on():
    async def scenario():
        async with connect_stdio(FAULT_SERVER, timeout=20) as client:
            with pytest.raises(RequestTimeout) as timed_out:
                await client.call_tool("hang", timeout=0.3)
            return timed_out.value, await client.call_tool("echo", {"text": "after"})

    timed_out, after = asyncio.run(scenario())
    assert "tools/call" in str(timed_out) and "cancelled" in str(timed_out)
    assert after["content"][0]["text"] == "after"


def test_a_tool_that_raises_is_an_error_result_naming_the_exception_over_stdio_and_http():
    async def call(client):
        return await client.call_tool("explode", {"why": "disk full"}), await client.ping()

    async def over_http(url):
        async with connect_http(url, timeout=20) as client:
            return await call(client)

    async def over_stdio():
        async with connect_stdio(FAULT_SERVER, timeout=20) as client:
            return await call(client)

    with serve_http(fault_server()) as running:
        results = [asyncio.run(over_stdio()), asyncio.run(over_http(running.url))]
    for result, pong in results:
        assert result["isError"] is True and pong == {}
        assert "RuntimeError: boom: disk full" in result["content"][0]["text"]


# --- HTTP: a client that hangs up mid-stream, a hanging tool ---


def open_session(http: httpx2.Client, url: str) -> dict[str, str]:
    return {**ACCEPT, SESSION_HEADER: http.post(url, json=INITIALIZE, headers=ACCEPT).headers[SESSION_HEADER]}


def test_a_client_that_hangs_up_mid_sse_stream_cancels_its_call_and_the_session_goes_on():
    with serve_http(fault_server()) as running, httpx2.Client(timeout=10) as http:
        headers = open_session(http, running.url)
        call = jsonrpc.request(
            1,
            "tools/call",
            {"name": "chatty", "arguments": {"count": 500, "pause": 0.02}, "_meta": {"progressToken": "t"}},
        )
        with http.stream("POST", running.url, json=call, headers=headers) as stream:
            first = next(line for line in stream.iter_lines() if line.startswith("data:"))
        assert json.loads(first[5:])["method"] == "notifications/progress"
        session = running.app.sessions[headers[SESSION_HEADER]].session
        for _ in range(200):  # the server notices the hang-up at its next write
            if not session.in_flight:
                break
            threading.Event().wait(0.02)
        assert session.in_flight == {}
        after = http.post(running.url, json=jsonrpc.request(2, "ping"), headers=headers)
        assert after.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}


def test_a_cancelled_http_request_gets_its_post_answered_and_leaves_nothing_running():
    with serve_http(fault_server()) as running, httpx2.Client(timeout=2) as http:
        headers = open_session(http, running.url)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pending = pool.submit(
                http.post,
                running.url,
                headers=headers,
                json=jsonrpc.request(1, "tools/call", {"name": "hang", "arguments": {}}),
            )
            session = running.app.sessions[headers[SESSION_HEADER]].session
            while not session.in_flight:
                threading.Event().wait(0.01)
            http.post(
                running.url,
                headers=headers,
                json=jsonrpc.notification("notifications/cancelled", {"requestId": 1, "reason": "test"}),
            )
            assert pending.result(5).status_code in (200, 202, 204)


# --- slow consumers ---


def test_a_slow_stdio_consumer_gets_every_notification_in_order_then_the_result():
    """2,000 notifications of 1 kB fill the pipe many times over while the client dawdles."""

    async def scenario():
        async with connect_stdio(FAULT_SERVER, timeout=30) as client:
            seen = []

            async def slowly(params):
                seen.append(params["progress"])
                if len(seen) % 100 == 0:
                    await asyncio.sleep(0.05)

            result = await client.call_tool("chatty", {"count": 2000}, on_progress=slowly)
            return result, seen

    result, seen = asyncio.run(scenario())
    assert result["content"][0]["text"] == "sent 2000"
    assert seen == list(range(1, 2001))


def test_a_slow_sse_consumer_gets_every_event_in_order_then_the_response():
    with serve_http(fault_server()) as running, httpx2.Client(timeout=10) as http:
        headers = open_session(http, running.url)
        call = jsonrpc.request(
            1, "tools/call", {"name": "chatty", "arguments": {"count": 300}, "_meta": {"progressToken": "t"}}
        )
        messages = []
        with http.stream("POST", running.url, json=call, headers=headers) as stream:
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    messages.append(json.loads(line[5:]))
                    if len(messages) % 50 == 0:
                        threading.Event().wait(0.1)
    assert [m["params"]["progress"] for m in messages[:-1]] == list(range(1, 301))
    assert messages[-1]["result"]["content"][0]["text"] == "sent 300"


if __name__ == "__main__":
    run_stdio(fault_server())
