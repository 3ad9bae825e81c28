"""Issue 14's red-team findings on stdio: bounded work, the last line kept, one answer per line.

The example server runs as a real subprocess, as a host would start it; the in-flight
limit and the end-of-input grace are checked on a `StdioServer` over pipes in memory.
"""

import asyncio
import io
import json
import subprocess
import sys
import time

import pytest

from wirelab.jsonrpc import request
from wirelab.mcp.example import MAX_PASSES
from wirelab.mcp.server import Server
from wirelab.mcp.transports.stdio import SERVER_BUSY, LineSplitter, StdioServer

pytestmark = pytest.mark.timeout(60)

SERVER = [sys.executable, "-m", "wirelab.mcp.example"]
INITIALIZE = request(
    0,
    "initialize",
    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
)


def line(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


def exchange(data: bytes, timeout: float = 30) -> list[dict]:
    """Feed `data` to the example server, close stdin, and return every line it wrote, parsed."""
    done = subprocess.run(SERVER, input=data, capture_output=True, timeout=timeout, check=True)
    return [json.loads(text) for text in done.stdout.splitlines()]


def test_a_last_request_without_a_newline_is_answered():
    """Before the fix it was silently dropped."""
    responses = exchange(line(INITIALIZE) + json.dumps(request("last", "ping")).encode())
    assert [r["id"] for r in responses] == [0, "last"]


def test_the_splitter_hands_over_the_last_line_at_the_end_of_the_stream():
    splitter = LineSplitter(limit=8)
    assert splitter.feed(b'{"a":1}\n{"b"') == [b'{"a":1}']
    assert splitter.finish() == [b'{"b"']
    assert splitter.finish() == []


def test_passes_has_an_upper_bound_in_the_schema():
    call = request(1, "tools/call", {"name": "rebuild_index", "arguments": {"passes": 10**9}})
    start = time.monotonic()
    responses = exchange(line(INITIALIZE) + line(call))
    result = responses[1]["result"]
    assert result["isError"] and f"maximum of {MAX_PASSES}" in result["content"][0]["text"]
    assert time.monotonic() - start < 20


@pytest.mark.parametrize(
    "text, id",
    [
        ('{"jsonrpc": "2.0", "id": "\\ud800", "method": "ping"}', None),
        ('{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "\\ud800"}}', 3),
        (
            '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", '
            '"params": {"name": "search_notes", "arguments": {"query": "\\udfff"}}}',
            4,
        ),
        ('{"jsonrpc": "2.0", "result": {}}', None),
        ('{"jsonrpc": "1.0", "jsonrpc": "2.0", "id": 5, "method": "ping"}', None),
    ],
)
def test_each_bad_line_gets_exactly_one_well_formed_answer(text, id):
    """Before the fix a lone surrogate got no answer at all, and a response without an id an
    unhandled task."""
    responses = exchange(line(INITIALIZE) + text.encode() + b"\n" + line(request("after", "ping")))
    assert [r.get("id") for r in responses] == [0, id, "after"]
    assert "error" in responses[1]


class Pipe(io.RawIOBase):
    """A stdin that hands out `data`, then waits for `release` before it ends (EOF)."""

    def __init__(self, data: bytes, hold: float = 0.0) -> None:
        self.data, self.hold = data, hold

    def read1(self, size: int = -1) -> bytes:
        if self.data:
            chunk, self.data = self.data, b""
            return chunk
        time.sleep(self.hold)
        return b""


def serve(server: Server, data: bytes, **options) -> list[dict]:
    out = io.BytesIO()
    asyncio.run(StdioServer(server, Pipe(data, hold=0.5), out, **options).serve())
    return [json.loads(text) for text in out.getvalue().splitlines()]


def slow_server() -> Server:
    server = Server("slow")

    @server.tool()
    async def wait(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "done"

    return server


def test_requests_beyond_the_in_flight_limit_get_a_busy_error_at_once():
    """Before the fix 20k concurrent calls grew the server from 20 to 146 MiB."""
    calls = b"".join(
        line(request(i, "tools/call", {"name": "wait", "arguments": {"seconds": 0.3}})) for i in range(1, 11)
    )
    responses = serve(slow_server(), line(INITIALIZE) + calls, max_in_flight=4)
    errors = [r for r in responses if "error" in r]
    assert len(responses) == 11 and len(errors) == 11 - 4  # initialize takes one of the four places
    assert {r["error"]["code"] for r in errors} == {SERVER_BUSY}
    assert "4 requests are already running" in errors[0]["error"]["message"]


def test_work_still_running_at_end_of_input_is_cancelled_after_the_grace():
    """Before the fix a 10**9-pass call outlived stdin's end."""
    call = line(request(1, "tools/call", {"name": "wait", "arguments": {"seconds": 600}}))
    start = time.monotonic()
    responses = serve(slow_server(), line(INITIALIZE) + call, eof_grace=0.5)
    assert [r["id"] for r in responses] == [0]  # the cancelled call gets no answer
    assert time.monotonic() - start < 10
