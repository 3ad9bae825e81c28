"""Issue 23 §2: the authorization server's rules, each attack of the red-team run refused.

PKCE as RFC 7636 says (before the fix, a code whose challenge was S256 of the empty string
was redeemed with no verifier, and a non-ASCII verifier was hashed after a lossy encoding,
so '?' * 43 matched 'é' * 43); no redirect URI with a query (before, a code went to
`cb?next=https://evil.example/land?code=…`); `iss` in every authorization response (RFC
9207); codes that expire and tables that stay bounded.
"""

import base64
import hashlib
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
import pytest

from tests.mcp.conftest import protected_servers
from wirelab.mcp.auth.authorization_server import AuthorizationServer, Grant, OAuthError
from wirelab.mcp.auth.pkce import pkce_pair, s256, valid_verifier

pytestmark = pytest.mark.timeout(30)

REDIRECT = "http://127.0.0.1:33418/callback"


def raw_s256(text: str) -> str:
    """S256 as an attacker computes it, of any string (the package refuses invalid verifiers)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


@pytest.fixture
def flow():
    """A registered public client at a running authority; `authorize(challenge)` returns the
    redirect's query, `redeem(code, verifier)` the token endpoint's answer."""
    with protected_servers() as (authority, mcp), httpx2.Client(timeout=10) as http:
        client_id = authority.register({"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"})
        client_id = client_id.client_id

        def authorize(challenge: str, **extra: str) -> dict[str, str]:
            query = {
                "response_type": "code",
                "client_id": client_id,
                "redirect_uri": REDIRECT,
                "state": "s",
                "code_challenge": challenge,
                "code_challenge_method": "S256",
                "resource": mcp.url,
            } | extra
            location = http.get(f"{authority.issuer}/authorize?{urlencode(query)}").headers["location"]
            assert location.split("?")[0] == REDIRECT
            return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}

        def redeem(code: str, verifier: str | None) -> httpx2.Response:
            form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}
            form |= {"client_id": client_id, "resource": mcp.url}
            if verifier is not None:
                form["code_verifier"] = verifier
            return http.post(f"{authority.issuer}/token", data=form)

        yield authority, authorize, redeem


# --- PKCE ---


def test_a_code_for_the_challenge_of_an_empty_verifier_is_not_redeemed_without_a_verifier(flow):
    _, authorize, redeem = flow
    answer = authorize(raw_s256(""))
    refused = redeem(answer["code"], None)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"
    assert "43 to 128" in refused.json()["error_description"]


def test_a_non_ascii_verifier_never_matches_a_challenge_by_a_lossy_encoding(flow):
    _, authorize, redeem = flow
    answer = authorize(raw_s256("?" * 43))
    refused = redeem(answer["code"], "é" * 43)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"
    with pytest.raises(ValueError, match="RFC 7636"):
        s256("é" * 43)


@pytest.mark.parametrize(
    "verifier", ["", "a" * 42, "a" * 129, "a" * 42 + " ", "a" * 42 + "+", "a" * 42 + "é", "a" * 42 + "/"]
)
def test_a_verifier_outside_rfc_7636_is_refused_even_when_its_hash_matches(flow, verifier):
    _, authorize, redeem = flow
    answer = authorize(raw_s256(verifier))
    assert not valid_verifier(verifier)
    assert redeem(answer["code"], verifier).json()["error"] == "invalid_grant"


@pytest.mark.parametrize("challenge", ["", "short", raw_s256("x" * 43) + "A", "é" * 43, "a" * 42 + "="])
def test_a_challenge_that_is_no_s256_value_is_refused_at_once(flow, challenge):
    _, authorize, _ = flow
    answer = authorize(challenge)
    assert answer["error"] == "invalid_request" and "code" not in answer


def test_a_verifier_of_43_and_of_128_unreserved_characters_is_redeemed(flow):
    _, authorize, redeem = flow
    for verifier in ["A-._~" * 8 + "abc", "z" * 128, pkce_pair()[0]]:
        answer = authorize(s256(verifier))
        assert redeem(answer["code"], verifier).status_code == 200


# --- redirect URIs ---


@pytest.mark.parametrize(
    "uri",
    [
        "http://127.0.0.1:1/cb?next=https://evil.example/land",
        "https://app.example/cb?x=1",
        "https://app.example/cb?",
        "https://app.example/cb#frag",
        "http://app.example/cb",
        "javascript:alert(1)",
    ],
)
def test_a_redirect_uri_with_a_query_or_fragment_or_plain_http_elsewhere_cannot_register(uri):
    with pytest.raises(OAuthError, match="no query and no fragment") as refused:
        AuthorizationServer().register({"redirect_uris": [uri]})
    assert refused.value.error == "invalid_redirect_uri"


def test_the_redirect_carries_exactly_the_code_the_state_and_the_issuer(flow):
    authority, authorize, _ = flow
    answer = authorize(pkce_pair()[1])
    assert set(answer) == {"code", "state", "iss"} and answer["iss"] == authority.issuer


def test_an_error_redirect_names_the_issuer_too(flow):
    authority, authorize, _ = flow
    answer = authorize(pkce_pair()[1], response_type="token")
    assert answer["error"] == "unsupported_response_type" and answer["iss"] == authority.issuer
    assert authority.metadata()["authorization_response_iss_parameter_supported"] is True


# --- tables that only grew ---


def test_expired_codes_are_forgotten_and_waiting_codes_are_bounded(flow):
    authority, authorize, _ = flow
    for _ in range(3):
        authorize(pkce_pair()[1])
    for grant in authority.codes.values():
        grant.expires_at = time.time() - 1
    authorize(pkce_pair()[1])
    assert len(authority.codes) == 1  # the three expired ones are gone
    authority.codes.size = 5
    for _ in range(20):
        authorize(pkce_pair()[1])
    assert len(authority.codes) == 5


def test_registrations_and_refresh_tokens_are_bounded():
    authority = AuthorizationServer(max_clients=10)
    ids = [authority.register({"redirect_uris": [REDIRECT]}).client_id for _ in range(25)]
    assert len(authority.clients) == 10 and list(authority.clients) == ids[-10:]
    for _ in range(150):
        authority.tokens_for(Grant(ids[-1], set(), "http://127.0.0.1:1/mcp", "ada"))
    assert len(authority.refresh_tokens) == 100
