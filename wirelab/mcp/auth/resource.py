"""The MCP server as an OAuth protected resource: its metadata, and the check of every bearer token.

    protection = ProtectedResource(authority.issuer, authority.key.public_jwk(),
                                   scopes_supported=["notes:read", "notes:write"],
                                   required_scopes={"notes:read"})
    running = serve_protected(build_server(), protection)   # sets protection.resource to running.url

Before any MCP handling, from the headers alone (`McpHttpApp(..., protection=...)` calls
`check` before it reads the body, so a stranger's body is never read):

- no bearer token: 401, `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`;
- a token that is not valid here (signature, issuer, expiry, audience = this
  server): 401 with `error="invalid_token"`. A token minted for another
  server is refused, and this server never passes a client's token on: each
  upstream call needs a token of its own (no token passthrough);
- a valid token without the scopes the request needs: 403 with
  `error="insufficient_scope"` and the scopes to ask for (step-up).

`scopes_for(message)` may ask more for some requests (say, `tools/call`): `check_message`
asks it once the body has been read, within the server's limits, from a caller with a valid token.
Refusals are logged at info with the reason, never with the token.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from wirelab.mcp.auth.discovery import PROTECTED_RESOURCE, origin
from wirelab.mcp.auth.tokens import InvalidToken, scopes_of, verify

log = logging.getLogger(__name__)


@dataclass
class ProtectedResource:
    """Who may call this server: tokens from `issuer`, signed with `jwk`, for `resource`."""

    issuer: str
    jwk: dict[str, Any]
    resource: str = ""
    scopes_supported: list[str] = field(default_factory=list)
    required_scopes: set[str] = field(default_factory=set)
    scopes_for: Callable[[Any], set[str]] | None = None

    @property
    def metadata_url(self) -> str:
        """Path-aware well-known URL (RFC 9728 §3.1): `/.well-known/oauth-protected-resource/mcp`."""
        return origin(self.resource) + PROTECTED_RESOURCE + urlsplit(self.resource).path

    def metadata(self) -> dict[str, Any]:
        document = {
            "resource": self.resource,
            "authorization_servers": [self.issuer],
            "bearer_methods_supported": ["header"],
        }
        if self.scopes_supported:
            document["scopes_supported"] = self.scopes_supported
        return document

    def routes(self, mcp_path: str) -> list[Route]:
        """The metadata document's route, for a server whose endpoint is `mcp_path`."""

        async def endpoint(request: Request) -> Response:
            return JSONResponse(self.metadata())

        return [Route(PROTECTED_RESOURCE + mcp_path, endpoint)]

    async def check(self, request: Request) -> Response | None:
        """None if the request may go on; else the 401 or 403 to answer. Only the headers are
        read: a request without a valid token is refused before any of its body is (issue 23)."""
        required = set(self.required_scopes)
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            return self.refuse(401, required, None, "send Authorization: Bearer <token>")
        try:
            claims = verify(token.strip(), self.jwk, issuer=self.issuer, audience=self.resource)
        except InvalidToken as e:
            return self.refuse(401, required, "invalid_token", str(e))
        request.state.claims = claims
        return self.check_scopes(claims, required)

    def check_message(self, request: Request, message: Any) -> Response | None:
        """After `check`, once the body is read within the server's limits: None if the token's
        scopes cover what `scopes_for(message)` asks too; else the 403 to answer."""
        if self.scopes_for is None:
            return None
        return self.check_scopes(request.state.claims, self.required_scopes | self.scopes_for(message))

    def check_scopes(self, claims: dict[str, Any], required: set[str]) -> Response | None:
        missing = required - scopes_of(claims)
        if missing:
            return self.refuse(
                403, required | scopes_of(claims), "insufficient_scope", f"needs {sorted(missing)}"
            )
        return None

    def refuse(self, status: int, scopes: set[str], error: str | None, why: str) -> Response:
        params = [f'resource_metadata="{self.metadata_url}"']
        if scopes:
            params.append(f'scope="{" ".join(sorted(scopes))}"')
        if error:
            params += [f'error="{error}"', f'error_description="{why}"']
        log.info("refused with %s: %s", status, why)
        body = {"error": error or "invalid_request", "error_description": why}
        # the body was not read: the connection closes rather than take in what it still sends
        headers = {"WWW-Authenticate": "Bearer " + ", ".join(params), "Connection": "close"}
        return JSONResponse(body, status, headers=headers)


def tools_call_needs(scope: str) -> Callable[[Any], set[str]]:
    """A `scopes_for` that asks `scope` of `tools/call` only (reading stays with the base scopes)."""

    def needs(message: Any) -> set[str]:
        return {scope} if isinstance(message, dict) and message.get("method") == "tools/call" else set()

    return needs
