"""Our MCP client and host (lesson 10) against our example server over stdio, and
against servers that stay silent, die mid-call, or send garbage."""

import asyncio
import json
import sys
import textwrap

import pytest
from openai.types.chat import ChatCompletion

from wirelab.jsonrpc import JsonRpcError
from wirelab.loop import run_tool_loop
from wirelab.mcp.client import Client, RequestTimeout, ServerDied, connect_stdio
from wirelab.mcp.host import McpHost, openai_tools, result_text
from wirelab.mcp.transports.stdio import StdioClientTransport

pytestmark = pytest.mark.timeout(30)

EXAMPLE = [sys.executable, "-m", "wirelab.mcp.example"]


def python(source: str) -> list[str]:
    """The command that runs `source` as a (misbehaving) server."""
    return [sys.executable, "-c", textwrap.dedent(source)]


ANSWER_INITIALIZE = """
    import json, sys
    def answer(message, result):
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
    message = json.loads(sys.stdin.readline())
    answer(message, {"protocolVersion": "2025-11-25", "capabilities": {},
                     "serverInfo": {"name": "odd", "version": "0"}})
    sys.stdin.readline()  # notifications/initialized
"""


async def with_example(use):
    async with connect_stdio(EXAMPLE, timeout=15) as client:
        return await use(client)


def test_the_client_does_the_handshake_and_learns_about_the_server():
    async def use(client):
        return client.protocol_version, client.server_info["name"], client.server_capabilities

    version, name, capabilities = asyncio.run(with_example(use))
    assert (version, name) == ("2025-11-25", "wirelab-notes")
    assert capabilities["tools"] == {"listChanged": True}


def test_the_client_lists_and_calls_tools():
    async def use(client):
        tools = await client.list_tools()
        return [t["name"] for t in tools], await client.call_tool("search_notes", {"query": "id"})

    names, result = asyncio.run(with_example(use))
    assert names == ["search_notes", "add_note", "note_stats", "rebuild_index"]
    assert result["content"][0]["text"] == "json-rpc: JSON-RPC 2.0"


def test_a_failed_tool_call_is_a_result_but_an_unknown_tool_raises():
    async def use(client):
        bad = await client.call_tool("search_notes", {"query": 1})
        with pytest.raises(JsonRpcError) as unknown:
            await client.call_tool("nope")
        return bad, unknown.value

    bad, unknown = asyncio.run(with_example(use))
    assert bad["isError"] is True
    assert unknown.code == -32602 and "nope" in unknown.message


def test_the_client_reads_resources_and_gets_prompts():
    async def use(client):
        return (
            await client.list_resources(),
            await client.list_resource_templates(),
            await client.read_resource("notes://note/stdio"),
            await client.list_prompts(),
            await client.get_prompt("summarize_note", {"slug": "lifecycle"}),
            await client.complete({"type": "ref/prompt", "name": "summarize_note"}, "slug", "t"),
        )

    resources, templates, note, prompts, prompt, completions = asyncio.run(with_example(use))
    assert resources[0]["uri"] == "notes://index"
    assert templates[0]["uriTemplate"] == "notes://note/{slug}"
    assert note["contents"][0]["text"].startswith("# The stdio transport")
    assert {p["name"] for p in prompts} == {"summarize_note", "quiz_me"}
    assert "The MCP lifecycle" in prompt["messages"][0]["content"]["text"]
    assert completions == ["tool-errors"]


def test_a_missing_resource_raises_resource_not_found():
    async def use(client):
        with pytest.raises(JsonRpcError) as missing:
            await client.read_resource("notes://note/nothing")
        return missing.value

    assert asyncio.run(with_example(use)).code == -32002


