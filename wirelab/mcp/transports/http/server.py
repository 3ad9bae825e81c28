"""MCP over Streamable HTTP, the server side: one endpoint, `/mcp`, for two protocol eras.

    >>> from wirelab.mcp.example import build_server
    >>> running = serve_http(build_server())  # uvicorn on 127.0.0.1, a free port, a thread
    >>> running.url.startswith("http://127.0.0.1:"), running.url.endswith("/mcp")
    (True, True)
    >>> running.stop()

Each request picks its era (basic/versioning.mdx, "dual-era server"):

- 2025-11-25 and before (`initialize` first). POST `initialize` mints a
  session id (`Mcp-Session-Id`, from `secrets.token_urlsafe`); every later
  request must carry it: none is 400, an unknown one 404. A POSTed request is
  answered with JSON, or with an SSE stream when the handler sends
  notifications (progress, logs) before its response; a POSTed notification
  or response gets 202 and no body. GET opens the session's stream for
  notifications that belong to no request (`list_changed`); DELETE ends the
  session.
- 2026-07-28 (a request whose `_meta` or `MCP-Protocol-Version` header names
  it): no session, answered by `wirelab.mcp.stateless`; GET and DELETE are 405;
  errors get HTTP statuses (400, and 404 for an unknown method).

Before either (`wirelab.mcp.transports.http.checks`): a header that must come once sent
twice is 400, an `Origin` or `Host` that is not this machine 403 (DNS
rebinding), a missing or wrong bearer token (when one is set) 401, an
`Accept` without both JSON and SSE 406, a body that is not JSON 415 or 400.
`HttpLimits` bounds the rest (`wirelab.serving`): body size and time
(413, 408), request heads that never end, connections, sessions held (503)
and their idle time (then 404). Every message in and out is published on
`McpHttpApp.wire` (channel "mcp-http").

A tool's requests to the client (sampling, roots, elicitation) travel on the
SSE stream of the request that runs it; the client POSTs its response, which
gets 202. Sessions only (2025-11-25 and before): a 2026-07-28 request gets
no requests from the server (`wirelab.mcp.stateless`). Tested in a 2025-11-25
session with our own client (elicitation, tests/mcp/transports/http/test_http_limits.py) and
with the official SDKs' clients, which answer an elicitation, a sampling and a
roots request, each from its own tool: the Python SDK's `mcp.ClientSession`
(tests/mcp/transports/http/test_http_server_requests_sdk.py) and the TypeScript SDK's
`Client` over `StreamableHTTPClientTransport`, npm @modelcontextprotocol/sdk
1.32.2 (tests/mcp/transports/http/test_http_server_requests_ts_sdk.py).

Not covered: resuming a stream with `Last-Event-ID` (the server never closes
a stream early, so a client has nothing to resume).
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from wirelab import jsonrpc
from wirelab.jsonrpc import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, JsonRpcError, Message
from wirelab.mcp import stateless
from wirelab.mcp.auth.resource import ProtectedResource
from wirelab.mcp.protocol import Send
from wirelab.mcp.server import Server
from wirelab.mcp.session import Session
from wirelab.mcp.stateless import METHOD_HEADER, NAME_HEADER, VERSION_HEADER, StatelessServer
from wirelab.mcp.transports.http.checks import (
    LOOPBACK_HOSTS,
    Refusal,
    check_host_and_origin,
    check_token,
    read_message,
    refuse_modern,
    refuse_repeated_headers,
    require_accept,
)
from wirelab.mcp.transports.http.running import MCP_PATH, RunningHttpServer
from wirelab.serving import DEFAULT_LIMITS, HttpLimits
from wirelab.wire import Wire, WireMessage

log = logging.getLogger(__name__)

SESSION_HEADER = "Mcp-Session-Id"
CHANNEL = "mcp-http"
MODERN_ERROR_STATUS = {
    jsonrpc.PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    stateless.HEADER_MISMATCH: 400,
    stateless.UNSUPPORTED_PROTOCOL_VERSION: 400,
    METHOD_NOT_FOUND: 404,
}

Handle = Callable[[Message, Send], Awaitable[Message | None]]


@dataclass
class HttpSession:
    """A 2025-11-25 session: its id, its `Session`, its GET stream when one is open, its last use."""

    id: str
    session: Session = field(init=False)
    listener: asyncio.Queue | None = None
    last_seen: float = field(default_factory=time.monotonic)


class JsonRpcResponse(JSONResponse):
    """A JSON response encoded as every message is (`jsonrpc.encode`): always valid UTF-8."""

    def render(self, content: Any) -> bytes:
        return jsonrpc.encode(content)


# the request whose handler is running, so its session's notifications go on its stream
_current_stream: contextvars.ContextVar[tuple[HttpSession, Send] | None] = contextvars.ContextVar(
    "current_stream", default=None
)


class McpHttpApp:
    """The ASGI app serving `server` at `/mcp`; `.starlette` is what uvicorn runs.

    `token`: require `Authorization: Bearer <token>`; `protection`: require OAuth
    access tokens for this server (`wirelab.mcp.auth.resource`). `allowed_hosts`: host
    names accepted in `Host` and `Origin` (with any port). `allowed_origins`:
    further exact origins, e.g. `"https://inspector.example"`. `limits`: body
    size and time, sessions held and their idle time (`HttpLimits`).
    """

    def __init__(
        self,
        server: Server,
        *,
        token: str | None = None,
        allowed_hosts: Iterable[str] = LOOPBACK_HOSTS,
        allowed_origins: Iterable[str] = (),
        limits: HttpLimits = DEFAULT_LIMITS,
        protection: ProtectedResource | None = None,
    ) -> None:
        self.server, self.token, self.limits, self.protection = server, token, limits, protection
        self.allowed_hosts = frozenset(allowed_hosts)
        self.allowed_origins = frozenset(allowed_origins)
        self.wire = Wire()
        self.sessions: OrderedDict[str, HttpSession] = OrderedDict()  # least recently used first
        self.stateless = StatelessServer(server)
        self.loop: asyncio.AbstractEventLoop | None = None
        routes = [Route(MCP_PATH, self.endpoint, methods=["GET", "POST", "DELETE"])]
        self.starlette = Starlette(routes=routes + (protection.routes(MCP_PATH) if protection else []))

    async def endpoint(self, request: Request) -> Response:
        self.loop = asyncio.get_running_loop()
        try:
            refuse_repeated_headers(request, SESSION_HEADER, VERSION_HEADER, METHOD_HEADER, NAME_HEADER)
            check_host_and_origin(request, self.allowed_hosts, self.allowed_origins)
            check_token(request, self.token)
            if self.protection and (refused := await self.protection.check(request)):
                return refused
            if request.method == "POST":
                return await self.post(request)
            return await (self.get(request) if request.method == "GET" else self.delete(request))
        except Refusal as refusal:
            log.info("refused %s %s: %s", request.method, request.url.path, refusal)
            self.publish(refusal.body, refusal.status)
            return JsonRpcResponse(refusal.body, refusal.status, headers=refusal.headers)

    # --- POST: one message ---

    async def post(self, request: Request) -> Response:
        require_accept(request, "application/json", "text/event-stream")
        message = await read_message(request, self.publish, self.limits)
        if self.protection and (refused := self.protection.check_message(request, message)):
            return refused
        if stateless.is_modern(message, request.headers.get(VERSION_HEADER)):
            return await self.post_modern(request, message)
        return await self.post_legacy(request, message)

    async def post_modern(self, request: Request, message: Message) -> Response:
        if not jsonrpc.is_request(message):
            return Response(status_code=202)  # 2026-07-28 defines no client notifications on HTTP
        return await self.answer(
            message, lambda m, send: self.stateless.handle(m, send, request.headers), _modern_status
        )

    async def post_legacy(self, request: Request, message: Message) -> Response:
        if jsonrpc.is_request(message) and message["method"] == "initialize":
            return await self.initialize(message)
        entry = self.session_for(request)
        if not jsonrpc.is_request(message):
            await entry.session.handle(message)
            return Response(status_code=202)
        return await self.answer(message, lambda m, send: _in_stream(entry, send, m), lambda response: 200)

    async def initialize(self, message: Message) -> Response:
        """Open a session; its id goes back in `Mcp-Session-Id` if `initialize` succeeds.

        503 when `limits.max_sessions` are open, after closing the idle ones.
        """
        self.expire_idle()
        if len(self.sessions) >= self.limits.max_sessions:
            raise Refusal(
                503,
                f"Service Unavailable: {len(self.sessions)} sessions are open, the most this server "
                "holds; end one with DELETE, or retry later",
                headers={"Retry-After": "10"},
            )
        entry = self.open_session()
        response = await entry.session.handle(message)
        self.publish(response, 200)
        if "error" in response:
            self.close_session(entry)
            return JsonRpcResponse(response)
        return JsonRpcResponse(response, headers={SESSION_HEADER: entry.id})

    async def answer(self, message: Message, handle: Handle, status: Callable[[Message], int]) -> Response:
        """JSON if the handler sends nothing before its response, else an SSE stream of it all."""
        queue: asyncio.Queue[Message | None] = asyncio.Queue()
        task = asyncio.create_task(_run(handle, message, queue))
        first = await queue.get()
        if first is None:  # cancelled: no response is sent, so the stream just ends
            return EventSourceResponse(_nothing(), headers={"X-Accel-Buffering": "no"})
        if jsonrpc.is_response(first):
            self.publish(first, status(first))
            return JsonRpcResponse(first, status(first))
        return EventSourceResponse(self.events(first, queue, task), headers={"X-Accel-Buffering": "no"})

    async def events(
        self, first: Message, queue: asyncio.Queue[Message | None], task: asyncio.Task
    ) -> AsyncIterator[dict[str, str]]:
        """SSE events up to the response; a client that hangs up cancels the request."""
        message = first
        try:
            while True:
                self.publish(message, 200)
                yield {"event": "message", "data": jsonrpc.encode(message).decode()}
                if jsonrpc.is_response(message):
                    return
                message = await queue.get()
                if message is None:  # cancelled after some notifications
                    return
        finally:
            task.cancel()

    # --- sessions (2025-11-25) ---

    def open_session(self) -> HttpSession:
        entry = HttpSession(secrets.token_urlsafe(32))
        entry.session = self.server.connect(self.sender(entry))
        self.sessions[entry.id] = entry
        return entry

    def session_for(self, request: Request) -> HttpSession:
        """The request's session: 400 without `Mcp-Session-Id`, 404 for one that is not open
        (or was closed after `limits.session_idle_seconds` unused), 400 for a version header
        newer than the session's."""
        self.expire_idle()
        session_id = request.headers.get(SESSION_HEADER)
        if session_id is None:
            raise Refusal(
                400, f"Bad Request: the {SESSION_HEADER} header is required; send initialize first to get one"
            )
        entry = self.sessions.get(session_id)
        if entry is None:
            raise Refusal(
                404, "Session not found: it ended or never existed; send initialize to start a new one"
            )
        version, negotiated = request.headers.get(VERSION_HEADER), entry.session.protocol_version
        if version is not None and negotiated is not None and version > negotiated:  # dates compare
            raise Refusal(  # an older one is tolerated: the conformance suite sends 2025-03-26
                400,
                f"Bad Request: {VERSION_HEADER} {version!r} is newer than this session's protocol "
                f"version {negotiated!r}, negotiated in initialize",
            )
        entry.last_seen = time.monotonic()
        self.sessions.move_to_end(entry.id)
        return entry

    def expire_idle(self) -> None:
        """Close the sessions unused for `limits.session_idle_seconds`; one with a stream or a
        request still running counts as used."""
        deadline = time.monotonic() - self.limits.session_idle_seconds
        while self.sessions:
            entry = next(iter(self.sessions.values()))
            if entry.last_seen > deadline:
                return
            if entry.listener is not None or entry.session.in_flight:
                entry.last_seen = time.monotonic()
                self.sessions.move_to_end(entry.id)
                continue
            log.info("closed session %s…: idle for %.0f s", entry.id[:8], self.limits.session_idle_seconds)
            self.close_session(entry)

    def close_session(self, entry: HttpSession) -> None:
        self.sessions.pop(entry.id, None)
        entry.session.close()
        if entry.listener is not None:
            self.deliver(entry.listener.put_nowait, None)

    def sender(self, entry: HttpSession) -> Send:
        """The session's `send`: onto the stream of the request running, else the GET stream."""

        def send(message: Message) -> None:
            current = _current_stream.get()
            if current is not None and current[0] is entry:
                current[1](message)
            elif entry.listener is not None:
                self.deliver(entry.listener.put_nowait, message)
            else:
                log.debug("dropped %s: session has no open GET stream", message.get("method"))

        return send

    def deliver(self, put: Callable[[Any], None], item: Any) -> None:
        """Call `put(item)` on the server's loop, from whichever thread we are on."""
        try:
            on_loop = asyncio.get_running_loop() is self.loop
        except RuntimeError:
            on_loop = False
        if on_loop or self.loop is None:
            put(item)
        else:
            self.loop.call_soon_threadsafe(put, item)

    # --- GET and DELETE (2025-11-25 only) ---

    async def get(self, request: Request) -> Response:
        """Open the session's stream of notifications that belong to no request."""
        refuse_modern(request)
        require_accept(request, "text/event-stream")
        entry = self.session_for(request)
        if entry.listener is not None:
            raise Refusal(409, "Conflict: this session already has an open GET stream")
        entry.listener = asyncio.Queue()
        return EventSourceResponse(self.listen(entry), headers={"X-Accel-Buffering": "no"})

    async def listen(self, entry: HttpSession) -> AsyncIterator[dict[str, str]]:
        queue = entry.listener
        try:
            while (message := await queue.get()) is not None:
                self.publish(message, 200)
                yield {"event": "message", "data": jsonrpc.encode(message).decode()}
        finally:
            if entry.listener is queue:
                entry.listener = None

    async def delete(self, request: Request) -> Response:
        """End the session: its id is unknown (404) from now on."""
        refuse_modern(request)
        self.close_session(self.session_for(request))
        return Response(status_code=204)

    def end_streams(self) -> None:
        """End every open GET stream (so that the server can shut down)."""
        for entry in list(self.sessions.values()):
            if entry.listener is not None:
                self.deliver(entry.listener.put_nowait, None)

    def publish(self, payload: Any, status: int | None = None, sender: str = "server") -> None:
        if self.wire.observed:
            message = WireMessage.jsonrpc(CHANNEL, sender, payload)  # type: ignore[arg-type]
            self.wire.publish(dataclasses.replace(message, status=status))


