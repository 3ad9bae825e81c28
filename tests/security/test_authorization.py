"""Security of MCP authorization: the protected server refuses tokens meant for others (wrong
audience, token passthrough), forged, expired or under-scoped tokens; tokens never reach a log;
the authorization server never redirects where a client did not register, and enforces PKCE."""

import logging
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
import jwt
import pytest

from wirelab.mcp.auth.authorization_server import AuthorizationServer
from wirelab.mcp.auth.discovery import parse_challenge
from wirelab.mcp.auth.local import serve_authorization_server, serve_protected
from wirelab.mcp.auth.pkce import pkce_pair, s256
from wirelab.mcp.auth.tokens import SigningKey, issue
from wirelab.mcp.example import build_server

pytestmark = pytest.mark.timeout(30)
REDIRECT = "http://127.0.0.1:33418/callback"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def world():
    """One authorization server; two servers it protects: our MCP server and an "upstream API"."""
    authority = AuthorizationServer(scopes_supported=["notes:read", "notes:write"])
    with (
        serve_authorization_server(authority),
        serve_protected(build_server(), authority, required_scopes={"notes:read"}) as mcp,
        serve_protected(build_server(), authority) as upstream,
    ):
        yield authority, mcp.url, upstream.url


def token_for(authority, audience, scopes=frozenset({"notes:read"}), **changes):
    options = {"issuer": authority.issuer, "subject": "ada", "client_id": "c", "lifetime": 60} | changes
    key = options.pop("key", authority.key)
    return issue(key, audience=audience, scopes=set(scopes), **options)


def call(url, token=None):
    headers = HEADERS | ({"Authorization": f"Bearer {token}"} if token else {})
    return httpx2.post(url, json=INITIALIZE, headers=headers)


def test_a_token_for_this_server_is_accepted(world):
    authority, mcp, _ = world
    assert call(mcp, token_for(authority, mcp)).status_code == 200


def test_no_token_gets_401_with_the_metadata_url_and_the_scopes(world):
    _, mcp, _ = world
    response = call(mcp)
    challenge = parse_challenge(response.headers["www-authenticate"])
    assert response.status_code == 401
    assert challenge["resource_metadata"].endswith("/.well-known/oauth-protected-resource/mcp")
    assert challenge["scope"] == "notes:read"
    metadata = httpx2.get(challenge["resource_metadata"]).json()
    assert metadata["resource"] == mcp and metadata["authorization_servers"]


def test_a_token_for_another_audience_is_refused_with_401(world):
    authority, mcp, _ = world
    response = call(mcp, token_for(authority, "http://127.0.0.1:9/some-other-server"))
    assert response.status_code == 401
    assert parse_challenge(response.headers["www-authenticate"])["error"] == "invalid_token"
    assert "another resource" in response.json()["error_description"]


def test_token_passthrough_is_refused_both_ways(world):
    """A server that forwarded its client's token upstream would be refused there, and a token
    minted for the upstream API is worthless here: each hop needs its own audience."""
    authority, mcp, upstream = world
    assert call(upstream, token_for(authority, mcp)).status_code == 401
    assert call(mcp, token_for(authority, upstream)).status_code == 401


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"key": SigningKey.generate()}, "signature"),
        ({"issuer": "http://127.0.0.1:9"}, "not issued by"),
        ({"lifetime": -120}, "expired"),
    ],
)
def test_forged_foreign_or_expired_tokens_are_refused(world, changes, why):
    authority, mcp, _ = world
    response = call(mcp, token_for(authority, mcp, **changes))
    assert response.status_code == 401 and why in response.json()["error_description"]


def test_garbage_is_refused_without_a_crash(world):
    _, mcp, _ = world
    for token in ("not-a-jwt", "a.b.c", "x" * 5000):
        assert call(mcp, token).status_code == 401


