"""The MCP server core (lessons 08-09), one message at a time, no transport."""

import asyncio
from dataclasses import dataclass

import pytest

from wirelab import jsonrpc
from wirelab.jsonrpc import notification, request
from wirelab.mcp.example import build_server
from wirelab.mcp.protocol import LATEST_PROTOCOL_VERSION, RESOURCE_NOT_FOUND, encode_cursor
from wirelab.mcp.server import Context, Server

pytestmark = pytest.mark.timeout(10)

INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"},
}


class Peer:
    """A session plus everything it sent unasked."""

    def __init__(self, server: Server | None = None) -> None:
        self.sent: list[dict] = []
        self.session = (server or build_server()).connect(self.sent.append)

    def ask(self, method, params=None, id=1):
        return asyncio.run(self.session.handle(request(id, method, params)))

    def tell(self, method, params=None):
        return asyncio.run(self.session.handle(notification(method, params)))

    def result(self, method, params=None):
        response = self.ask(method, params)
        assert "result" in response, response
        return response["result"]

    def error(self, method, params=None):
        response = self.ask(method, params)
        assert "error" in response, response
        return response["error"]


@pytest.fixture
def peer() -> Peer:
    peer = Peer()
    peer.result("initialize", INITIALIZE)
    peer.tell("notifications/initialized")
    return peer


def sent_methods(peer: Peer) -> list[str]:
    return [m["method"] for m in peer.sent]


# --- lifecycle ---


def test_initialize_answers_version_capabilities_and_server_info():
    result = Peer().result("initialize", INITIALIZE)
    assert result["protocolVersion"] == "2025-11-25"
    assert result["serverInfo"]["name"] == "wirelab-notes"
    assert result["capabilities"]["tools"] == {"listChanged": True}
    assert result["capabilities"]["resources"] == {"subscribe": True, "listChanged": True}
    assert {"prompts", "logging", "completions"} <= result["capabilities"].keys()
    assert "instructions" in result


def capabilities_of(server: Server) -> dict:
    return Peer(server).result("initialize", INITIALIZE)["capabilities"]


def test_capabilities_are_derived_from_what_is_registered():
    server = Server("derived")
    assert capabilities_of(server) == {}

    @server.tool()
    def add(a: int, b: int) -> int:
        return a + b

    assert capabilities_of(server) == {"tools": {"listChanged": True}}

    @server.resource_template("notes://note/{slug}")
    def note(slug: str) -> str:
        return slug

    @server.prompt()
    def summarize(slug: str) -> str:
        return slug

    assert capabilities_of(server).keys() == {"tools", "resources", "prompts"}


def test_logging_and_completions_are_declared_only_when_present():
    server = Server("derived")

    @server.tool()
    def quiet(text: str) -> str:
        return text

    assert {"logging", "completions"}.isdisjoint(capabilities_of(server))

    @server.tool()
    def chatty(ctx: Context, text: str) -> str:
        ctx.log("info", text)
        return text

    assert capabilities_of(server)["logging"] == {}
    assert "completions" not in capabilities_of(server)

    @server.prompt()
    def greet(name: str) -> str:
        return f"Hello {name}"

    server.completion("greet", "name")(lambda typed: ["Ada", "Alan"])
    assert capabilities_of(server)["completions"] == {}


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
def test_a_supported_version_is_answered_with_the_same_version(version):
    result = Peer().result("initialize", {**INITIALIZE, "protocolVersion": version})
    assert result["protocolVersion"] == version


@pytest.mark.parametrize("version", ["2099-01-01", "2026-07-28", "1.0", "2025-03-26", "2024-11-05"])
def test_an_unsupported_version_is_answered_with_the_latest_we_support(version):
    result = Peer().result("initialize", {**INITIALIZE, "protocolVersion": version})
    assert result["protocolVersion"] == LATEST_PROTOCOL_VERSION


@pytest.mark.parametrize("params", [{}, {"protocolVersion": 20251125}])
def test_initialize_without_a_version_string_is_invalid_params(params):
    error = Peer().error("initialize", params)
    assert error["code"] == -32602 and "protocolVersion" in error["message"]


def test_a_second_initialize_is_refused(peer):
    error = peer.error("initialize", INITIALIZE)
    assert error["code"] == -32600 and "already" in error["message"]


