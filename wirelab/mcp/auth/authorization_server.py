"""A small OAuth 2.1 authorization server for the lesson and the tests (starlette, PyJWT tokens).

    >>> from wirelab.mcp.auth.local import serve_authorization_server
    >>> authority = AuthorizationServer(scopes_supported=["notes:read", "notes:write"])
    >>> running = serve_authorization_server(authority)  # doctest: +SKIP
    >>> authority.issuer  # doctest: +SKIP
    'http://127.0.0.1:54321'
    >>> running.stop()  # doctest: +SKIP

It serves RFC 8414 metadata, `/authorize` (authorization code; PKCE S256 required; the
user's consent is `approve`, which by default grants what was asked within
`scopes_supported`), `/token` (authorization code with the PKCE check, refresh tokens
that rotate, client credentials for registered confidential clients), `/jwks.json`,
and two ways for a client to say who it is (MCP 2026-07-28): a client ID metadata
document (its `client_id` is the https URL of a JSON document this server fetches), and
`/register` (RFC 7591 dynamic registration, deprecated, kept for older clients).
Access tokens are JWTs whose audience is the `resource` the client named.

Security it keeps: a redirect URI must match a registered one exactly, and may carry
no query or fragment (no open redirect: an unknown client or URI gets a 400 page, never
a redirect); every authorization response names this server in `iss` (RFC 9207), so a
client can tell which server a code came from (the mix-up attack); a PKCE verifier and
challenge must be what RFC 7636 allows; a code is used once, by its client, within a
minute; a refresh token is used once. Every request's body is read within `HttpLimits`
(`LimitedBodies`), and every table is bounded: codes expire, and the oldest
registrations, refresh tokens and fetched documents make room for new ones.
It keeps everything in memory and is meant for 127.0.0.1 only.
"""

from __future__ import annotations

import base64
import ipaddress
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import unquote, urlencode, urlsplit

import httpx2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from wirelab.mcp.auth.pkce import s256, valid_challenge, valid_verifier
from wirelab.mcp.auth.tokens import SigningKey, issue
from wirelab.serving import DEFAULT_LIMITS, HttpLimits, LimitedBodies
from wirelab.wire import Wire, parse_json

Approve = Callable[[str, set[str], str], set[str] | None]
AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"]
APPLICATION_TYPES = ("native", "web")
CODE_LIFETIME = 60
DOCUMENT_LIFETIME = 600  # how long a fetched client ID metadata document is trusted
MAX_DOCUMENT_BYTES = 64 * 1024
V = TypeVar("V")


class OAuthError(Exception):
    """An error answer of the token or registration endpoint (RFC 6749 §5.2)."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error, self.description, self.status = error, description, status

    def response(self) -> JSONResponse:
        body = {"error": self.error, "error_description": self.description}
        return JSONResponse(body, self.status, headers={"Cache-Control": "no-store"})


class Bounded(OrderedDict[str, V], Generic[V]):
    """A table of at most `size` entries: adding one more drops the oldest."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: str, value: V) -> None:
        super().__setitem__(key, value)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass
