"""Property-based fuzzing of the Streamable HTTP transport (lesson 11), both eras, with hypothesis.

Each example runs a fresh `McpHttpApp` in-process through `httpx2.ASGITransport`
(no sockets, so hundreds of examples take seconds); one fixed batch of nasty bodies
also goes to a real uvicorn server. Whatever is POSTed (arbitrary bytes, wrong
types, odd or repeated headers, duplicate ids, notifications between requests) the server

- answers with a status it documents, never 500, and a body that is strict JSON-RPC
  (an error object for every refusal), or 202 with no body for a notification;
- answers each request with its own id, as JSON or as an SSE stream;
- still answers a request on the same session afterwards.
"""

import asyncio
import collections
import json

import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import strict_loads
from tests.servers import fuzz_server
from wirelab import jsonrpc
from wirelab.mcp.stateless import request_headers, stamp
from wirelab.mcp.transports.http.server import SESSION_HEADER, McpHttpApp, serve_http

pytestmark = pytest.mark.timeout(120)

BOUNDED = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
DOCUMENTED_STATUSES = {200, 202, 400, 401, 403, 404, 405, 406, 409, 413, 415}
INITIALIZE = jsonrpc.request(
    "init",
    "initialize",
    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}},
)
ME = {"name": "fuzz", "version": "1"}


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
ids = st.sampled_from([0, 1, "1", "a", 2.5])
methods = st.sampled_from(
    ["ping", "tools/list", "tools/call", "resources/list", "initialize", "server/discover", "no/such"]
)
tool_calls = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["echo", "fail", "steps", "nope"]),
        "arguments": st.dictionaries(st.sampled_from(["text", "count"]), json_values, max_size=2),
    }
)
params = st.none() | tool_calls | st.dictionaries(st.text(max_size=6), json_values, max_size=3)
messages = (
    st.builds(jsonrpc.request, ids, methods, params)
    | st.builds(jsonrpc.notification, st.sampled_from(["notifications/initialized", "x"]))
    | st.builds(jsonrpc.result_response, ids, json_values)
    | st.fixed_dictionaries({"jsonrpc": json_values, "id": json_values, "method": json_values})
)
bodies = (
    messages.map(lambda m: json.dumps(m).encode())
    | st.binary(max_size=200)
    | st.sampled_from(
        [
            b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
            b"[]",
            b"",
            b'{"jsonrpc":"2.0","id":' + b"1" * 5000 + b',"method":"ping"}',
        ]
    )
)
header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30)