def test_requests_before_initialize_are_refused_with_a_clear_message():
    error = Peer().error("tools/list")
    assert error["code"] == -32600
    assert "not initialized" in error["message"] and "initialize" in error["message"]


def test_ping_is_answered_before_initialize():
    assert Peer().result("ping") == {}


def test_an_unknown_method_is_method_not_found_even_before_initialize():
    error = Peer().error("server/discover")
    assert error["code"] == -32601


def test_the_session_is_usable_as_soon_as_initialize_is_answered():
    peer = Peer()
    peer.result("initialize", INITIALIZE)
    assert peer.result("tools/list")["tools"]
    assert not peer.session.client_ready
    peer.tell("notifications/initialized")
    assert peer.session.client_ready


def test_no_notification_is_sent_before_initialize():
    peer = Peer()
    asyncio.run(peer.session.handle(request(1, "ping")))
    peer.session.server.remove_tool("search_notes")
    assert peer.sent == []


# --- tools ---


def test_tools_list_describes_each_tool_with_an_input_schema(peer):
    tools = {t["name"]: t for t in peer.result("tools/list")["tools"]}
    assert set(tools) == {"search_notes", "add_note", "note_stats", "rebuild_index"}
    assert tools["search_notes"]["inputSchema"]["required"] == ["query"]
    assert "outputSchema" in tools["note_stats"]
    assert "ctx" not in tools["rebuild_index"]["inputSchema"]["properties"]


def many_tools(count: int, page_size: int) -> Server:
    server = Server("many", page_size=page_size)
    for i in range(count):
        server.tool(name=f"tool_{i}")(lambda: "ok")
    return server


def test_tools_list_pages_with_next_cursor_until_the_last_page():
    peer = Peer(many_tools(5, page_size=2))
    peer.result("initialize", INITIALIZE)
    names, params = [], {}
    for _ in range(5):
        page = peer.result("tools/list", params)
        names += [t["name"] for t in page["tools"]]
        if "nextCursor" not in page:
            break
        params = {"cursor": page["nextCursor"]}
    assert names == [f"tool_{i}" for i in range(5)]


@pytest.mark.parametrize(
    "cursor",
    [
        "not-a-cursor",
        "",
        42,
        encode_cursor("prompts", 2),
        encode_cursor("tools", 99),
        encode_cursor("tools", -1),
    ],
)
def test_a_cursor_this_server_did_not_make_is_invalid_params(cursor):
    peer = Peer(many_tools(5, page_size=2))
    peer.result("initialize", INITIALIZE)
    error = peer.error("tools/list", {"cursor": cursor})
    assert error["code"] == -32602 and "cursor" in error["message"]


def test_a_tool_call_returns_text_content(peer):
    result = peer.result("tools/call", {"name": "search_notes", "arguments": {"query": "stdout"}})
    assert result == {"content": [{"type": "text", "text": "stdio: The stdio transport"}]}


def test_a_tool_with_an_output_schema_returns_structured_content_and_its_text(peer):
    result = peer.result("tools/call", {"name": "note_stats", "arguments": {}})
    assert result["structuredContent"] == {
        "notes": 4,
        "words": 65,
        "tags": ["protocol", "tools", "transport"],
    }
    assert '"notes": 4' in result["content"][0]["text"]


@pytest.mark.parametrize(
    "arguments, says",
    [
        ({}, "'query' is a required property"),
        ({"query": 3}, "query: 3 is not of type 'string'"),
        ({"query": "x", "limit": "two"}, "limit: 'two' is not of type 'integer'"),
        ({"query": "x", "colour": "red"}, "Additional properties are not allowed"),
    ],
)
def test_arguments_that_break_the_input_schema_are_an_is_error_result(peer, arguments, says):
    result = peer.result("tools/call", {"name": "search_notes", "arguments": arguments})
    assert result["isError"] is True
    assert says in result["content"][0]["text"]


def test_arguments_that_are_not_an_object_are_an_is_error_result(peer):
    result = peer.result("tools/call", {"name": "search_notes", "arguments": ["stdio"]})
    assert result["isError"] is True and "not of type 'object'" in result["content"][0]["text"]


def test_an_unknown_tool_is_a_protocol_error_naming_the_tools(peer):
    error = peer.error("tools/call", {"name": "delete_everything", "arguments": {}})
    assert error["code"] == -32602
    assert "delete_everything" in error["message"] and "search_notes" in error["message"]


