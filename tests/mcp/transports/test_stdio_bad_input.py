"""The stdio server (lesson 08) against bad input: each bad line gets a clear error, and
the loop goes on. The example server runs as a real subprocess, as a host would start it."""

import asyncio
import io
import json
import subprocess
import sys

import pytest

from wirelab.mcp.example import build_server
from wirelab.mcp.transports.stdio import MAX_LINE_BYTES, LineSplitter, OversizedLine, StdioServer

pytestmark = pytest.mark.timeout(30)

SERVER = [sys.executable, "-m", "wirelab.mcp.example"]


def line(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


INITIALIZE = line(
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
)
INITIALIZED = line({"jsonrpc": "2.0", "method": "notifications/initialized"})
PING = line({"jsonrpc": "2.0", "id": "after", "method": "ping"})


def exchange(data: bytes) -> tuple[list[dict], str]:
    """Feed `data` to a fresh server, close stdin, and return what it wrote (parsed) and logged."""
    done = subprocess.run(SERVER, input=data, capture_output=True, timeout=20, check=True)
    return [json.loads(text) for text in done.stdout.splitlines()], done.stderr.decode()


def by_id(responses: list[dict]) -> dict:
    return {r.get("id"): r for r in responses}


def test_the_server_exits_cleanly_on_eof_after_answering_what_it_read():
    responses, _ = exchange(INITIALIZE + INITIALIZED + PING)
    assert [r["id"] for r in responses] == [0, "after"]


def test_stdout_carries_only_json_rpc_lines_and_logs_go_to_stderr():
    responses, stderr = exchange(INITIALIZE + b"not json\n" + PING)
    assert all(r["jsonrpc"] == "2.0" for r in responses)
    assert "initialize from t" in stderr and "answered a bad line" in stderr


@pytest.mark.parametrize(
    "bad, code, says",
    [
        (b"{not json\n", -32700, "Parse error"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "ping"\n', -32700, "Parse error"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "\xff\xfe"}\n', -32700, "UTF-8"),
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]\n', -32600, "batches"),
        (b'{"jsonrpc": "1.0", "id": 1, "method": "ping"}\n', -32600, '"2.0"'),
        (b'{"id": 1, "method": "ping"}\n', -32600, '"2.0"'),
        (b"42\n", -32600, "JSON object"),
    ],
)
def test_a_bad_line_gets_a_clear_error_and_the_loop_goes_on(bad, code, says):
    responses, _ = exchange(INITIALIZE + bad + PING)
    error = next(r for r in responses if "error" in r)
    assert error["error"]["code"] == code and says in error["error"]["message"]
    assert by_id(responses)["after"]["result"] == {}


def test_a_parse_error_is_answered_with_id_null():
    responses, _ = exchange(b"{oops\n")
    assert responses == [
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32700,
                "message": "Parse error: Expecting property name enclosed in double quotes at character 1",
            },
        }
    ]


def test_an_oversized_line_is_refused_and_the_next_line_is_read():
    huge = (
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "'
        + b"a" * (MAX_LINE_BYTES + 10)
        + b'"}}\n'
    )
    responses, _ = exchange(INITIALIZE + huge + PING)
    error = next(r for r in responses if "error" in r)
    assert error["id"] is None and error["error"]["code"] == -32600
    assert f"longer than {MAX_LINE_BYTES} bytes" in error["error"]["message"]
    assert by_id(responses)["after"]["result"] == {}


def test_requests_before_initialize_get_a_clear_error_and_the_session_still_starts():
    early = line({"jsonrpc": "2.0", "id": "early", "method": "tools/list"})
    responses, _ = exchange(early + INITIALIZE + PING)
    assert "not initialized" in by_id(responses)["early"]["error"]["message"]
    assert by_id(responses)[0]["result"]["protocolVersion"] == "2025-11-25"


def test_a_notification_is_never_answered_on_stdio():
    unknown = line({"jsonrpc": "2.0", "method": "notifications/whatever"})
    responses, _ = exchange(INITIALIZE + INITIALIZED + unknown + PING)
    assert [r["id"] for r in responses] == [0, "after"]


def test_blank_lines_and_crlf_line_ends_are_accepted():
    responses, _ = exchange(b"\n\n" + INITIALIZE.replace(b"\n", b"\r\n") + PING)
    assert [r["id"] for r in responses] == [0, "after"]


def test_output_lines_are_utf8_json_with_no_embedded_newline():
    call = line(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "add_note",
                "arguments": {"slug": "multi-line", "title": "Zwei\nZeilen ünd", "body": "b"},
            },
        }
    )
    read = line(
        {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "notes://note/multi-line"}}
    )
    done = subprocess.run(SERVER, input=INITIALIZE + call + read, capture_output=True, timeout=20, check=True)
    lines = done.stdout.decode("utf-8").splitlines()
    assert len(lines) == 3 and "Zwei\\nZeilen ünd" in lines[2]


def test_a_print_inside_a_tool_cannot_corrupt_stdout(monkeypatch):
    server = build_server()

    @server.tool()
    def noisy() -> str:
        """Print, as careless code does."""
        print("hello from a tool")
        return "done"

    stdin = io.BytesIO(
        INITIALIZE + line({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "noisy"}})
    )
    stdout = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(stdout))
    from wirelab.mcp.transports.stdio import run_stdio

    run_stdio(server)
    assert [json.loads(x)["id"] for x in stdout.getvalue().splitlines()] == [0, 1]


def test_every_line_read_and_written_is_published_on_the_wire():
    stdin = io.BytesIO(INITIALIZE + b"{broken\n" + PING)
    stdio = StdioServer(build_server(), stdin, io.BytesIO())
    seen = []
    stdio.wire.subscribe(seen.append)
    asyncio.run(stdio.serve())
    kinds = [(m.sender, m.kind) for m in seen]
    assert ("client", "invalid") in kinds and seen[kinds.index(("client", "invalid"))].payload == "{broken"
    assert kinds.count(("client", "request")) == 2 and kinds.count(("server", "response")) == 2
    assert {m.channel for m in seen} == {"mcp"}


def test_the_splitter_keeps_no_more_than_its_limit_of_one_line():
    splitter = LineSplitter(limit=8)
    assert splitter.feed(b'{"a":1}\n{"b"') == [b'{"a":1}']
    assert splitter.feed(b":2}\n") == [b'{"b":2}']
    assert splitter.feed(b"x" * 20) == [OversizedLine(8)]
    assert len(splitter._line) == 0
    assert splitter.feed(b"y" * 20 + b"\nok\n") == [b"ok"]
