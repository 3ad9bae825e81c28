"""MCP authorization end to end on this machine: our OAuth client, our authorization server,
our HTTP MCP server as a protected resource; and the discovery chain's URL orders."""

import asyncio
import base64
import hashlib
import string

import pytest

from wirelab.jsonrpc import JsonRpcError
from wirelab.mcp.auth import AuthorizationError, OAuth, approve_headlessly, pkce_pair
from wirelab.mcp.auth.discovery import (
    authorization_server_metadata_urls,
    parse_challenge,
    resource_matches,
    resource_metadata_urls,
)
from wirelab.mcp.auth.pkce import s256
from wirelab.mcp.transports.http.client import connect_http

pytestmark = pytest.mark.timeout(30)


# --- discovery, unit by unit ---


def test_a_challenge_is_parsed_with_quoted_and_bare_parameters():
    header = 'Bearer resource_metadata="https://m.example/prm", scope="a b", error=insufficient_scope'
    assert parse_challenge(header) == {
        "scheme": "bearer",
        "resource_metadata": "https://m.example/prm",
        "scope": "a b",
        "error": "insufficient_scope",
    }
    assert parse_challenge("") == {"scheme": ""}


def test_protected_resource_metadata_is_looked_for_at_the_headers_url_else_at_the_well_known_ones():
    assert resource_metadata_urls("https://m.example/public/mcp", "https://m.example/custom.json") == [
        "https://m.example/custom.json"
    ]
    assert resource_metadata_urls("https://m.example/public/mcp") == [
        "https://m.example/.well-known/oauth-protected-resource/public/mcp",
        "https://m.example/.well-known/oauth-protected-resource",
    ]
    assert resource_metadata_urls("https://m.example") == [
        "https://m.example/.well-known/oauth-protected-resource"
    ]


def test_authorization_server_metadata_is_looked_for_in_the_specs_order():
    assert authorization_server_metadata_urls("https://a.example/tenant1") == [
        "https://a.example/.well-known/oauth-authorization-server/tenant1",
        "https://a.example/.well-known/openid-configuration/tenant1",
        "https://a.example/tenant1/.well-known/openid-configuration",
    ]
    assert authorization_server_metadata_urls("https://a.example/") == [
        "https://a.example/.well-known/oauth-authorization-server",
        "https://a.example/.well-known/openid-configuration",
    ]


@pytest.mark.parametrize(
    ("resource", "matches"),
    [
        ("https://m.example/mcp", True),
        ("https://M.example/mcp/", True),
        ("https://m.example", True),
        ("https://m.example/mc", False),
        ("https://evil.example/mcp", False),
        ("http://m.example/mcp", False),
    ],
)
def test_only_metadata_that_names_this_server_is_trusted(resource, matches):
    assert resource_matches("https://m.example/mcp", resource) is matches


def test_the_pkce_challenge_is_the_unpadded_base64url_sha256_of_the_verifier():
    # (the conformance suite checks the same against Node's crypto in every auth scenario)
    verifier, challenge = pkce_pair()
    assert 43 <= len(verifier) <= 128 and challenge == s256(verifier)
    assert len(challenge) == 43 and set(challenge) <= set(string.ascii_letters + string.digits + "-_")
    assert base64.urlsafe_b64decode(challenge + "=") == hashlib.sha256(verifier.encode()).digest()
    assert pkce_pair()[0] != verifier


# --- the whole flow ---


async def use(url, auth):
    try:
        async with connect_http(url, auth=auth, timeout=10) as client:
            names = [tool["name"] for tool in await client.list_tools()]
            result = await client.call_tool("search_notes", {"query": "stdio"})
            return names, result
    finally:
        await auth.aclose()


def test_a_client_discovers_registers_authorizes_and_steps_up(protected):
    authority, mcp = protected
    auth = OAuth(mcp.url, on_authorize=approve_headlessly)
    seen = []
    auth.wire.subscribe(seen.append)
    names, result = asyncio.run(use(mcp.url, auth))
    assert "search_notes" in names and not result.get("isError")
    assert auth.authorizations == 2  # once to read, once more (step-up) to call
    assert auth.tokens.scopes == {"notes:read", "notes:write"}
    assert len(authority.clients) == 1  # registered once (RFC 7591), then reused
    steps = [m.method for m in seen if m.sender == "client"]
    assert steps[:5] == [
        "GET /.well-known/oauth-protected-resource/mcp",
        "GET /.well-known/oauth-authorization-server",
        "POST /register",
        "browser: authorize",
        "POST /token",
    ]
    challenges = [m.status for m in seen if m.method == "challenge"]
    assert challenges == [401, 403]


