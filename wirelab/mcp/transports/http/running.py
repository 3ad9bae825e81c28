"""An MCP app served by uvicorn on a daemon thread, so a notebook or a test goes on running.

    >>> from wirelab.mcp.example import build_server
    >>> from wirelab.mcp.transports.http.server import McpHttpApp
    >>> running = RunningHttpServer(McpHttpApp(build_server())).start()  # 127.0.0.1, a free port
    >>> running.url.startswith("http://127.0.0.1:")
    True
    >>> running.stop()

Any app with `.starlette`, `.wire` and `end_streams()` runs here: the MCP server of
`wirelab.mcp.transports.http.server` (`serve_http` builds one and starts it) and lesson 15's authorization
server alike. It is the course's one threaded server (`wirelab.serving.ThreadedServer`), with
the MCP endpoint's URL and the app's wire; uvicorn gets the app's `limits`, or the defaults.
"""

from __future__ import annotations

from typing import Protocol

from starlette.applications import Starlette

from wirelab.serving import DEFAULT_LIMITS, ThreadedServer
from wirelab.wire import Wire

MCP_PATH = "/mcp"


class ServedApp(Protocol):
    """What `RunningHttpServer` needs from an app; `limits` (an `HttpLimits`) is optional."""

    starlette: Starlette
    wire: Wire

    def end_streams(self) -> None: ...


class RunningHttpServer(ThreadedServer):
    """An MCP app served on a daemon thread; a context manager."""

    def __init__(self, app: ServedApp, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        # An app without limits of its own (lesson 15's authorization server) gets the defaults.
        limits = getattr(app, "limits", DEFAULT_LIMITS)
        super().__init__(app.starlette, limits, host, port, name="mcp-http")

    @property
    def url(self) -> str:
        """The MCP endpoint, e.g. 'http://127.0.0.1:54321/mcp'."""
        return f"http://{self.host}:{self.port}{MCP_PATH}"

    @property
    def wire(self) -> Wire:
        return self.app.wire

    def stop(self) -> None:
        """End open streams, stop serving and wait for the thread to end."""
        self.app.end_streams()
        super().stop()

    def __repr__(self) -> str:
        return f"RunningHttpServer({self.url!r})"
