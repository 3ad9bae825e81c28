"""Lab 11's rules agree with the package: the check tables are what wirelab.mcp.transports.http.server
and stateless do."""

import httpx2
import pytest

from wirelab.check.lesson11 import HEADER_CASES, ORIGIN_CASES
from wirelab.jsonrpc import JsonRpcError
from wirelab.mcp.example import build_server
from wirelab.mcp.stateless import check_envelope, check_headers
from wirelab.mcp.transports.http.server import serve_http


@pytest.mark.parametrize(("body", "headers", "wrong", "why"), HEADER_CASES)
def test_every_header_case_of_the_lab_is_judged_the_same_by_the_package(body, headers, wrong, why):
    sent = httpx2.Headers(headers)  # case-insensitive, like a server's request headers
    if wrong is None:
        check_headers(body, check_envelope(body), sent)
        return
    with pytest.raises(JsonRpcError, match=wrong) as raised:
        check_headers(body, check_envelope(body), sent)
    assert raised.value.code == -32020


@pytest.fixture(scope="module")
def running():
    with serve_http(build_server()) as running:
        yield running


@pytest.mark.parametrize(
    ("headers", "allowed", "want", "why"),
    [case for case in ORIGIN_CASES if case[1] == {"127.0.0.1", "localhost"}],
)
def test_every_loopback_origin_case_of_the_lab_gets_the_same_answer_from_the_server(
    running, headers, allowed, want, why
):
    response = httpx2.post(
        running.url,
        headers={**headers, "Accept": "application/json, text/event-stream"},
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
    )
    assert (response.status_code == 403) == (want == 403), why
