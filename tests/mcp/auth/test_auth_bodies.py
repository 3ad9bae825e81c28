"""Issue 23 §1: lesson 15's servers never read a stranger's body, and read every body within limits.

The protected MCP server answers 401 from the headers alone, before any of the body is
read (before the fix, a server with per-tool scopes read the whole body first: 200 MiB took
it from 69 to 533 MiB, and a body trickled at a byte every 2 s stayed open past 44 s). The
authorization server reads each endpoint's body within `HttpLimits` (before, `/register`
took 200 MiB of JSON). Raw sockets send what httpx would not; the memory figures are
measured by benchmarks/reliability.py, not asserted here.
"""

import socket
import time

import pytest

from tests.conftest import read_until_closed, status_of
from wirelab.mcp.auth.authorization_server import AuthorizationServer, Grant
from wirelab.mcp.auth.local import serve_authorization_server, serve_protected
from wirelab.mcp.auth.resource import tools_call_needs
from wirelab.mcp.example import build_server
from wirelab.serving import HttpLimits

pytestmark = pytest.mark.timeout(60)

MiB = 1024 * 1024
LIMITS = HttpLimits(max_body_bytes=1 * MiB, body_seconds=1.0)
CALL = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add_note"}}'


@pytest.fixture(scope="module")
def servers():
    authority = AuthorizationServer(scopes_supported=["notes:read", "notes:write"], limits=LIMITS)
    with (
        serve_authorization_server(authority) as running_authority,
        serve_protected(
            build_server(),
            authority,
            required_scopes={"notes:read"},
            scopes_for=tools_call_needs("notes:write"),  # the configuration that read bodies first
            limits=LIMITS,
        ) as mcp,
    ):
        yield authority, running_authority, mcp


def head(path: str, port: int, extra: str, content_type: str = "application/json") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {content_type}\r\n"
        f"Accept: application/json, text/event-stream\r\n{extra}\r\n"
    ).encode()


def token_for(authority, mcp) -> str:
    """A valid access token for `mcp`, as the authority would issue it after a user's consent."""
    return authority.tokens_for(Grant("c1", {"notes:read", "notes:write"}, mcp.url, "ada"))["access_token"]


def test_a_request_without_a_token_is_refused_before_its_body_is_read(servers):
    _, _, mcp = servers
    with socket.create_connection((mcp.host, mcp.port)) as sock:
        sock.sendall(head("/mcp", mcp.port, f"Content-Length: {200 * MiB}\r\n") + CALL)
        reply = read_until_closed(sock, wait=10)  # before the fix: no answer, the server awaited 200 MiB
    assert reply and status_of(reply) == 401
    assert b'resource_metadata="' in reply and b"connection: close" in reply.lower()


def test_a_trickling_body_without_a_token_is_refused_at_once_not_waited_for(servers):
    _, _, mcp = servers
    with socket.create_connection((mcp.host, mcp.port)) as sock:
        sock.sendall(head("/mcp", mcp.port, "Transfer-Encoding: chunked\r\n") + b"1\r\n{\r\n")
        reply = read_until_closed(sock, wait=10)
    assert reply and status_of(reply) == 401


def trickled(sock: socket.socket) -> bytes:
    """Send one more byte of the chunked body a second, for longer than the 1 s limit allows; the
    server's answer."""
    for _ in range(3):
        time.sleep(1)
        try:
            sock.sendall(b"1\r\n \r\n")
        except OSError:
            break
    return read_until_closed(sock, wait=10)


def test_a_trickling_body_with_a_valid_token_is_cut_at_the_body_time_limit(servers):
    authority, _, mcp = servers
    bearer = f"Authorization: Bearer {token_for(authority, mcp)}\r\nTransfer-Encoding: chunked\r\n"
    with socket.create_connection((mcp.host, mcp.port)) as sock:
        sock.sendall(head("/mcp", mcp.port, bearer) + b"1\r\n{\r\n")
        reply = trickled(sock)
    assert status_of(reply) == 408


ENDPOINTS = ["/register", "/token", "/authorize", "/jwks.json", "/.well-known/oauth-authorization-server"]


@pytest.mark.parametrize("path", ENDPOINTS)
def test_every_endpoint_of_the_authorization_server_refuses_a_body_declared_too_large(servers, path):
    _, running, _ = servers
    with socket.create_connection((running.host, running.port)) as sock:
        sock.sendall(head(path, running.port, f"Content-Length: {200 * MiB}\r\n") + b"{")
        reply = read_until_closed(sock, wait=10)
    assert reply and status_of(reply) == 413


@pytest.mark.parametrize("path", ["/register", "/token"])
def test_a_streamed_body_is_refused_at_the_limit_not_read_whole(servers, path):
    """Before the fix `/register` read 200 MiB of JSON (197 → 625 MiB)."""
    _, running, _ = servers
    chunk = b"x" * (64 * 1024)
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    sent, reply = 0, b""
    with socket.create_connection((running.host, running.port)) as sock:
        sock.sendall(head(path, running.port, "Transfer-Encoding: chunked\r\n"))
        try:
            while sent < 64 * MiB:
                sock.sendall(framed)
                sent += len(chunk)
        except OSError:
            pass  # the server closed the connection: it stopped reading
        reply = read_until_closed(sock, wait=10)
    assert sent < 64 * MiB and status_of(reply) == 413


@pytest.mark.parametrize("path", ["/register", "/token"])
def test_a_trickling_body_is_cut_at_the_body_time_limit(servers, path):
    _, running, _ = servers
    with socket.create_connection((running.host, running.port)) as sock:
        sock.sendall(head(path, running.port, "Transfer-Encoding: chunked\r\n") + b"1\r\n{\r\n")
        reply = trickled(sock)
    assert status_of(reply) == 408