def test_the_token_names_this_server_as_its_audience_and_resource(protected):
    authority, mcp = protected
    asked = []

    async def approve(url):
        asked.append(url)
        return await approve_headlessly(url)

    auth = OAuth(mcp.url, on_authorize=approve)
    asyncio.run(use(mcp.url, auth))
    assert all(f"resource={mcp.url.replace(':', '%3A').replace('/', '%2F')}" in url for url in asked)
    claims = __import__("jwt").decode(auth.tokens.access_token, options={"verify_signature": False})
    assert claims["aud"] == mcp.url and claims["iss"] == authority.issuer


def test_an_expired_token_is_refreshed_without_asking_the_user_again(protected):
    authority, mcp = protected
    auth = OAuth(mcp.url, on_authorize=approve_headlessly)
    asyncio.run(use(mcp.url, OAuth(mcp.url, on_authorize=approve_headlessly)))  # warm-up: another client
    authority.token_lifetime = 1  # tokens that expire at once (within the client's 10 s margin)

    async def twice():
        try:
            async with connect_http(mcp.url, auth=auth, timeout=10) as client:
                await client.list_tools()
                first = auth.tokens.refresh_token
                await client.list_tools()
                return first, auth.tokens.refresh_token
        finally:
            await auth.aclose()

    first, second = asyncio.run(twice())
    assert auth.authorizations == 1 and first != second  # refreshed (and the refresh token rotated)


def test_a_user_who_refuses_leaves_a_clear_error(protected):
    authority, mcp = protected
    authority.approve = lambda client_id, scopes, resource: None
    with pytest.raises(JsonRpcError, match="access_denied"):
        asyncio.run(use(mcp.url, OAuth(mcp.url, on_authorize=approve_headlessly)))


def test_without_a_way_to_ask_the_user_the_client_says_what_to_pass(protected):
    _, mcp = protected
    with pytest.raises(JsonRpcError, match="on_authorize"):
        asyncio.run(use(mcp.url, OAuth(mcp.url)))


def test_a_client_without_auth_gets_the_challenge_in_its_error(protected):
    _, mcp = protected

    async def scenario():
        async with connect_http(mcp.url, timeout=10):
            pass

    with pytest.raises(JsonRpcError, match=r"HTTP 401.*resource_metadata"):
        asyncio.run(scenario())


# --- identity, in the specification's order ---

CIMD = "https://app.example/client.json"


def identify(metadata, **options):
    auth = OAuth("https://m.example/mcp", **options)

    async def scenario():
        try:
            return await auth.identify(metadata)
        finally:
            await auth.aclose()

    return asyncio.run(scenario())


def test_a_pre_registered_client_id_comes_first_then_a_metadata_document():
    both = {"client_id_metadata_document_supported": True, "registration_endpoint": "https://a.example/r"}
    chosen = identify(both, client_id="known", client_secret="s", client_metadata_url=CIMD)
    assert (chosen.client_id, chosen.method) == ("known", "client_secret_basic")
    assert identify(both, client_metadata_url=CIMD).client_id == CIMD
    with pytest.raises(ValueError, match="https"):
        OAuth("https://m.example/mcp", client_metadata_url="http://app.example/client.json")


def test_a_pre_registered_secret_goes_in_the_form_when_basic_is_not_offered():
    metadata = {"token_endpoint_auth_methods_supported": ["client_secret_post"]}
    assert identify(metadata, client_id="known", client_secret="s").method == "client_secret_post"


def test_with_no_way_to_register_the_client_says_to_pre_register():
    with pytest.raises(AuthorizationError, match="client_id"):
        identify({"client_id_metadata_document_supported": False}, client_metadata_url=CIMD)


def test_a_machine_client_gets_a_token_with_client_credentials(protected):
    authority, mcp = protected
    registered = authority.register(
        {"redirect_uris": ["https://app.example/cb"], "token_endpoint_auth_method": "client_secret_basic"}
    )
    auth = OAuth(
        mcp.url, grant="client_credentials", client_id=registered.client_id, client_secret=registered.secret
    )

    async def scenario():
        try:
            async with connect_http(mcp.url, auth=auth, timeout=10) as client:
                return await client.list_tools()
        finally:
            await auth.aclose()

    assert asyncio.run(scenario()) and auth.tokens.scopes == {"notes:read"}
