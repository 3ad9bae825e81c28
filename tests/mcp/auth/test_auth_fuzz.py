"""Property-based fuzzing of lesson 15's servers with issue 23's inputs and their neighbours.

Hypothesis generates:
- PKCE verifiers of any length and alphabet (the unreserved set, its neighbours `+ / = %`,
  spaces, non-ASCII letters, lone surrogates), redeemed against a code whose challenge is
  their SHA-256 computed as an attacker would: a code is redeemed if and only if the
  verifier is one RFC 7636 allows; and challenges of any text, accepted only if they could
  be an S256 value;
- redirect URIs built from schemes, hosts, paths, queries and fragments: one with a query
  or a fragment never registers, and one that registers gets back exactly itself with
  `code`, `state` and `iss` and nothing else;
- unauthenticated bodies to the protected MCP server, declared up to 1 TiB or chunked in
  random sizes, sent in pieces with pauses (slow clients): every one is answered 401 from
  the headers, before the server waits for the rest of the body.
"""

from __future__ import annotations

import base64
import hashlib
import socket
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import read_until_closed, status_of
from tests.mcp.conftest import protected_servers
from wirelab.mcp.auth.authorization_server import AuthorizationServer, Grant, OAuthError
from wirelab.mcp.auth.pkce import valid_challenge, valid_verifier

pytestmark = pytest.mark.timeout(180)

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
NEIGHBOURS = "+/=% \t\n?&#éß漢\ud800"
MiB = 1024 * 1024


def attacker_s256(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


verifiers = st.one_of(
    st.text(alphabet=UNRESERVED, min_size=40, max_size=131),
    st.text(alphabet=UNRESERVED + NEIGHBOURS, min_size=0, max_size=140),
    st.builds(
        lambda head, odd, tail: head + odd + tail,
        st.text(alphabet=UNRESERVED, min_size=20, max_size=60),
        st.sampled_from(list(NEIGHBOURS)),
        st.text(alphabet=UNRESERVED, min_size=20, max_size=60),
    ),
)


@settings(max_examples=300, deadline=None)
@given(verifier=verifiers)
def test_a_code_is_redeemed_exactly_when_its_verifier_is_one_rfc_7636_allows(verifier):
    authority = AuthorizationServer()
    client = authority.register({"redirect_uris": ["https://app.example/cb"]})
    authority.codes["c"] = Grant(
        client.client_id, set(), "https://m.example/mcp", "ada", "https://app.example/cb"
    )
    authority.codes["c"].challenge = attacker_s256(verifier)
    form = {"code": "c", "code_verifier": verifier, "redirect_uri": "https://app.example/cb"}
    try:
        authority.exchange_code(client, form)
        redeemed = True
    except OAuthError as e:
        assert e.error == "invalid_grant"
        redeemed = False
    assert redeemed == valid_verifier(verifier)


@settings(max_examples=300, deadline=None)
@given(challenge=st.one_of(st.text(max_size=60), verifiers.map(attacker_s256)))
def test_only_a_challenge_that_could_be_an_s256_value_is_accepted(challenge):
    accepted = valid_challenge(challenge)
    assert accepted == (len(challenge) == 43 and set(challenge) <= set(UNRESERVED) - {".", "~"})


redirect_uris = st.builds(
    lambda scheme, host, path, query, fragment: f"{scheme}://{host}{path}{query}{fragment}",
    st.sampled_from(["https", "http"]),
    st.sampled_from(["127.0.0.1:33418", "localhost:9", "[::1]:8", "app.example", "evil.example"]),
    st.sampled_from(["", "/", "/cb", "/a/b", "/cb%3Fcode%3Dx"]),
    st.sampled_from(["", "?", "?next=https://evil.example/land", "?code=planted", "?a=1&b=2"]),
    st.sampled_from(["", "#", "#frag"]),
)


@pytest.fixture(scope="module")
def servers():
    with protected_servers() as servers, httpx2.Client(timeout=10) as http:
        yield *servers, http


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(uri=redirect_uris)
def test_a_redirect_uri_with_a_query_never_registers_and_one_that_does_gets_exactly_its_code(servers, uri):
    authority, mcp, http = servers
    try:
        client = authority.register({"redirect_uris": [uri], "token_endpoint_auth_method": "none"})
    except OAuthError:
        assert "?" in uri or "#" in uri or uri.startswith(("http://app.", "http://evil."))
        return
    assert "?" not in uri and "#" not in uri
    query = {"response_type": "code", "client_id": client.client_id, "redirect_uri": uri, "state": "s"}
    query |= {"code_challenge": "a" * 43, "code_challenge_method": "S256", "resource": mcp.url}
    location = http.get(f"{authority.issuer}/authorize?{urlencode(query)}").headers["location"]
    target, _, params = location.partition("?")
    assert target == uri and set(parse_qs(params)) == {"code", "state", "iss"}
    assert urlsplit(location).netloc == urlsplit(uri).netloc


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    declared=st.one_of(st.none(), st.integers(min_value=0, max_value=2**40)),
    pieces=st.lists(st.integers(min_value=1, max_value=64 * 1024), min_size=1, max_size=6),
    pause=st.sampled_from([0, 0.05, 0.2]),
    tool_call=st.booleans(),
)
def test_a_body_without_a_token_is_answered_401_from_the_headers_however_it_comes(
    servers, declared, pieces, pause, tool_call
):
    _, mcp, _ = servers
    framing = "Transfer-Encoding: chunked" if declared is None else f"Content-Length: {declared}"
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{mcp.port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\n{framing}\r\n\r\n"
    ).encode()
    start = b'{"jsonrpc":"2.0","id":1,"method":"tools/call"' if tool_call else b'{"jsonrpc":"2.0"'
    with socket.create_connection((mcp.host, mcp.port)) as sock:
        sock.sendall(head)
        for size in pieces:
            piece = (start + b" " * size)[:size]
            try:
                sock.sendall(f"{size:x}\r\n".encode() + piece + b"\r\n" if declared is None else piece)
            except OSError:
                break  # the server answered and closed: it stopped reading
            time.sleep(pause)
        reply = read_until_closed(sock, wait=10)  # the body is never finished: only a refusal ends it
    assert reply and status_of(reply) == 401
