"""Issue 14's red-team findings on Streamable HTTP, each reproduced, each with one clear answer.

Bodies are refused by their `Content-Length` or while they stream, never buffered whole;
a trickling body, a head that never ends and a silent connection are cut off; sessions
expire when idle and are capped; duplicate headers, a session's wrong version header,
lone surrogates and a response without an id each get one well-formed JSON answer.
Raw sockets send what httpx would not.
"""

import asyncio
import json
import select
import socket
import time

import httpx2
import pytest

from tests.conftest import read_until_closed, status_of
from wirelab.jsonrpc import request
from wirelab.mcp.client import Client
from wirelab.mcp.example import build_server
from wirelab.mcp.server import Context, Server
from wirelab.mcp.transports.http.checks import hostname, origin_hostname
from wirelab.mcp.transports.http.client import HttpTransport
from wirelab.mcp.transports.http.server import SESSION_HEADER, serve_http
from wirelab.serving import HttpLimits

pytestmark = pytest.mark.timeout(60)

ACCEPT = {"Accept": "application/json, text/event-stream"}
INITIALIZE = request(
    1,
    "initialize",
    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
)
MiB = 1024 * 1024
LIMITS = HttpLimits(
    max_body_bytes=1 * MiB, body_seconds=1.0, header_seconds=0.5, max_sessions=3, session_idle_seconds=60
)


@pytest.fixture(scope="module")
def running():
    with serve_http(build_server(), limits=LIMITS) as running:
        yield running


@pytest.fixture
def http():
    with httpx2.Client(timeout=10) as http:
        yield http


def head(running, extra: str) -> bytes:
    return (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\n{extra}\r\n"
    ).encode()


# --- bodies ---


def test_a_body_declared_too_large_is_refused_before_it_is_sent(running):
    with socket.create_connection((running.host, running.port)) as sock:
        sock.sendall(head(running, f"Content-Length: {400 * MiB}\r\n"))
        reply = read_until_closed(sock)
    assert status_of(reply) == 413 and b"Payload Too Large" in reply