def test_progress_and_log_notifications_reach_their_handlers():
    async def use(client):
        progress, logs = [], []
        client.on_notification("notifications/message", logs.append)
        await client.set_log_level("info")
        result = await client.call_tool("rebuild_index", {"passes": 2}, on_progress=progress.append)
        return result, progress, logs

    result, progress, logs = asyncio.run(with_example(use))
    assert result["content"][0]["text"] == "Index rebuilt in 2 passes."
    assert [(p["progress"], p["total"]) for p in progress] == [(1, 2), (2, 2)]
    assert logs == [{"level": "info", "logger": "notes", "data": "index rebuilt over 4 notes"}]


def test_a_subscriber_hears_about_a_changed_resource():
    async def use(client):
        updated = asyncio.Event()
        client.on_notification("notifications/resources/updated", lambda params: updated.set())
        await client.subscribe("notes://index")
        await client.call_tool("add_note", {"slug": "new", "title": "New", "body": "text"})
        await asyncio.wait_for(updated.wait(), 5)
        return (await client.read_resource("notes://index"))["contents"][0]["text"]

    assert "- new: New" in asyncio.run(with_example(use))


def test_requests_are_matched_to_responses_by_id_when_answers_overtake():
    async def use(client):
        slow = client.call_tool("rebuild_index", {"passes": 3})
        fast = client.call_tool("search_notes", {"query": "stdout"})
        return await asyncio.gather(slow, fast)

    slow, fast = asyncio.run(with_example(use))
    assert slow["content"][0]["text"] == "Index rebuilt in 3 passes."
    assert fast["content"][0]["text"] == "stdio: The stdio transport"


def test_a_timed_out_call_is_cancelled_on_the_server_and_the_session_goes_on():
    async def use(client):
        with pytest.raises(RequestTimeout, match="cancelled"):
            await client.call_tool("rebuild_index", {"passes": 100}, timeout=0.3)
        sent = [m.payload for m in seen if m.sender == "client"]
        return sent, await client.ping()

    seen = []

    async def watch_then_use(client):
        client.wire.subscribe(seen.append)
        return await use(client)

    sent, pong = asyncio.run(with_example(watch_then_use))
    assert pong == {}
    call = next(m for m in sent if m.get("method") == "tools/call")
    cancel = next(m for m in sent if m.get("method") == "notifications/cancelled")
    assert cancel["params"]["requestId"] == call["id"]


def test_a_silent_server_times_out_instead_of_hanging():
    silent = python("import sys\nfor _ in sys.stdin: pass")

    async def scenario():
        client = Client(StdioClientTransport(silent), timeout=0.5)
        with pytest.raises(RequestTimeout, match="initialize"):
            await client.start()

    asyncio.run(scenario())


def test_a_server_that_dies_mid_call_is_reported_with_its_exit_code_and_stderr():
    dies = python(
        ANSWER_INITIALIZE
        + """
    sys.stdin.readline()
    sys.stderr.write("fatal: out of coffee\\n")
    sys.exit(3)
    """
    )

    async def scenario():
        async with Client(StdioClientTransport(dies), timeout=10) as client:
            with pytest.raises(ServerDied) as died:
                await client.call_tool("anything")
            with pytest.raises(ServerDied):
                await client.ping()  # and every later request fails at once
            return str(died.value)

    message = asyncio.run(scenario())
    assert "exit code 3" in message and "out of coffee" in message


def test_a_server_that_cannot_start_is_reported():
    async def scenario():
        client = Client(StdioClientTransport(python("import sys; sys.exit(2)")), timeout=10)
        with pytest.raises(ConnectionError):  # ServerDied, or a broken pipe if it is quick
            await client.start()

    asyncio.run(scenario())


def test_garbage_from_the_server_is_skipped_and_published_as_invalid():
    noisy = python(
        ANSWER_INITIALIZE.replace(
            "message = json.loads", 'print("booting...", flush=True)\n    message = json.loads'
        )
        + """
    message = json.loads(sys.stdin.readline())
    answer(message, {})
    """
    )

    async def scenario():
        seen = []
        transport = StdioClientTransport(noisy)
        transport.wire.subscribe(seen.append)
        async with Client(transport, timeout=10) as client:
            assert await client.ping() == {}
        return [(m.sender, m.kind, m.payload) for m in seen]

    seen = asyncio.run(scenario())
    assert ("server", "invalid", "booting...") in seen
    assert [k for s, k, _ in seen if s == "client"] == ["request", "notification", "request"]