def answers(response: httpx2.Response) -> list[dict]:
    """The JSON-RPC messages in a response body: one JSON object, or each SSE event's data."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        return [strict_loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")]
    return [strict_loads(response.content)]


def check_answer(response: httpx2.Response, sent: bytes) -> None:
    """The properties every POST must satisfy, for the body `sent`."""
    assert response.status_code in DOCUMENTED_STATUSES, (response.status_code, response.text[:300])
    if response.status_code == 202:
        assert response.content == b""
        return
    received = answers(response)
    for message in received:
        jsonrpc.validate(message)
    final = received[-1]
    assert jsonrpc.is_response(final) and ("error" in final or response.status_code == 200)
    message, error = jsonrpc.receive(sent)
    if message is not None and jsonrpc.is_request(message):  # a refusal may come before the body is read
        assert final["id"] in ((message["id"],) if response.status_code == 200 else (message["id"], None))


async def exchange(post) -> None:
    """Open a session on a fresh app, run `post(http, session_id)`, then check the session is alive."""
    app = McpHttpApp(fuzz_server())
    transport = httpx2.ASGITransport(app=app.starlette)
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        opened = await http.post("/mcp", json=INITIALIZE, headers=ACCEPT)
        session = {SESSION_HEADER: opened.headers[SESSION_HEADER]}
        await post(http, session)
        after = await http.post("/mcp", json=jsonrpc.request("after", "ping"), headers={**ACCEPT, **session})
        assert after.status_code == 200 and after.json() == {"jsonrpc": "2.0", "id": "after", "result": {}}


@BOUNDED
@given(st.lists(bodies, min_size=1, max_size=6))
def test_any_body_in_a_session_gets_a_documented_status_and_a_json_rpc_answer(sent):
    async def post(http, session):
        for body in sent:
            check_answer(await http.post("/mcp", content=body, headers={**ACCEPT, **session}), body)

    asyncio.run(exchange(post))


@BOUNDED
@given(st.lists(st.builds(jsonrpc.request, ids, methods, params), min_size=1, max_size=6))
def test_stamped_2026_requests_get_a_documented_status_and_their_own_id(sent):
    async def post(http, session):
        for message in sent:
            stamped = stamp(message, ME)
            response = await http.post("/mcp", json=stamped, headers={**ACCEPT, **request_headers(stamped)})
            check_answer(response, json.dumps(stamped).encode())

    asyncio.run(exchange(post))


HEADER_NAMES = [
    "Accept",
    "Content-Type",
    SESSION_HEADER,
    "Origin",
    "MCP-Protocol-Version",
    "Mcp-Method",
    "Mcp-Name",
    "Authorization",
]
# a list of pairs, not a dict: a name may come twice, in any case (HTTP names are case-insensitive)
header_pairs = st.lists(
    st.tuples(
        st.sampled_from(HEADER_NAMES).flatmap(
            lambda name: st.sampled_from([name, name.lower(), name.upper()])
        ),
        header_text,
    ),
    min_size=1,
    max_size=5,
)


@BOUNDED
@given(header_pairs)
def test_odd_or_repeated_headers_are_refused_clearly_and_harm_no_session(pairs):
    """Each generated header replaces the client's own of that name. Every one of these names
    must come at most once: sent twice, whatever the values, it is a 400 that says so (a
    gateway reading the other copy would see another request)."""

    async def post(http, session):
        body = json.dumps(jsonrpc.request(5, "tools/list")).encode()
        fuzzed = collections.Counter(name.lower() for name, _ in pairs)
        own = [(name, value) for name, value in {**ACCEPT, **session}.items() if name.lower() not in fuzzed]
        response = await http.post("/mcp", content=body, headers=[*own, *pairs])
        check_answer(response, body)
        if max(fuzzed.values()) > 1:
            assert response.status_code == 400, (pairs, response.text)
            assert "appears more than once" in response.json()["error"]["message"]

    asyncio.run(exchange(post))


@BOUNDED
@given(st.lists(st.sampled_from(["echo", "steps", "fail"]), min_size=2, max_size=8))
def test_duplicate_ids_in_flight_each_get_their_own_answer(tools):
    async def post(http, session):
        calls = [
            jsonrpc.request(
                1, "tools/call", {"name": name, "arguments": ({"text": name} if name == "echo" else {})}
            )
            for name in tools
        ]
        responses = await asyncio.gather(
            *(http.post("/mcp", json=c, headers={**ACCEPT, **session}) for c in calls)
        )
        finals = [answers(r)[-1] for r in responses]
        assert [f["id"] for f in finals] == [1] * len(tools)
        assert [f["result"].get("isError", False) for f in finals] == [n == "fail" for n in tools]

    asyncio.run(exchange(post))


NASTY = [
    pytest.param(b"[" * 100_000, id="deep"),
    pytest.param(b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}', id="nan"),
    pytest.param(b"\xc3\x28", id="not-utf8"),
    pytest.param(b'{"jsonrpc":"2.0","id":' + b"1" * 5000 + b',"method":"ping"}', id="long-int"),
    pytest.param(b"[1, 2]", id="batch"),
]


@pytest.mark.parametrize("body", NASTY)
def test_the_real_server_answers_nasty_bodies_with_400_and_a_json_rpc_error(body):
    with serve_http(fuzz_server()) as running, httpx2.Client(timeout=10) as http:
        opened = http.post(running.url, json=INITIALIZE, headers=ACCEPT)
        session = {SESSION_HEADER: opened.headers[SESSION_HEADER]}
        response = http.post(running.url, content=body, headers={**ACCEPT, **session})
        assert response.status_code == 400, response.text[:200]
        assert strict_loads(response.content)["error"]["code"] in (-32700, -32600)
        assert (
            http.post(running.url, json=jsonrpc.request(2, "ping"), headers={**ACCEPT, **session}).json()[
                "result"
            ]
            == {}
        )
