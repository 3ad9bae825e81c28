"""Our MCP client over Streamable HTTP (httpx2), in either protocol era.

    async with connect_http("http://127.0.0.1:8000/mcp") as client:          # 2025-11-25
        tools = await client.list_tools()
    async with connect_http(url, era="2026-07-28") as client:               # stateless
        result = await client.call_tool("add", {"a": 1, "b": 2})

`HttpTransport` is a `wirelab.mcp.client.Transport`: each message is its own
POST. A request's answer comes back as JSON or as an SSE stream (read with
`httpx2.EventSource`) and is queued for `receive()`; an HTTP error whose body
is a JSON-RPC error is that request's answer, any other becomes a -32603
error naming the status. A stream the server closes before the answer is
resumed (SEP-1699): after the `retry` milliseconds the server asked for, a GET
with `Last-Event-ID` picks up where the stream stopped. `auth`, an `httpx2.Auth`
such as `wirelab.mcp.auth.OAuth`, gets and renews tokens on 401 and 403.

In the 2025-11-25 era it keeps the `Mcp-Session-Id` that `initialize` returned,
opens the GET stream for notifications, and ends the session with DELETE on
`close()`. In the 2026-07-28 era it stamps each request with the per-request
`_meta` envelope and the headers that mirror it (with `Mcp-Param-*` for the tool
parameters marked `x-mcp-header`, `wirelab.mcp.transports.http.param_headers`; a tool whose marks break
the rules is left out of `tools/list`), and `StatelessClient` starts with
`server/discover` instead of `initialize`; an `InputRequiredResult` is answered
from the client's handlers and the request sent again (multi round-trip requests).

Every message sent and received is published on `.wire` (channel "mcp-http").
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

import httpx2

from wirelab import jsonrpc
from wirelab.jsonrpc import INTERNAL_ERROR, JsonRpcError, Message
from wirelab.mcp import stateless
from wirelab.mcp.auth.client import AuthorizationError
from wirelab.mcp.client import Client
from wirelab.mcp.client_features import offered
from wirelab.mcp.input_required import MAX_ROUNDS, input_responses, is_input_required, retry_params
from wirelab.mcp.stateless import (
    MODERN_PROTOCOL_VERSION,
    SERVER_INFO_KEY,
    UNSUPPORTED_PROTOCOL_VERSION,
    VERSION_HEADER,
)
from wirelab.mcp.transports.http.param_headers import InvalidToolHeaders, header_params, param_headers
from wirelab.mcp.transports.http.server import SESSION_HEADER
from wirelab.wire import Wire, WireMessage, parse_json

log = logging.getLogger(__name__)

Era = Literal["2025-11-25", "2026-07-28"]
CHANNEL = "mcp-http"
ACCEPT = "application/json, text/event-stream"
DEFAULT_RETRY_MS = 1000  # before resuming a stream whose server named no `retry`
MAX_RESUMES = 5  # reconnections for one answer before giving up


@dataclasses.dataclass
class StreamCursor:
    """Where one request's SSE stream stands: the last event id, the server's `retry`, the answer."""

    last_event_id: str | None = None
    retry_ms: int | None = None
    answered: bool = False


class HttpTransport:
    """Send JSON-RPC messages as HTTP POSTs to one MCP endpoint; queue what comes back."""

    def __init__(
        self,
        url: str,
        *,
        era: Era = "2025-11-25",
        token: str | None = None,
        auth: httpx2.Auth | None = None,
        client_info: dict[str, str] | None = None,
        timeout: float = 30.0,
        listen: bool = True,
    ) -> None:
        self.url, self.era, self.listen = url, era, listen
        self.client_info = client_info or {"name": "wirelab-client", "version": "0.1.0"}
        self.wire = Wire()
        self.session_id: str | None = None
        self.protocol_version: str | None = None
        self.tool_headers: dict[str, dict[str, tuple[str, ...]]] = {}  # x-mcp-header, per tool
        self.capabilities: dict[str, Any] = {}  # declared in each 2026-07-28 request's _meta
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx2.AsyncClient(headers=headers, auth=auth, timeout=httpx2.Timeout(timeout, read=None))
        self._inbox: asyncio.Queue[Message | None] = asyncio.Queue()
        self._tasks: set[asyncio.Task] = set()
        self._exchanges: weakref.WeakValueDictionary[Any, asyncio.Task] = weakref.WeakValueDictionary()
        self._closed_reason = "the client closed the connection"

    @property
    def modern(self) -> bool:
        return self.era == MODERN_PROTOCOL_VERSION

    async def start(self) -> None:
        """Nothing to open: HTTP connects on the first POST."""

    async def send(self, message: Message) -> None:
        """POST one message; a request's answer arrives later through `receive()`."""
        if self.modern and jsonrpc.is_request(message):
            message = self.stamp(message)
        if self.modern and message.get("method") == "notifications/cancelled":
            self.stop_exchange((message.get("params") or {}).get("requestId"))
            return
        self.publish(message, "client")
        if jsonrpc.is_request(message):
            self._exchanges[message["id"]] = self._spawn(self.exchange(message))
        else:
            await self.post_without_answer(message)

    def stamp(self, message: Message) -> Message:
        """The 2026-07-28 envelope: the client's capabilities plus any the request declares itself."""
        meta = (message.get("params") or {}).get("_meta") or {}
        declared = {**self.capabilities, **meta.get(stateless.CLIENT_CAPABILITIES_KEY, {})}
        return stateless.stamp(message, self.client_info, declared)

    def stop_exchange(self, request_id: Any) -> None:
        """Cancel a 2026-07-28 request: close its response stream, the revision's cancellation.

        Over Streamable HTTP that revision sends no `notifications/cancelled`.
        """
        task = self._exchanges.get(request_id)
        if task is not None:
            task.cancel()

    async def receive(self) -> Message | None:
        """The next message from the server; None once the transport is closed."""
        return await self._inbox.get()

    async def close(self) -> None:
        """Stop waiting for answers, end the session (DELETE) and close the connection pool."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.session_id is not None:
            await self.end_session()
        await self.http.aclose()
        self._inbox.put_nowait(None)

    async def closed_reason(self) -> str:
        return self._closed_reason

    # --- one POST ---

    def headers(self, message: Message) -> dict[str, str]:
        headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
        if self.modern and jsonrpc.is_request(message):
            return {**headers, **stateless.request_headers(message), **self.param_headers(message)}
        if self.session_id is not None:
            headers[SESSION_HEADER] = self.session_id
        if self.protocol_version is not None:
            headers[VERSION_HEADER] = self.protocol_version
        return headers

    def param_headers(self, request: Message) -> dict[str, str]:
        """The `Mcp-Param-*` headers of a `tools/call` of a tool listed with `x-mcp-header` marks."""
        params = request.get("params") or {}
        if request["method"] != "tools/call" or params.get("name") not in self.tool_headers:
            return {}
        return param_headers(self.tool_headers[params["name"]], params.get("arguments") or {})

    def keep_valid_tools(self, result: dict[str, Any]) -> dict[str, Any]:
        """A `tools/list` result less the tools whose `x-mcp-header` marks break the rules."""
        kept = []
        for tool in result.get("tools") or []:
            try:
                self.tool_headers[tool["name"]] = header_params(tool.get("inputSchema") or {})
            except InvalidToolHeaders as e:
                log.warning("left out the tool %r: %s", tool.get("name"), e)
                continue
            kept.append(tool)
        return {**result, "tools": kept}

    async def exchange(self, request: Message) -> None:
        """POST a request and queue every message of its answer (JSON or an SSE stream)."""
        try:
            async with self.http.stream(
                "POST", self.url, json=request, headers=self.headers(request)
            ) as response:
                if request["method"] == "initialize" and SESSION_HEADER in response.headers:
                    self.session_id = response.headers[SESSION_HEADER]
                await self.read_answer(request, response)
        except AuthorizationError as e:
            self.fail(request, f"not authorized to call {self.url}: {e}")
        except httpx2.HTTPError as e:
            self.fail(request, f"cannot reach {self.url}: {type(e).__name__}: {e}")

    async def read_answer(self, request: Message, response: httpx2.Response) -> None:
        content_type = response.headers.get("content-type", "").split(";")[0].strip()
        if content_type == "text/event-stream":
            cursor = StreamCursor()
            await self.read_events(request, response, cursor)
            if not cursor.answered:
                await self.resume(request, cursor)
            return
        body = await response.aread()
        payload = parse_json(body) if body else None
        if isinstance(payload, dict) and payload.get("jsonrpc") == "2.0":
            self.take(
                {**payload, "id": request["id"]} if payload.get("id") is None else payload,
                response.status_code,
                request,
            )
        elif response.status_code in (401, 403):
            challenge = response.headers.get("www-authenticate", "none")
            self.fail(
                request,
                f"HTTP {response.status_code}: not authorized (WWW-Authenticate: {challenge}); "
                "connect with auth=OAuth(...) to get a token",
            )
        else:
            self.fail(
                request,
                f"HTTP {response.status_code} with no JSON-RPC answer: "
                f"{body[:200].decode('utf-8', 'replace')!r}",
            )

    async def read_events(self, request: Message, response: httpx2.Response, cursor: StreamCursor) -> None:
        """Take each event's message, noting ids and `retry`; stop once `request` is answered."""
        async for event in httpx2.EventSource(response):
            cursor.last_event_id = event.id or cursor.last_event_id
            cursor.retry_ms = event.retry if event.retry is not None else cursor.retry_ms
            if not event.data:
                continue  # a priming event: an id (and a retry) to resume from, no message
            payload = parse_json(event.data)
            self.take(payload, response.status_code, request)
            if _answers(payload, request):
                cursor.answered = True
                return

    async def resume(self, request: Message, cursor: StreamCursor) -> None:
        """The stream ended before the answer: wait `retry` ms, GET with `Last-Event-ID`, read on."""
        for _ in range(MAX_RESUMES):
            if cursor.last_event_id is None:
                self.fail(
                    request, "the server closed the stream before answering, with no event id to resume"
                )
                return
            await asyncio.sleep((cursor.retry_ms if cursor.retry_ms is not None else DEFAULT_RETRY_MS) / 1000)
            headers = {
                **self.headers({}),
                "Accept": "text/event-stream",
                "Last-Event-ID": cursor.last_event_id,
            }
            async with self.http.stream("GET", self.url, headers=headers) as response:
                if response.status_code != 200:
                    self.fail(request, f"resuming the stream got HTTP {response.status_code}")
                    return
                await self.read_events(request, response, cursor)
            if cursor.answered:
                return
        self.fail(request, f"no answer after resuming the stream {MAX_RESUMES} times")

    async def post_without_answer(self, message: Message) -> None:
        """POST a notification or a response: the server must answer 202 Accepted."""
        try:
            response = await self.http.post(self.url, json=message, headers=self.headers(message))
        except AuthorizationError as e:
            log.warning("could not send %s: not authorized: %s", message.get("method", "a response"), e)
            return
        if response.status_code != 202:
            log.warning(
                "the server answered %s with HTTP %s: %s",
                message.get("method", "a response"),
                response.status_code,
                response.text[:200],
            )

    def take(self, payload: Any, status: int, request: Message) -> None:
        """Publish one received message and queue it if it is valid JSON-RPC."""
        self.publish(payload, "server", status)
        try:
            jsonrpc.validate(payload)
        except JsonRpcError as error:
            log.warning("the server sent something that is not a message: %s", error.message)
            return
        if self.modern and request["method"] == "tools/list" and isinstance(payload.get("result"), dict):
            payload = {**payload, "result": self.keep_valid_tools(payload["result"])}
        if request["method"] == "initialize" and "result" in payload:
            self.protocol_version = payload["result"].get("protocolVersion")
            if self.listen and self.session_id is not None:
                self._spawn(self.listen_for_notifications())
        self._inbox.put_nowait(payload)

    def fail(self, request: Message, reason: str) -> None:
        """Answer `request` ourselves with a -32603 error that says what went wrong."""
        self.take(jsonrpc.error_response(request["id"], JsonRpcError(INTERNAL_ERROR, reason)), 0, request)

    # --- the session's GET stream and DELETE (2025-11-25) ---

    async def listen_for_notifications(self) -> None:
        """Read the session's GET stream; a server without one answers 405.

        When the server closes the stream after naming a `retry`, reconnect after that many
        milliseconds with `Last-Event-ID`; give up after `MAX_RESUMES` reconnections in a row
        that bring nothing.
        """
        cursor, idle = StreamCursor(), 0
        while idle < MAX_RESUMES:
            headers = {**self.headers({}), "Accept": "text/event-stream"}
            if cursor.last_event_id is not None:
                headers["Last-Event-ID"] = cursor.last_event_id
            seen = cursor.last_event_id
            try:
                async with self.http.stream("GET", self.url, headers=headers) as response:
                    if response.status_code != 200:
                        log.info("no GET stream: HTTP %s", response.status_code)
                        return
                    await self.read_events({"method": "GET"}, response, cursor)
            except (httpx2.HTTPError, AuthorizationError) as e:
                log.info("the GET stream ended: %s", e)
                return
            if cursor.retry_ms is None:
                return  # the server did not invite a reconnection
            idle = 0 if cursor.last_event_id != seen else idle + 1
            await asyncio.sleep(cursor.retry_ms / 1000)

    async def end_session(self) -> None:
        try:
            response = await self.http.delete(self.url, headers=self.headers({}))
            log.info("DELETE session: HTTP %s", response.status_code)
        except (httpx2.HTTPError, AuthorizationError) as e:
            log.warning("could not end the session: %s", e)
        self.session_id = None

    def _spawn(self, coroutine: Any) -> asyncio.Task:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def publish(self, payload: Any, sender: Literal["client", "server"], status: int | None = None) -> None:
        if self.wire.observed:
            message = WireMessage.jsonrpc(CHANNEL, sender, payload)
            self.wire.publish(dataclasses.replace(message, status=status or None))