def test_a_server_request_for_ping_is_answered_and_others_get_method_not_found():
    asks = python(
        ANSWER_INITIALIZE
        + """
    for id, method in [("p", "ping"), ("s", "sampling/createMessage")]:
        print(json.dumps({"jsonrpc": "2.0", "id": id, "method": method}), flush=True)
    replies = [json.loads(sys.stdin.readline()) for _ in range(2)]
    sys.stderr.write(json.dumps(replies) + "\\n")
    """
    )

    async def scenario():
        transport = StdioClientTransport(asks)
        async with Client(transport, timeout=10):
            await transport.exit_code(5)
        return json.loads(transport.stderr_tail[-1])

    ping, sampling = asyncio.run(scenario())
    assert ping == {"jsonrpc": "2.0", "id": "p", "result": {}}
    assert sampling["error"]["code"] == -32601


# --- the host ---


def test_mcp_tools_become_openai_tool_specs():
    listed = {
        "tools": [
            {
                "name": "add",
                "description": "Add.",
                "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}},
            }
        ]
    }
    assert openai_tools(listed) == [
        {
            "type": "function",
            "function": {
                "name": "add",
                "description": "Add.",
                "parameters": {"type": "object", "properties": {"a": {"type": "integer"}}},
            },
        }
    ]


def test_a_tool_result_becomes_the_content_of_a_tool_message():
    assert result_text({"content": [{"type": "text", "text": "hi"}]}) == "hi"
    assert result_text({"content": [], "structuredContent": {"n": 1}}) == '{"n": 1}'
    failed = json.loads(result_text({"content": [{"type": "text", "text": "bad"}], "isError": True}))
    assert failed["error"]["message"] == "bad"


def completion(message: dict) -> ChatCompletion:
    return ChatCompletion.model_validate(
        {
            "id": "c",
            "object": "chat.completion",
            "created": 0,
            "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
        }
    )


class ScriptedModel:
    """A chat client that asks for `calls` first, then answers with the last tool result."""

    def __init__(self, calls: list[tuple[str, dict]]) -> None:
        self.calls, self.chat, self.requests = calls, self, []
        self.completions = self

    def create(self, **request):
        self.requests.append(request)
        if len(self.requests) == 1:
            return completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"call_{i}",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)},
                        }
                        for i, (name, arguments) in enumerate(self.calls)
                    ],
                }
            )
        return completion({"role": "assistant", "content": request["messages"][-1]["content"]})


@pytest.mark.timeout(60)
def test_the_host_runs_mcp_tools_in_the_loop_and_asks_for_approval():
    model = ScriptedModel(
        [("search_notes", {"query": "stdout"}), ("add_note", {"slug": "x", "title": "X", "body": "x"})]
    )
    asked = []

    def approve(call):
        asked.append(call["function"]["name"])
        return call["function"]["name"] != "add_note"

    with McpHost.stdio(EXAMPLE, approve=approve) as host:
        result = run_tool_loop(
            model,
            [{"role": "user", "content": "find stdout"}],
            host.tools,
            model="scripted",
            execute=host.execute,
        )
        index = host.run(host.client.read_resource("notes://index"))
    tool_messages = [m["content"] for m in result.messages if m["role"] == "tool"]
    assert asked == ["search_notes", "add_note"]
    assert tool_messages[0] == "stdio: The stdio transport"
    assert json.loads(tool_messages[1])["error"]["code"] == "denied"
    assert "- x: X" not in index["contents"][0]["text"]
    sent_tools = {t["function"]["name"] for t in model.requests[0]["tools"]}
    assert sent_tools == {"search_notes", "add_note", "note_stats", "rebuild_index"}