def test_a_tool_error_is_an_is_error_result_with_the_suggestion(peer):
    result = peer.result(
        "tools/call", {"name": "add_note", "arguments": {"slug": "Not A Slug", "title": "t", "body": "b"}}
    )
    assert result["isError"] is True
    assert "invalid_slug" in result["content"][0]["text"]
    assert "lowercase" in result["content"][0]["text"]


def test_a_tool_that_crashes_is_an_is_error_result_not_a_crash():
    server = Server("crashy")

    @server.tool()
    def divide(a: int, b: int) -> float:
        """Divide."""
        return a / b

    peer = Peer(server)
    peer.result("initialize", INITIALIZE)
    result = peer.result("tools/call", {"name": "divide", "arguments": {"a": 1, "b": 0}})
    assert result["isError"] is True and "ZeroDivisionError" in result["content"][0]["text"]


def test_a_result_that_breaks_its_output_schema_is_an_internal_error():
    server = Server("liar")

    @dataclass
    class Point:
        x: int

    @server.tool()
    def point() -> Point:
        """A point."""
        return {"x": "not a number"}

    peer = Peer(server)
    peer.result("initialize", INITIALIZE)
    error = peer.error("tools/call", {"name": "point", "arguments": {}})
    assert error["code"] == -32603 and "outputSchema" in error["message"]


def test_a_dataclass_result_becomes_structured_content():
    server = Server("points")

    @dataclass
    class Point:
        x: int
        y: int

    @server.tool()
    def origin() -> Point:
        """The origin."""
        return Point(0, 0)

    peer = Peer(server)
    peer.result("initialize", INITIALIZE)
    assert peer.result("tools/call", {"name": "origin"})["structuredContent"] == {"x": 0, "y": 0}


def test_adding_or_removing_a_tool_sends_list_changed(peer):
    peer.session.server.remove_tool("note_stats")
    peer.session.server.tool(name="hello")(lambda: "hi")
    assert sent_methods(peer) == ["notifications/tools/list_changed"] * 2


def test_a_closed_session_gets_no_more_notifications(peer):
    peer.session.close()
    peer.session.server.remove_tool("note_stats")
    assert peer.sent == []


def test_progress_is_reported_when_the_call_carries_a_progress_token(peer):
    peer.result(
        "tools/call", {"name": "rebuild_index", "arguments": {"passes": 2}, "_meta": {"progressToken": "tok"}}
    )
    progress = [m["params"] for m in peer.sent if m["method"] == "notifications/progress"]
    assert progress == [
        {"progressToken": "tok", "progress": 1, "total": 2, "message": "pass 1 of 2"},
        {"progressToken": "tok", "progress": 2, "total": 2, "message": "pass 2 of 2"},
    ]


def test_no_progress_is_reported_without_a_progress_token(peer):
    peer.result("tools/call", {"name": "rebuild_index", "arguments": {"passes": 1}})
    assert "notifications/progress" not in sent_methods(peer)


def test_a_cancelled_request_stops_and_gets_no_response(peer):
    async def scenario():
        call = asyncio.create_task(
            peer.session.handle(
                request(9, "tools/call", {"name": "rebuild_index", "arguments": {"passes": 50}})
            )
        )
        await asyncio.sleep(0.05)
        await peer.session.handle(
            notification("notifications/cancelled", {"requestId": 9, "reason": "user gave up"})
        )
        with pytest.raises(asyncio.CancelledError):
            await call
        return peer.session.in_flight

    assert asyncio.run(scenario()) == {}


def test_cancelling_an_unknown_request_is_ignored(peer):
    assert peer.tell("notifications/cancelled", {"requestId": 12345}) is None


# --- resources ---


def test_resources_list_and_templates_list_use_the_spec_field_names(peer):
    resources = peer.result("resources/list")["resources"]
    assert resources == [
        {
            "uri": "notes://index",
            "name": "index",
            "mimeType": "text/markdown",
            "description": "Every note: its slug and its title.",
        }
    ]
    templates = peer.result("resources/templates/list")["resourceTemplates"]
    assert templates[0]["uriTemplate"] == "notes://note/{slug}"


def test_a_static_resource_and_a_templated_resource_can_be_read(peer):
    index = peer.result("resources/read", {"uri": "notes://index"})["contents"][0]
    assert index["uri"] == "notes://index" and "- stdio: The stdio transport" in index["text"]
    note = peer.result("resources/read", {"uri": "notes://note/stdio"})["contents"][0]
    assert note["mimeType"] == "text/markdown" and note["text"].startswith("# The stdio transport")


