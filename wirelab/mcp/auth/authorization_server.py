"""A small OAuth 2.1 authorization server for the lesson and the tests (starlette, PyJWT tokens).

    >>> from wirelab.mcp.auth.local import serve_authorization_server
    >>> authority = AuthorizationServer(scopes_supported=["notes:read", "notes:write"])
    >>> running = serve_authorization_server(authority)  # doctest: +SKIP
    >>> authority.issuer  # doctest: +SKIP
    'http://127.0.0.1:54321'
    >>> running.stop()  # doctest: +SKIP

It serves RFC 8414 metadata, `/register` (RFC 7591 dynamic registration),
`/authorize` (authorization code; PKCE S256 required; the user's consent is
`approve`, which by default grants what was asked within `scopes_supported`),
`/token` (authorization code with the PKCE check, refresh tokens that rotate,
client credentials for registered confidential clients) and `/jwks.json`.
Access tokens are JWTs whose audience is the `resource` the client named.

Security it keeps: a redirect URI must match a registered one exactly (no open
redirect: an unknown client or URI gets a 400 page, never a redirect); a code
is used once, by its client, within a minute; a refresh token is used once.
It keeps everything in memory and is meant for 127.0.0.1 only.
"""

from __future__ import annotations

import base64
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlencode, urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from wirelab.mcp.auth.pkce import s256
from wirelab.mcp.auth.tokens import SigningKey, issue
from wirelab.wire import Wire

Approve = Callable[[str, set[str], str], set[str] | None]
AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"]
CODE_LIFETIME = 60