class StatelessClient(Client):
    """A 2026-07-28 client: no handshake; `start()` asks `server/discover` what the server is.

    A request the server answers with an `InputRequiredResult` is retried with the inputs
    (`wirelab.mcp.input_required`), so callers get the final result.
    """

    async def request(self, method: str, params: dict[str, Any] | None = None, **options: Any) -> Any:
        result = await super().request(method, params, **options)
        for _ in range(MAX_ROUNDS):
            if not is_input_required(result):
                return result
            table = offered(self.on_sampling, self.roots, self.on_elicitation)
            responses = await input_responses(table, result.get("inputRequests") or {})
            result = await super().request(method, retry_params(params, result, responses), **options)
        raise JsonRpcError(
            INTERNAL_ERROR, f"{method}: the server still asked for input after {MAX_ROUNDS} rounds"
        )

    async def greet(self) -> dict[str, Any]:
        if isinstance(self.transport, HttpTransport):  # every request declares who and what we are
            self.transport.client_info = self.client_info
            self.transport.capabilities = self.capabilities()
        return await self.discover()

    async def discover(self) -> dict[str, Any]:
        """`server/discover`; raises `ConnectionError` if the server does not speak 2026-07-28.

        A server that answers -32022 (unsupported version) but lists 2026-07-28 among the
        versions it supports is asked once more, as the revision's negotiation says.
        """
        try:
            result = await self.request("server/discover")
        except JsonRpcError as e:
            if e.code != UNSUPPORTED_PROTOCOL_VERSION:
                raise
            supported = e.data.get("supported") if isinstance(e.data, dict) else None
            if not isinstance(supported, list) or MODERN_PROTOCOL_VERSION not in supported:
                raise ConnectionError(f"the server speaks {supported}, not {MODERN_PROTOCOL_VERSION}") from e
            result = await self.request("server/discover")
        if MODERN_PROTOCOL_VERSION not in result.get("supportedVersions", []):
            raise ConnectionError(
                f"the server speaks {result.get('supportedVersions')}, not {MODERN_PROTOCOL_VERSION}"
            )
        self.protocol_version = MODERN_PROTOCOL_VERSION
        self.server_capabilities = result.get("capabilities", {})
        self.server_info = result.get("_meta", {}).get(SERVER_INFO_KEY, {})
        self.instructions = result.get("instructions")
        return result


def _answers(payload: Any, request: Message) -> bool:
    """Is `payload` the response to `request` (not a server request that reuses its id)?"""
    return (
        isinstance(payload, dict)
        and payload.get("id") == request.get("id")
        and "method" not in payload
        and ({"result", "error"} & payload.keys()) != set()
    )


@asynccontextmanager
async def connect_http(
    url: str,
    *,
    era: Era = "2025-11-25",
    token: str | None = None,
    auth: httpx2.Auth | None = None,
    timeout: float = 30.0,
    **options: Any,
) -> AsyncIterator[Client]:
    """A started client of the MCP endpoint `url`: initialized (2025-11-25) or discovered (2026).

    `auth` (e.g. `wirelab.mcp.auth.OAuth`) authorizes; `options` go to the `Client`.
    """
    transport = HttpTransport(url, era=era, token=token, auth=auth, timeout=timeout)
    client_class = StatelessClient if era == MODERN_PROTOCOL_VERSION else Client
    async with client_class(transport, timeout=timeout, **options) as client:
        yield client
