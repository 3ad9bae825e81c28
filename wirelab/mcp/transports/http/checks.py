"""What every Streamable HTTP request passes before a handler sees it.

`wirelab.mcp.transports.http.server` calls these in order: the `Host` and `Origin` name this
machine (else 403, against DNS rebinding), the bearer token matches (401),
`Accept` lists what the reply may be (406), and the body is one JSON-RPC
message of acceptable size and type (415, 413, 400). Each failure raises a
`Refusal`, which the app turns into an HTTP status with a JSON-RPC error body.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.requests import Request

from wirelab import jsonrpc
from wirelab.jsonrpc import INVALID_REQUEST, JsonRpcError, Message
from wirelab.mcp.protocol import HANDSHAKE_ERA_VERSIONS
from wirelab.mcp.stateless import VERSION_HEADER
from wirelab.serving import BodyRefused, HttpLimits, read_within
from wirelab.wire import parse_json

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
CLOSE = {"Connection": "close"}  # a refused body is not read to its end, so the connection ends
SINGLE_HEADERS = ("host", "origin", "authorization", "content-type", "content-length", "accept")
_AUTHORITY = re.compile(r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::(?P<port>\d{0,5}))?")

Publish = Callable[..., None]  # `McpHttpApp.publish(payload, status=None, sender="server")`


class Refusal(Exception):
    """A request refused before any handler ran: an HTTP status and a JSON-RPC error body."""

    def __init__(
        self,
        status: int,
        message: str,
        code: int = INVALID_REQUEST,
        headers: dict[str, str] | None = None,
        id: jsonrpc.Id | None = None,
    ) -> None:
        super().__init__(f"{status}: {message}")
        self.status, self.headers = status, headers or {}
        self.body = jsonrpc.error_response(id, JsonRpcError(code, message))


def check_host_and_origin(
    request: Request, allowed_hosts: frozenset[str], allowed_origins: frozenset[str]
) -> None:
    """403 for a `Host` or `Origin` that names another machine (a DNS-rebinding attack)."""
    host = request.headers.get("host", "")
    if hostname(host) not in allowed_hosts:
        raise Refusal(
            403,
            f"Forbidden: Host {host!r} is not this server (allowed: {', '.join(sorted(allowed_hosts))})",
        )
    origin = request.headers.get("origin")
    if origin is None or origin in allowed_origins:
        return
    if origin_hostname(origin) not in allowed_hosts:
        raise Refusal(
            403,
            f"Forbidden: Origin {origin!r} is not allowed (a web page may not call a local MCP server)",
        )


def refuse_repeated_headers(request: Request, *mcp_headers: str) -> None:
    """400 for a header sent twice that must come once: a gateway might read the other copy."""
    for name in (*SINGLE_HEADERS, *mcp_headers):
        if len(request.headers.getlist(name)) > 1:
            raise Refusal(400, f"Bad Request: the {name} header appears more than once; send it once")


def check_token(request: Request, token: str | None) -> None:
    """401 unless the request carries `Authorization: Bearer <token>` (when a token is set)."""
    if token is None:
        return
    sent = request.headers.get("authorization", "")
    if not secrets.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        raise Refusal(
            401,
            "Unauthorized: send Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )


async def read_message(request: Request, publish: Publish, limits: HttpLimits) -> Message:
    """The one JSON-RPC message in the body: 415, 413, 408 or 400 (-32700, -32600) if it is not."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise Refusal(
            415,
            f"Unsupported Media Type: send Content-Type: application/json, not {content_type or 'nothing'!r}",
        )
    body = await read_body(request, limits)
    message, error = jsonrpc.receive(body)
    publish(message if message is not None else parse_json(body), sender="client")
    if error is not None:
        raise Refusal(400, error["error"]["message"], error["error"]["code"], id=error["id"])
    return message


async def read_body(request: Request, limits: HttpLimits) -> bytes:
    """The body, read within `limits` (`read_within`): 413 if it is too large, 408 if it has not
    all arrived within `limits.body_seconds`, 400 (which nobody receives) if the connection ended
    first. Either way the connection is closed: the rest of the body is never read."""
    try:
        return await read_within(request, limits)
    except BodyRefused as refused:
        message = {
            413: f"Payload Too Large: the body is over {limits.max_body_bytes} bytes",
            408: f"Request Timeout: the body did not arrive within {limits.body_seconds} s",
            400: "Bad Request: the connection ended before the body did",
        }[refused.status]
        raise Refusal(refused.status, message, headers=CLOSE) from None


def hostname(authority: str) -> str | None:
    """The host an authority (`Host` header, or an origin's) names; None if it is not one.

    '127.0.0.1:8000' -> '127.0.0.1'; '[::1]:80' -> '[::1]'; 'LocalHost' -> 'localhost';
    '127.0.0.1:1@evil.com', '[::1]evil.com' and 'localhost:evil' -> None.
    """
    found = _AUTHORITY.fullmatch(authority)
    if found is None or int(found["port"] or 0) > 65535:
        return None
    if found["ipv6"] is not None:
        try:
            return f"[{ipaddress.IPv6Address(found['ipv6']).compressed}]"
        except ValueError:
            return None
    return found["name"].lower()


def origin_hostname(origin: str) -> str | None:
    """The host of an `Origin` such as 'http://localhost:6274'; None unless it is exactly one."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or parts.path or parts.query or parts.fragment:
        return None
    return hostname(parts.netloc)


def require_accept(request: Request, *media_types: str) -> None:
    """406 unless `Accept` lists every one of `media_types` (or a wildcard covering it)."""
    accepted = {part.split(";")[0].strip().lower() for part in request.headers.get("accept", "").split(",")}
    missing = [t for t in media_types if not accepted & {t, "*/*", t.split("/")[0] + "/*"}]
    if missing:
        raise Refusal(
            406,
            f"Not Acceptable: the Accept header must list {' and '.join(media_types)}"
            f" (missing {', '.join(missing)})",
        )


def refuse_modern(request: Request) -> None:
    version = request.headers.get(VERSION_HEADER)
    if version is not None and version not in HANDSHAKE_ERA_VERSIONS:
        raise Refusal(
            405,
            f"Method Not Allowed: protocol {version} has no GET stream and no sessions; POST each request",
            headers={"Allow": "POST"},
        )
