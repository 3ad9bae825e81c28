"""The limits that keep one client from exhausting the Streamable HTTP server.

    serve_http(server, limits=HttpLimits(max_sessions=100, session_idle_seconds=60))

The offline model's server (`wirelab.offline_model.server`) runs uvicorn with them too,
all but the sessions.

Each limit answers a way to hold the server down (issue 14's red-team run):

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
from dataclasses import dataclass
from typing import Any

import uvicorn
from starlette.requests import ClientDisconnect, Request

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
