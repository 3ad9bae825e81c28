"""What every Streamable HTTP request passes before a handler sees it.

`wirelab.mcp.http` calls these in order: the `Host` and `Origin` name this
machine (else 403, against DNS rebinding), the bearer token matches (401),
`Accept` lists what the reply may be (406), and the body is one JSON-RPC
message of acceptable size and type (415, 413, 400). Each failure raises a
`Refusal`, which the app turns into an HTTP status with a JSON-RPC error body.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.requests import Request

from wirelab import jsonrpc
from wirelab.jsonrpc import INVALID_REQUEST, JsonRpcError, Message
from wirelab.mcp.protocol import SUPPORTED_PROTOCOL_VERSIONS
from wirelab.mcp.stateless import VERSION_HEADER
from wirelab.wire import parse_json

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
MAX_BODY_BYTES = 4 * 1024 * 1024

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
    if hostname(urlsplit(origin).netloc) not in allowed_hosts:
        raise Refusal(
            403,
            f"Forbidden: Origin {origin!r} is not allowed (a web page may not call a local MCP server)",
        )


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


async def read_message(request: Request, publish: Publish) -> Message:
    """The one JSON-RPC message in the body: 415, 413 or 400 (-32700, -32600) if it is not."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise Refusal(
            415,
            f"Unsupported Media Type: send Content-Type: application/json, not {content_type or 'nothing'!r}",
        )
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise Refusal(413, f"Payload Too Large: the body is over {MAX_BODY_BYTES} bytes")
    message, error = jsonrpc.receive(body)
    publish(message if message is not None else parse_json(body), sender="client")
    if error is not None:
        raise Refusal(400, error["error"]["message"], error["error"]["code"], id=error["id"])
    return message


def hostname(netloc: str) -> str:
    """'127.0.0.1:8000' -> '127.0.0.1'; '[::1]:80' -> '[::1]'; 'evil.com' -> 'evil.com'."""
    if netloc.startswith("["):
        return netloc[: netloc.find("]") + 1]
    return netloc.rsplit(":", 1)[0].lower()


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
    if version is not None and version not in SUPPORTED_PROTOCOL_VERSIONS:
        raise Refusal(
            405,
            f"Method Not Allowed: protocol {version} has no GET stream and no sessions; POST each request",
            headers={"Allow": "POST"},
        )