@pytest.mark.parametrize("uri", ["notes://note/missing", "notes://nothing", "file:///etc/passwd"])
def test_a_missing_resource_is_resource_not_found_with_its_uri(peer, uri):
    error = peer.error("resources/read", {"uri": uri})
    assert error["code"] == RESOURCE_NOT_FOUND == -32002
    assert error["data"] == {"uri": uri}


def test_a_read_without_a_uri_string_is_invalid_params(peer):
    assert peer.error("resources/read", {"uri": 3})["code"] == -32602


def test_binary_resources_are_sent_as_base64_blobs():
    server = Server("bytes")
    server.resource("bin://one", mime_type="application/octet-stream")(lambda: b"\x00\x01")
    peer = Peer(server)
    peer.result("initialize", INITIALIZE)
    assert peer.result("resources/read", {"uri": "bin://one"})["contents"][0]["blob"] == "AAE="


def test_a_subscriber_is_told_when_a_resource_changes(peer):
    assert peer.result("resources/subscribe", {"uri": "notes://index"}) == {}
    peer.result(
        "tools/call",
        {
            "name": "add_note",
            "arguments": {"slug": "progress", "title": "Progress", "body": "progressToken in _meta"},
        },
    )
    assert {
        "jsonrpc": "2.0",
        "method": "notifications/resources/updated",
        "params": {"uri": "notes://index"},
    } in peer.sent


def test_an_unsubscribed_client_is_not_told(peer):
    peer.result("resources/subscribe", {"uri": "notes://index"})
    peer.result("resources/unsubscribe", {"uri": "notes://index"})
    peer.session.server.resource_updated("notes://index")
    assert "notifications/resources/updated" not in sent_methods(peer)


def test_subscribing_to_a_missing_resource_is_resource_not_found(peer):
    assert peer.error("resources/subscribe", {"uri": "notes://nothing"})["code"] == -32002


# --- prompts, completion, logging ---


def test_prompts_list_describes_arguments_and_which_are_required(peer):
    prompts = {p["name"]: p for p in peer.result("prompts/list")["prompts"]}
    assert prompts["summarize_note"]["arguments"] == [
        {"name": "slug", "description": 'The note to summarize, e.g. "stdio".', "required": True}
    ]
    assert [a["required"] for a in prompts["quiz_me"]["arguments"]] == [True, False]


def test_prompts_get_renders_messages_from_the_arguments(peer):
    result = peer.result("prompts/get", {"name": "summarize_note", "arguments": {"slug": "stdio"}})
    message = result["messages"][0]
    assert message["role"] == "user" and "The stdio transport" in message["content"]["text"]
    quiz = peer.result("prompts/get", {"name": "quiz_me", "arguments": {"topic": "ids"}})
    assert [m["role"] for m in quiz["messages"]] == ["user", "assistant"]


@pytest.mark.parametrize(
    "params, says",
    [
        ({"name": "nope"}, "unknown prompt"),
        ({"name": "summarize_note"}, "missing arguments ['slug']"),
        ({"name": "summarize_note", "arguments": {"slug": "stdio", "x": "1"}}, "unknown arguments"),
        ({"name": "summarize_note", "arguments": {"slug": "missing"}}, "nothing found"),
    ],
)
def test_a_bad_prompt_request_is_invalid_params_that_says_why(peer, params, says):
    error = peer.error("prompts/get", params)
    assert error["code"] == -32602 and says in error["message"]


def test_completion_suggests_values_for_a_prompt_argument(peer):
    result = peer.result(
        "completion/complete",
        {"ref": {"type": "ref/prompt", "name": "summarize_note"}, "argument": {"name": "slug", "value": "s"}},
    )
    assert result == {"completion": {"values": ["stdio"], "total": 1, "hasMore": False}}


def test_completion_suggests_values_for_a_template_variable(peer):
    result = peer.result(
        "completion/complete",
        {
            "ref": {"type": "ref/resource", "uri": "notes://note/{slug}"},
            "argument": {"name": "slug", "value": "l"},
        },
    )
    assert result["completion"]["values"] == ["lifecycle"]


