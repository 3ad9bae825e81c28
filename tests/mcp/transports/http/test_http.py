"""Our HTTP client and our HTTP server (wirelab.mcp.transports.http, and stateless), both eras.

The same example server is served once; every test opens its own clients.
"""

import asyncio

import httpx2
import pytest

from wirelab.jsonrpc import JsonRpcError, notification, request
from wirelab.mcp.client import Client
from wirelab.mcp.server import ServerTool
from wirelab.mcp.stateless import (
    SERVER_INFO_KEY,
    decode_header_value,
    encode_header_value,
    request_headers,
    stamp,
)
from wirelab.mcp.transports.http.client import HttpTransport, StatelessClient, connect_http
from wirelab.mcp.transports.http.server import SESSION_HEADER

pytestmark = pytest.mark.timeout(60)

ERAS = ["2025-11-25", "2026-07-28"]
ACCEPT = {"Accept": "application/json, text/event-stream"}
INITIALIZE = request(
    1,
    "initialize",
    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
)
ME = {"name": "test", "version": "1"}


def initialize(http: httpx2.Client, url: str) -> str:
    response = http.post(url, json=INITIALIZE, headers=ACCEPT)
    assert response.status_code == 200
    return response.headers[SESSION_HEADER]


@pytest.mark.parametrize("era", ERAS)
def test_our_client_lists_and_calls_tools_in_both_eras(running, era):
    async def use():
        async with connect_http(running.url, era=era) as client:
            return (
                client.protocol_version,
                client.server_info,
                await client.list_tools(),
                await client.call_tool("search_notes", {"query": "stdout"}),
            )

    version, info, tools, result = asyncio.run(use())
    assert version == era
    assert info["name"] == "wirelab-notes"
    assert [t["name"] for t in tools] == ["search_notes", "add_note", "note_stats", "rebuild_index"]
    assert result["content"] == [{"type": "text", "text": "stdio: The stdio transport"}]


@pytest.mark.parametrize("era", ERAS)
def test_progress_notifications_arrive_before_the_result_in_both_eras(running, era):
    async def use():
        seen = []
        async with connect_http(running.url, era=era) as client:
            result = await client.call_tool("rebuild_index", {"passes": 3}, on_progress=seen.append)
        return seen, result

    seen, result = asyncio.run(use())
    assert [p["progress"] for p in seen] == [1, 2, 3]
    assert result["content"][0]["text"] == "Index rebuilt in 3 passes."


def test_only_the_stateless_era_marks_results_with_result_type(running):
    async def call(era):
        async with connect_http(running.url, era=era) as client:
            return await client.call_tool("note_stats")

    assert "resultType" not in asyncio.run(call("2025-11-25"))
    modern = asyncio.run(call("2026-07-28"))
    assert modern["resultType"] == "complete"
    assert modern["_meta"][SERVER_INFO_KEY]["name"] == "wirelab-notes"


def test_a_request_that_sends_nothing_first_is_answered_with_json(running):
    with httpx2.Client() as http:
        session = initialize(http, running.url)
        response = http.post(
            running.url, json=request(2, "tools/list"), headers={**ACCEPT, SESSION_HEADER: session}
        )
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["id"] == 2


def test_a_request_whose_handler_sends_progress_is_answered_with_an_sse_stream(running):
    call = request(
        2,
        "tools/call",
        {"name": "rebuild_index", "arguments": {"passes": 2}, "_meta": {"progressToken": "p"}},
    )
    with httpx2.Client() as http:
        session = initialize(http, running.url)
        with http.stream(
            "POST", running.url, json=call, headers={**ACCEPT, SESSION_HEADER: session}
        ) as response:
            content_type = response.headers["content-type"]
            events = [event.json() for event in httpx2.EventSource(response)]
    assert content_type.startswith("text/event-stream")
    assert [e.get("method") for e in events[:2]] == ["notifications/progress"] * 2
    assert events[-1]["id"] == 2 and "result" in events[-1]


