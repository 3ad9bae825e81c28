"""Requests that go from the server to the client (lesson 14): sampling, roots and
elicitation, each with its refusals and capability checks; progress and
cancellation of a long call; pagination; and clients that answer badly."""

import asyncio
import sys
import textwrap

import pytest

from wirelab import jsonrpc
from wirelab.jsonrpc import JsonRpcError
from wirelab.llm import model_name
from wirelab.mcp.client import Client, RequestTimeout, connect_in_process
from wirelab.mcp.client_features import Declined
from wirelab.mcp.host import McpHost, chat_messages
from wirelab.mcp.protocol import MissingClientCapability
from wirelab.mcp.server import Context, Server
from wirelab.mcp.stateless import StatelessServer, stamp
from wirelab.mcp.transports.stdio import StdioClientTransport
from wirelab.wire import WireMessage

pytestmark = pytest.mark.timeout(30)

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
REPLY = {
    "role": "assistant",
    "content": {"type": "text", "text": "Short."},
    "model": "stub-1",
    "stopReason": "endTurn",
}


def assistant() -> Server:
    """A server whose tools ask the client for a model, its roots, and the user's input."""
    server = Server("assistant", page_size=2)

    @server.tool()
    async def summarize(ctx: Context, text: str) -> str:
        """Summarize `text` with the client's model."""
        reply = await ctx.sample(f"Summarize: {text}", max_tokens=60, system_prompt="Be brief.")
        return f"{reply['content']['text']} ({reply['model']}, {reply['stopReason']})"

    @server.tool()
    async def workspace(ctx: Context) -> str:
        """Name the client's roots."""
        return ", ".join(root["uri"] for root in await ctx.list_roots())

    @server.tool()
    async def greet(ctx: Context) -> str:
        """Ask the user for a name, then greet them."""
        answer = await ctx.elicit("What is your name?", NAME_SCHEMA)
        return (
            f"Hello, {answer['content']['name']}!"
            if answer["action"] == "accept"
            else f"No name ({answer['action']})."
        )

    @server.tool()
    async def ask_raw(ctx: Context, method: str, params: dict) -> str:
        """Send any request to the client, skipping every check; report what came back."""
        try:
            return repr(await ctx.session.request(method, params))
        except JsonRpcError as e:
            return f"error {e.code}: {e.message}"

    return server


def wire_log(client: Client) -> list[WireMessage]:
    seen: list[WireMessage] = []
    client.wire.subscribe(seen.append)
    return seen


def methods(seen: list[WireMessage], sender: str) -> list[str]:
    return [m.method for m in seen if m.sender == sender and m.method]


def text(result: dict) -> str:
    return result["content"][0]["text"]


async def call(tool: str, arguments: dict | None = None, **client_options) -> str:
    async with connect_in_process(assistant(), **client_options) as client:
        return text(await client.call_tool(tool, arguments or {}))


# --- sampling ---


def test_a_tool_samples_the_clients_model_with_the_spec_field_names():
    asked = []

    async def scenario():
        async with connect_in_process(assistant(), on_sampling=lambda p: asked.append(p) or REPLY) as client:
            seen = wire_log(client)
            return text(await client.call_tool("summarize", {"text": "ids"})), seen

    answer, seen = asyncio.run(scenario())
    assert answer == "Short. (stub-1, endTurn)"
    assert asked == [
        {
            "messages": [{"role": "user", "content": {"type": "text", "text": "Summarize: ids"}}],
            "maxTokens": 60,
            "systemPrompt": "Be brief.",
        }
    ]
    request = next(m for m in seen if m.method == "sampling/createMessage")
    assert (request.sender, request.kind) == ("server", "request")


def test_a_client_declares_exactly_the_features_it_was_given():
    def declared(**options):
        return Client(transport=None, **options).capabilities()  # type: ignore[arg-type]

    assert declared() == {}
    assert declared(on_sampling=lambda p: REPLY, roots=[], on_elicitation=lambda p: {}) == {
        "sampling": {},
        "roots": {"listChanged": True},
        "elicitation": {"form": {}},
    }


