"""The OAuth client's exchanges on a `Wire` (channel "oauth"), every token and secret cut short.

    tap = WireTap(wire)
    http = httpx2.AsyncClient(event_hooks=tap.hooks)   # each request and response is published

Discovery, registration and token requests go through those hooks; the user's browser
is no request of the client's, so `wirelab.mcp.auth.client` publishes its two steps (the
page opened, the redirect it ended on) itself. What is published is shortened:

    >>> shortened({"access_token": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln", "scope": "notes:read"})
    {'access_token': 'eyJhbGci…', 'scope': 'notes:read'}
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import httpx2

from wirelab.wire import Kind, Sender, Wire, WireMessage, parse_json

CHANNEL = "oauth"
SECRET_FIELDS = ("access_token", "refresh_token", "client_secret", "client_assertion", "authorization")


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
    """`payload` with every token, secret and assertion cut to its first 8 characters."""
    if isinstance(payload, dict):
        return {
            k: (f"{v[:8]}…" if k.lower() in SECRET_FIELDS and isinstance(v, str) else shortened(v))
            for k, v in payload.items()
        }
    if isinstance(payload, list):
        return [shortened(item) for item in payload]
    return payload
