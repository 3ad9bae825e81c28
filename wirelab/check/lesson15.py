"""Checks for lab 15: the discovery chain's URL lists and a protected server's token check.

`metadata_urls` and `server_metadata_urls` are compared with the tables below
(which `tests/lessons` proves equal to `wirelab.mcp.auth.discovery`).
`token_verdict` is given real signed tokens, good and bad in each way a server
must catch, made with a fresh key for each run.
"""

from __future__ import annotations

from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say
from wirelab.mcp.auth.tokens import SigningKey, issue

PRM = "/.well-known/oauth-protected-resource"
RESOURCE_METADATA_CASES = [
    # (server URL, URL from the WWW-Authenticate header, the URLs to try in order, why in English and Chinese)
    (
        "https://notes.example/mcp",
        None,
        [f"https://notes.example{PRM}/mcp", f"https://notes.example{PRM}"],
        (
            "with no header URL: the path-aware well-known URL first, then the root one",
            "头部没有给出 URL：先试带路径的 well-known URL，再试根路径上的",
        ),
    ),
    (
        "https://notes.example/team/mcp",
        "https://notes.example/meta.json",
        ["https://notes.example/meta.json"],
        (
            "the header's resource_metadata URL is the one to use: the well-known URLs are only "
            "the fallback for a header that names none",
            "要用的就是头部里的 resource_metadata URL：well-known URL 只是头部没有给出 URL 时的后备",
        ),
    ),
    (
        "https://notes.example",
        None,
        [f"https://notes.example{PRM}"],
        (
            "a server at the root has only the root well-known URL",
            "部署在根路径上的服务器只有根路径上的 well-known URL",
        ),
    ),
    (
        "http://127.0.0.1:8000/mcp/",
        None,
        [f"http://127.0.0.1:8000{PRM}/mcp", f"http://127.0.0.1:8000{PRM}"],
        ("keep the port; drop a trailing slash from the path", "保留端口；去掉路径末尾的斜杠"),
    ),
]
SERVER_METADATA_CASES = [
    # (issuer, the URLs to try in order, why in English and Chinese)
    (
        "https://auth.example",
        [
            "https://auth.example/.well-known/oauth-authorization-server",
            "https://auth.example/.well-known/openid-configuration",
        ],
        ("without a path: RFC 8414, then OpenID discovery", "没有路径时：先 RFC 8414，再 OpenID discovery"),
    ),
    (
        "https://auth.example/tenant1",
        [
            "https://auth.example/.well-known/oauth-authorization-server/tenant1",
            "https://auth.example/.well-known/openid-configuration/tenant1",
            "https://auth.example/tenant1/.well-known/openid-configuration",
        ],
        (
            "with a path: RFC 8414 inserted, OpenID inserted, OpenID appended (never the bare root)",
            "有路径时：RFC 8414 插入式、OpenID 插入式、OpenID 追加式（绝不只试根路径）",
        ),
    ),
    (
        "http://127.0.0.1:9000/",
        [
            "http://127.0.0.1:9000/.well-known/oauth-authorization-server",
            "http://127.0.0.1:9000/.well-known/openid-configuration",
        ],
        ("a trailing slash is no path; keep the port", "末尾的斜杠不算路径；保留端口"),
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
        (say("a good token", "一个有效的令牌"), token(), (200, None)),
        (
            say("a good token with more scopes", "一个 scope 更多的有效令牌"),
            token(scopes=frozenset({"notes:read", "notes:write"})),
            (200, None),
        ),
        (say("no token at all", "根本没有令牌"), None, (401, None)),
        (
            say("a token for another server (wrong audience)", "发给另一个服务器的令牌（audience 不对）"),
            token(audience=OTHER),
            (401, "invalid_token"),
        ),
        (say("an expired token", "一个过期的令牌"), token(lifetime=-120), (401, "invalid_token")),
        (
            say("a token signed with another key", "用另一把密钥签名的令牌"),
            token(signer=SigningKey.generate()),
            (401, "invalid_token"),
        ),
        (
            say("a token from another issuer", "来自另一个 issuer 的令牌"),
            token(issuer="http://127.0.0.1:9999"),
            (401, "invalid_token"),
        ),
        (say("text that is not a JWT", "一段不是 JWT 的文本"), "not-a-token", (401, "invalid_token")),
        (
            say("a good token without notes:read", "一个没有 notes:read 的有效令牌"),
            token(scopes=frozenset({"notes:write"})),
            (403, "insufficient_scope"),
        ),
    ]


@exercise
def check_metadata_urls(metadata_urls: Any) -> None:
    for server_url, header_url, want, (why_en, why_zh) in RESOURCE_METADATA_CASES:
        why = say(why_en, why_zh)
        got = attempt(metadata_urls, server_url, header_url)
        expect(
            got == want,
            say(
                f"metadata_urls({server_url!r}, {header_url!r}) gave {got!r}, expected {want!r}: {why}",
                f"metadata_urls({server_url!r}, {header_url!r}) 给出了 {got!r}，应为 {want!r}：{why}",
            ),
        )
    passed(
        say(
            "metadata_urls gives the header's URL, or, when the header names none, the well-known URLs "
            "in the order RFC 9728 gives",
            "metadata_urls 给出头部里的 URL；头部没有给出时，按 RFC 9728 规定的顺序给出 well-known URL",
        )
    )


@exercise
def check_server_metadata_urls(server_metadata_urls: Any) -> None:
    for issuer, want, (why_en, why_zh) in SERVER_METADATA_CASES:
        why = say(why_en, why_zh)
        got = attempt(server_metadata_urls, issuer)
        expect(
            got == want,
            say(
                f"server_metadata_urls({issuer!r}) gave {got!r}, expected {want!r}: {why}",
                f"server_metadata_urls({issuer!r}) 给出了 {got!r}，应为 {want!r}：{why}",
            ),
        )
    passed(
        say(
            "server_metadata_urls lists the authorization-server metadata URLs in the specification's order",
            "server_metadata_urls 按规范的顺序列出授权服务器元数据的 URL",
        )
    )


@exercise
def check_token_verdict(token_verdict: Any) -> None:
    key = SigningKey.generate()
    for what, token, want in token_cases(key):
        got = attempt(token_verdict, token, key.public_jwk(), ISSUER, RESOURCE, set(REQUIRED))
        if got == want:
            continue
        if want[0] == 200:
            raise CheckFailed(
                say(
                    f"{what} got {got!r}: "
                    "a valid token for this server with the scopes needed is (200, None)",
                    f"{what}得到的是 {got!r}：发给本服务器、带有所需 scope 的有效令牌应当得到 (200, None)",
                )
            )
        if want[1] == "insufficient_scope":
            raise CheckFailed(
                say(
                    f"{what} got {got!r}: the token is valid but lacks a scope, "
                    "so (403, 'insufficient_scope'), the answer that makes a client step up",
                    f"{what}得到的是 {got!r}：令牌有效但缺少 scope，所以应当是 (403, 'insufficient_scope')，"
                    "客户端收到这个回答才会申请更高的权限",
                )
            )
        raise CheckFailed(
            say(
                f"{what} got {got!r}, expected {want!r}: jwt.decode with audience=resource and issuer=issuer "
                "raises a jwt.PyJWTError for it; answer 401, with 'invalid_token' when a token was sent",
                f"{what}得到的是 {got!r}，应为 {want!r}："
                "用 audience=resource 和 issuer=issuer 调用 jwt.decode "
                "时，它会抛出 jwt.PyJWTError；应当回答 401，发了令牌时再带上 'invalid_token'",
            )
        )
    passed(
        say(
            "token_verdict accepts only this server's valid tokens and asks for missing scopes with 403",
            "token_verdict 只接受发给本服务器的有效令牌，缺少 scope 时用 403 要求补上",
        )
    )