def test_a_server_sends_no_sampling_request_to_a_client_that_did_not_declare_it():
    async def scenario():
        async with connect_in_process(assistant()) as client:
            seen = wire_log(client)
            return await client.call_tool("summarize", {"text": "ids"}), seen

    result, seen = asyncio.run(scenario())
    assert result["isError"] and "did not declare 'sampling'" in text(result)
    assert "sampling/createMessage" not in methods(seen, "server")


def test_a_declined_sampling_request_is_error_minus_one():
    def refuse(params):
        raise Declined()

    answer = asyncio.run(
        call(
            "ask_raw",
            {
                "method": "sampling/createMessage",
                "params": {
                    "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
                    "maxTokens": 5,
                },
            },
            on_sampling=refuse,
        )
    )
    assert answer == "error -1: User rejected sampling request"


@pytest.mark.parametrize(
    "params, says",
    [
        ({"maxTokens": 5}, '"messages" must be a non-empty list'),
        ({"messages": [{"role": "system", "content": {}}], "maxTokens": 5}, "of {role, content}"),
        ({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}]}, '"maxTokens"'),
        (
            {"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 0},
            '"maxTokens" must be a positive integer',
        ),
        (
            {
                "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
                "maxTokens": 5,
                "tools": [{"name": "x"}],
            },
            '"sampling.tools"',
        ),
    ],
)
def test_the_client_answers_a_malformed_sampling_request_with_invalid_params(params, says):
    answered = []
    answer = asyncio.run(
        call(
            "ask_raw",
            {"method": "sampling/createMessage", "params": params},
            on_sampling=lambda p: answered.append(p) or REPLY,
        )
    )
    assert answer.startswith("error -32602") and says in answer
    assert answered == []


def test_a_sampling_handler_that_crashes_is_an_internal_error_and_the_client_goes_on():
    def broken(params):
        raise KeyError("oops")

    async def scenario():
        async with connect_in_process(assistant(), on_sampling=broken) as client:
            failed = await client.call_tool("summarize", {"text": "x"})
            return failed, await client.ping()

    failed, pong = asyncio.run(scenario())
    assert failed["isError"] and "-32603" in text(failed) and pong == {}


def test_include_context_this_server_needs_the_clients_context_capability():
    server = Server("ctx")

    @server.tool()
    async def with_context(ctx: Context) -> str:
        """Sample with includeContext."""
        return (await ctx.sample("Hi", max_tokens=5, include_context="thisServer"))["model"]

    async def scenario():
        async with connect_in_process(server, on_sampling=lambda p: REPLY) as client:
            return await client.call_tool("with_context")

    result = asyncio.run(scenario())
    assert result["isError"] and '"sampling.context"' in text(result)


# --- the host lends its model ---


def test_the_host_answers_sampling_with_the_offline_model_after_approval():
    asked = []

    def approve(params):
        asked.append(params["messages"][0]["content"]["text"])
        return True

    with McpHost.in_process(assistant(), approve_sampling=approve) as host:
        answer = host.call("summarize", {"text": "a notification has no id"})
    assert asked == ["Summarize: a notification has no id"]
    assert "Summarize: a notification has no id" in answer
    assert answer.endswith(f"({model_name()}, endTurn)")


def test_a_host_whose_user_refuses_sends_nothing_to_the_model():
    from wirelab.llm import client as chat_client

    llm = chat_client()
    seen: list[WireMessage] = []
    llm.wire.subscribe(seen.append)
    with McpHost.in_process(assistant(), approve_sampling=lambda params: False, llm=llm) as host:
        answer = host.call("summarize", {"text": "x"})
    assert "User rejected sampling request" in answer
    assert seen == []