class OAuthError(Exception):
    """An error answer of the token or registration endpoint (RFC 6749 §5.2)."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error, self.description, self.status = error, description, status

    def response(self) -> JSONResponse:
        body = {"error": self.error, "error_description": self.description}
        return JSONResponse(body, self.status, headers={"Cache-Control": "no-store"})


@dataclass
class RegisteredClient:
    client_id: str
    redirect_uris: list[str]
    method: str = "none"
    secret: str | None = None
    name: str = ""


@dataclass
class Grant:
    """What a code or a refresh token stands for."""

    client_id: str
    scopes: set[str]
    resource: str
    subject: str
    redirect_uri: str = ""
    challenge: str = ""
    expires_at: float = field(default_factory=lambda: time.time() + CODE_LIFETIME)


class AuthorizationServer:
    """The endpoints and their in-memory state; `.starlette` is the ASGI app."""

    def __init__(
        self,
        *,
        scopes_supported: list[str] | None = None,
        approve: Approve | None = None,
        subject: str = "learner",
        token_lifetime: int = 3600,
    ) -> None:
        self.scopes_supported = scopes_supported or []
        self.approve = approve or self.approve_within_supported
        self.subject, self.token_lifetime = subject, token_lifetime
        self.issuer = "http://127.0.0.1"
        self.key = SigningKey.generate()
        self.clients: dict[str, RegisteredClient] = {}
        self.codes: dict[str, Grant] = {}
        self.refresh_tokens: dict[str, Grant] = {}
        self.wire = Wire()
        self.starlette = Starlette(
            routes=[
                Route("/.well-known/oauth-authorization-server", self.metadata_endpoint),
                Route("/jwks.json", self.jwks_endpoint),
                Route("/register", self.register_endpoint, methods=["POST"]),
                Route("/authorize", self.authorize_endpoint),
                Route("/token", self.token_endpoint, methods=["POST"]),
            ]
        )

    def approve_within_supported(self, client_id: str, scopes: set[str], resource: str) -> set[str]:
        """The default consent: everything asked that this server offers."""
        return scopes & set(self.scopes_supported) if self.scopes_supported else scopes

    def end_streams(self) -> None:
        """Nothing streams here (the method lets `RunningHttpServer` serve this app)."""

    def metadata(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "registration_endpoint": f"{self.issuer}/register",
            "jwks_uri": f"{self.issuer}/jwks.json",
            "scopes_supported": self.scopes_supported,
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": AUTH_METHODS,
        }

    async def metadata_endpoint(self, request: Request) -> Response:
        return JSONResponse(self.metadata())

    async def jwks_endpoint(self, request: Request) -> Response:
        return JSONResponse({"keys": [self.key.public_jwk()]})

    # --- registration (RFC 7591) ---

    def register(self, metadata: dict[str, Any]) -> RegisteredClient:
        """Register a client from its metadata; `OAuthError` for bad redirect URIs or methods."""
        uris = metadata.get("redirect_uris")
        if not isinstance(uris, list) or not uris or not all(map(_acceptable_redirect, uris)):
            raise OAuthError(
                "invalid_redirect_uri",
                "redirect_uris must be a non-empty list of https URLs or http URLs on this machine",
            )
        method = metadata.get("token_endpoint_auth_method", "client_secret_basic")
        if method not in AUTH_METHODS:
            raise OAuthError(
                "invalid_client_metadata", f"token_endpoint_auth_method {method!r} is not supported"
            )
        secret = None if method == "none" else secrets.token_urlsafe(24)
        client = RegisteredClient(
            secrets.token_urlsafe(12), list(uris), method, secret, str(metadata.get("client_name", ""))
        )
        self.clients[client.client_id] = client
        return client

    async def register_endpoint(self, request: Request) -> Response:
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError
        except ValueError:
            return OAuthError("invalid_client_metadata", "the body must be a JSON object").response()
        try:
            client = self.register(body)
        except OAuthError as e:
            return e.response()
        answer = {
            "client_id": client.client_id,
            "client_name": client.name,
            "redirect_uris": client.redirect_uris,
            "token_endpoint_auth_method": client.method,
            "grant_types": body.get("grant_types", ["authorization_code", "refresh_token"]),
            "response_types": ["code"],
        }
        if client.secret:
            answer["client_secret"] = client.secret
        return JSONResponse(answer, 201)

    # --- authorization ---

    async def authorize_endpoint(self, request: Request) -> Response:
        query = request.query_params
        client = self.clients.get(query.get("client_id", ""))
        redirect_uri = query.get("redirect_uri", "")
        if client is None or redirect_uri not in client.redirect_uris:
            # Never redirect to a URI we cannot vouch for: that would be an open redirect.
            return PlainTextResponse("unknown client, or a redirect_uri it did not register", 400)

        def back(**params: str) -> Response:
            if query.get("state"):
                params["state"] = query["state"]
            return RedirectResponse(f"{redirect_uri}?{urlencode(params)}", 302)

        if query.get("response_type") != "code":
            return back(error="unsupported_response_type", error_description="only code is supported")
        if not query.get("code_challenge") or query.get("code_challenge_method") != "S256":
            return back(error="invalid_request", error_description="PKCE with S256 is required")
        resource = query.get("resource", "")
        if not _absolute(resource):
            return back(error="invalid_target", error_description="name the MCP server in resource")
        granted = self.approve(client.client_id, set(query.get("scope", "").split()), resource)
        if granted is None:
            return back(error="access_denied", error_description="the user did not approve")
        code = secrets.token_urlsafe(24)
        self.codes[code] = Grant(
            client.client_id, granted, resource, self.subject, redirect_uri, query["code_challenge"]
        )
        return back(code=code)

    # --- tokens ---

    async def token_endpoint(self, request: Request) -> Response:
        form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
        try:
            client = self.authenticate(request, form)
            grants = {
                "authorization_code": self.exchange_code,
                "refresh_token": self.exchange_refresh_token,
                "client_credentials": self.exchange_client_credentials,
            }
            if form.get("grant_type") not in grants:
                raise OAuthError("unsupported_grant_type", f"grant_type {form.get('grant_type')!r}")
            grant = grants[form["grant_type"]](client, form)
        except OAuthError as e:
            return e.response()
        return JSONResponse(self.tokens_for(grant), headers={"Cache-Control": "no-store"})

    def authenticate(self, request: Request, form: dict[str, str]) -> RegisteredClient:
        """The client, proven as it registered: HTTP Basic, a secret in the form, or none (public)."""
        header = request.headers.get("authorization", "")
        if header.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(header[6:]).decode().partition(":")
            except ValueError:
                raise OAuthError("invalid_client", "malformed Basic credentials", 401) from None
            client_id, secret, method = unquote(client_id), unquote(secret), "client_secret_basic"
        else:
            client_id, secret = form.get("client_id", ""), form.get("client_secret")
            method = "client_secret_post" if secret is not None else "none"
        client = self.clients.get(client_id)
        if client is None or client.method != method:
            raise OAuthError(
                "invalid_client", "unknown client, or not the way it registered to authenticate", 401
            )
        if client.secret is not None and not secrets.compare_digest(client.secret, secret or ""):
            raise OAuthError("invalid_client", "wrong client secret", 401)
        return client

    def exchange_code(self, client: RegisteredClient, form: dict[str, str]) -> Grant:
        grant = self.codes.pop(form.get("code", ""), None)  # a code is good once
        if grant is None or grant.client_id != client.client_id or time.time() > grant.expires_at:
            raise OAuthError("invalid_grant", "unknown, used or expired code")
        if form.get("redirect_uri") != grant.redirect_uri:
            raise OAuthError("invalid_grant", "redirect_uri is not the one the code was sent to")
        if s256(form.get("code_verifier", "")) != grant.challenge:
            raise OAuthError("invalid_grant", "code_verifier does not match the code_challenge (PKCE)")
        if form.get("resource", grant.resource) != grant.resource:
            raise OAuthError("invalid_target", "resource is not the one the user approved")
        return grant

    def exchange_refresh_token(self, client: RegisteredClient, form: dict[str, str]) -> Grant:
        grant = self.refresh_tokens.pop(form.get("refresh_token", ""), None)  # rotated: good once
        if grant is None or grant.client_id != client.client_id:
            raise OAuthError("invalid_grant", "unknown or used refresh token")
        if form.get("resource", grant.resource) != grant.resource:
            raise OAuthError("invalid_target", "a refresh token keeps its resource")
        return grant

    def exchange_client_credentials(self, client: RegisteredClient, form: dict[str, str]) -> Grant:
        if client.secret is None:
            raise OAuthError("unauthorized_client", "client credentials need a confidential client")
        if not _absolute(form.get("resource", "")):
            raise OAuthError("invalid_target", "name the MCP server in resource")
        scopes = self.approve(client.client_id, set(form.get("scope", "").split()), form["resource"]) or set()
        return Grant(client.client_id, scopes, form["resource"], client.client_id)

    def tokens_for(self, grant: Grant) -> dict[str, Any]:
        access = issue(
            self.key,
            issuer=self.issuer,
            audience=grant.resource,
            subject=grant.subject,
            client_id=grant.client_id,
            scopes=grant.scopes,
            lifetime=self.token_lifetime,
        )
        refresh = secrets.token_urlsafe(24)
        self.refresh_tokens[refresh] = grant
        return {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": self.token_lifetime,
            "refresh_token": refresh,
            "scope": " ".join(sorted(grant.scopes)),
        }


def _absolute(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not parts.fragment


def _acceptable_redirect(uri: Any) -> bool:
    """https anywhere, or http on this machine (a native app's loopback redirect)."""
    if not isinstance(uri, str) or not _absolute(uri):
        return False
    parts = urlsplit(uri)
    return parts.scheme == "https" or parts.hostname in ("127.0.0.1", "localhost", "::1")