def test_completion_for_an_unknown_prompt_is_invalid_params(peer):
    error = peer.error(
        "completion/complete",
        {"ref": {"type": "ref/prompt", "name": "nope"}, "argument": {"name": "x", "value": ""}},
    )
    assert error["code"] == -32602


def test_log_messages_below_the_chosen_level_are_not_sent(peer):
    assert peer.result("logging/setLevel", {"level": "warning"}) == {}
    peer.result("tools/call", {"name": "rebuild_index", "arguments": {"passes": 1}})
    assert "notifications/message" not in sent_methods(peer)
    peer.result("logging/setLevel", {"level": "debug"})
    peer.result("tools/call", {"name": "rebuild_index", "arguments": {"passes": 1}})
    log = next(m for m in peer.sent if m["method"] == "notifications/message")
    assert log["params"] == {"level": "info", "logger": "notes", "data": "index rebuilt over 4 notes"}


def test_an_unknown_log_level_is_invalid_params(peer):
    error = peer.error("logging/setLevel", {"level": "loud"})
    assert error["code"] == -32602 and "debug" in error["message"]


def test_a_tool_sees_its_context_but_the_model_does_not():
    server = Server("ctx")

    @server.tool()
    def whoami(ctx: Context, name: str) -> str:
        """Say who asked."""
        return f"{name} via {type(ctx).__name__}"

    peer = Peer(server)
    peer.result("initialize", INITIALIZE)
    assert peer.result("tools/list")["tools"][0]["inputSchema"]["properties"].keys() == {"name"}
    result = peer.result("tools/call", {"name": "whoami", "arguments": {"name": "ada"}})
    assert result["content"][0]["text"] == "ada via Context"


def test_the_handler_table_names_every_method_the_server_serves(peer):
    assert set(peer.session.handlers) == {
        "initialize",
        "ping",
        "notifications/initialized",
        "notifications/cancelled",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
    }
    assert isinstance(peer.session.dispatcher, jsonrpc.Dispatcher)


# --- wrong-typed params (issue 14): -32602 with a message for the caller, never a Python error ---


@pytest.mark.parametrize(
    "method, params",
    [
        ("tools/call", {"name": ["search_notes"], "arguments": {}}),
        ("tools/call", {"name": {"a": 1}}),
        ("prompts/get", {"name": ["summarize_note"]}),
        ("prompts/get", {"name": "summarize_note", "arguments": [1]}),
        ("prompts/get", {"name": "summarize_note", "arguments": {"slug": 5}}),
        ("resources/read", {"uri": ["notes://index"]}),
        ("resources/subscribe", {"uri": {"x": 1}}),
        ("completion/complete", {"ref": ["ref/prompt"], "argument": {"name": "slug", "value": ""}}),
        ("completion/complete", {"ref": {"type": "ref/prompt", "name": ["x"]}, "argument": {"name": "slug"}}),
        ("completion/complete", {"ref": {"type": "ref/prompt", "name": "summarize_note"}, "argument": []}),
        (
            "completion/complete",
            {"ref": {"type": "ref/prompt", "name": "summarize_note"}, "argument": {"name": []}},
        ),
        ("logging/setLevel", {"level": ["info"]}),
        ("tools/list", {"cursor": ["abc"]}),
        ("tools/list", {"cursor": {"offset": 1}}),
    ],
)
def test_wrong_typed_params_get_invalid_params_with_a_message_for_the_caller(peer, method, params):
    error = peer.error(method, params)
    assert error["code"] == jsonrpc.INVALID_PARAMS, error
    assert "Error" not in error["message"] and "unhashable" not in error["message"]


@pytest.mark.parametrize("params", [{"clientInfo": ["x"]}, {"capabilities": "all"}])
def test_initialize_with_wrong_typed_members_is_invalid_params(params):
    error = Peer().error("initialize", {**INITIALIZE, **params})
    assert error["code"] == jsonrpc.INVALID_PARAMS


def test_a_cancel_naming_an_unhashable_request_id_is_ignored(peer):
    assert peer.tell("notifications/cancelled", {"requestId": [1, 2]}) is None
    assert "result" in peer.ask("ping")


def test_a_huge_wrong_argument_is_not_echoed_whole(peer):
    result = peer.result("tools/call", {"name": "search_notes", "arguments": {"query": ["x" * 100_000]}})
    assert result["isError"] and len(result["content"][0]["text"]) < 1000