def test_chat_messages_puts_the_system_prompt_first_and_refuses_what_is_not_text():
    params = {
        "systemPrompt": "Be brief.",
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Hi"}},
            {"role": "assistant", "content": [{"type": "text", "text": "Hello"}]},
        ],
    }
    assert chat_messages(params) == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello"},
    ]
    image = {
        "messages": [{"role": "user", "content": {"type": "image", "data": "", "mimeType": "image/png"}}]
    }
    with pytest.raises(JsonRpcError) as refused:
        chat_messages(image)
    assert refused.value.code == jsonrpc.INVALID_PARAMS


def test_sampling_cannot_be_offered_once_the_host_has_started():
    with McpHost.in_process(assistant()) as host, pytest.raises(RuntimeError, match="before start"):
        host.offer_sampling(lambda params: True)


# --- roots ---

ROOTS = [{"uri": "file:///home/ada/project", "name": "Project"}]


def test_roots_are_listed_once_and_asked_again_after_list_changed():
    async def scenario():
        async with connect_in_process(assistant(), roots=ROOTS) as client:
            seen = wire_log(client)
            first = text(await client.call_tool("workspace"))
            cached = text(await client.call_tool("workspace"))
            await client.set_roots([*ROOTS, {"uri": "file:///tmp/scratch"}])
            changed = text(await client.call_tool("workspace"))
            return first, cached, changed, methods(seen, "server"), methods(seen, "client")

    first, cached, changed, from_server, from_client = asyncio.run(scenario())
    assert first == cached == "file:///home/ada/project"
    assert changed == "file:///home/ada/project, file:///tmp/scratch"
    assert from_server.count("roots/list") == 2
    assert "notifications/roots/list_changed" in from_client


def test_a_client_without_roots_answers_roots_list_with_method_not_found():
    answer = asyncio.run(call("ask_raw", {"method": "roots/list", "params": {}}))
    assert answer == "error -32601: Method not found: roots/list"


@pytest.mark.parametrize(
    "roots", [[{"uri": "/home/ada"}], [{"uri": "https://example.com"}], ["file:///home/ada"]]
)
def test_a_root_must_be_a_file_uri(roots):
    with pytest.raises(ValueError, match="file:///path"):
        Client(transport=None, roots=roots)  # type: ignore[arg-type]


def test_roots_cannot_change_on_a_client_that_declared_none():
    async def scenario():
        async with connect_in_process(assistant()) as client:
            await client.set_roots(ROOTS)

    with pytest.raises(RuntimeError, match="declared no roots"):
        asyncio.run(scenario())


# --- elicitation ---


@pytest.mark.parametrize(
    "reply, says",
    [
        ({"action": "accept", "content": {"name": "Ada"}}, "Hello, Ada!"),
        ({"action": "decline"}, "No name (decline)."),
        ({"action": "cancel"}, "No name (cancel)."),
    ],
)
def test_elicitation_gets_accept_decline_or_cancel(reply, says):
    asked = []
    assert asyncio.run(call("greet", on_elicitation=lambda p: asked.append(p) or reply)) == says
    assert asked == [{"mode": "form", "message": "What is your name?", "requestedSchema": NAME_SCHEMA}]


def test_a_client_that_did_not_declare_elicitation_is_not_asked():
    assert "did not declare 'elicitation'" in asyncio.run(call("greet"))


def test_a_form_client_refuses_url_mode_with_invalid_params():
    answer = asyncio.run(
        call(
            "ask_raw",
            {
                "method": "elicitation/create",
                "params": {
                    "mode": "url",
                    "message": "Sign in",
                    "url": "https://example.com",
                    "elicitationId": "1",
                },
            },
            on_elicitation=lambda p: {"action": "accept"},
        )
    )
    assert answer.startswith("error -32602") and "'url'" in answer


