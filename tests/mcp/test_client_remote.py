"""The client fixes of issue 15: stream resumption (SEP-1699), elicitation defaults (SEP-1034),
cancellation that tells the server, and completion context."""

import asyncio
import logging
import time

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from wirelab.jsonrpc import JsonRpcError
from wirelab.mcp.client import Client, connect_in_process
from wirelab.mcp.client_features import with_defaults
from wirelab.mcp.server import Context, Server
from wirelab.mcp.transports.http.client import connect_http
from wirelab.mcp.transports.http.running import RunningHttpServer
from wirelab.wire import Wire

pytestmark = pytest.mark.timeout(30)

INITIALIZED = {
    "protocolVersion": "2025-11-25",
    "capabilities": {"tools": {}},
    "serverInfo": {"name": "s", "version": "0"},
}


class ClosingStreamServer:
    """Answers `tools/call` on a POST stream it closes after a priming event; the answer waits
    for a GET with `Last-Event-ID`. `priming` is the event it primes with."""

    def __init__(self, priming: str = "id: e1\nretry: 300\ndata: \n\n") -> None:
        self.priming, self.wire = priming, Wire()
        self.pending, self.closed_at, self.resumed = None, 0.0, []
        self.starlette = Starlette(routes=[Route("/mcp", self.endpoint, methods=["GET", "POST", "DELETE"])])

    def end_streams(self) -> None:
        pass

    async def endpoint(self, request: Request) -> Response:
        headers = {"Mcp-Session-Id": "s1"}
        if request.method == "GET":
            if "last-event-id" not in request.headers:
                return Response(status_code=405)
            self.resumed.append((request.headers["last-event-id"], time.monotonic() - self.closed_at))
            answer = {"jsonrpc": "2.0", "id": self.pending, "result": {"content": [], "isError": False}}
            body = f"id: e2\ndata: {JSONResponse(answer).body.decode()}\n\n"
            return Response(body, media_type="text/event-stream", headers=headers)
        message = await request.json()
        if "id" not in message:
            return Response(status_code=202)
        if message["method"] == "tools/call":
            self.pending, self.closed_at = message["id"], time.monotonic()
            return Response(self.priming, media_type="text/event-stream", headers=headers)
        result = INITIALIZED if message["method"] == "initialize" else {}
        return JSONResponse({"jsonrpc": "2.0", "id": message["id"], "result": result}, headers=headers)


def test_a_closed_stream_is_resumed_with_last_event_id_after_the_servers_retry():
    fake = ClosingStreamServer()

    async def scenario(url):
        async with connect_http(url, timeout=10) as client:
            return await client.call_tool("slow")

    with RunningHttpServer(fake).start() as running:
        result = asyncio.run(scenario(running.url))
    assert result == {"content": [], "isError": False}
    [(last_event_id, waited)] = fake.resumed
    assert last_event_id == "e1"
    assert waited >= 0.3  # it honoured `retry: 300`


def test_a_stream_closed_with_no_event_id_fails_the_request_clearly():
    fake = ClosingStreamServer(priming=": nothing to resume from\n\n")

    async def scenario(url):
        async with connect_http(url, timeout=10) as client:
            return await client.call_tool("slow")

    with (
        RunningHttpServer(fake).start() as running,
        pytest.raises(JsonRpcError, match="no event id to resume"),
    ):
        asyncio.run(scenario(running.url))
    assert fake.resumed == []


# --- elicitation defaults ---

FORM = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "Ada"},
        "age": {"type": "integer", "default": 36},
        "verified": {"type": "boolean", "default": True},
        "note": {"type": "string"},
    },
}


def test_accepted_content_gets_each_default_the_user_left_empty():
    assert with_defaults(FORM, {"name": "Grace", "age": None}) == {
        "name": "Grace",
        "age": 36,
        "verified": True,
    }
    assert with_defaults(FORM, None) == {"name": "Ada", "age": 36, "verified": True}


def test_a_server_receives_the_defaults_of_an_accepted_form():
    server = Server("forms")

    @server.tool()
    async def profile(ctx: Context) -> str:
        """Ask for a profile."""
        answer = await ctx.elicit("Your profile?", FORM)
        return repr(sorted(answer["content"].items()))

    async def scenario():
        accept = lambda params: {"action": "accept", "content": {"note": "hi"}}  # noqa: E731
        async with connect_in_process(server, on_elicitation=accept) as client:
            return (await client.call_tool("profile"))["content"][0]["text"]

    assert asyncio.run(scenario()) == repr([("age", 36), ("name", "Ada"), ("note", "hi"), ("verified", True)])


