"""The offline model's HTTP server under issue 14's limits, each with a clear answer.

uvicorn runs with the MCP server's limits (`wirelab.serving`): a head that never
ends is cut off, a body that trickles in gets 408, one that streams past the limit 413.
A body is read as `jsonrpc.decode` reads JSON: the same key twice in one object, NaN or
an integer too long for Python is a 400 in OpenAI's error shape, never a 500. And a
request's work is bounded: a message ten times the length the model reads, or 128 tools
whose schemas fill the body limit, is answered or refused.

A request that froze would fail at the module's timeout; how long an answer takes, and how
that grows with the input, is measured by benchmarks/offline_model_latency.py, not here. The
one time limit kept is the server's own: a head that never ends is cut off after its
`header_seconds`, well before `FREEZE_S`.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from tests.conftest import read_until_closed, status_of
from tests.offline_model.conftest import WEATHER
from wirelab.offline_model import MODEL_ID
from wirelab.offline_model.normalize import MAX_TEXT
from wirelab.offline_model.wire.server import MAX_BODY_BYTES, OfflineServer, serve
from wirelab.offline_model.wire.validation import MAX_TOOLS
from wirelab.serving import HttpLimits

pytestmark = pytest.mark.timeout(120)

LIMITS = HttpLimits(max_body_bytes=MAX_BODY_BYTES, body_seconds=0.5, header_seconds=0.5, keep_alive_seconds=1)
FREEZE_S = 5.0  # a cut-off head closes after header_seconds (0.5 s), well before this


@pytest.fixture(scope="module")
def server() -> Iterator[OfflineServer]:
    with serve(limits=LIMITS) as running:
        yield running


def body(text: str, tools: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"model": MODEL_ID, "messages": [{"role": "user", "content": text}], "tools": tools or [WEATHER]}


def post(server: OfflineServer, raw: bytes) -> httpx2.Response:
    return httpx2.post(
        f"{server.base_url}/chat/completions",
        content=raw,
        headers={"content-type": "application/json"},
        timeout=30,
    )


def head(server: OfflineServer, extra: str) -> bytes:
    return (
        f"POST /v1/chat/completions HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
        f"Content-Type: application/json\r\n{extra}\r\n"
    ).encode()


def api_error(reply: bytes) -> tuple[int, dict[str, Any]]:
    """The status and the `error` object of a raw HTTP reply in OpenAI's error shape."""
    return status_of(reply), json.loads(reply.split(b"\r\n\r\n", 1)[1])["error"]


# --- uvicorn's limits, as the MCP server has them ---


