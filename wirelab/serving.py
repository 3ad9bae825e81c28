"""Serving an HTTP app on this machine: the one threaded uvicorn server, and the limits that keep
one client from exhausting it. Every HTTP server the course ships runs here.

    running = ThreadedServer(app, DEFAULT_LIMITS, name="my-app").start()  # 127.0.0.1, a free port
    ...
    running.stop()

`ThreadedServer` serves on a daemon thread, so a notebook or a test goes on running; the socket
is bound before the thread starts, so the port is known at once. The offline model
(`wirelab.offline_model.wire.server`), the MCP server over Streamable HTTP
(`wirelab.mcp.transports.http.running`) and lesson 15's authorization server and protected MCP
server (`wirelab.mcp.auth.local`) are each a `ThreadedServer` with a face of their own.

Every one runs uvicorn under `HttpLimits` (`uvicorn_config`), sessions apart, which only the MCP
server has. Each reads a body only within them: `read_within` where the app reads it itself,
`LimitedBodies` around an app whose endpoints read it through starlette (the authorization
server). A protected MCP server checks the token in the headers before it reads any body: a
stranger's body is never read.

Each limit answers a way to hold the server down (issues 14 and 23's red-team runs):

- a body too large: refused by its `Content-Length`, or counted while it streams
  in and refused at the limit (413), so it is never buffered whole (`read_within`);
- a body that never ends, or trickles in: 408 once `body_seconds` have passed;
- a request head that never ends (slowloris), or a connection that sends nothing:
  closed after `header_seconds`; a head over `max_header_bytes`: 400 from h11;
- too many connections at once: once `max_connections` are open (uvicorn counts the
  request's own), a request gets 503 and its connection is closed;
- sessions nobody ends: closed after `session_idle_seconds` without a request
  (the client then gets 404 and initializes again, as the specification says);
  beyond `max_sessions`, `initialize` gets 503.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any, Self

import uvicorn
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

# h11 is uvicorn's dependency, not one wirelab declares (tests/test_dependencies.py): its states
# are taken from the module whose protocol this file extends, so they are the very ones it uses.
from uvicorn.protocols.http.h11_impl import H11Protocol, h11


@dataclass(frozen=True)
class HttpLimits:
    """Every limit of the HTTP server; the defaults suit a laptop serving one user's tools."""

    max_body_bytes: int = 4 * 1024 * 1024
    body_seconds: float = 30.0
    header_seconds: float = 10.0
    max_header_bytes: int = 64 * 1024
    keep_alive_seconds: int = 5
    max_connections: int = 1000
    max_sessions: int = 1000
    session_idle_seconds: float = 30 * 60


DEFAULT_LIMITS = HttpLimits()


class BodyRefused(Exception):
    """Why `read_within` stopped reading a body: its HTTP status, 413 (too large), 408 (too
    slow) or 400 (the connection ended first). The caller words the answer, and closes the
    connection: the rest of the body is never read."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


async def read_within(request: Request, limits: HttpLimits) -> bytes:
    """The raw body, refused by its `Content-Length` or as soon as it grows past
    `limits.max_body_bytes` (so it is never buffered whole), or once `limits.body_seconds` have
    passed; a connection that ends first (the client left, or uvicorn refused a malformed
    chunk) is refused too, not an exception in the app."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.max_body_bytes:
        raise BodyRefused(413)
    body = bytearray()
    try:
        async with asyncio.timeout(limits.body_seconds):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limits.max_body_bytes:
                    raise BodyRefused(413)
    except TimeoutError:
        raise BodyRefused(408) from None
    except ClientDisconnect:
        raise BodyRefused(400) from None
    return bytes(body)


REFUSED_BODY = {
    413: "the body is over {max_body_bytes} bytes",
    408: "the body did not arrive within {body_seconds} s",
    400: "the connection ended before the body did",
}


class LimitedBodies:
    """ASGI middleware: every request's body is read within `limits` before the app runs.

        app = Starlette(routes=..., middleware=[Middleware(LimitedBodies, limits=limits)])

    The body (at most `max_body_bytes`) is read with `read_within` and handed to the app
    whole, so no endpoint can read more, or wait longer; a body refused gets 413, 408 or
    400 with an OAuth-style JSON error and `Connection: close`, and the app never runs.
    """

    def __init__(self, app: Any, limits: HttpLimits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        try:
            body = await read_within(Request(scope, receive), self.limits)
        except BodyRefused as refused:
            why = REFUSED_BODY[refused.status].format(**vars(self.limits))
            answer = JSONResponse(
                {"error": "invalid_request", "error_description": why},
                refused.status,
                headers={"Connection": "close"},
            )
            return await answer(scope, receive, send)
        delivered = False

        async def replay() -> dict[str, Any]:
            nonlocal delivered
            if delivered:
                return await receive()  # only a disconnect is left to wait for
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class HeadTimeoutH11(H11Protocol):
    """uvicorn's h11 protocol, plus a deadline for each request head.

    uvicorn times out an idle keep-alive connection, but not one that is
    opened and sends nothing, or sends a head one byte at a time.
    """

    header_seconds = HttpLimits.header_seconds

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._await_head()

    def data_received(self, data: bytes) -> None:
        waiting = self._waiting_for_head()
        if waiting:
            self._await_head()
        super().data_received(data)
        if not self._waiting_for_head():
            self._head_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_received()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """uvicorn's 400 for a malformed request (a chunk size that lies), then the connection
        closes. Without the two guards uvicorn raises (h11 `LocalProtocolError`) when the app
        answers without reading the body (a 415): if the app has answered already, the
        connection just closes; if it has yet to, its answer is dropped."""
        if self.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            self.transport.close()
            return
        super().send_400_response(msg)
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()

    def _waiting_for_head(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _await_head(self) -> None:
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.header_seconds, self._head_too_slow)

    def _head_received(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_slow(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def uvicorn_config(app: Any, limits: HttpLimits, **options: Any) -> uvicorn.Config:
    """uvicorn's configuration for `app` under `limits` (h11, with a deadline for request heads);
    `options` go to `uvicorn.Config` as well (`host`, `port`)."""
    protocol = type("LimitedH11", (HeadTimeoutH11,), {"header_seconds": limits.header_seconds})
    return uvicorn.Config(
        app,
        **options,
        http=protocol,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=2,
        timeout_keep_alive=limits.keep_alive_seconds,
        limit_concurrency=limits.max_connections,
        h11_max_incomplete_event_size=limits.max_header_bytes,
    )


class ThreadedServer:
    """uvicorn serving an ASGI `app` under `limits` on a daemon thread; a context manager."""

    def __init__(
        self,
        app: Any,
        limits: HttpLimits = DEFAULT_LIMITS,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        name: str,
    ) -> None:
        self.name = name
        self._socket = socket.create_server((host, port))
        # Without TCP_NODELAY, Nagle's algorithm and delayed ACKs add ~40 ms to every answer
        # (accepted sockets inherit it).
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.host, self.port = self._socket.getsockname()[:2]
        self._server = uvicorn.Server(uvicorn_config(app, limits))
        self._thread = threading.Thread(
            target=self._server.run, args=([self._socket],), name=f"{name}:{self.port}", daemon=True
        )

    def start(self, timeout: float = 10.0) -> Self:
        """Start serving; returns the server once it accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not start on http://{self.host}:{self.port}")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop serving and wait for the thread to end."""
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self._socket.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
