"""Checks for lab 15: the discovery chain's URL lists and a protected server's token check.

`metadata_urls` and `server_metadata_urls` are compared with the tables below
(which `tests/lessons` proves equal to `wirelab.mcp.auth.discovery`).
`token_verdict` is given real signed tokens, good and bad in each way a server
must catch, made with a fresh key for each run.
"""

from __future__ import annotations

from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.mcp.auth.tokens import SigningKey, issue

PRM = "/.well-known/oauth-protected-resource"
RESOURCE_METADATA_CASES = [
    # (server URL, URL from the WWW-Authenticate header, the URLs to try in order, why)
    (
        "https://notes.example/mcp",
        None,
        [f"https://notes.example{PRM}/mcp", f"https://notes.example{PRM}"],
        "with no header URL: the path-aware well-known URL first, then the root one",
    ),
    (
        "https://notes.example/team/mcp",
        "https://notes.example/meta.json",
        ["https://notes.example/meta.json"],
        "the header's resource_metadata URL is the one to use: the well-known URLs are only "
        "the fallback for a header that names none",
    ),
    (
        "https://notes.example",
        None,
        [f"https://notes.example{PRM}"],
        "a server at the root has only the root well-known URL",
    ),
    (
        "http://127.0.0.1:8000/mcp/",
        None,
        [f"http://127.0.0.1:8000{PRM}/mcp", f"http://127.0.0.1:8000{PRM}"],
        "keep the port; drop a trailing slash from the path",
    ),
]
SERVER_METADATA_CASES = [
    # (issuer, the URLs to try in order, why)
    (
        "https://auth.example",
        [
            "https://auth.example/.well-known/oauth-authorization-server",
            "https://auth.example/.well-known/openid-configuration",
        ],
        "without a path: RFC 8414, then OpenID discovery",
    ),
    (
        "https://auth.example/tenant1",
        [
            "https://auth.example/.well-known/oauth-authorization-server/tenant1",
            "https://auth.example/.well-known/openid-configuration/tenant1",
            "https://auth.example/tenant1/.well-known/openid-configuration",
        ],
        "with a path: RFC 8414 inserted, OpenID inserted, OpenID appended (never the bare root)",
    ),
    (
        "http://127.0.0.1:9000/",
        [
            "http://127.0.0.1:9000/.well-known/oauth-authorization-server",
            "http://127.0.0.1:9000/.well-known/openid-configuration",
        ],
        "a trailing slash is no path; keep the port",
    ),
]
ISSUER, RESOURCE, OTHER = "http://127.0.0.1:9000", "http://127.0.0.1:8000/mcp", "http://127.0.0.1:8001/mcp"
REQUIRED = {"notes:read"}


def token_cases(key: SigningKey) -> list[tuple[str, str | None, tuple[int, str | None]]]:
    """(what the token is, the token, the verdict a server owes it) for tokens signed with `key`."""

    def token(audience: str = RESOURCE, scopes: frozenset = frozenset(REQUIRED), **changes: Any) -> str:
        options = {"issuer": ISSUER, "subject": "ada", "client_id": "c1", "lifetime": 300} | changes
        signer = options.pop("signer", key)
        return issue(signer, audience=audience, scopes=set(scopes), **options)

    return [
        ("a good token", token(), (200, None)),
        (
            "a good token with more scopes",
            token(scopes=frozenset({"notes:read", "notes:write"})),
            (200, None),
        ),
        ("no token at all", None, (401, None)),
        ("a token for another server (wrong audience)", token(audience=OTHER), (401, "invalid_token")),
        ("an expired token", token(lifetime=-120), (401, "invalid_token")),
        ("a token signed with another key", token(signer=SigningKey.generate()), (401, "invalid_token")),
        ("a token from another issuer", token(issuer="http://127.0.0.1:9999"), (401, "invalid_token")),
        ("text that is not a JWT", "not-a-token", (401, "invalid_token")),
        (
            "a good token without notes:read",
            token(scopes=frozenset({"notes:write"})),
            (403, "insufficient_scope"),
        ),
    ]


@exercise
def check_metadata_urls(metadata_urls: Any) -> None:
    for server_url, header_url, want, why in RESOURCE_METADATA_CASES:
        got = attempt(metadata_urls, server_url, header_url)
        expect(
            got == want,
            f"metadata_urls({server_url!r}, {header_url!r}) gave {got!r}, expected {want!r}: {why}",
        )
    passed(
        "metadata_urls gives the header's URL, or, when the header names none, the well-known URLs "
        "in the order RFC 9728 gives"
    )


@exercise
def check_server_metadata_urls(server_metadata_urls: Any) -> None:
    for issuer, want, why in SERVER_METADATA_CASES:
        got = attempt(server_metadata_urls, issuer)
        expect(got == want, f"server_metadata_urls({issuer!r}) gave {got!r}, expected {want!r}: {why}")
    passed("server_metadata_urls lists the authorization-server metadata URLs in the specification's order")


@exercise
def check_token_verdict(token_verdict: Any) -> None:
    key = SigningKey.generate()
    for what, token, want in token_cases(key):
        got = attempt(token_verdict, token, key.public_jwk(), ISSUER, RESOURCE, set(REQUIRED))
        if got == want:
            continue
        if want[0] == 200:
            raise CheckFailed(
                f"{what} got {got!r}: a valid token for this server with the scopes needed is (200, None)"
            )
        if want[1] == "insufficient_scope":
            raise CheckFailed(
                f"{what} got {got!r}: the token is valid but lacks a scope, so (403, 'insufficient_scope'), "
                "the answer that makes a client step up"
            )
        raise CheckFailed(
            f"{what} got {got!r}, expected {want!r}: jwt.decode with audience=resource and issuer=issuer "
            "raises a jwt.PyJWTError for it; answer 401, with 'invalid_token' when a token was sent"
        )
    passed("token_verdict accepts only this server's valid tokens and asks for missing scopes with 403")