def test_a_token_without_the_needed_scope_gets_403_insufficient_scope(world):
    authority, mcp, _ = world
    response = call(mcp, token_for(authority, mcp, scopes={"notes:write"}))
    challenge = parse_challenge(response.headers["www-authenticate"])
    assert response.status_code == 403
    assert challenge["error"] == "insufficient_scope" and "notes:read" in challenge["scope"].split()


def test_tokens_never_reach_a_log(world, caplog):
    authority, mcp, _ = world
    good, wrong = token_for(authority, mcp), token_for(authority, "http://127.0.0.1:9/x")
    with caplog.at_level(logging.DEBUG):
        call(mcp, good)
        call(mcp, wrong)
        call(mcp, "secret-garbage-token")
    assert caplog.records  # the refusals were logged...
    for token in (good, wrong, "secret-garbage-token"):
        assert token not in caplog.text  # ...without the token
        assert token.split(".")[-1] not in caplog.text


# --- the authorization server ---


def register(authority, redirect_uris=(REDIRECT,)):
    return httpx2.post(
        f"{authority.issuer}/register",
        json={"client_name": "t", "redirect_uris": list(redirect_uris), "token_endpoint_auth_method": "none"},
    )


def authorize(
    authority, client_id, redirect_uri=REDIRECT, challenge="x" * 43, resource="http://127.0.0.1:1/mcp"
):
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": "s1",
        "resource": resource,
    }
    return httpx2.get(f"{authority.issuer}/authorize?{urlencode(query)}")


@pytest.mark.parametrize("uri", ["http://evil.example/cb", "javascript:alert(1)", "not a url"])
def test_registration_refuses_redirects_off_this_machine_without_https(world, uri):
    authority, _, _ = world
    response = register(authority, [uri])
    assert response.status_code == 400 and response.json()["error"] == "invalid_redirect_uri"


def test_no_open_redirect_a_redirect_uri_must_match_exactly(world):
    authority, _, _ = world
    client_id = register(authority).json()["client_id"]
    for uri in (
        "http://evil.example/callback",
        REDIRECT + "/../../evil",
        REDIRECT + "?next=http://evil.example",
    ):
        response = authorize(authority, client_id, redirect_uri=uri)
        assert response.status_code == 400 and "location" not in response.headers
    response = authorize(authority, "no-such-client")
    assert response.status_code == 400 and "location" not in response.headers
    assert authorize(authority, client_id).status_code == 302


def code_for(authority, client_id, verifier):
    location = authorize(authority, client_id, challenge=s256(verifier)).headers["location"]
    return parse_qs(urlsplit(location).query)["code"][0]


def exchange(authority, client_id, code, verifier):
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT,
        "code_verifier": verifier,
        "client_id": client_id,
        "resource": "http://127.0.0.1:1/mcp",
    }
    return httpx2.post(f"{authority.issuer}/token", data=form)


def test_a_stolen_code_is_useless_without_the_verifier_and_a_code_works_once(world):
    authority, _, _ = world
    client_id = register(authority).json()["client_id"]
    verifier, _ = pkce_pair()
    code = code_for(authority, client_id, verifier)
    stolen = exchange(authority, client_id, code, pkce_pair()[0])
    assert stolen.status_code == 400 and "PKCE" in stolen.json()["error_description"]
    code = code_for(authority, client_id, verifier)
    first = exchange(authority, client_id, code, verifier)
    assert first.status_code == 200 and first.headers["cache-control"] == "no-store"
    claims = jwt.decode(first.json()["access_token"], options={"verify_signature": False})
    assert claims["aud"] == "http://127.0.0.1:1/mcp" and claims["exp"] > time.time()
    assert exchange(authority, client_id, code, verifier).status_code == 400  # replayed


def test_pkce_is_required(world):
    authority, _, _ = world
    client_id = register(authority).json()["client_id"]
    location = authorize(authority, client_id, challenge="").headers["location"]
    assert parse_qs(urlsplit(location).query)["error"] == ["invalid_request"]
