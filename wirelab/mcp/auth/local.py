"""The actors of MCP authorization on this machine: an authorization server and a protected
MCP server, each on its own thread and port, for the lesson and the tests.

    authority = AuthorizationServer(scopes_supported=["notes:read", "notes:write"])
    with serve_authorization_server(authority), serve_protected(build_server(), authority) as mcp:
        auth = OAuth(mcp.url, on_authorize=approve_headlessly)
        async with connect_http(mcp.url, auth=auth) as client: ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wirelab.mcp.auth.authorization_server import AuthorizationServer
from wirelab.mcp.auth.resource import ProtectedResource
from wirelab.mcp.http import McpHttpApp
from wirelab.mcp.http_limits import DEFAULT_LIMITS, HttpLimits
from wirelab.mcp.http_running import RunningHttpServer
from wirelab.mcp.server import Server


def serve_authorization_server(
    authority: AuthorizationServer, host: str = "127.0.0.1", port: int = 0
) -> RunningHttpServer:
    """Serve `authority` on a background thread; its issuer becomes the URL it listens on."""
    running = RunningHttpServer(authority, host, port)
    authority.issuer = f"http://{running.host}:{running.port}"
    return running.start()


def serve_protected(
    server: Server,
    authority: AuthorizationServer,
    *,
    required_scopes: set[str] | None = None,
    scopes_for: Callable[[Any], set[str]] | None = None,
    limits: HttpLimits = DEFAULT_LIMITS,
    host: str = "127.0.0.1",
    port: int = 0,
) -> RunningHttpServer:
    """Serve `server` over Streamable HTTP, accepting only `authority`'s tokens for its own URL;
    a request's body is read only once its token is valid, and then within `limits`."""
    protection = ProtectedResource(
        authority.issuer,
        authority.key.public_jwk(),
        scopes_supported=authority.scopes_supported,
        required_scopes=set(required_scopes or ()),
        scopes_for=scopes_for,
    )
    running = RunningHttpServer(McpHttpApp(server, protection=protection, limits=limits), host, port)
    protection.resource = running.url  # the audience its tokens must name
    return running.start()