def test_a_chunked_body_is_refused_once_it_passes_the_limit_not_buffered_whole(running):
    """Before the fix the server read all 64 MiB (and a 400 MiB body took it to 838 MiB)."""
    chunk = b"x" * (64 * 1024)
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    sent, reply = 0, b""
    with socket.create_connection((running.host, running.port)) as sock:
        sock.sendall(head(running, "Transfer-Encoding: chunked\r\n"))
        sock.settimeout(2)
        try:
            while sent < 64 * MiB and not select.select([sock], [], [], 0)[0]:
                sock.sendall(framed)
                sent += len(chunk)
        except (TimeoutError, BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading: what we have not sent stays here
        reply = read_until_closed(sock)
    assert status_of(reply) == 413
    assert sent < 32 * MiB, f"the server read {sent / MiB:.0f} MiB of a body over its 1 MiB limit"


def test_a_body_that_trickles_in_gets_408(running):
    start = time.monotonic()
    with socket.create_connection((running.host, running.port)) as sock:
        sock.sendall(head(running, "Transfer-Encoding: chunked\r\n") + b"1\r\n{\r\n")
        sock.settimeout(0.2)
        reply = b""
        while not reply and time.monotonic() - start < 10:
            try:
                sock.sendall(b"1\r\n \r\n")
                reply = sock.recv(65536)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        reply += read_until_closed(sock)  # the head and the body may come in separate reads
    assert status_of(reply) == 408 and b"did not arrive" in reply


# --- connections ---


@pytest.mark.parametrize("sent", [b"", b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAcc"])
def test_a_connection_that_never_finishes_its_head_is_closed(running, sent):
    """Before the fix such connections were held until the client left (40 s and more)."""
    with socket.create_connection((running.host, running.port)) as sock:
        sock.sendall(sent)
        sock.settimeout(30)  # the server's limit is 0.5 s: waiting longer tells closed from held
        try:
            reply = sock.recv(65536)
        except ConnectionResetError:
            reply = b""
        except TimeoutError:
            pytest.fail("the server still held the connection after 30 s")
    assert reply == b"", f"the server answered a head it never got whole: {reply[:80]!r}"


# --- sessions ---


def open_session(running, http) -> str:
    response = http.post(running.url, json=INITIALIZE, headers=ACCEPT)
    assert response.status_code == 200, response.text
    return response.headers[SESSION_HEADER]


def test_sessions_beyond_the_cap_get_503_with_a_clear_message(running, http):
    running.app.sessions.clear()
    ids = [open_session(running, http) for _ in range(3)]
    refused = http.post(running.url, json=INITIALIZE, headers=ACCEPT)
    assert refused.status_code == 503
    assert "sessions are open" in refused.json()["error"]["message"]
    http.delete(running.url, headers={SESSION_HEADER: ids[0]})
    assert open_session(running, http)
    running.app.sessions.clear()


def test_an_idle_session_expires_then_answers_404_so_the_client_initializes_again(http):
    limits = HttpLimits(session_idle_seconds=0.3)
    with serve_http(build_server(), limits=limits) as running:
        session = open_session(running, http)
        headers = {**ACCEPT, SESSION_HEADER: session}
        assert http.post(running.url, json=request(2, "ping"), headers=headers).status_code == 200
        time.sleep(0.6)
        expired = http.post(running.url, json=request(3, "ping"), headers=headers)
        assert expired.status_code == 404 and "initialize" in expired.json()["error"]["message"]
        assert running.app.sessions == {}
        assert open_session(running, http)


# --- one well-formed answer for every input ---


def test_a_lone_surrogate_id_in_initialize_gets_json_and_opens_no_session(running, http):
    running.app.sessions.clear()
    body = json.dumps(INITIALIZE).replace('"id": 1', '"id": "\\ud800"')
    response = http.post(running.url, content=body, headers={**ACCEPT, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.headers["content-type"] == "application/json"
    assert response.json()["id"] is None and "lone surrogate" in response.json()["error"]["message"]
    assert running.app.sessions == {}
    assert open_session(running, http)  # the keep-alive connection still serves
    running.app.sessions.clear()


@pytest.mark.parametrize(
    "where", ['"method": "\\ud800"', '"params": {"name": "\\udfff", "arguments": {"query": "\\ud800"}}']
)
def test_a_lone_surrogate_in_a_session_request_gets_400_json(running, http, where):
    session = open_session(running, http)
    body = '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", ' + where + "}"
    body = body.replace('"method": "tools/call", "method"', '"method"')
    response = http.post(
        running.url,
        content=body,
        headers={**ACCEPT, SESSION_HEADER: session, "Content-Type": "application/json"},
    )
    assert response.status_code == 400 and response.json()["id"] == 9
    assert http.post(
        running.url, json=request(10, "ping"), headers={**ACCEPT, SESSION_HEADER: session}
    ).is_success
    running.app.sessions.clear()


def test_a_response_without_an_id_gets_400_not_500(running, http):
    session = open_session(running, http)
    response = http.post(
        running.url, json={"jsonrpc": "2.0", "result": {}}, headers={**ACCEPT, SESSION_HEADER: session}
    )
    assert response.status_code == 400 and '"id"' in response.json()["error"]["message"]
    running.app.sessions.clear()


def test_duplicate_json_keys_get_400_parse_error(running, http):
    body = '{"jsonrpc": "1.0", "jsonrpc": "2.0", "id": 1, "method": "ping"}'
    response = http.post(running.url, content=body, headers={**ACCEPT, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]["code"] == -32700


@pytest.mark.parametrize("header", ["Mcp-Method", "Mcp-Session-Id", "MCP-Protocol-Version", "Authorization"])
def test_a_header_sent_twice_is_refused(running, http, header):
    headers = [*ACCEPT.items(), (header, "tools/list"), (header, "tools/call")]
    response = http.post(running.url, json=request(2, "tools/list"), headers=headers)
    assert response.status_code == 400 and "more than once" in response.json()["error"]["message"]


def test_a_2025_06_session_refuses_a_newer_version_header(running, http):
    old = {**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": "2025-06-18"}}
    session = http.post(running.url, json=old, headers=ACCEPT).headers[SESSION_HEADER]
    headers = {**ACCEPT, SESSION_HEADER: session, "MCP-Protocol-Version": "2025-11-25"}
    response = http.post(running.url, json=request(2, "tools/list"), headers=headers)
    assert response.status_code == 400 and "2025-06-18" in response.json()["error"]["message"]
    running.app.sessions.clear()


# --- hosts and origins ---


@pytest.mark.parametrize(
    "authority, host",
    [
        ("127.0.0.1:8000", "127.0.0.1"),
        ("LocalHost", "localhost"),
        ("[::1]:80", "[::1]"),
        ("[0:0:0:0:0:0:0:1]", "[::1]"),
        ("localhost:", "localhost"),
        ("127.0.0.1:1@evil.com", None),
        ("[::1]evil.com", None),
        ("localhost:evil", None),
        ("localhost:99999", None),
        ("[evil.com]", None),
        ("evil.com/127.0.0.1", None),
        ("", None),
    ],
)
def test_hosts_are_parsed_not_split_on_the_last_colon(authority, host):
    assert hostname(authority) == host


@pytest.mark.parametrize(
    "origin, host",
    [
        ("http://localhost:6274", "localhost"),
        ("https://[::1]", "[::1]"),
        ("http://127.0.0.1:1@evil.com", None),
        ("http://localhost/path", None),
        ("file://localhost", None),
        ("null", None),
    ],
)
def test_origins_are_parsed_whole(origin, host):
    assert origin_hostname(origin) == host


@pytest.mark.parametrize("host", ["127.0.0.1:1@evil.com", "[::1]evil.com", "localhost:evil"])
def test_a_crafted_host_header_is_403(running, http, host):
    response = http.post(running.url, json=INITIALIZE, headers={**ACCEPT, "Host": host})
    assert response.status_code == 403


# --- requests from the server to the client, over HTTP (2025-11-25) ---


def test_a_server_to_client_request_works_over_http():
    server = Server("asks")

    @server.tool()
    async def greet(ctx: Context) -> str:
        """Ask the user's name."""
        answer = await ctx.elicit("Name?", {"type": "object", "properties": {"name": {"type": "string"}}})
        return f"Hello, {answer['content']['name']}!"

    async def scenario(url):
        transport = HttpTransport(url)
        reply = {"action": "accept", "content": {"name": "Ada"}}
        async with Client(transport, on_elicitation=lambda params: reply) as client:
            return await client.call_tool("greet", {})

    with serve_http(server) as running:
        result = asyncio.run(scenario(running.url))
    assert result["content"][0]["text"] == "Hello, Ada!"


def test_connections_past_the_cap_get_503_and_the_server_serves_once_they_close():
    """uvicorn's `limit_concurrency` is `max_connections`. It counts every open connection, the
    request's own included: a request is served only while fewer than the cap are open; beyond,
    it gets 503 and its connection is closed, so a crowd is shed until cap - 1 remain.

    Connections are accepted in the order they were opened, so once the last one's request is
    answered every other one is open on the server too: no sleep decides the outcome.
    """
    cap = 4
    limits = HttpLimits(max_connections=cap, header_seconds=30, keep_alive_seconds=30)
    body = json.dumps(INITIALIZE).encode()

    def initialize(sock: socket.socket) -> int:
        """The status `initialize` gets on `sock`, 0 if the server closed it without one."""
        sock.sendall(head(running, f"Content-Length: {len(body)}\r\n") + body)
        sock.settimeout(10)
        try:
            reply = sock.recv(65536)
        except ConnectionResetError:
            reply = b""
        return status_of(reply) if reply else 0

    with serve_http(build_server(), limits=limits) as running:
        # under the cap: two idle connections and the one asking
        idle = [socket.create_connection((running.host, running.port)) for _ in range(cap - 2)]
        with socket.create_connection((running.host, running.port)) as asking:
            assert initialize(asking) == 200
        for sock in idle:
            sock.close()
        # twice the cap: refused and closed (the last-opened connection first) until cap - 1 remain
        crowd = [socket.create_connection((running.host, running.port)) for _ in range(2 * cap)]
        try:
            statuses = [initialize(sock) for sock in reversed(crowd)]
        finally:
            for sock in crowd:
                sock.close()
        refused = [status for status in statuses if status in (503, 0)]
        assert set(statuses) <= {200, 503, 0}, statuses
        assert statuses[: cap + 1] == refused[: cap + 1], f"the first {cap + 1} were not refused: {statuses}"
        assert len(statuses) - len(refused) <= cap - 1, f"more served than the cap allows: {statuses}"
        # the crowd gone, the server serves again (it may take a moment to see the closes)
        deadline = time.monotonic() + 10
        while True:
            with socket.create_connection((running.host, running.port)) as sock:
                status = initialize(sock)
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == 200
