"""Issue 24: who the client is, as 2026-07-28 says: a client ID metadata document first,
dynamic registration (with `application_type`) as the fallback, and credentials bound to
the authorization server that issued them.

The client's metadata document is served on this machine (`ClientDocuments`). Its `client_id`
is an https URL, as the draft requires; the authorization server is told where to fetch that
origin's documents here (`host_documents`), since it otherwise refuses to fetch from this
machine or a private network (SSRF).
"""

import asyncio
from contextlib import contextmanager

import jwt
import pytest

from wirelab.jsonrpc import JsonRpcError
from wirelab.mcp.auth import AuthorizationError, OAuth, approve_headlessly
from wirelab.mcp.auth.authorization_server import AuthorizationServer
from wirelab.mcp.auth.local import (
    ClientDocuments,
    host_documents,
    serve_authorization_server,
    serve_protected,
)
from wirelab.mcp.auth.resource import tools_call_needs
from wirelab.mcp.example import build_server
from wirelab.mcp.transports.http.client import connect_http

pytestmark = pytest.mark.timeout(60)

ORIGIN = "https://wirelab-client.test"
CLIENT_ID = f"{ORIGIN}/client.json"
REDIRECT = "http://127.0.0.1:33418/callback"
DOCUMENT = {
    "client_id": CLIENT_ID,
    "client_name": "wirelab test client",
    "redirect_uris": [REDIRECT],
    "grant_types": ["authorization_code", "refresh_token"],
    "response_types": ["code"],
    "token_endpoint_auth_method": "none",
    "application_type": "native",
}


class NoCimd(AuthorizationServer):
    """An older authorization server: no client ID metadata documents."""

    def metadata(self):
        return super().metadata() | {"client_id_metadata_document_supported": False}


@pytest.fixture
def documents():
    """Client metadata documents to serve on this machine, by path: `documents["/client.json"]`."""
    return ClientDocuments()


@contextmanager
def servers(documents, kind=AuthorizationServer):
    """An authority that fetches ORIGIN's documents from `documents`, and the notes server it protects."""
    authority = kind(scopes_supported=["notes:read", "notes:write"])
    with (
        serve_authorization_server(authority) as running,
        host_documents(authority, documents, ORIGIN),
        serve_protected(
            build_server(),
            authority,
            required_scopes={"notes:read"},
            scopes_for=tools_call_needs("notes:write"),
        ) as mcp,
    ):
        yield authority, running, mcp


def flow(url: str, auth: OAuth, seen: list) -> str:
    auth.wire.subscribe(seen.append)

    async def scenario():
        try:
            async with connect_http(url, auth=auth, timeout=10) as client:
                return (await client.call_tool("search_notes", {"query": "stdio"}))["content"][0]["text"]
        finally:
            await auth.aclose()

    return asyncio.run(scenario())


def test_a_client_with_a_metadata_document_uses_it_and_never_registers(documents):
    documents.documents["/client.json"] = DOCUMENT
    with servers(documents) as (authority, _, mcp):
        seen = []
        auth = OAuth(mcp.url, on_authorize=approve_headlessly, client_metadata_url=CLIENT_ID)
        assert "No note matches" not in flow(mcp.url, auth, seen)
    assert not any(m.method == "POST /register" for m in seen)
    assert authority.clients == {} and list(authority.documents) == [CLIENT_ID]
    claims = jwt.decode(auth.tokens.access_token, options={"verify_signature": False})
    assert claims["client_id"] == CLIENT_ID


@pytest.mark.parametrize(
    "change, why",
    [
        ({"client_id": f"{ORIGIN}/other.json"}, "client_id is not its own URL"),
        ({"redirect_uris": [REDIRECT + "?next=https://evil.example"]}, "no query"),
        ({"redirect_uris": ["http://127.0.0.1:1/elsewhere"]}, "did not register"),
        ({"token_endpoint_auth_method": "client_secret_basic"}, "public"),
    ],
)
def test_a_metadata_document_the_server_cannot_trust_gets_no_code(documents, change, why):
    documents.documents["/client.json"] = DOCUMENT | change
    asked = []

    async def browser(url):
        try:
            return await approve_headlessly(url)
        except AuthorizationError as e:
            asked.append(str(e))
            raise

    with servers(documents) as (authority, _, mcp), pytest.raises(JsonRpcError, match="400"):
        flow(mcp.url, OAuth(mcp.url, on_authorize=browser, client_metadata_url=CLIENT_ID), [])
    assert asked and authority.codes == {}


def test_the_server_does_not_fetch_a_document_from_this_machine_unless_told_where():
    authority = AuthorizationServer()
    for url in ["https://127.0.0.1/c.json", "https://localhost/c.json", "https://10.0.0.7/c.json"]:
        with pytest.raises(Exception, match="private address"):
            asyncio.run(authority.client(url))


def test_without_metadata_documents_the_client_registers_as_a_native_application(documents):
    with servers(documents, NoCimd) as (authority, _, mcp):
        seen = []
        flow(mcp.url, OAuth(mcp.url, on_authorize=approve_headlessly, client_metadata_url=CLIENT_ID), seen)
    registration = next(m for m in seen if m.method == "POST /register" and m.sender == "client")
    assert registration.payload["body"]["application_type"] == "native"
    assert [c.application_type for c in authority.clients.values()] == ["native"]


def test_credentials_are_kept_per_issuer_and_a_new_issuer_gets_a_new_registration(documents):
    second = NoCimd(scopes_supported=["notes:read", "notes:write"])

    async def twice(mcp, auth):
        try:
            async with connect_http(mcp.url, auth=auth, timeout=10) as client:
                await client.list_tools()
                protection = mcp.app.protection  # the server now sends its clients to the second server
                protection.issuer, protection.jwk = second.issuer, second.key.public_jwk()
                await client.list_tools()  # 401: a refresh at the first server does not help, so discover
        finally:
            await auth.aclose()

    with servers(documents, NoCimd) as (first, _, mcp), serve_authorization_server(second):
        auth = OAuth(mcp.url, on_authorize=approve_headlessly)
        asyncio.run(twice(mcp, auth))
    assert set(auth.identities) == {first.issuer, second.issuer}
    assert auth.identities[first.issuer].client_id in first.clients
    assert auth.identities[second.issuer].client_id in second.clients


def test_a_pre_registered_client_id_is_not_used_at_another_issuer():
    auth = OAuth("https://m.example/mcp", client_id="known", client_issuer="https://as.example")
    with pytest.raises(AuthorizationError, match="registered with https://as.example"):
        asyncio.run(auth.identify({}, "https://other.example"))
    assert asyncio.run(auth.identify({}, "https://as.example")).client_id == "known"
    asyncio.run(auth.aclose())
