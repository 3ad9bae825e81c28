"""The actors of MCP authorization on this machine: an authorization server, a protected MCP
server, and a host for a client's metadata document, each on its own thread and port, for the
lesson and the tests.

    authority = AuthorizationServer(scopes_supported=["notes:read", "notes:write"])
    with serve_authorization_server(authority), serve_protected(build_server(), authority) as mcp:
        auth = OAuth(mcp.url, on_authorize=approve_headlessly)
        async with connect_http(mcp.url, auth=auth) as client: ...

A client ID metadata document's URL is https (`https://app.test/client.json`); on this machine
`ClientDocuments` serves it over http, and the authorization server is told to fetch that
origin's documents there (`host_documents`), as it never fetches from this machine on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from wirelab.mcp.auth.authorization_server import AuthorizationServer
from wirelab.mcp.auth.resource import ProtectedResource
from wirelab.mcp.server import Server
from wirelab.mcp.transports.http.running import RunningHttpServer
from wirelab.mcp.transports.http.server import McpHttpApp
from wirelab.serving import DEFAULT_LIMITS, HttpLimits
from wirelab.wire import Wire


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


class ClientDocuments:
    """Client ID metadata documents, served by path: the one for `https://app.test/client.json`
    at `/client.json`."""

    def __init__(self) -> None:
        self.documents: dict[str, dict[str, Any]] = {}
        self.wire = Wire()
        self.starlette = Starlette(routes=[Route("/{path:path}", self.endpoint)])

    def publish(self, document: dict[str, Any]) -> None:
        """Serve `document` at the path of its own `client_id`."""
        self.documents[urlsplit(document["client_id"]).path] = document

    async def endpoint(self, request: Request) -> Response:
        document = self.documents.get(request.url.path)
        return JSONResponse(document) if document else JSONResponse({"error": "not_found"}, 404)

    def end_streams(self) -> None:
        """Nothing streams here (the method lets `RunningHttpServer` serve this app)."""


def host_documents(
    authority: AuthorizationServer, documents: ClientDocuments, origin: str, host: str = "127.0.0.1"
) -> RunningHttpServer:
    """Serve `documents` on this machine, and have `authority` fetch `origin`'s documents there."""
    running = RunningHttpServer(documents, host).start()
    authority.document_origins[origin] = f"http://{running.host}:{running.port}"
    return running