# --- cancellation ---


class ScriptedTransport:
    """A transport whose server answers `initialize` and nothing else unless told to."""

    def __init__(self) -> None:
        self.wire, self.sent, self.inbox = Wire(), [], asyncio.Queue()

    async def start(self) -> None:
        pass

    async def send(self, message):
        self.sent.append(message)
        if message.get("method") == "initialize":
            self.inbox.put_nowait({"jsonrpc": "2.0", "id": message["id"], "result": INITIALIZED})

    async def receive(self):
        return await self.inbox.get()

    async def close(self) -> None:
        self.inbox.put_nowait(None)

    async def closed_reason(self) -> str:
        return "closed"


def test_cancelling_the_awaiting_task_tells_the_server_and_drops_the_late_answer(caplog):
    transport = ScriptedTransport()

    async def scenario():
        async with Client(transport) as client:
            call = asyncio.create_task(client.call_tool("slow"))
            await asyncio.sleep(0.05)
            call.cancel("the user pressed stop")
            with pytest.raises(asyncio.CancelledError):
                await call
            [request] = [m for m in transport.sent if m.get("method") == "tools/call"]
            late = {"jsonrpc": "2.0", "id": request["id"], "result": {"content": []}}
            transport.inbox.put_nowait(late)
            await asyncio.sleep(0.05)
            return request

    with caplog.at_level(logging.DEBUG, logger="wirelab.mcp.client"):
        request = asyncio.run(scenario())
    [cancel] = [m for m in transport.sent if m.get("method") == "notifications/cancelled"]
    assert cancel["params"] == {"requestId": request["id"], "reason": "the user pressed stop"}
    assert "response to no pending request" not in caplog.text
    assert "dropped the late answer" in caplog.text


def test_initialize_is_never_cancelled():
    transport = ScriptedTransport()
    transport.send = lambda message: transport.sent.append(message) or asyncio.sleep(0)  # answers nothing

    async def scenario():
        client = Client(transport, timeout=0.2)
        with pytest.raises(TimeoutError):
            await client.start()

    asyncio.run(scenario())
    assert [m.get("method") for m in transport.sent] == ["initialize"]


# --- completions ---


def test_complete_sends_the_arguments_already_chosen_as_context():
    server = Server("places")

    @server.prompt()
    def trip(country: str, city: str) -> str:
        """Plan a trip."""
        return f"{city}, {country}"

    @server.completion("trip", "city")
    def cities(typed: str) -> list[str]:
        return [c for c in ("Paris", "Pau") if c.startswith(typed)]

    async def scenario():
        async with connect_in_process(server) as client:
            sent = []
            client.wire.subscribe(lambda m: sent.append(m.payload))
            values = await client.complete(
                {"type": "ref/prompt", "name": "trip"}, "city", "Pa", {"country": "FR"}
            )
            return values, next(p for p in sent if p.get("method") == "completion/complete")

    values, request = asyncio.run(scenario())
    assert values == ["Paris", "Pau"]
    assert request["params"]["context"] == {"arguments": {"country": "FR"}}


class ClosingListenServer(ClosingStreamServer):
    """Its session's GET stream closes after a priming event; the next GET brings a notification."""

    def __init__(self) -> None:
        super().__init__()
        self.gets: list[tuple[str | None, float]] = []

    async def endpoint(self, request: Request) -> Response:
        if request.method != "GET":
            return await super().endpoint(request)
        self.gets.append((request.headers.get("last-event-id"), time.monotonic()))
        if len(self.gets) == 1:
            return Response("id: g1\nretry: 200\ndata: \n\n", media_type="text/event-stream")
        if len(self.gets) == 2:
            note = '{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}'
            return Response(f"id: g2\ndata: {note}\n\n", media_type="text/event-stream")
        return Response(status_code=405)


def test_the_notification_stream_reconnects_after_retry_with_last_event_id():
    fake = ClosingListenServer()

    async def scenario(url):
        changed = asyncio.Event()
        async with connect_http(url, timeout=10) as client:
            client.on_notification("notifications/tools/list_changed", lambda params: changed.set())
            await asyncio.wait_for(changed.wait(), 5)

    with RunningHttpServer(fake).start() as running:
        asyncio.run(scenario(running.url))
    (first, opened), (resumed_from, reopened) = fake.gets[:2]
    assert (first, resumed_from) == (None, "g1")
    assert reopened - opened >= 0.2  # it honoured `retry: 200`
