"""Property-based fuzzing of the MCP stdio transport (lesson 08), with hypothesis.

A `StdioServer` runs in-process on byte buffers (fast enough for hundreds of
examples); a few fixed inputs also go to the real subprocess server, to prove
that its stdout carries nothing but JSON-RPC. For any sequence of lines
(arbitrary bytes, oversized lines, wrong types, duplicate ids, notifications
interleaved with requests) the server

- never crashes, and writes only strict JSON-RPC lines;
- answers each request exactly once with its id, and each bad line with an error;
- never answers a notification or a response;
- still answers a request sent after all of it.
"""

import asyncio
import collections
import io
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import strict_loads
from tests.servers import fuzz_server
from wirelab import jsonrpc
from wirelab.mcp.transports.stdio import LineSplitter, OversizedLine, StdioServer, receive_line
from wirelab.wire import Wire

pytestmark = pytest.mark.timeout(120)

LIMIT = 512  # a small line limit, so that oversized lines are common
BOUNDED = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "fuzz", "version": "1"},
    },
}
PROBE = {
    "jsonrpc": "2.0",
    "id": "probe",
    "method": "tools/call",
    "params": {"name": "echo", "arguments": {"text": "still here"}},
}


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
ids = st.sampled_from([0, 1, "1", "a", -7, 2.5])  # a small pool: duplicate ids in flight are common
methods = st.sampled_from(
    [
        "ping",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/read",
        "prompts/list",
        "initialize",
        "logging/setLevel",
        "no/such",
    ]
)
tool_calls = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["echo", "add", "fail", "nope"]),
        "arguments": st.dictionaries(st.sampled_from(["text", "a", "b"]), json_values, max_size=3),
    }
)
requests = st.builds(
    jsonrpc.request,
    ids,
    methods,
    st.none() | tool_calls | st.dictionaries(st.text(max_size=6), json_values, max_size=3),
)
notifications = st.builds(
    jsonrpc.notification,
    st.sampled_from(["notifications/initialized", "notifications/progress", "no/such"]),
    st.none() | tool_calls,
)
responses = st.builds(jsonrpc.result_response, ids, json_values)
wrong_types = st.fixed_dictionaries(
    {
        "jsonrpc": st.sampled_from(["2.0", "1.0"]),
        "id": json_values,
        "method": json_values,
        "params": json_values,
    }
)
encoded = (requests | notifications | responses | wrong_types).map(lambda m: json.dumps(m).encode())
lines = st.lists(
    encoded
    | st.binary(max_size=2 * LIMIT).filter(lambda b: b"\n" not in b)
    | st.sampled_from(
        [
            b"[" * 5000,
            b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
            b'{"jsonrpc":"2.0","id":1e999,"method":"ping"}',
            b'{"id":' + b"9" * 5000 + b"}",
            b"[]",
            b"\xff\xfe",
            b" ",
        ]
    ),
    max_size=25,
)


def key(id) -> str:
    return json.dumps(id)


def expected_answers(data: bytes) -> collections.Counter:
    """How many responses each id should get, working out each line as the protocol says."""
    expected: collections.Counter = collections.Counter()
    for line in LineSplitter(LIMIT).feed(data):
        if isinstance(line, OversizedLine):
            expected[key(None)] += 1
        elif line:
            message, error = jsonrpc.receive(line)
            if error is not None:
                expected[key(error["id"])] += 1
            elif jsonrpc.is_request(message):
                expected[key(message["id"])] += 1
    return expected


def serve(data: bytes) -> list[dict]:
    """Run a fresh in-process server on `data` until EOF; every line it wrote, parsed strictly."""
    stdout = io.BytesIO()
    asyncio.run(StdioServer(fuzz_server(), io.BytesIO(data), stdout, limit=LIMIT).serve())
    written = stdout.getvalue()
    assert written.endswith(b"\n")
    return [strict_loads(text) for text in written.split(b"\n")[:-1]]


@BOUNDED
@given(lines)
def test_every_request_and_bad_line_gets_exactly_one_answer_and_the_server_goes_on(fuzz):
    data = json.dumps(INITIALIZE).encode() + b"\n" + b"\n".join(fuzz) + b"\n"
    written = serve(data + json.dumps(PROBE).encode() + b"\n")
    for message in written:
        jsonrpc.validate(message)
    answers = collections.Counter(key(m["id"]) for m in written if jsonrpc.is_response(m))
    assert answers == expected_answers(data) + collections.Counter({key("probe"): 1})
    probe = next(m for m in written if m.get("id") == "probe")
    assert probe["result"]["content"] == [{"type": "text", "text": "still here"}]


@BOUNDED
@given(st.lists(st.binary(max_size=64), max_size=10), st.integers(min_value=1, max_value=40))
def test_lines_split_anywhere_between_reads_are_put_back_together(parts, chunk):
    data = b"".join(parts)
    splitter, lines = LineSplitter(LIMIT), []
    for start in range(0, len(data), chunk):
        lines += splitter.feed(data[start : start + chunk])
    complete = data.split(b"\n")[:-1]
    assert lines == [line.rstrip(b"\r") if len(line) <= LIMIT else OversizedLine(LIMIT) for line in complete]


@BOUNDED
@given(st.binary(max_size=300) | st.sampled_from([b"[" * 5000, b'{"id":' + b"1" * 5000 + b"}"]))
def test_the_client_side_reads_any_line_the_server_might_write_without_raising(line):
    wire, seen = Wire(), []
    wire.subscribe(seen.append)
    message, error = receive_line(line, wire, "server")
    assert (message is None) != (error is None) and len(seen) == 1


NASTY = [
    b"[" * 100_000,
    b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":' + b"1" * 5000 + b',"method":"ping"}',
    b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
    b"\xc3\x28",
    b"[1, 2]",
]


def test_the_real_server_writes_only_json_rpc_whatever_it_reads():
    data = json.dumps(INITIALIZE).encode() + b"\n" + b"\n".join(NASTY) + b"\n"
    data += json.dumps(jsonrpc.request("after", "ping")).encode() + b"\n"
    done = subprocess.run(
        [sys.executable, "-m", "wirelab.mcp.example"], input=data, capture_output=True, timeout=30, check=True
    )
    written = [strict_loads(text) for text in done.stdout.splitlines()]
    assert [m["id"] for m in written] == ["init"] + [None] * len(NASTY) + ["after"]
    assert [m["error"]["code"] for m in written[1:-1]] == [-32700] * 5 + [-32600]
    assert written[-1]["result"] == {}
