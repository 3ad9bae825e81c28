"""Our host and client against software the course did not write: the official reference
servers from npm (`@modelcontextprotocol/server-everything`, `-filesystem`, `-memory`,
pinned in package.json next to Inspector).

Each feature is one test and asserts real content: tools, resources with a subscription,
prompts, sampling answered by the offline model after the host's approval, elicitation,
roots and progress, over stdio; server-everything also over Streamable HTTP.

Install them with `npm ci` at the repository root. Without them these tests skip, except
under CI (CI=true), where a missing server is a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.conftest import free_port
from wirelab.mcp.client import Client
from wirelab.mcp.host import McpHost
from wirelab.mcp.transports.http.client import HttpTransport
from wirelab.mcp.transports.stdio import StdioClientTransport

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "node_modules" / ".bin"


def installed(name: str) -> list[str]:
    """The command of one reference server, or a skip (a failure under CI) when it is missing."""
    path = BIN / name
    if not path.exists():
        reason = f"{name} is not installed at {path}: run `npm ci` in {ROOT}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return [str(path)]


@pytest.fixture(autouse=True)
def offline_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WIRELAB_OFFLINE", "1")


def text_of(result: dict[str, Any]) -> str:
    return "\n".join(block["text"] for block in result["content"] if block["type"] == "text")


def stdio_host(name: str, *args: str, env: dict[str, str] | None = None, **options: Any) -> McpHost:
    client = Client(StdioClientTransport([*installed(name), *args], env=env), timeout=30, **options)
    return McpHost(client, timeout=60)


# --- server-everything over stdio ---


def test_the_host_lists_the_everything_servers_tools_and_calls_one():
    with stdio_host("mcp-server-everything") as host:
        assert {"echo", "get-sum", "trigger-long-running-operation"} <= set(host.tools.names)
        assert host.client.server_info["name"] == "mcp-servers/everything"
        assert host.call("get-sum", {"a": 2, "b": 40}) == "The sum of 2 and 40 is 42."
        assert host.call("echo", {"message": "over the wire"}) == "Echo: over the wire"


def test_a_structured_result_reaches_the_model_as_its_json():
    with stdio_host("mcp-server-everything") as host:
        tool = next(t for t in host.run(host.client.list_tools()) if t["name"] == "get-structured-content")
        result = host.run(host.client.call_tool("get-structured-content", {"location": "Chicago"}))
        assert set(result["structuredContent"]) == set(tool["outputSchema"]["properties"])
        assert (
            json.loads(host.call("get-structured-content", {"location": "Chicago"}))
            == (result["structuredContent"])
        )


def test_a_bad_argument_comes_back_as_an_error_result_the_model_can_read():
    with stdio_host("mcp-server-everything") as host:
        result = host.run(host.client.call_tool("get-sum", {"a": "two", "b": 3}))
        assert result["isError"] is True
        assert "a" in text_of(result) and "number" in text_of(result).lower()


def test_a_subscribed_resource_sends_its_updated_notification():
    with stdio_host("mcp-server-everything") as host:
        uri = host.run(host.client.list_resources())[0]["uri"]
        assert host.run(host.client.read_resource(uri))["contents"][0]["uri"] == uri
        updated = []
        host.client.on_notification("notifications/resources/updated", updated.append)
        host.run(host.client.subscribe(uri))
        host.call("toggle-subscriber-updates", {})  # the server then notifies every subscriber
        deadline = time.monotonic() + 15
        while not updated and time.monotonic() < deadline:
            time.sleep(0.05)
        assert {"uri": uri} in updated


def test_the_host_gets_a_prompt_with_its_arguments():
    with stdio_host("mcp-server-everything") as host:
        prompts = {p["name"]: p for p in host.run(host.client.list_prompts())}
        assert [a["name"] for a in prompts["args-prompt"]["arguments"]] == ["city", "state"]
        got = host.run(host.client.get_prompt("args-prompt", {"city": "Lyon", "state": "Rhône"}))
        assert "Lyon" in got["messages"][0]["content"]["text"]
        assert "Rhône" in got["messages"][0]["content"]["text"]


def test_sampling_is_answered_by_the_offline_model_after_the_users_approval():
    asked: list[dict[str, Any]] = []
    host = stdio_host("mcp-server-everything")
    host.offer_sampling(lambda params: asked.append(params) is None)
    with host:
        text = host.call("trigger-sampling-request", {"prompt": "What is JSON-RPC?", "maxTokens": 60})
    assert len(asked) == 1 and asked[0]["systemPrompt"] == "You are a helpful test server."
    sampled = json.loads(text.split("\n", 1)[1])
    assert sampled["role"] == "assistant" and sampled["content"]["type"] == "text"
    assert sampled["content"]["text"].strip() and sampled["model"]


def test_a_refused_sampling_request_reaches_the_server_as_an_error():
    host = stdio_host("mcp-server-everything")
    host.offer_sampling(lambda params: False)
    with host:
        result = host.run(host.client.call_tool("trigger-sampling-request", {"prompt": "Hi"}))
    assert result["isError"] is True and "rejected" in text_of(result).lower()


def test_elicitation_sends_the_users_answer_back_to_the_server():
    seen: list[dict[str, Any]] = []

    def answer(params: dict[str, Any]) -> dict[str, Any]:
        seen.append(params)
        return {"action": "accept", "content": {"name": "Ada Lovelace", "check": True, "integer": 7}}

    with stdio_host("mcp-server-everything", on_elicitation=answer) as host:
        text = host.call("trigger-elicitation-request", {})
    assert seen[0]["requestedSchema"]["required"] == ["name"]
    assert "User provided the requested information" in text
    assert "Ada Lovelace" in text and "7" in text


def test_the_server_reads_the_roots_the_host_offers(tmp_path):
    root = {"uri": tmp_path.as_uri(), "name": "scratch"}
    with stdio_host("mcp-server-everything", roots=[root]) as host:
        text = host.call("get-roots-list", {})
    assert "1 total" in text and tmp_path.as_uri() in text and "scratch" in text


def test_a_long_operation_reports_progress_to_the_caller():
    progress: list[dict[str, Any]] = []
    with stdio_host("mcp-server-everything") as host:
        result = host.run(
            host.client.call_tool(
                "trigger-long-running-operation", {"duration": 0.6, "steps": 3}, on_progress=progress.append
            )
        )
    assert [(p["progress"], p["total"]) for p in progress] == [(1, 3), (2, 3), (3, 3)]
    assert "completed" in text_of(result).lower()


# --- server-filesystem and server-memory over stdio ---


def test_the_filesystem_server_writes_and_reads_a_file_inside_its_allowed_directory(tmp_path):
    with stdio_host("mcp-server-filesystem", str(tmp_path)) as host:
        assert {"read_text_file", "write_file", "list_directory"} <= set(host.tools.names)
        host.call("write_file", {"path": str(tmp_path / "note.md"), "content": "one line per message"})
        read = host.call("read_text_file", {"path": str(tmp_path / "note.md")})
        listed = host.call("list_directory", {"path": str(tmp_path)})
    assert json.loads(read) == {"content": "one line per message"}  # its structuredContent
    assert "[FILE] note.md" in json.loads(listed)["content"]
    assert (tmp_path / "note.md").read_text() == "one line per message"


def test_the_filesystem_server_refuses_a_path_outside_it(tmp_path):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (tmp_path / "secret.txt").write_text("not for the model")
    with stdio_host("mcp-server-filesystem", str(allowed)) as host:
        result = host.run(host.client.call_tool("read_text_file", {"path": str(tmp_path / "secret.txt")}))
    assert result["isError"] is True and "not for the model" not in text_of(result)
    assert "denied" in text_of(result).lower()


def test_the_filesystem_server_takes_the_hosts_roots_as_its_allowed_directories(tmp_path):
    started, offered = tmp_path / "started", tmp_path / "offered"
    started.mkdir(), offered.mkdir()
    root = {"uri": offered.as_uri(), "name": "offered"}
    with stdio_host("mcp-server-filesystem", str(started), roots=[root]) as host:
        deadline = time.monotonic() + 15
        while str(offered) not in (listed := host.call("list_allowed_directories", {})):
            assert time.monotonic() < deadline, listed
            time.sleep(0.1)
    assert str(started) not in listed


def test_the_memory_server_keeps_a_knowledge_graph_in_its_file(tmp_path):
    memory = tmp_path / "memory.jsonl"
    entity = {"name": "JSON-RPC", "entityType": "protocol", "observations": ["ids match"]}
    relation = {"from": "MCP", "to": "JSON-RPC", "relationType": "uses"}
    with stdio_host("mcp-server-memory", env={"MEMORY_FILE_PATH": str(memory)}) as host:
        host.call("create_entities", {"entities": [entity, {**entity, "name": "MCP", "observations": []}]})
        host.call("create_relations", {"relations": [relation]})
        found = json.loads(host.call("search_nodes", {"query": "ids match"}))
    assert [e["name"] for e in found["entities"]] == ["JSON-RPC"]
    saved = [json.loads(line) for line in memory.read_text().splitlines()]
    assert {"type": "entity", **entity} in saved and {"type": "relation", **relation} in saved


# --- server-everything over Streamable HTTP ---


@pytest.fixture
def everything_http() -> Iterator[str]:
    """server-everything's Streamable HTTP transport on a free port; yields its /mcp URL."""
    port = free_port()
    process = subprocess.Popen(
        [*installed("mcp-server-everything"), "streamableHttp"],
        env={**os.environ, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx2.get(url, timeout=1)
                break
            except httpx2.TransportError:
                assert process.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def http_host(url: str, **options: Any) -> McpHost:
    return McpHost(Client(HttpTransport(url), timeout=30, **options), timeout=60)


def test_over_http_the_host_lists_and_calls_tools_in_a_session(everything_http):
    with http_host(everything_http) as host:
        assert host.client.transport.session_id
        assert "get-sum" in host.tools.names
        assert host.call("get-sum", {"a": 20, "b": 22}) == "The sum of 20 and 22 is 42."


def test_over_http_sampling_and_progress_come_back_on_the_requests_stream(everything_http):
    progress: list[dict[str, Any]] = []
    host = http_host(everything_http)
    host.offer_sampling(lambda params: True)
    with host:
        sampled = host.call("trigger-sampling-request", {"prompt": "Name a transport.", "maxTokens": 40})
        host.run(
            host.client.call_tool(
                "trigger-long-running-operation", {"duration": 0.4, "steps": 2}, on_progress=progress.append
            )
        )
    assert json.loads(sampled.split("\n", 1)[1])["role"] == "assistant"
    assert [p["progress"] for p in progress] == [1, 2]


def test_over_http_a_subscribed_resource_notifies_on_the_get_stream(everything_http):
    updated: list[dict[str, Any]] = []
    with http_host(everything_http) as host:
        uri = host.run(host.client.list_resources())[0]["uri"]
        host.client.on_notification("notifications/resources/updated", updated.append)
        host.run(host.client.subscribe(uri))
        host.call("toggle-subscriber-updates", {})
        deadline = time.monotonic() + 15
        while not updated and time.monotonic() < deadline:
            time.sleep(0.05)
    assert {"uri": uri} in updated