def test_a_posted_notification_gets_202_and_no_body(running):
    with httpx2.Client() as http:
        session = initialize(http, running.url)
        response = http.post(
            running.url,
            json=notification("notifications/initialized"),
            headers={**ACCEPT, SESSION_HEADER: session},
        )
    assert (response.status_code, response.content) == (202, b"")


def test_each_initialize_mints_a_new_unguessable_session_id(running):
    with httpx2.Client() as http:
        first, second = initialize(http, running.url), initialize(http, running.url)
    assert first != second
    assert len(first) >= 40  # 32 random bytes, base64url


def test_delete_ends_the_session_and_its_id_is_then_unknown(running):
    with httpx2.Client() as http:
        session = initialize(http, running.url)
        ended = http.delete(running.url, headers={SESSION_HEADER: session})
        after = http.post(
            running.url, json=request(2, "tools/list"), headers={**ACCEPT, SESSION_HEADER: session}
        )
    assert ended.status_code == 204
    assert after.status_code == 404


def test_a_list_changed_notification_reaches_the_get_stream(running):
    async def use():
        changed = asyncio.Event()
        async with connect_http(running.url) as client:
            client.on_notification("notifications/tools/list_changed", lambda params: changed.set())
            await asyncio.sleep(0.2)  # the GET stream opens after initialize
            await asyncio.to_thread(add_and_remove_a_tool, running.app.server)
            await asyncio.wait_for(changed.wait(), 10)
        return changed.is_set()

    assert asyncio.run(use())


def add_and_remove_a_tool(server):
    tool = ServerTool("later", "Added later.", {"type": "object", "properties": {}}, lambda: "x")
    server.add_tool(tool)
    server.remove_tool("later")


def test_the_stateless_era_answers_with_no_session(running):
    call = stamp(request(1, "tools/list"), ME)
    with httpx2.Client() as http:
        response = http.post(running.url, json=call, headers={**ACCEPT, **request_headers(call)})
    assert response.status_code == 200
    assert SESSION_HEADER not in response.headers
    assert response.json()["result"]["cacheScope"] == "public"


def test_server_discover_names_both_eras_and_what_the_server_offers(running):
    async def use():
        async with connect_http(running.url, era="2026-07-28") as client:
            return await client.discover()

    result = asyncio.run(use())
    assert result["supportedVersions"][:2] == ["2026-07-28", "2025-11-25"]
    assert set(result["capabilities"]) >= {"tools", "resources", "prompts"}


def test_a_resource_that_is_not_there_is_32002_before_2026_and_32602_after(running):
    async def read(era):
        async with connect_http(running.url, era=era) as client:
            with pytest.raises(JsonRpcError) as raised:
                await client.read_resource("notes://note/nowhere")
        return raised.value.code

    assert asyncio.run(read("2025-11-25")) == -32002
    assert asyncio.run(read("2026-07-28")) == -32602


@pytest.mark.parametrize("era", ERAS)
def test_both_sides_publish_every_message_on_their_wire(running, era):
    client_seen, server_seen = [], []
    unsubscribe = running.wire.subscribe(server_seen.append)

    async def use():
        transport = HttpTransport(running.url, era=era, listen=False)
        transport.wire.subscribe(client_seen.append)
        client_class = StatelessClient if era == "2026-07-28" else Client
        async with client_class(transport) as client:
            await client.call_tool("note_stats")

    try:
        asyncio.run(use())
    finally:
        unsubscribe()
    calls = [m for m in client_seen if m.method == "tools/call"]
    assert calls and calls[0].channel == "mcp-http" and calls[0].sender == "client"
    answers = [m for m in client_seen if m.exchange == calls[0].exchange and m.sender == "server"]
    assert answers[0].kind == "response" and answers[0].status == 200
    assert any(m.method == "tools/call" and m.sender == "client" for m in server_seen)


@pytest.mark.parametrize(
    ("value", "header"),
    [
        ("get_weather", "get_weather"),
        ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        (" padded ", "=?base64?IHBhZGRlZCA=?="),
        ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
    ],
)
def test_header_values_http_cannot_carry_are_sent_in_base64_and_decoded_back(value, header):
    assert encode_header_value(value) == header
    assert decode_header_value(header) == value