class RegisteredClient:
    client_id: str
    redirect_uris: list[str]
    method: str = "none"
    secret: str | None = None
    name: str = ""
    application_type: str = "native"
    expires_at: float | None = None  # a fetched metadata document is fetched again after this


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
    """The endpoints and their in-memory state; `.starlette` is the ASGI app.

    `document_origins` tells where to fetch the client ID metadata documents of an origin
    instead, e.g. `{"https://app.test": "http://127.0.0.1:8123"}` for a test's local server;
    without an entry a document is fetched from its own https URL, never from this machine or
    a private network (SSRF). `max_clients` bounds registrations, `max_codes` codes waiting.
    """

    def __init__(
        self,
        *,
        scopes_supported: list[str] | None = None,
        approve: Approve | None = None,
        subject: str = "learner",
        token_lifetime: int = 3600,
        limits: HttpLimits = DEFAULT_LIMITS,
        document_origins: dict[str, str] | None = None,
        max_clients: int = 1000,
        max_codes: int = 1000,
    ) -> None:
        self.scopes_supported = scopes_supported or []
        self.approve = approve or self.approve_within_supported
        self.subject, self.token_lifetime, self.limits = subject, token_lifetime, limits
        self.document_origins = dict(document_origins or {})
        self.issuer = "http://127.0.0.1"
        self.key = SigningKey.generate()
        self.clients: Bounded[RegisteredClient] = Bounded(max_clients)
        self.documents: Bounded[RegisteredClient] = Bounded(max_clients)
        self.codes: Bounded[Grant] = Bounded(max_codes)
        self.refresh_tokens: Bounded[Grant] = Bounded(10 * max_clients)
        self.wire = Wire()
        routes = [
            Route("/.well-known/oauth-authorization-server", self.metadata_endpoint),
            Route("/jwks.json", self.jwks_endpoint),
            Route("/register", self.register_endpoint, methods=["POST"]),
            Route("/authorize", self.authorize_endpoint),
            Route("/token", self.token_endpoint, methods=["POST"]),
        ]
        self.starlette = Starlette(routes=routes, middleware=[Middleware(LimitedBodies, limits=limits)])

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
            "authorization_response_iss_parameter_supported": True,
            "client_id_metadata_document_supported": True,
        }

    async def metadata_endpoint(self, request: Request) -> Response:
        return JSONResponse(self.metadata())

    async def jwks_endpoint(self, request: Request) -> Response:
        return JSONResponse({"keys": [self.key.public_jwk()]})

    # --- who the client is: registration (RFC 7591), or a client ID metadata document ---

    def register(self, metadata: dict[str, Any]) -> RegisteredClient:
        """Register a client from its metadata; `OAuthError` for bad redirect URIs or methods."""
        client = _client_from(secrets.token_urlsafe(12), metadata, "client_secret_basic")
        if client.method != "none":
            client.secret = secrets.token_urlsafe(24)
        self.clients[client.client_id] = client
        return client

    async def register_endpoint(self, request: Request) -> Response:
        body = parse_json(await request.body())
        if not isinstance(body, dict):
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
            "application_type": client.application_type,
            "grant_types": body.get("grant_types", ["authorization_code", "refresh_token"]),
            "response_types": ["code"],
        }
        if client.secret:
            answer["client_secret"] = client.secret
        return JSONResponse(answer, 201)

    async def client(self, client_id: str) -> RegisteredClient | None:
        """A registered client, or the one a client ID metadata document describes (fetched when
        not cached); None for an unknown id. `OAuthError` if the document cannot be used."""
        if not client_id.startswith("https://"):
            return self.clients.get(client_id)
        cached = self.documents.get(client_id)
        if cached is None or (cached.expires_at or 0) < time.time():
            cached = self.documents[client_id] = await self.fetch_document(client_id)
        return cached

    async def fetch_document(self, url: str) -> RegisteredClient:
        """The client a client ID metadata document describes (draft-ietf-oauth-client-id-
        metadata-document): its `client_id` must be its own URL, its client a public one."""
        parts = urlsplit(url)
        if not parts.path.strip("/") or parts.query or parts.fragment or parts.username:
            raise OAuthError("invalid_client", "a client ID metadata document URL is https with a path")
        source = self.document_origins.get(f"{parts.scheme}://{parts.netloc}")
        if source is None and _private(parts.hostname or ""):
            raise OAuthError("invalid_client", f"will not fetch {url}: it names a private address")
        where = (source or f"https://{parts.netloc}") + url[len(f"https://{parts.netloc}") :]
        status, document = await _get_json(where, url)
        if status != 200 or not isinstance(document, dict):
            raise OAuthError("invalid_client", f"{url} answered {status}, not a JSON object")
        if document.get("client_id") != url:
            raise OAuthError("invalid_client", "the document's client_id is not its own URL")
        client = _client_from(url, document, "none")
        if client.method != "none":
            raise OAuthError("invalid_client", "a metadata document's client is public: method none")
        client.expires_at = time.time() + DOCUMENT_LIFETIME
        return client

    # --- authorization ---

    async def authorize_endpoint(self, request: Request) -> Response:
        query = request.query_params
        redirect_uri = query.get("redirect_uri", "")
        try:
            client = await self.client(query.get("client_id", ""))
        except OAuthError as e:
            return PlainTextResponse(f"{e.error}: {e.description}", 400)
        if client is None or redirect_uri not in client.redirect_uris:
            # Never redirect to a URI we cannot vouch for: that would be an open redirect.
            return PlainTextResponse("unknown client, or a redirect_uri it did not register", 400)

        def back(**params: str) -> Response:
            if query.get("state"):
                params["state"] = query["state"]
            params["iss"] = self.issuer  # RFC 9207: which server answered
            return RedirectResponse(f"{redirect_uri}?{urlencode(params)}", 302)

        if query.get("response_type") != "code":
            return back(error="unsupported_response_type", error_description="only code is supported")
        challenge = query.get("code_challenge", "")
        if not valid_challenge(challenge) or query.get("code_challenge_method") != "S256":
            return back(
                error="invalid_request",
                error_description="PKCE with S256 is required: a code_challenge of 43 base64url characters",
            )
        resource = query.get("resource", "")
        if not _absolute(resource):
            return back(error="invalid_target", error_description="name the MCP server in resource")
        granted = self.approve(client.client_id, set(query.get("scope", "").split()), resource)
        if granted is None:
            return back(error="access_denied", error_description="the user did not approve")
        self.forget_expired_codes()
        code = secrets.token_urlsafe(24)
        self.codes[code] = Grant(client.client_id, granted, resource, self.subject, redirect_uri, challenge)
        return back(code=code)

    def forget_expired_codes(self) -> None:
        """Drop the codes past their minute (the oldest come first: all live equally long)."""
        now = time.time()
        while self.codes and next(iter(self.codes.values())).expires_at < now:
            self.codes.popitem(last=False)

    # --- tokens ---

    async def token_endpoint(self, request: Request) -> Response:
        form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
        try:
            client = await self.authenticate(request, form)
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

    async def authenticate(self, request: Request, form: dict[str, str]) -> RegisteredClient:
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
        client = await self.client(client_id)
        if client is None or client.method != method:
            raise OAuthError(
                "invalid_client", "unknown client, or not the way it registered to authenticate", 401
            )
        if client.secret is not None and not secrets.compare_digest(client.secret, secret or ""):
            raise OAuthError("invalid_client", "wrong client secret", 401)
        return client

    def exchange_code(self, client: RegisteredClient, form: dict[str, str]) -> Grant:
        verifier = form.get("code_verifier", "")
        grant = self.codes.pop(form.get("code", ""), None)  # a code is good once
        if grant is None or grant.client_id != client.client_id or time.time() > grant.expires_at:
            raise OAuthError("invalid_grant", "unknown, used or expired code")
        if form.get("redirect_uri") != grant.redirect_uri:
            raise OAuthError("invalid_grant", "redirect_uri is not the one the code was sent to")
        if not valid_verifier(verifier):
            raise OAuthError(
                "invalid_grant", "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~"
            )
        if not secrets.compare_digest(s256(verifier), grant.challenge):
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