@pytest.mark.parametrize("sent", [b"", b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nConte"])
def test_a_connection_that_never_finishes_its_head_is_closed(server, sent):
    with socket.create_connection((server.host, server.port)) as sock:
        sock.sendall(sent)
        started = time.monotonic()
        assert read_until_closed(sock) == b""
        assert time.monotonic() - started < FREEZE_S


def test_a_body_that_trickles_in_gets_408_in_the_api_error_shape(server):
    with socket.create_connection((server.host, server.port)) as sock:
        sock.sendall(head(server, "Content-Length: 100\r\n") + b'{"model": ')
        status, error = api_error(read_until_closed(sock))
    assert (status, error["code"], error["type"]) == (408, "request_timeout", "invalid_request_error")


def test_a_chunked_body_is_refused_with_413_once_it_streams_past_the_limit(server):
    chunk = b"x" * 65536
    with socket.create_connection((server.host, server.port)) as sock:
        sock.sendall(head(server, "Transfer-Encoding: chunked\r\n"))
        sent = 0
        try:
            while sent < 4 * MAX_BODY_BYTES:
                sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading and closed
        status, error = api_error(read_until_closed(sock))
    assert (status, error["code"]) == (413, "request_too_large")


# --- JSON that parsers read differently ---


@pytest.mark.parametrize(
    "raw, key",
    [
        ('{"model": "%s", "model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}', "model"),
        ('{"model": "%s", "messages": [{"role": "user", "content": "hi", "role": "system"}]}', "role"),
        (
            '{"model": "%s", "messages": [{"role": "user", "content": "weather in Paris"}], "tools": ['
            '{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",'
            ' "properties": {"city": {"type": "string"}, "city": {"type": "integer"}}}}}]}',
            "city",
        ),
    ],
    ids=["top-level", "in-a-message", "in-a-tool-schema"],
)
def test_a_key_given_twice_gets_an_api_style_400_naming_it(server, raw, key):
    """Before, the last one silently won, so a gateway reading the first saw another request."""
    response = post(server, (raw % MODEL_ID).encode())
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert f'the key "{key}" appears twice' in error["message"]


@pytest.mark.parametrize(
    "value",
    ["NaN", "Infinity", "1e400", "9" * 5000],
    ids=["nan", "infinity", "overflowing-float", "5000-digit-integer"],
)
def test_numbers_only_python_reads_get_a_400_not_a_500(server, value):
    """The 5,000-digit integer was a 500: Python's `json` raises a plain ValueError for it."""
    raw = json.dumps(body("hello")).replace('"hello"}', f'"hello", "name": {value}}}')
    response = post(server, raw.encode())
    assert response.status_code == 400
    assert "could not parse the JSON body" in response.json()["error"]["message"]


# --- the work per request is bounded ---


@pytest.mark.parametrize("length", [MAX_TEXT, 10 * MAX_TEXT], ids=["4k", "40k"])
def test_a_long_message_is_answered_without_freezing(server, length):
    """The model reads the first `MAX_TEXT` characters; the rest costs only its parsing."""
    text = ("What is the weather in Paris? " * (length // 30 + 1))[:length]
    response = post(server, json.dumps(body(text)).encode())
    assert response.status_code == 200, response.text


def pick_tool(k: int, choices: int) -> dict[str, Any]:
    """A tool whose one parameter is an enum of `choices` colours."""
    colours = [f"colour-{k}-{i:05d}" for i in range(choices)]
    parameters = {
        "type": "object",
        "properties": {"colour": {"type": "string", "enum": colours, "description": "One colour. " * 5}},
        "required": ["colour"],
    }
    function = {"name": f"pick_{k}", "description": f"Pick a colour of set {k}.", "parameters": parameters}
    return {"type": "function", "function": function}


def tools_filling(size: int) -> list[dict[str, Any]]:
    """`MAX_TOOLS` tools whose enums make the request body about `size` bytes (at most)."""

    def length(choices: int) -> int:
        return len(
            json.dumps(
                body("pick colour-7-00042 from set 7", [pick_tool(k, choices) for k in range(MAX_TOOLS)])
            )
        )

    one, per_choice = length(1), length(2) - length(1)
    return [pick_tool(k, 1 + (size - one) // per_choice) for k in range(MAX_TOOLS)]


def test_the_most_tools_with_schemas_filling_the_body_limit_are_answered_without_freezing(server):
    tools = tools_filling(MAX_BODY_BYTES - 1000)
    raw = json.dumps(body("pick colour-7-00042 from set 7", tools)).encode()
    assert MAX_BODY_BYTES - 20_000 < len(raw) <= MAX_BODY_BYTES
    response = post(server, raw)
    assert response.status_code in (200, 400), response.text
    assert "choices" in response.json() or "error" in response.json()


def test_a_tool_list_just_over_the_body_limit_is_refused_by_its_length(server):
    tools = tools_filling(MAX_BODY_BYTES + 20_000)
    raw = json.dumps(body("pick colour-7-00042 from set 7", tools)).encode()
    assert len(raw) > MAX_BODY_BYTES
    response = post(server, raw)
    assert response.status_code == 413 and response.json()["error"]["code"] == "request_too_large"
