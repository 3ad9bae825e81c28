"""Every bad request to our Streamable HTTP server gets a clear HTTP status and JSON-RPC error.

Each case is sent raw with httpx2; the body is checked for the JSON-RPC error
code and a message that says what to do. The server keeps serving afterwards.
"""

import httpx2
import pytest

from wirelab.jsonrpc import request
from wirelab.mcp.example import build_server
from wirelab.mcp.stateless import request_headers, stamp
from wirelab.mcp.transports.http.server import SESSION_HEADER, serve_http

pytestmark = pytest.mark.timeout(60)

ACCEPT = {"Accept": "application/json, text/event-stream"}
INITIALIZE = request(
    1,
    "initialize",
    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
)
ME = {"name": "test", "version": "1"}


@pytest.fixture(scope="module")
def running():
    with serve_http(build_server(), token=None) as running:
        yield running


@pytest.fixture
def http():
    with httpx2.Client(timeout=10) as http:
        yield http


@pytest.fixture
def session(running, http):
    return http.post(running.url, json=INITIALIZE, headers=ACCEPT).headers[SESSION_HEADER]


def refused(response: httpx2.Response, status: int, code: int) -> str:
    """Check the status and the JSON-RPC error code; return the error message."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["jsonrpc"] == "2.0" and body["error"]["code"] == code, body
    return body["error"]["message"]


def modern(method="tools/list", params=None):
    """A stamped 2026-07-28 request and the headers that match it."""
    call = stamp(request(7, method, params), ME)
    return call, {**ACCEPT, **request_headers(call)}


# --- 2025-11-25: sessions ---


def test_a_request_without_a_session_id_is_400(running, http):
    message = refused(http.post(running.url, json=request(2, "tools/list"), headers=ACCEPT), 400, -32600)
    assert "Mcp-Session-Id" in message and "initialize" in message


def test_a_request_with_an_unknown_session_id_is_404(running, http):
    response = http.post(
        running.url, json=request(2, "tools/list"), headers={**ACCEPT, SESSION_HEADER: "not-a-session"}
    )
    assert "initialize" in refused(response, 404, -32600)


def test_get_and_delete_without_a_session_are_400(running, http):
    refused(http.get(running.url, headers={"Accept": "text/event-stream"}), 400, -32600)
    refused(http.delete(running.url), 400, -32600)


def test_an_unknown_protocol_version_header_is_400_even_in_a_session(running, http, session):
    response = http.post(
        running.url,
        json=request(2, "tools/list"),
        headers={**ACCEPT, SESSION_HEADER: session, "MCP-Protocol-Version": "2024-01-01"},
    )
    # no legacy revision is called 2024-01-01, so the request counts as stateless and lacks _meta
    assert "_meta" in refused(response, 400, -32602)


def test_a_second_get_stream_for_one_session_is_409(running, http, session):
    headers = {"Accept": "text/event-stream", SESSION_HEADER: session}
    with http.stream("GET", running.url, headers=headers) as first:
        assert first.status_code == 200
        refused(http.get(running.url, headers=headers), 409, -32600)


# --- both eras: the HTTP envelope ---


@pytest.mark.parametrize("origin", ["http://evil.example.com", "null", "https://127.0.0.1.evil.com"])
def test_a_foreign_origin_is_403(running, http, origin):
    response = http.post(running.url, json=INITIALIZE, headers={**ACCEPT, "Origin": origin})
    assert "Origin" in refused(response, 403, -32600)


def test_a_local_origin_is_accepted(running, http):
    origin = running.url.rsplit("/", 1)[0]
    assert http.post(running.url, json=INITIALIZE, headers={**ACCEPT, "Origin": origin}).status_code == 200


def test_a_foreign_host_header_is_403(running, http):
    response = http.post(running.url, json=INITIALIZE, headers={**ACCEPT, "Host": "evil.example.com"})
    assert "Host" in refused(response, 403, -32600)


@pytest.mark.parametrize("accept", ["application/json", "text/event-stream", ""])
def test_a_post_that_does_not_accept_both_json_and_sse_is_406(running, http, accept):
    response = http.post(running.url, json=INITIALIZE, headers={"Accept": accept})
    assert "Accept" in refused(response, 406, -32600)


def test_a_get_that_does_not_accept_sse_is_406(running, http, session):
    response = http.get(running.url, headers={"Accept": "application/json", SESSION_HEADER: session})
    refused(response, 406, -32600)


def test_a_body_that_is_not_json_is_400_parse_error_with_id_null(running, http):
    response = http.post(
        running.url,
        content=b'{"jsonrpc": "2.0", "id": 1,',
        headers={**ACCEPT, "Content-Type": "application/json"},
    )
    refused(response, 400, -32700)
    assert response.json()["id"] is None


def test_a_batch_is_400_invalid_request(running, http):
    response = http.post(running.url, json=[INITIALIZE], headers=ACCEPT)
    assert "batch" in refused(response, 400, -32600)


def test_a_message_with_a_wrong_jsonrpc_version_is_400_with_its_id(running, http):
    response = http.post(running.url, json={**INITIALIZE, "jsonrpc": "1.0"}, headers=ACCEPT)
    refused(response, 400, -32600)
    assert response.json()["id"] == 1


def test_a_body_that_is_not_declared_json_is_415(running, http):
    response = http.post(running.url, content=b"{}", headers={**ACCEPT, "Content-Type": "text/plain"})
    refused(response, 415, -32600)


def test_a_body_over_the_limit_is_413(running, http):
    huge = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"a" * (5 << 20) + b'"}}'
    response = http.post(running.url, content=huge, headers={**ACCEPT, "Content-Type": "application/json"})
    refused(response, 413, -32600)


def test_an_unsupported_http_method_is_405(running, http):
    assert http.put(running.url, json=INITIALIZE).status_code == 405


# --- 2026-07-28: headers against the body ---


def test_a_method_header_that_differs_from_the_body_is_400_header_mismatch(running, http):
    call, headers = modern()
    response = http.post(running.url, json=call, headers={**headers, "Mcp-Method": "tools/call"})
    assert "Mcp-Method" in refused(response, 400, -32020)


def test_a_name_header_that_differs_from_the_body_is_400_header_mismatch(running, http):
    call, headers = modern("tools/call", {"name": "note_stats", "arguments": {}})
    response = http.post(running.url, json=call, headers={**headers, "Mcp-Name": "add_note"})
    assert "Mcp-Name" in refused(response, 400, -32020)


def test_a_missing_name_header_is_400_header_mismatch(running, http):
    call, headers = modern("resources/read", {"uri": "notes://index"})
    del headers["Mcp-Name"]
    assert "required" in refused(http.post(running.url, json=call, headers=headers), 400, -32020)


def test_a_version_header_that_differs_from_the_meta_is_400_header_mismatch(running, http):
    call, headers = modern()
    response = http.post(running.url, json=call, headers={**headers, "MCP-Protocol-Version": "2025-11-25"})
    assert "MCP-Protocol-Version" in refused(response, 400, -32020)


def test_a_name_header_in_base64_is_decoded_before_it_is_compared(running, http):
    call, headers = modern("tools/call", {"name": "note_stats", "arguments": {}})
    ok = http.post(running.url, json=call, headers={**headers, "Mcp-Name": "=?base64?bm90ZV9zdGF0cw==?="})
    assert ok.status_code == 200
    broken = http.post(running.url, json=call, headers={**headers, "Mcp-Name": "=?base64?!!!?="})
    refused(broken, 400, -32020)


def test_meta_without_client_capabilities_is_400_invalid_params(running, http):
    call, headers = modern()
    del call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    assert "clientCapabilities" in refused(http.post(running.url, json=call, headers=headers), 400, -32602)


def test_a_modern_header_on_a_request_without_meta_is_400_invalid_params(running, http):
    response = http.post(
        running.url,
        json=request(7, "tools/list"),
        headers={**ACCEPT, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"},
    )
    refused(response, 400, -32602)


def test_an_unsupported_version_is_400_and_names_the_supported_ones(running, http):
    call, headers = modern()
    call["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2099-01-01"
    response = http.post(running.url, json=call, headers={**headers, "MCP-Protocol-Version": "2099-01-01"})
    refused(response, 400, -32022)
    assert response.json()["error"]["data"] == {
        "supported": ["2026-07-28", "2025-11-25", "2025-06-18"],
        "requested": "2099-01-01",
    }


@pytest.mark.parametrize("method", ["nothing/here", "initialize", "ping", "logging/setLevel"])
def test_an_unknown_or_removed_method_is_404_method_not_found(running, http, method):
    call, headers = modern(method)
    refused(http.post(running.url, json=call, headers=headers), 404, -32601)


@pytest.mark.parametrize("verb", ["GET", "DELETE"])
def test_get_and_delete_in_the_stateless_era_are_405(running, http, verb):
    response = http.request(
        verb, running.url, headers={"Accept": "text/event-stream", "MCP-Protocol-Version": "2026-07-28"}
    )
    refused(response, 405, -32600)
    assert response.headers["allow"] == "POST"


# --- the bearer token ---


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", "Basic c2VjcmV0"])
def test_a_missing_or_wrong_bearer_token_is_401(http, authorization):
    with serve_http(build_server(), token="secret") as guarded:
        headers = {**ACCEPT, **({"Authorization": authorization} if authorization else {})}
        response = http.post(guarded.url, json=INITIALIZE, headers=headers)
        good = http.post(guarded.url, json=INITIALIZE, headers={**ACCEPT, "Authorization": "Bearer secret"})
    refused(response, 401, -32600)
    assert response.headers["www-authenticate"] == "Bearer"
    assert good.status_code == 200


def test_a_session_goes_on_working_after_bad_requests(running, http, session):
    headers = {**ACCEPT, SESSION_HEADER: session}
    http.post(running.url, content=b"{oops", headers={**headers, "Content-Type": "application/json"})
    http.post(running.url, json=[request(2, "tools/list")], headers=headers)
    response = http.post(running.url, json=request(3, "tools/list"), headers=headers)
    assert response.status_code == 200 and len(response.json()["result"]["tools"]) == 4
