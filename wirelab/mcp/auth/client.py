"""The client side of MCP authorization: an `httpx2.Auth` that gets, uses and renews tokens.

    auth = OAuth("http://127.0.0.1:8000/mcp", on_authorize=approve_headlessly)
    async with connect_http("http://127.0.0.1:8000/mcp", auth=auth) as client: ...

Every request goes out with the bearer token it has. A 401 starts the flow
(2026-07-28 `basic/authorization/`):

1. discovery: the challenge's `resource_metadata` (or, only when the header names
   none, the well-known URLs) gives the protected-resource metadata; its `resource`
   must be this server; its first authorization server is the issuer, whose metadata
   must name that very issuer (`wirelab.mcp.auth.discovery`). A server without
   metadata (2025-03-26) is its own authorization server.
2. identity, in the specification's order: pre-registered `client_id`, a client ID
   metadata document (an HTTPS URL) when the server supports them, else dynamic
   registration (RFC 7591, deprecated; `application_type` sent); how it proves it is
   `wirelab.mcp.auth.identity`. Credentials are kept per issuer, never used at another.
3. a grant: authorization code with PKCE S256 (`wirelab.mcp.auth.pkce`), which the user
   approves in `on_authorize` (it gets the authorization URL and returns the redirect
   URL; its `iss` must be the issuer, RFC 9207, against the mix-up attack), or client
   credentials (a machine, no user). Both name the server in `resource` (RFC 8707),
   so the token is good for this server only.

A 403 `insufficient_scope` steps up: authorize again with the scopes the
challenge names, at most `max_attempts` times for one request. An expired token
is refreshed first when there is a refresh token. Every exchange is published on
`.wire` (channel "oauth"), tokens, codes and secrets shortened (`wirelab.mcp.auth.wire_tap`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2

from wirelab.mcp.auth.discovery import (
    authorization_server_metadata_urls,
    canonical_resource,
    origin,
    parse_challenge,
    resource_matches,
    resource_metadata_urls,
)
from wirelab.mcp.auth.identity import Identity, authenticated, preregistered_method
from wirelab.mcp.auth.pkce import pkce_pair
from wirelab.mcp.auth.pkce import s256 as s256  # re-exported: lesson 15 imports it from here
from wirelab.mcp.auth.wire_tap import WireTap, redact_debug_logs
from wirelab.wire import Wire, parse_json

log = logging.getLogger(__name__)

Authorize = Callable[[str], Awaitable[str]]
Grant = Literal["authorization_code", "client_credentials"]


class AuthorizationError(Exception):
    """The client could not get a token; the message says which step failed and why."""


@dataclass
class Tokens:
    access_token: str
    refresh_token: str | None = None
    expires_at: float | None = None
    scopes: set[str] = field(default_factory=set)

    @property
    def expired(self) -> bool:
        return self.expires_at is not None and time.time() > self.expires_at - 10


@dataclass
class Discovered:
    """What discovery found: the resource to name, the scopes it offers, the server's metadata."""

    resource: str
    scopes_supported: list[str] | None
    metadata: dict[str, Any]
    metadata_url: str | None = None
    issuer: str = ""


