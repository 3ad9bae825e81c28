"""An HTTP app served by uvicorn on a daemon thread, so a notebook or a test goes on running.

    >>> from wirelab.mcp.example import build_server
    >>> from wirelab.mcp.http import McpHttpApp
    >>> running = RunningHttpServer(McpHttpApp(build_server())).start()  # 127.0.0.1, a free port
    >>> running.url.startswith("http://127.0.0.1:")
    True
    >>> running.stop()

Any app with `.starlette`, `.wire` and `end_streams()` runs here: the MCP server of
`wirelab.mcp.http` (`serve_http` builds one and starts it) and lesson 15's authorization
server alike. The socket is bound before the thread starts, so the port is known at once;
uvicorn gets the app's `limits` (`wirelab.mcp.http_limits`), or the defaults.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Protocol

import uvicorn
from starlette.applications import Starlette

from wirelab.mcp.http_limits import DEFAULT_LIMITS, uvicorn_config
from wirelab.wire import Wire

MCP_PATH = "/mcp"


class ServedApp(Protocol):
    """What `RunningHttpServer` needs from an app; `limits` (an `HttpLimits`) is optional."""

    starlette: Starlette
    wire: Wire

    def end_streams(self) -> None: ...


class RunningHttpServer:
    """uvicorn serving an app on a daemon thread; a context manager."""

    def __init__(self, app: ServedApp, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        self._socket = socket.create_server((host, port))
        # Without TCP_NODELAY, Nagle's algorithm and delayed ACKs add ~40 ms to every answer.
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.host, self.port = self._socket.getsockname()[:2]
        # An app without limits of its own (lesson 15's authorization server) gets the defaults.
        limits = getattr(app, "limits", DEFAULT_LIMITS)
        self._server = uvicorn.Server(uvicorn_config(app.starlette, limits))
        self._thread = threading.Thread(
            target=self._server.run, args=([self._socket],), name=f"mcp-http:{self.port}", daemon=True
        )

    @property
    def url(self) -> str:
        """The MCP endpoint, e.g. 'http://127.0.0.1:54321/mcp'."""
        return f"http://{self.host}:{self.port}{MCP_PATH}"

    @property
    def wire(self) -> Wire:
        return self.app.wire

    def start(self, timeout: float = 10.0) -> RunningHttpServer:
        """Start serving; returns once the server accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the MCP HTTP server did not start on {self.url}")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """End open streams, stop serving and wait for the thread to end."""
        self.app.end_streams()
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self._socket.close()

    def __enter__(self) -> RunningHttpServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"RunningHttpServer({self.url!r})"
