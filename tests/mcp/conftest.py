"""What the MCP tests share: the example server over Streamable HTTP, and the protected example
server the OAuth tests use."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from wirelab.mcp.auth.authorization_server import AuthorizationServer
from wirelab.mcp.auth.local import serve_authorization_server, serve_protected
from wirelab.mcp.auth.resource import tools_call_needs
from wirelab.mcp.example import build_server
from wirelab.mcp.transports.http.server import serve_http


@contextmanager
def protected_servers() -> Iterator[tuple]:
    """An authorization server, and the example MCP server protected by it: reading needs
    notes:read, calling a tool notes:write too. Yields the authority and the running MCP server."""
    authority = AuthorizationServer(scopes_supported=["notes:read", "notes:write"])
    with (
        serve_authorization_server(authority),
        serve_protected(
            build_server(),
            authority,
            required_scopes={"notes:read"},
            scopes_for=tools_call_needs("notes:write"),
        ) as mcp,
    ):
        yield authority, mcp


@pytest.fixture
def protected():
    with protected_servers() as servers:
        yield servers


@pytest.fixture(scope="module")
def running():
    """The example server over Streamable HTTP on 127.0.0.1, one per test module (a module that
    needs other settings, a token or limits, defines its own)."""
    with serve_http(build_server()) as running:
        yield running
