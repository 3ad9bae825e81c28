"""A client transport to a `Server` in this process: no subprocess, but real JSON.

    client = Client(InProcessTransport(server))   # or: async with connect_in_process(server) as client

Each message is encoded and decoded on its way, as it would be on a pipe,
and published on `.wire` (channel "mcp"), so the inspector shows it. The
server may send at any time and from any thread (a tool that changes the
tool list, say): its messages are queued for the client's event loop.
"""

from __future__ import annotations

import asyncio
import json

from wirelab.jsonrpc import Message
from wirelab.mcp.server import Server
from wirelab.mcp.session import Session
from wirelab.wire import Wire, WireMessage


class InProcessTransport:
    """Hands each client message to a `Session` of `server`, and its replies back."""

    def __init__(self, server: Server) -> None:
        self.server, self.wire = server, Wire()
        self.session: Session | None = None  # opened by `start`, on the client's event loop
        self._inbox: asyncio.Queue[Message | None] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.session = self.server.connect(self._from_server)

    def _from_server(self, message: Message | None) -> None:
        """Queue a message for the client; safe from any thread."""
        if message is not None:
            self.wire.publish(WireMessage.jsonrpc("mcp", "server", message))
            message = json.loads(json.dumps(message))
        self._loop.call_soon_threadsafe(self._inbox.put_nowait, message)

    async def send(self, message: Message) -> None:
        self.wire.publish(WireMessage.jsonrpc("mcp", "client", message))
        task = asyncio.create_task(self._deliver(json.loads(json.dumps(message))))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, message: Message) -> None:
        response = await self.session.handle(message)
        if response is not None:
            self._from_server(response)

    async def receive(self) -> Message | None:
        return await self._inbox.get()

    async def close(self) -> None:
        """End the session: requests still running are cancelled."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.session is not None:
            self.session.close()
            self._from_server(None)

    async def closed_reason(self) -> str:
        return "the in-process session was closed"