@pytest.mark.parametrize(
    "reply, says",
    [
        ({"action": "accept", "content": {}}, "breaks the requested schema"),
        ({"action": "maybe"}, "return an action"),
        ("Ada", "return an action"),
    ],
)
def test_an_elicitation_handler_that_answers_wrongly_is_an_internal_error(reply, says):
    answer = asyncio.run(call("greet", on_elicitation=lambda p: reply))
    assert "-32603" in answer and says in answer


# --- the server's view of bad answers from the client ---


class HandDriven:
    """A session whose client is the test: it reads what the server sends and answers by hand."""

    def __init__(self, server: Server, capabilities: dict) -> None:
        self.outbox: asyncio.Queue = asyncio.Queue()
        self.session = server.connect(self.outbox.put_nowait)
        self.capabilities = capabilities

    async def start(self) -> None:
        await self.session.handle(
            jsonrpc.request(
                0,
                "initialize",
                {
                    "protocolVersion": "2025-11-25",
                    "capabilities": self.capabilities,
                    "clientInfo": {"name": "by-hand", "version": "0"},
                },
            )
        )

    def call(self, tool: str, id: int = 1) -> asyncio.Task:
        arguments = {"text": "ids"} if tool == "summarize" else {}
        return asyncio.create_task(
            self.session.handle(jsonrpc.request(id, "tools/call", {"name": tool, "arguments": arguments}))
        )

    async def next_sent(self) -> dict:
        return await asyncio.wait_for(self.outbox.get(), 5)


async def answer_with(tool: str, capabilities: dict, response_of) -> dict:
    """Call `tool`, answer the server's first request with `response_of(its id)`, return the result."""
    peer = HandDriven(assistant(), capabilities)
    await peer.start()
    called = peer.call(tool)
    asked = await peer.next_sent()
    await peer.session.handle(response_of(asked["id"]))
    return (await called)["result"]


@pytest.mark.parametrize(
    "result, says",
    [
        ({"role": "assistant", "content": {"type": "text", "text": "x"}}, "model must be a string"),
        ({"role": "robot", "content": {"type": "text", "text": "x"}, "model": "m"}, "role must be"),
        ({"role": "assistant", "content": "x", "model": "m"}, "content must be"),
        ("just text", "must be an object"),
    ],
)
def test_a_malformed_sampling_result_fails_the_tool_with_what_is_wrong(result, says):
    got = asyncio.run(
        answer_with("summarize", {"sampling": {}}, lambda id: jsonrpc.result_response(id, result))
    )
    assert got["isError"] and "InvalidClientResult" in text(got) and says in text(got)


@pytest.mark.parametrize("result", [{}, {"roots": [{"uri": "http://x"}]}, {"roots": "file:///"}])
def test_malformed_roots_fail_the_tool(result):
    got = asyncio.run(answer_with("workspace", {"roots": {}}, lambda id: jsonrpc.result_response(id, result)))
    assert got["isError"] and "InvalidClientResult" in text(got)


def test_accepted_content_that_breaks_the_schema_fails_the_tool():
    got = asyncio.run(
        answer_with(
            "greet",
            {"elicitation": {}},
            lambda id: jsonrpc.result_response(id, {"action": "accept", "content": {"name": 7}}),
        )
    )
    assert got["isError"] and "breaks the requested schema" in text(got)


def test_an_error_from_the_client_reaches_the_tool_with_its_code():
    got = asyncio.run(
        answer_with(
            "summarize",
            {"sampling": {}},
            lambda id: jsonrpc.error_response(id, JsonRpcError(-1, "User rejected sampling request")),
        )
    )
    assert got["isError"] and "User rejected sampling request (-1)" in text(got)


def test_a_response_to_no_request_is_dropped_and_the_session_goes_on(caplog):
    async def scenario():
        peer = HandDriven(assistant(), {})
        await peer.start()
        dropped = await peer.session.handle(jsonrpc.result_response(99, {}))
        return dropped, await peer.session.handle(jsonrpc.request(2, "ping"))

    dropped, pong = asyncio.run(scenario())
    assert dropped is None and pong["result"] == {}
    assert "answered no pending request: id 99" in caplog.text