class OAuth(httpx2.Auth):
    """Bearer tokens for one MCP server, obtained as the authorization specification says."""

    def __init__(
        self,
        server_url: str,
        *,
        on_authorize: Authorize | None = None,
        redirect_uri: str = "http://127.0.0.1:33418/callback",
        client_name: str = "wirelab-client",
        client_id: str | None = None,
        client_secret: str | None = None,
        client_metadata_url: str | None = None,
        client_issuer: str | None = None,
        grant: Grant = "authorization_code",
        private_key_pem: str | None = None,
        signing_algorithm: str = "ES256",
        max_attempts: int = 3,
        timeout: float = 30.0,
    ) -> None:
        if client_metadata_url is not None and urlsplit(client_metadata_url).scheme != "https":
            raise ValueError(f"a client ID metadata document is an https URL, got {client_metadata_url!r}")
        self.server_url, self.on_authorize, self.redirect_uri = server_url, on_authorize, redirect_uri
        self.client_name, self.grant, self.max_attempts = client_name, grant, max_attempts
        self.client_metadata_url = client_metadata_url
        self.private_key_pem, self.signing_algorithm = private_key_pem, signing_algorithm
        self.preregistered = (
            Identity(client_id, client_secret, preregistered_method(client_secret, private_key_pem))
            if client_id
            else None
        )
        self.client_issuer = client_issuer  # the issuer a pre-registered client belongs to
        self.identities: dict[str, Identity] = {}  # per issuer (SEP-2352): never used at another
        self.identity: Identity | None = None
        self.tokens: Tokens | None = None
        self._refreshed: str | None = None  # the access token the last refresh gave
        self.discovered: Discovered | None = None
        self.authorizations = 0
        self.wire = Wire()
        self.tap = WireTap(self.wire)
        self._lock = asyncio.Lock()
        self.http = httpx2.AsyncClient(timeout=timeout, event_hooks=self.tap.hooks)
        redact_debug_logs()

    # --- the httpx2.Auth flow around every MCP request ---

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        if self.tokens and self.tokens.expired and self.tokens.refresh_token:
            async with self._lock:
                await self.refresh()
        sent = self._bear(request)
        response = yield request
        for _ in range(self.max_attempts):
            if response.status_code not in (401, 403):
                return
            challenge = parse_challenge(response.headers.get("www-authenticate", ""))
            self.tap.publish(
                "server", "error", {"WWW-Authenticate": challenge}, "challenge", response.status_code
            )
            if response.status_code == 403 and challenge.get("error") != "insufficient_scope":
                return  # forbidden for another reason: a new token would not help
            async with self._lock:
                if not await self._renew(challenge, response.status_code, sent):
                    return
            sent = self._bear(request)
            response = yield request

    def _bear(self, request: httpx2.Request) -> str | None:
        token = self.tokens.access_token if self.tokens else None
        if token:
            request.headers["Authorization"] = f"Bearer {token}"
        return token

    async def _renew(self, challenge: dict[str, str], status: int, sent: str | None) -> bool:
        """Get a better token; False when asking again cannot help (the caller sees the refusal)."""
        current = self.tokens.access_token if self.tokens else None
        if status == 401 and current is not None and current != sent:
            return True  # another request renewed the token meanwhile
        refreshable = self.tokens and self.tokens.refresh_token and sent != self._refreshed
        if status == 401 and refreshable and await self.refresh():
            return True  # (a refreshed token refused in turn: the server may trust another issuer now)
        wanted = set(challenge.get("scope", "").split())
        if status == 403 and self.tokens and wanted <= self.tokens.scopes:
            log.info("insufficient_scope for scopes already granted (%s): not asking again", wanted)
            return False
        await self.authorize(challenge, status)
        return True

    # --- the steps ---

    async def authorize(self, challenge: dict[str, str], status: int = 401) -> Tokens:
        """Discover (again on every 401: the server may have moved to another authorization
        server), identify, then run the grant; sets and returns `.tokens`."""
        where = challenge.get("resource_metadata")
        if self.discovered is None or status == 401 or (where and where != self.discovered.metadata_url):
            self.discovered = await self.discover(where)
        scope = self.choose_scope(challenge, status)
        issuer = self.discovered.issuer
        if issuer not in self.identities:
            self.identities[issuer] = await self.identify(self.discovered.metadata, issuer)
        self.identity = self.identities[issuer]
        self.authorizations += 1
        if self.grant == "client_credentials":
            params = {"grant_type": "client_credentials"}
        else:
            params = await self.authorization_code(scope)
        if scope:
            params["scope"] = scope
        self.tokens = await self.token_request({**params, "resource": self.discovered.resource})
        return self.tokens

    async def discover(self, resource_metadata: str | None = None) -> Discovered:
        """Protected-resource metadata, then the authorization server's metadata, whose `issuer`
        must be the very issuer its URL was built from (RFC 8414 §3.3)."""
        prm = await self._first_document(resource_metadata_urls(self.server_url, resource_metadata))
        if prm is not None:
            resource = prm.get("resource")
            if not isinstance(resource, str) or not resource_matches(self.server_url, resource):
                raise AuthorizationError(
                    f"the protected-resource metadata names {resource!r}, not this server "
                    f"({self.server_url}): refusing to get a token for another resource"
                )
            servers = prm.get("authorization_servers") or []
            if not servers or not isinstance(servers[0], str):
                raise AuthorizationError("the protected-resource metadata names no authorization server")
            issuer, scopes = servers[0], prm.get("scopes_supported")
        else:  # a 2025-03-26 server: it is its own authorization server
            resource, issuer, scopes = canonical_resource(self.server_url), origin(self.server_url), None
        metadata = await self._first_document(authorization_server_metadata_urls(issuer))
        if metadata is None and prm is not None:
            raise AuthorizationError(f"no authorization server metadata for {issuer}")
        if metadata is None:  # 2025-03-26: the default endpoints at the server's root
            metadata = {
                "authorization_endpoint": f"{issuer}/authorize",
                "token_endpoint": f"{issuer}/token",
                "registration_endpoint": f"{issuer}/register",
            }
        else:
            self._check_metadata(metadata, issuer)
        return Discovered(resource, scopes, metadata, resource_metadata, issuer)

    def _check_metadata(self, metadata: dict[str, Any], issuer: str) -> None:
        """Refuse metadata that names another issuer (a swap), or an authorization code flow
        without PKCE S256."""
        if metadata.get("issuer") != issuer:
            raise AuthorizationError(
                f"the metadata of {issuer} names the issuer {metadata.get('issuer')!r}: refusing "
                "metadata that speaks for another authorization server (RFC 8414 §3.3)"
            )
        if self.grant == "authorization_code" and "S256" not in metadata.get(
            "code_challenge_methods_supported", []
        ):
            raise AuthorizationError(f"{issuer} does not support PKCE with S256: refusing to authorize")

    def choose_scope(self, challenge: dict[str, str], status: int) -> str | None:
        """The challenge's scope (with those already granted, on a step-up), else all offered."""
        if challenge.get("scope"):
            wanted = challenge["scope"].split()
            if status == 403 and self.tokens:
                wanted = sorted(self.tokens.scopes) + [s for s in wanted if s not in self.tokens.scopes]
            return " ".join(wanted)
        offered = self.discovered.scopes_supported if self.discovered else None
        return " ".join(offered) if offered else None

    async def identify(self, metadata: dict[str, Any], issuer: str = "") -> Identity:
        """Pre-registered, else a client ID metadata document, else dynamic registration."""
        if self.preregistered:
            return self._preregistered_at(metadata, issuer)
        if self.client_metadata_url and metadata.get("client_id_metadata_document_supported"):
            return Identity(self.client_metadata_url)  # portable: the same URL at every issuer
        if not metadata.get("registration_endpoint"):
            raise AuthorizationError(
                "the authorization server offers no registration and this client has no client_id: "
                "register it with the server's owner and pass client_id=..."
            )
        return await self.register(metadata)

    def _preregistered_at(self, metadata: dict[str, Any], issuer: str) -> Identity:
        """The pre-registered identity, at the issuer it belongs to (the first one it is used at,
        unless `client_issuer` says); another issuer is an error, not a silent retry."""
        assert self.preregistered
        self.client_issuer = self.client_issuer or issuer
        if issuer != self.client_issuer:
            raise AuthorizationError(
                f"this client_id was registered with {self.client_issuer}, but the server now sends "
                f"clients to {issuer}: register with it, or pass its client_id"
            )
        supported = metadata.get("token_endpoint_auth_methods_supported", ["client_secret_basic"])
        if self.preregistered.method == "client_secret_basic" and "client_secret_basic" not in supported:
            self.preregistered.method = "client_secret_post"
        return self.preregistered

    async def register(self, metadata: dict[str, Any]) -> Identity:
        """Dynamic client registration (RFC 7591), deprecated in 2026-07-28 but kept for older
        servers; `application_type` is native for a loopback redirect URI (SEP-837)."""
        supported = metadata.get("token_endpoint_auth_methods_supported", ["client_secret_basic"])
        method = next(
            (m for m in ("none", "client_secret_basic", "client_secret_post") if m in supported), "none"
        )
        user_grants = ["authorization_code", "refresh_token"]
        grant_types = ["client_credentials"] if self.grant == "client_credentials" else user_grants
        loopback = urlsplit(self.redirect_uri).hostname in ("127.0.0.1", "localhost", "::1")
        answer = await self._post_json(
            metadata["registration_endpoint"],
            {
                "client_name": self.client_name,
                "redirect_uris": [self.redirect_uri],
                "grant_types": grant_types,
                "response_types": ["code"],
                "token_endpoint_auth_method": method,
                "application_type": "native" if loopback else "web",
            },
        )
        if not isinstance(answer.get("client_id"), str):
            raise AuthorizationError(f"the registration answer has no client_id: {answer!r}")
        secret = answer.get("client_secret")
        method = answer.get("token_endpoint_auth_method") or (method if secret else "none")
        return Identity(answer["client_id"], secret, method)

    async def authorization_code(self, scope: str | None) -> dict[str, str]:
        """Send the user to the authorization endpoint; the token request's parameters for the code."""
        if self.on_authorize is None:
            raise AuthorizationError(
                "this server needs a user to authorize: pass on_authorize= (open the URL in a browser "
                "and return the redirect URL), or approve_headlessly for a local test server"
            )
        assert self.discovered and self.identity
        verifier, challenge = pkce_pair()
        state = secrets.token_urlsafe(16)
        query = {
            "response_type": "code",
            "client_id": self.identity.client_id,
            "redirect_uri": self.redirect_uri,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": state,
            "resource": self.discovered.resource,
        }
        if scope:
            query["scope"] = scope
        url = self.discovered.metadata["authorization_endpoint"]
        exchange = self.wire.next_exchange()  # the user's browser: open the page, approve, be redirected
        self.tap.publish(
            "client", "request", {"url": url, "query": query}, "browser: authorize", exchange=exchange
        )
        redirected = await self.on_authorize(f"{url}{'&' if '?' in url else '?'}{urlencode(query)}")
        self.tap.publish("server", "response", {"location": redirected}, "browser: authorize", 302, exchange)
        answer = {k: v[0] for k, v in parse_qs(urlsplit(redirected).query).items()}
        if redirected.split("?")[0] != self.redirect_uri:
            raise AuthorizationError(f"redirected to {redirected!r}, not to {self.redirect_uri}")
        if answer.get("state") != state:
            raise AuthorizationError(
                "the redirect's state is not the one sent: a forged or replayed redirect"
            )
        assert self.discovered
        check_iss(answer.get("iss"), self.discovered.issuer, self.discovered.metadata)
        if "code" not in answer:
            raise AuthorizationError(
                f"not authorized: {answer.get('error', 'no code')}: {answer.get('error_description', '')}"
            )
        return {
            "grant_type": "authorization_code",
            "code": answer["code"],
            "redirect_uri": self.redirect_uri,
            "code_verifier": verifier,
        }

    async def refresh(self) -> bool:
        """Trade the refresh token for new tokens; False (and no tokens) if the server refuses."""
        if not (self.tokens and self.tokens.refresh_token and self.discovered):
            return False
        params = {"grant_type": "refresh_token", "refresh_token": self.tokens.refresh_token}
        try:
            self.tokens = await self.token_request({**params, "resource": self.discovered.resource})
        except AuthorizationError as e:
            log.info("refresh refused: %s", e)
            self.tokens = None
            return False
        self._refreshed = self.tokens.access_token
        return True

    async def token_request(self, params: dict[str, str]) -> Tokens:
        """POST to the token endpoint, authenticated as the identity says; the tokens it answers."""
        assert self.discovered and self.identity
        metadata = self.discovered.metadata
        form, headers = authenticated(
            self.identity, params, metadata, self.private_key_pem, self.signing_algorithm
        )
        response = await self.http.post(metadata["token_endpoint"], data=form, headers=headers)
        answer = parse_json(response.content)
        if response.status_code != 200 or not isinstance(answer, dict) or "access_token" not in answer:
            raise AuthorizationError(f"the token endpoint answered {response.status_code}: {_why(answer)}")
        previous = self.tokens
        scopes = set(answer.get("scope", params.get("scope", "")).split())
        return Tokens(
            answer["access_token"],
            answer.get("refresh_token") or (previous.refresh_token if previous else None),
            time.time() + answer["expires_in"] if isinstance(answer.get("expires_in"), int) else None,
            scopes,
        )

    # --- HTTP helpers ---

    async def _first_document(self, urls: list[str]) -> dict[str, Any] | None:
        """The first URL that answers 200 with a JSON object; None if none does."""
        for url in urls:
            try:
                response = await self.http.get(url, headers={"Accept": "application/json"})
            except httpx2.HTTPError as e:
                raise AuthorizationError(f"cannot reach {url}: {e}") from e
            document = parse_json(response.content)
            if response.status_code == 200 and isinstance(document, dict):
                return document
        return None

    async def _post_json(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        response = await self.http.post(url, json=body)
        answer = parse_json(response.content)
        if response.status_code not in (200, 201) or not isinstance(answer, dict):
            raise AuthorizationError(f"{url} answered {response.status_code}: {_why(answer)}")
        return answer

    async def aclose(self) -> None:
        await self.http.aclose()


def check_iss(iss: str | None, issuer: str, metadata: dict[str, Any]) -> None:
    """RFC 9207 §2.4 as 2026-07-28 applies it to an authorization response: an `iss` present must
    be `issuer`, the server the client sent the user to, compared as strings; an absent one is
    refused only where the server's metadata promised it. `AuthorizationError` otherwise.

        >>> check_iss("https://as.example", "https://as.example", {})
        >>> check_iss("https://evil.example", "https://as.example", {})
        Traceback (most recent call last):
        wirelab.mcp.auth.client.AuthorizationError: the authorization response came from \
'https://evil.example', not from https://as.example, the server this client sent the user to: \
a mix-up; the code is not sent anywhere
    """
    if iss is None and metadata.get("authorization_response_iss_parameter_supported") is not True:
        return
    if iss != issuer:
        raise AuthorizationError(
            f"the authorization response came from {iss!r}, not from {issuer}, the server this "
            "client sent the user to: a mix-up; the code is not sent anywhere"
        )


async def approve_headlessly(url: str, max_redirects: int = 5) -> str:
    """The user's part for a test server that approves at once: GET the URL and follow its
    redirects, as a browser would, until one leads to the `redirect_uri` it names; return that."""
    callback = parse_qs(urlsplit(url).query).get("redirect_uri", [""])[0]
    async with httpx2.AsyncClient(timeout=30) as browser:
        for _ in range(max_redirects):
            response = await browser.get(url)
            if response.status_code not in (302, 303, 307) or "location" not in response.headers:
                raise AuthorizationError(
                    f"the authorization endpoint answered {response.status_code}, not a redirect"
                )
            url = response.headers["location"]
            if not callback or url.split("?")[0] == callback:
                return url
    raise AuthorizationError(f"more than {max_redirects} redirects without reaching {callback}")


def _why(answer: Any) -> str:
    if isinstance(answer, dict) and "error" in answer:
        return f"{answer['error']}: {answer.get('error_description', '')}".rstrip(": ")
    return repr(answer)[:200]
