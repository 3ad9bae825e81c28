"""An MCP client from scratch: the handshake, requests matched by id, notifications.

    async with connect_stdio([sys.executable, "-m", "wirelab.mcp.example"]) as client:
        tools = await client.list_tools()
        result = await client.call_tool("search_notes", {"query": "stdio"})

`Client` keeps one reader task that takes each message off the transport:
a response completes the request with the same `id`, a notification goes
to the handlers registered with `on_notification`, and a request from the
server is answered in a task of its own. A request that waits longer than its
timeout is cancelled (`notifications/cancelled`) and raises `RequestTimeout`;
a server that exits while requests wait makes them raise `ServerDied`.
Whenever the client stops waiting (a timeout, or the awaiting task cancelled,
say by a user's abort) it sends `notifications/cancelled` with the reason, and
drops the late answer quietly.

The client offers the server what it is given, and declares exactly that in
`initialize`: `on_sampling` (answers `sampling/createMessage`; raise
`Declined` when the user says no), `roots` (answers `roots/list`;
`set_roots` sends `notifications/roots/list_changed`) and `on_elicitation`
(answers `elicitation/create` in form mode; an accepted form gets each
schema `default` the user left empty, SEP-1034). What it was not given, it answers
with -32601 (`wirelab.mcp.client_features` holds the table, its checks and `Declined`).
`connect_in_process` links a client to a `Server` in this process.

Not covered: sampling with tools, URL-mode elicitation.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

from wirelab import jsonrpc
from wirelab.jsonrpc import JsonRpcError, Message
from wirelab.mcp.client_features import RequestHandler, checked_roots, declared_capabilities, offered
from wirelab.mcp.protocol import HANDSHAKE_ERA_VERSIONS, LATEST_PROTOCOL_VERSION
from wirelab.mcp.server import Server
from wirelab.mcp.stateless import CLIENT_CAPABILITIES_KEY, MODERN_PROTOCOL_VERSION
from wirelab.mcp.transports.in_process import InProcessTransport
from wirelab.mcp.transports.stdio import StdioClientTransport
from wirelab.wire import Wire

log = logging.getLogger(__name__)

NotificationHandler = Callable[[dict[str, Any]], Any]
ProgressHandler = Callable[[dict[str, Any]], Any]


class Transport(Protocol):
    """What the client needs from a transport (stdio here; HTTP elsewhere)."""

    wire: Wire

    async def start(self) -> None: ...
    async def send(self, message: Message) -> None: ...
    async def receive(self) -> Message | None: ...
    async def close(self) -> None: ...
    async def closed_reason(self) -> str: ...


class RequestTimeout(TimeoutError):
    """The server did not answer a request in time; the request was cancelled."""


class ServerDied(ConnectionError):
    """The server closed the connection (exited) while the client needed it."""


class Client:
    """A client session over one transport. Use `async with`, or `start()` and `close()`."""

    def __init__(
        self,
        transport: Transport,
        *,
        timeout: float = 30.0,
        name: str = "wirelab-client",
        version: str = "0.1.0",
        on_sampling: RequestHandler | None = None,
        roots: Sequence[dict[str, str]] | None = None,
        on_elicitation: RequestHandler | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.transport, self.timeout = transport, timeout
        self.extensions = dict(extensions or {})  # declared by reverse-DNS id, e.g. MCP Apps
        self.on_sampling, self.on_elicitation = on_sampling, on_elicitation
        self.roots = checked_roots(roots) if roots is not None else None
        self._serving: dict[Any, asyncio.Task] = {}
        self.client_info = {"name": name, "version": version}
        self.server_info: dict[str, Any] = {}
        self.server_capabilities: dict[str, Any] = {}
        self.protocol_version: str | None = None
        self.instructions: str | None = None
        self._ids = itertools.count(1)
        self._pending: dict[Any, asyncio.Future] = {}
        self._abandoned: set[Any] = set()  # ids cancelled while waiting: their late answers are dropped
        self._handlers: dict[str, list[NotificationHandler]] = {}
        self._progress: dict[Any, ProgressHandler] = {}
        self._reader: asyncio.Task | None = None
        self._died: ServerDied | None = None

    @property
    def wire(self) -> Wire:
        return self.transport.wire

    async def __aenter__(self) -> Client:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> dict[str, Any]:
        """Start the transport and greet the server; returns the greeting's result."""
        await self.transport.start()
        self._reader = asyncio.create_task(self._read())
        try:
            return await self.greet()
        except BaseException:
            await self.close()
            raise

    async def greet(self) -> dict[str, Any]:
        """The first exchange: the `initialize` handshake (a stateless client overrides it)."""
        return await self.initialize()

    async def initialize(self, protocol_version: str = LATEST_PROTOCOL_VERSION) -> dict[str, Any]:
        """`initialize`, check the version the server chose, then `notifications/initialized`."""
        result = await self.request(
            "initialize",
            {
                "protocolVersion": protocol_version,
                "capabilities": self.capabilities(),
                "clientInfo": self.client_info,
            },
        )
        # A client talks to servers it did not write: it accepts every revision of the
        # initialize era (what it sends does not change), while our server offers only
        # the revisions it implements.
        if result.get("protocolVersion") not in HANDSHAKE_ERA_VERSIONS:
            raise ConnectionError(
                f"the server chose protocol {result.get('protocolVersion')!r}; "
                f"this client speaks {', '.join(HANDSHAKE_ERA_VERSIONS)}"
            )
        self.protocol_version = result["protocolVersion"]
        self.server_info = result.get("serverInfo", {})
        self.server_capabilities = result.get("capabilities", {})
        self.instructions = result.get("instructions")
        await self.notify("notifications/initialized")
        return result

    def capabilities(self) -> dict[str, Any]:
        """What this client declares in `initialize`: what it has handlers for, and its extensions."""
        declared = declared_capabilities(self.on_sampling, self.roots, self.on_elicitation)
        return declared | ({"extensions": self.extensions} if self.extensions else {})

    async def close(self) -> None:
        """Close the transport (the server sees EOF) and stop the reader."""
        for task in list(self._serving.values()):
            task.cancel()
        await asyncio.gather(*self._serving.values(), return_exceptions=True)
        await self.transport.close()
        if self._reader:
            await self._reader

    # --- the JSON-RPC layer ---

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressHandler | None = None,
    ) -> Any:
        """Send a request and wait for its result; an error response raises `JsonRpcError`."""
        if self._died:
            raise self._died
        id = next(self._ids)
        if on_progress:
            params = {**(params or {}), "_meta": {"progressToken": id}}
            self._progress[id] = on_progress
        if self.protocol_version == MODERN_PROTOCOL_VERSION:  # each request says what this client can do
            meta = {CLIENT_CAPABILITIES_KEY: self.capabilities(), **(params or {}).get("_meta", {})}
            params = {**(params or {}), "_meta": meta}
        future = self._pending[id] = asyncio.get_running_loop().create_future()
        try:
            await self.transport.send(jsonrpc.request(id, method, params))
            return await self._wait(id, method, future, self.timeout if timeout is None else timeout)
        finally:
            self._pending.pop(id, None)
            self._progress.pop(id, None)

    async def _wait(self, id: int, method: str, future: asyncio.Future, timeout: float) -> Any:
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            await self.cancel(id, method, f"no answer within {timeout} s")
            raise RequestTimeout(
                f"{method} (id {id}): no answer within {timeout} s; the request was cancelled"
            ) from None
        except asyncio.CancelledError as e:
            await self.cancel(id, method, str(e.args[0]) if e.args else "the client stopped waiting")
            raise

    async def cancel(self, id: Any, method: str, reason: str) -> None:
        """Tell the server to stop work on request `id` (never `initialize`); drop its late answer."""
        self._abandoned.add(id)
        if method == "initialize" or self._died:
            return
        try:
            await self.notify("notifications/cancelled", {"requestId": id, "reason": reason})
        except (ConnectionError, OSError) as e:
            log.info("could not send notifications/cancelled for %r: %s", id, e)

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        await self.transport.send(jsonrpc.notification(method, params))

    def on_notification(self, method: str, handler: NotificationHandler) -> Callable[[], None]:
        """Call `handler(params)` for each notification `method`; returns the unsubscribe function."""
        self._handlers.setdefault(method, []).append(handler)
        return lambda: self._handlers[method].remove(handler)

    async def _read(self) -> None:
        try:
            while (message := await self.transport.receive()) is not None:
                await self._take(message)
        finally:
            await self._fail_pending()

    async def _take(self, message: Message) -> None:
        if jsonrpc.is_response(message):
            self._resolve(message)
        elif jsonrpc.is_request(message):
            self._serve(message)
        else:
            if message["method"] == "notifications/cancelled":
                self._stop_serving((message.get("params") or {}).get("requestId"))
            await self._notified(message["method"], message.get("params") or {})

    def _resolve(self, response: Message) -> None:
        future = self._pending.get(response["id"])
        if response["id"] in self._abandoned:
            self._abandoned.discard(response["id"])
            log.debug("dropped the late answer to cancelled request %r", response["id"])
        elif future is None or future.done():
            log.warning("response to no pending request: id %r", response["id"])
        elif "error" in response:
            future.set_exception(JsonRpcError.from_object(response["error"]))
        else:
            future.set_result(response["result"])

    def _serve(self, request: Message) -> None:
        """Answer a request from the server in its own task, so the reader goes on reading."""
        task = asyncio.create_task(self._answer(request))
        self._serving[request["id"]] = task

        def forget(done: asyncio.Task) -> None:
            if self._serving.get(request["id"]) is done:
                del self._serving[request["id"]]

        task.add_done_callback(forget)

    def _stop_serving(self, request_id: Any) -> None:
        """The server cancelled its request: stop answering it (it gets no response)."""
        task = self._serving.get(request_id)
        if task is not None:
            task.cancel()

    async def _answer(self, request: Message) -> None:
        try:
            table = offered(self.on_sampling, self.roots, self.on_elicitation)
            response = await jsonrpc.Dispatcher(table).handle(request)
        except asyncio.CancelledError:
            return  # cancelled by the server, or the client is closing
        try:
            await self.transport.send(response)
        except ConnectionError as e:
            log.warning("could not answer the server's %s: %s", request["method"], e)

    async def set_roots(self, roots: Sequence[dict[str, str]]) -> None:
        """Offer new roots and tell the server (`notifications/roots/list_changed`)."""
        if self.roots is None:
            raise RuntimeError("this client declared no roots: pass roots=[...] when creating it")
        self.roots = checked_roots(roots)
        await self.notify("notifications/roots/list_changed")

    async def _notified(self, method: str, params: dict[str, Any]) -> None:
        handlers = list(self._handlers.get(method, []))
        if method == "notifications/progress" and params.get("progressToken") in self._progress:
            handlers.append(self._progress[params["progressToken"]])
        for handler in handlers:
            try:
                outcome = handler(params)
                if isinstance(outcome, Awaitable):
                    await outcome
            except Exception:  # a handler's bug must not stop the reader
                log.exception("handler for %s failed", method)

    async def _fail_pending(self) -> None:
        self._died = ServerDied(await self.transport.closed_reason())
        for future in self._pending.values():
            if not future.done():
                future.set_exception(self._died)

    # --- MCP methods ---

    async def ping(self) -> dict[str, Any]:
        return await self.request("ping")

    async def _list(self, method: str, key: str) -> list[dict[str, Any]]:
        """Every item of a paginated list, following `nextCursor` to the last page."""
        items, params = [], {}
        while True:
            page = await self.request(method, params)
            items.extend(page.get(key, []))
            if not page.get("nextCursor"):
                return items
            params = {"cursor": page["nextCursor"]}

    async def list_tools(self) -> list[dict[str, Any]]:
        return await self._list("tools/list", "tools")

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressHandler | None = None,
    ) -> dict[str, Any]:
        """The `CallToolResult`; a failed tool is a result with `isError: true`, not an exception."""
        return await self.request(
            "tools/call",
            {"name": name, "arguments": arguments or {}},
            timeout=timeout,
            on_progress=on_progress,
        )

    async def list_resources(self) -> list[dict[str, Any]]:
        return await self._list("resources/list", "resources")

    async def list_resource_templates(self) -> list[dict[str, Any]]:
        return await self._list("resources/templates/list", "resourceTemplates")

    async def read_resource(self, uri: str) -> dict[str, Any]:
        return await self.request("resources/read", {"uri": uri})

    async def subscribe(self, uri: str) -> None:
        await self.request("resources/subscribe", {"uri": uri})

    async def unsubscribe(self, uri: str) -> None:
        await self.request("resources/unsubscribe", {"uri": uri})

    async def list_prompts(self) -> list[dict[str, Any]]:
        return await self._list("prompts/list", "prompts")

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> dict[str, Any]:
        return await self.request("prompts/get", {"name": name, "arguments": arguments or {}})

    async def complete(
        self, ref: dict[str, str], argument: str, value: str, context: dict[str, str] | None = None
    ) -> list[str]:
        """Suggestions for `argument` of a prompt (`{"type": "ref/prompt", "name": …}`) or template.

        `context`: the arguments already chosen, so the server can narrow its suggestions.
        """
        params: dict[str, Any] = {"ref": ref, "argument": {"name": argument, "value": value}}
        if context:
            params["context"] = {"arguments": dict(context)}
        result = await self.request("completion/complete", params)
        return result["completion"]["values"]

    async def set_log_level(self, level: str) -> None:
        await self.request("logging/setLevel", {"level": level})


@asynccontextmanager
async def connect_in_process(server: Server, **options: Any) -> AsyncIterator[Client]:
    """A started, initialized client of `server`, in this process (`options` go to `Client`)."""
    async with Client(InProcessTransport(server), **options) as client:
        yield client


@asynccontextmanager
async def connect_stdio(
    command: Sequence[str], *, timeout: float = 30.0, env: dict[str, str] | None = None
) -> AsyncIterator[Client]:
    """A started, initialized client of the server that `command` runs."""
    async with Client(StdioClientTransport(command, env=env), timeout=timeout) as client:
        yield client