def _modern_status(response: Message) -> int:
    return MODERN_ERROR_STATUS.get(response["error"]["code"], 500) if "error" in response else 200


async def _in_stream(entry: HttpSession, send: Send, message: Message) -> Message | None:
    """Handle `message` in `entry`'s session; the notifications it causes there go to `send`."""
    _current_stream.set((entry, send))  # this task's own copy of the context
    return await entry.session.handle(message)


async def _nothing() -> AsyncIterator[dict[str, str]]:
    return
    yield


async def _run(handle: Handle, message: Message, queue: asyncio.Queue[Message | None]) -> None:
    """Run one request's handler; its notifications, then its response, go into `queue`.

    A request stopped by `notifications/cancelled` gets no response: `None` ends its stream.
    """
    try:
        response = await handle(message, queue.put_nowait)
    except asyncio.CancelledError:
        queue.put_nowait(None)
        raise
    except Exception as e:  # a bug here must still answer the request, not hang it
        log.exception("answering %s failed", message["method"])
        response = jsonrpc.error_response(
            message["id"], JsonRpcError(jsonrpc.INTERNAL_ERROR, f"Internal error: {type(e).__name__}: {e}")
        )
    queue.put_nowait(response)


def serve_http(server: Server, host: str = "127.0.0.1", port: int = 0, **options: Any) -> RunningHttpServer:
    """Serve `server` over Streamable HTTP on a background thread; port 0 picks a free port.

    `options` go to `McpHttpApp` (`token`, `allowed_hosts`, `allowed_origins`, `limits`); the
    thread is a `RunningHttpServer` (`wirelab.mcp.transports.http.running`).
    """
    return RunningHttpServer(McpHttpApp(server, **options), host, port).start()