async def _get_json(where: str, url: str) -> tuple[int, Any]:
    """GET `where` (the document `url`, or a local copy): its status and JSON, at most
    `MAX_DOCUMENT_BYTES` read, no redirect followed."""
    raw = bytearray()
    try:
        async with (
            httpx2.AsyncClient(timeout=5, follow_redirects=False) as http,
            http.stream("GET", where, headers={"Accept": "application/json"}) as reply,
        ):
            async for chunk in reply.aiter_bytes():
                raw += chunk
                if len(raw) > MAX_DOCUMENT_BYTES:
                    raise OAuthError("invalid_client", f"{url} is over {MAX_DOCUMENT_BYTES} bytes")
    except httpx2.HTTPError as e:
        raise OAuthError("invalid_client", f"cannot fetch {url}: {type(e).__name__}") from None
    return reply.status_code, parse_json(bytes(raw))


def _client_from(client_id: str, metadata: dict[str, Any], default_method: str) -> RegisteredClient:
    """A client from its metadata (RFC 7591 §2); `OAuthError` for what this server refuses."""
    uris = metadata.get("redirect_uris")
    if not isinstance(uris, list) or not uris or not all(map(_acceptable_redirect, uris)):
        raise OAuthError(
            "invalid_redirect_uri",
            "redirect_uris must be a non-empty list of https URLs, or http URLs on this machine, "
            "with no query and no fragment",
        )
    method = metadata.get("token_endpoint_auth_method", default_method)
    if method not in AUTH_METHODS:
        raise OAuthError("invalid_client_metadata", f"token_endpoint_auth_method {method!r} is not supported")
    kind = metadata.get("application_type", "web")
    if kind not in APPLICATION_TYPES:
        raise OAuthError("invalid_client_metadata", f"application_type {kind!r}: native or web")
    return RegisteredClient(client_id, list(uris), method, None, str(metadata.get("client_name", "")), kind)


def _absolute(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not parts.fragment


def _acceptable_redirect(uri: Any) -> bool:
    """https anywhere, or http on this machine (a native app's loopback redirect); no query, so
    that the code and state this server adds are the only parameters (no code sent elsewhere)."""
    if not isinstance(uri, str) or not _absolute(uri) or "?" in uri or "#" in uri:
        return False
    parts = urlsplit(uri)
    return parts.scheme == "https" or parts.hostname in ("127.0.0.1", "localhost", "::1")


def _private(host: str) -> bool:
    """Does `host` name this machine or a private network (where a fetch would be SSRF)? Only
    names and literal addresses are checked, not what a name resolves to."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return not address.is_global