def test_a_client_that_disconnects_while_the_server_waits_fails_the_tool():
    async def scenario():
        peer = HandDriven(assistant(), {"sampling": {}})
        await peer.start()
        called = peer.call("summarize")
        await peer.next_sent()
        peer.session.close()
        return (await called)["result"]

    got = asyncio.run(scenario())
    assert got["isError"] and "disconnected before answering" in text(got)


def test_a_2026_07_28_request_gets_no_server_to_client_request():
    async def scenario():
        sent: list = []
        message = stamp(
            jsonrpc.request(1, "tools/call", {"name": "summarize", "arguments": {"text": "x"}}),
            {"name": "t", "version": "1"},
            {"sampling": {}},
        )
        return await StatelessServer(assistant()).handle(message, sent.append), sent

    response, sent = asyncio.run(scenario())
    assert response["result"]["isError"] and "InputRequiredResult" in text(response["result"])
    assert sent == []


def test_capability_checks_raise_before_anything_is_sent():
    async def scenario():
        peer = HandDriven(assistant(), {"elicitation": {"url": {}}})
        await peer.start()
        with pytest.raises(MissingClientCapability, match="without form mode"):
            await peer.session.elicit("Name?", NAME_SCHEMA)
        with pytest.raises(MissingClientCapability, match="'roots'"):
            await peer.session.list_roots()
        return peer.outbox.empty()

    assert asyncio.run(scenario())


# --- progress and cancellation of a long call ---


def slow_server(started: asyncio.Event, stopped: list) -> Server:
    server = Server("slow")

    @server.tool()
    async def crawl(ctx: Context, pages: int) -> str:
        """Crawl `pages` pages, reporting progress; waits on the client's model at the end."""
        started.set()
        try:
            for page in range(1, pages + 1):
                ctx.report_progress(page, pages, f"page {page}")
                await asyncio.sleep(0)
            return (await ctx.sample("Sum up the crawl", max_tokens=10))["model"]
        except asyncio.CancelledError:
            stopped.append("crawl")
            raise

    return server


def test_progress_of_a_long_call_arrives_in_order_before_its_result():
    async def scenario():
        progress: list = []
        async with connect_in_process(
            slow_server(asyncio.Event(), []), on_sampling=lambda p: REPLY
        ) as client:
            result = await client.call_tool("crawl", {"pages": 3}, on_progress=progress.append)
        return text(result), [(p["progress"], p["total"], p["message"]) for p in progress]

    answer, progress = asyncio.run(scenario())
    assert answer == "stub-1"
    assert progress == [(1, 3, "page 1"), (2, 3, "page 2"), (3, 3, "page 3")]


def test_cancelling_a_long_call_also_cancels_the_servers_request_to_the_client():
    async def scenario():
        sampling_stopped, tool_stopped = asyncio.Event(), []

        async def wait_for_user(params):
            try:
                await asyncio.Event().wait()  # a user who never decides
            finally:
                sampling_stopped.set()

        async with connect_in_process(
            slow_server(asyncio.Event(), tool_stopped), on_sampling=wait_for_user
        ) as client:
            seen = wire_log(client)
            with pytest.raises(RequestTimeout):
                await client.call_tool("crawl", {"pages": 1}, timeout=0.2)
            await asyncio.wait_for(sampling_stopped.wait(), 5)
            pong = await client.ping()
        cancels = [m for m in seen if m.method == "notifications/cancelled"]
        return tool_stopped, [m.sender for m in cancels], pong

    tool_stopped, cancel_senders, pong = asyncio.run(scenario())
    assert tool_stopped == ["crawl"]
    assert cancel_senders == ["client", "server"]  # the client cancels the call, the server its ask
    assert pong == {}


