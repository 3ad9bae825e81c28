"""The OAuth client's exchanges on a `Wire` (channel "oauth"), every token, code and secret cut short.

    tap = WireTap(wire)
    http = httpx2.AsyncClient(event_hooks=tap.hooks)   # each request and response is published

Discovery, registration and token requests go through those hooks; the user's browser
is no request of the client's, so `wirelab.mcp.auth.client` publishes its two steps (the
page opened, the redirect it ended on) itself. What is published is shortened, the
authorization code and the PKCE verifier too, in a form or in a URL:

    >>> shortened({"access_token": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln", "scope": "notes:read"})
    {'access_token': 'eyJhbGci…', 'scope': 'notes:read'}
    >>> shortened({"location": "http://127.0.0.1:1/cb?code=Zm9vYmFyYmF6cXV4&state=s"})
    {'location': 'http://127.0.0.1:1/cb?code=Zm9vYmFy…&state=s'}

An HTTP library logs a redirect's `Location` at DEBUG, code included: `redact_debug_logs`
shortens codes and verifiers in the records of httpx2's and httpcore2's loggers.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import parse_qs

import httpx2

from wirelab.wire import Kind, Sender, Wire, WireMessage, parse_json

CHANNEL = "oauth"
SECRET_FIELDS = (
    "access_token",
    "refresh_token",
    "client_secret",
    "client_assertion",
    "authorization",
    "code",
    "code_verifier",
)
# a code or a verifier as a URL or form parameter (not `code_challenge`, which is public)
_IN_URL = re.compile(r"\b(code|code_verifier|access_token|refresh_token)=([^&\s'\"#]{8})[^&\s'\"#]*")
HTTP_LOGGERS = (
    "httpx2",
    "httpcore2.connection",
    "httpcore2.http11",
    "httpcore2.http2",
    "httpcore2.proxy",
    "httpcore2.socks",
)


class WireTap:
    """Publishes an httpx2 client's requests and responses on `wire`, as its event hooks."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.hooks = {"request": [self.sent], "response": [self.received]}

    async def sent(self, request: httpx2.Request) -> None:
        body = request.content.decode("utf-8", "replace")
        form = (
            {k: v[0] for k, v in parse_qs(body).items()}
            if "x-www-form" in request.headers.get("content-type", "")
            else parse_json(body)
            if body
            else None
        )
        payload = {"url": str(request.url), **({"body": form} if form else {})}
        if "authorization" in request.headers:
            payload["Authorization"] = request.headers["authorization"]
        request.extensions["exchange"] = self.wire.next_exchange()
        method = f"{request.method} {request.url.path}"
        self.publish("client", "request", payload, method, exchange=request.extensions["exchange"])

    async def received(self, response: httpx2.Response) -> None:
        await response.aread()
        kind: Kind = "error" if response.status_code >= 400 else "response"
        body = parse_json(response.content) if response.content else None
        payload = {"location": response.headers["location"]} if "location" in response.headers else body
        method = f"{response.request.method} {response.request.url.path}"
        exchange = response.request.extensions.get("exchange")
        self.publish("server", kind, payload, method, response.status_code, exchange)

    def publish(
        self,
        sender: Sender,
        kind: Kind,
        payload: Any,
        method: str,
        status: int | None = None,
        exchange: Any = None,
    ) -> None:
        if self.wire.observed:
            self.wire.publish(
                WireMessage(CHANNEL, sender, kind, shortened(payload), method, exchange, status)
            )


def shortened(payload: Any) -> Any:
    """`payload` with every token, code, secret and assertion cut to its first 8 characters,
    as a field or as a parameter in a string (a URL)."""
    if isinstance(payload, dict):
        return {
            k: (f"{v[:8]}…" if k.lower() in SECRET_FIELDS and isinstance(v, str) else shortened(v))
            for k, v in payload.items()
        }
    if isinstance(payload, list):
        return [shortened(item) for item in payload]
    if isinstance(payload, str):
        return _IN_URL.sub(r"\1=\2…", payload)
    return payload


class _Redact(logging.Filter):
    """Shortens codes, verifiers and tokens in a record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = _IN_URL.sub(r"\1=\2…", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


_REDACT = _Redact()


def redact_debug_logs() -> None:
    """Put the redacting filter on the HTTP library's loggers (once; a logger's filters do not
    reach its children, so each is named)."""
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        if _REDACT not in logger.filters:
            logger.addFilter(_REDACT)
