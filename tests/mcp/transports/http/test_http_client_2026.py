"""Our HTTP client in the 2026-07-28 era, against scripted servers: `x-mcp-header` parameters,
multi round-trip requests (`InputRequiredResult`), version negotiation on -32022, and
cancellation by closing the response stream. The conformance suite checks the same
(tests/mcp/test_conformance_client.py); these tests need no Node.js.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest

from wirelab.jsonrpc import JsonRpcError
from wirelab.mcp.client import RequestTimeout
from wirelab.mcp.transports.http.client import HttpTransport, StatelessClient
from wirelab.mcp.transports.http.param_headers import InvalidToolHeaders, header_params, param_headers

URL = "http://mcp.test/mcp"
DISCOVERED = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}
Answer = Callable[[dict[str, Any], httpx2.Request], Any]


def scripted(answer: Answer, seen: list[tuple[dict[str, Any], httpx2.Request]]) -> httpx2.MockTransport:
    """A server whose `answer(message, request)` gives a result dict, or an httpx2.Response."""

    async def handle(request: httpx2.Request) -> httpx2.Response:
        message = json.loads(request.content)
        seen.append((message, request))
        if message["method"] == "server/discover":
            outcome: Any = DISCOVERED
        else:
            outcome = answer(message, request)
            if asyncio.iscoroutine(outcome):
                outcome = await outcome
        if isinstance(outcome, httpx2.Response):
            return outcome
        return httpx2.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "result": outcome})

    return httpx2.MockTransport(handle)


async def started(answer: Answer, seen: list, **options: Any) -> StatelessClient:
    transport = HttpTransport(URL, era="2026-07-28")
    await transport.http.aclose()
    transport.http = httpx2.AsyncClient(transport=scripted(answer, seen))
    client = StatelessClient(transport, **options)
    await client.start()
    return client


def calls(seen: list) -> list[tuple[dict[str, Any], httpx2.Request]]:
    return [(m, r) for m, r in seen if m["method"] == "tools/call"]


# --- x-mcp-header --------------------------------------------------------------------

REGION = {"type": "string", "x-mcp-header": "Region"}
TOOLS = [
    {
        "name": "query",
        "inputSchema": {
            "type": "object",
            "properties": {
                "region": REGION,
                "priority": {"type": "integer", "x-mcp-header": "Priority"},
                "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
                "greeting": {"type": "string", "x-mcp-header": "Greeting"},
                "where": {
                    "type": "object",
                    "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}},
                },
                "sql": {"type": "string"},
            },
        },
    },
    {"name": "empty", "inputSchema": {"properties": {"a": {"type": "string", "x-mcp-header": ""}}}},
    {"name": "number", "inputSchema": {"properties": {"a": {"type": "number", "x-mcp-header": "A"}}}},
    {"name": "object", "inputSchema": {"properties": {"a": {"type": "object", "x-mcp-header": "A"}}}},
    {
        "name": "twice",
        "inputSchema": {"properties": {"a": REGION, "b": {**REGION, "x-mcp-header": "region"}}},
    },
    {"name": "colon", "inputSchema": {"properties": {"a": {"type": "string", "x-mcp-header": "A:B"}}}},
    {"name": "in-items", "inputSchema": {"properties": {"a": {"type": "array", "items": REGION}}}},
    {"name": "in-anyOf", "inputSchema": {"properties": {"a": {"anyOf": [REGION]}}}},
]


def test_a_tool_whose_header_marks_break_the_rules_is_left_out_and_the_others_send_mcp_param_headers():
    seen: list = []

    def answer(message, request):
        if message["method"] == "tools/list":
            return {"resultType": "complete", "tools": TOOLS}
        return {"resultType": "complete", "content": []}

    async def main():
        client = await started(answer, seen)
        try:
            listed = [tool["name"] for tool in await client.list_tools()]
            arguments = {
                "region": "us-west1",
                "priority": 42,
                "verbose": False,
                "greeting": "Hello, 世界",
                "where": {"zone": "b"},
                "sql": "SELECT 1",
            }
            await client.call_tool("query", arguments)
            await client.call_tool("query", {"region": None, "sql": "SELECT 1"})
        finally:
            await client.close()
        return listed

    assert asyncio.run(main()) == ["query"]
    (_, first), (_, second) = calls(seen)
    sent = {k.lower(): v for k, v in first.headers.items() if k.lower().startswith("mcp-param-")}
    assert sent == {
        "mcp-param-region": "us-west1",
        "mcp-param-priority": "42",
        "mcp-param-verbose": "false",
        "mcp-param-greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=",
        "mcp-param-zone": "b",
    }
    assert not [k for k in second.headers if k.lower().startswith("mcp-param-")]  # null and absent: none


@pytest.mark.parametrize("tool", TOOLS[1:], ids=lambda tool: tool["name"])
def test_each_broken_header_mark_is_refused_with_its_reason(tool):
    with pytest.raises(InvalidToolHeaders):
        header_params(tool["inputSchema"])


def test_a_value_that_looks_like_the_base64_sentinel_is_itself_encoded():
    assert param_headers({"Val": ("v",)}, {"v": "=?base64?literal?="}) == {
        "Mcp-Param-Val": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
    }


# --- multi round-trip requests -----------------------------------------------------------

ASK = {"confirm": {"method": "elicitation/create", "params": {"message": "Sure?", "requestedSchema": {}}}}


@pytest.mark.parametrize("state", ["opaque-state-1", None])
def test_an_input_required_result_is_answered_and_the_request_sent_again_with_a_new_id(state):
    seen: list = []

    def answer(message, request):
        params = message["params"]
        if "inputResponses" not in params:
            asked = {"resultType": "input_required", "inputRequests": ASK}
            return asked if state is None else {**asked, "requestState": state}
        return {"resultType": "complete", "content": [{"type": "text", "text": json.dumps(params)}]}

    async def on_elicitation(params):
        return {"action": "accept", "content": {"ok": True}}

    async def main():
        client = await started(answer, seen, on_elicitation=on_elicitation)
        try:
            return await client.call_tool("book", {"when": "today"})
        finally:
            await client.close()

    result = asyncio.run(main())
    (first, _), (retry, _) = calls(seen)
    assert retry["id"] != first["id"]
    assert retry["params"]["arguments"] == {"when": "today"}
    assert retry["params"]["inputResponses"] == {"confirm": {"action": "accept", "content": {"ok": True}}}
    if state is None:
        assert "requestState" not in retry["params"]
    else:
        assert retry["params"]["requestState"] == state
    assert result["resultType"] == "complete"


def test_input_the_client_cannot_give_is_an_error_not_a_retry():
    seen: list = []

    def answer(message, request):
        return {"resultType": "input_required", "inputRequests": ASK}

    async def main():
        client = await started(answer, seen)  # no elicitation handler
        try:
            await client.call_tool("book", {})
        finally:
            await client.close()

    with pytest.raises(JsonRpcError) as raised:
        asyncio.run(main())
    assert raised.value.code == -32601
    assert len(calls(seen)) == 1


# --- version negotiation -----------------------------------------------------------------


def unsupported(message: dict[str, Any], supported: list[str]) -> httpx2.Response:
    error = {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": supported}}
    return httpx2.Response(400, json={"jsonrpc": "2.0", "id": message["id"], "error": error})


@pytest.mark.parametrize(("supported", "starts"), [(["2026-07-28"], True), (["2025-11-25"], False)])
def test_discover_asks_again_after_32022_only_if_the_server_lists_2026_07_28(supported, starts):
    attempts: list = []

    async def handle(request: httpx2.Request) -> httpx2.Response:
        message = json.loads(request.content)
        attempts.append(message)
        if len(attempts) == 1:
            return unsupported(message, supported)
        return httpx2.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "result": DISCOVERED})

    async def main():
        transport = HttpTransport(URL, era="2026-07-28")
        await transport.http.aclose()
        transport.http = httpx2.AsyncClient(transport=httpx2.MockTransport(handle))
        async with StatelessClient(transport) as client:
            return client.protocol_version

    if starts:
        assert asyncio.run(main()) == "2026-07-28"
        assert len(attempts) == 2
    else:
        with pytest.raises(ConnectionError, match="2025-11-25"):
            asyncio.run(main())
        assert len(attempts) == 1


# --- cancellation --------------------------------------------------------------------------


def test_a_request_given_up_closes_its_stream_and_posts_no_cancelled_notification():
    seen: list = []
    stopped: list = []

    async def answer(message, request):
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            stopped.append(message["id"])
            raise

    async def main():
        client = await started(answer, seen, timeout=0.5)
        try:
            with pytest.raises(RequestTimeout):
                await client.call_tool("slow", {})
            await asyncio.sleep(0.2)
            return list(stopped)  # before close(), which would stop every exchange anyway
        finally:
            await client.close()

    assert asyncio.run(main()) == [seen[1][0]["id"]]
    assert [m["method"] for m, _ in seen] == ["server/discover", "tools/call"]


# --- the envelope ----------------------------------------------------------------------------


def test_each_request_declares_the_client_s_name_and_the_capabilities_it_has_handlers_for():
    seen: list = []

    async def on_elicitation(params):
        return {"action": "decline"}

    async def main():
        client = await started(
            lambda message, request: {"resultType": "complete", "tools": []},
            seen,
            name="booking-host",
            on_elicitation=on_elicitation,
            roots=[{"uri": "file:///srv", "name": "srv"}],
        )
        try:
            await client.list_tools()
        finally:
            await client.close()

    asyncio.run(main())
    for message, _ in seen:  # server/discover and tools/list
        meta = message["params"]["_meta"]
        assert meta["io.modelcontextprotocol/clientInfo"]["name"] == "booking-host"
        assert set(meta["io.modelcontextprotocol/clientCapabilities"]) == {"elicitation", "roots"}