def test_a_server_that_waits_too_long_for_the_client_cancels_its_request():
    server = Server("impatient")

    @server.tool()
    async def hurry(ctx: Context) -> str:
        """Give the client's model a short time to answer."""
        try:
            await ctx.session.create_message("Quick!", max_tokens=5, timeout=0.1)
        except TimeoutError as e:
            return str(e)
        return "answered"

    async def scenario():
        stopped = asyncio.Event()

        async def slow(params):
            try:
                await asyncio.Event().wait()
            finally:
                stopped.set()

        async with connect_in_process(server, on_sampling=slow) as client:
            result = await client.call_tool("hurry")
            await asyncio.wait_for(stopped.wait(), 5)
        return text(result)

    assert asyncio.run(scenario()) == "the client did not answer sampling/createMessage within 0.1 s"


# --- pagination ---


def test_the_client_follows_next_cursor_over_several_pages():
    server = Server("many", page_size=2)
    for n in range(5):
        server.tool(name=f"tool_{n}", description=f"Tool {n}.")(lambda: "ok")

    async def scenario():
        async with connect_in_process(server) as client:
            seen = wire_log(client)
            names = [t["name"] for t in await client.list_tools()]
        pages = [m.payload for m in seen if m.method == "tools/list" or m.kind == "response"]
        return names, pages

    names, pages = asyncio.run(scenario())
    assert names == [f"tool_{n}" for n in range(5)]
    requests = [p for p in pages if "method" in p]
    responses = [p["result"] for p in pages if "result" in p]
    assert [len(r["tools"]) for r in responses] == [2, 2, 1]
    assert "cursor" not in requests[0].get("params", {})
    assert [q["params"]["cursor"] for q in requests[1:]] == [r["nextCursor"] for r in responses[:2]]
    assert "nextCursor" not in responses[-1]


def test_a_cursor_of_another_list_is_invalid_params():
    server = Server("many", page_size=1)
    for n in range(2):
        server.resource(f"note://{n}", name=f"n{n}")(lambda: "text")
        server.tool(name=f"tool_{n}", description="A tool.")(lambda: "ok")

    async def scenario():
        async with connect_in_process(server) as client:
            cursor = (await client.request("resources/list"))["nextCursor"]
            await client.request("tools/list", {"cursor": cursor})

    with pytest.raises(JsonRpcError) as refused:
        asyncio.run(scenario())
    assert refused.value.code == jsonrpc.INVALID_PARAMS and "invalid cursor" in refused.value.message


# --- over a real pipe ---

STDIO_SERVER = textwrap.dedent("""
    from wirelab.mcp.server import Context, Server
    from wirelab.mcp.transports.stdio import run_stdio

    server = Server("pipe")

    @server.tool()
    async def name_it(ctx: Context) -> str:
        '''Ask the model for a name, then the user to confirm it.'''
        reply = await ctx.sample("Name a planet", max_tokens=5)
        answer = await ctx.elicit("Keep " + reply["content"]["text"] + "?",
                                  {"type": "object", "properties": {"keep": {"type": "boolean"}}})
        return reply["content"]["text"] + " " + answer["action"]

    run_stdio(server)
""")


def test_sampling_and_elicitation_cross_a_stdio_pipe():
    planet = dict(REPLY, content={"type": "text", "text": "Mars"})

    async def scenario(**options):
        command = [sys.executable, "-c", STDIO_SERVER]
        async with Client(StdioClientTransport(command), timeout=15, **options) as client:
            return text(await client.call_tool("name_it"))

    assert "did not declare 'sampling'" in asyncio.run(scenario())
    assert (
        asyncio.run(
            scenario(
                on_sampling=lambda p: planet,
                on_elicitation=lambda p: {"action": "accept", "content": {"keep": True}},
            )
        )
        == "Mars accept"
    )
