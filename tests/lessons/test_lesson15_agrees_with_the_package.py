"""Lab 15's tables and verdicts agree with the package: wirelab.mcp.auth.discovery gives the same URL
lists, and wirelab.mcp.auth.resource answers each of the lab's tokens with the same status."""

import asyncio

import pytest
from starlette.requests import Request

from wirelab.check.lesson15 import (
    ISSUER,
    REQUIRED,
    RESOURCE,
    RESOURCE_METADATA_CASES,
    SERVER_METADATA_CASES,
    token_cases,
)
from wirelab.mcp.auth.discovery import (
    authorization_server_metadata_urls,
    parse_challenge,
    resource_metadata_urls,
)
from wirelab.mcp.auth.resource import ProtectedResource
from wirelab.mcp.auth.tokens import SigningKey


@pytest.mark.parametrize(("server_url", "header_url", "want", "why"), RESOURCE_METADATA_CASES)
def test_the_labs_resource_metadata_urls_are_the_packages(server_url, header_url, want, why):
    assert resource_metadata_urls(server_url, header_url) == want, why


@pytest.mark.parametrize(("issuer", "want", "why"), SERVER_METADATA_CASES)
def test_the_labs_server_metadata_urls_are_the_packages(issuer, want, why):
    assert authorization_server_metadata_urls(issuer) == want, why


KEY = SigningKey.generate()
WHATS = [what for what, _, _ in token_cases(KEY)]


# The tokens are minted when the test runs, not at collection: a whole suite can take longer
# than their five-minute lifetime, and xdist workers must collect the same ids.
@pytest.mark.parametrize("what", WHATS)
def test_the_protected_server_answers_each_lab_token_as_the_lab_says(what):
    token, verdict = next((token, verdict) for name, token, verdict in token_cases(KEY) if name == what)
    protection = ProtectedResource(ISSUER, KEY.public_jwk(), resource=RESOURCE, required_scopes=set(REQUIRED))
    headers = [(b"authorization", f"Bearer {token}".encode())] if token else []
    request = Request(
        {"type": "http", "method": "POST", "path": "/mcp", "headers": headers, "query_string": b""}
    )
    refused = asyncio.run(protection.check(request))
    if verdict == (200, None):
        assert refused is None, what
        return
    challenge = parse_challenge(refused.headers["www-authenticate"])
    assert (refused.status_code, challenge.get("error")) == verdict, what
