"""Checks for lab 11: the Origin rule, the 2026-07-28 header rule, a session handshake by hand.

`check_origin` and `headers_match` are pure functions, checked on a table of
requests a local server meets (no Origin, another port, a look-alike host,
lowercase header names). `start_session` runs against the notes server served
over HTTP on 127.0.0.1 for the length of the check; when the server refuses one
of its requests, the failure quotes the server's own status and message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx2

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say
from wirelab.mcp.example import build_server
from wirelab.mcp.transports.http.server import SESSION_HEADER, serve_http
from wirelab.wire import WireMessage

LOOPBACK = {"127.0.0.1", "localhost"}
HEADER_MISMATCH = -32020
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
META = {VERSION_KEY: "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}

# (headers, allowed host names, expected answer, why in English and Chinese)
ORIGIN_CASES: list[tuple[dict[str, str], set[str], int | None, tuple[str, str]]] = [
    (
        {},
        LOOPBACK,
        None,
        (
            "a request with no Origin comes from a program, not a web page: let it in",
            "没有 Origin 的请求来自程序，而不是网页：放行",
        ),
    ),
    (
        {"Origin": "http://localhost:6274"},
        LOOPBACK,
        None,
        (
            "compare the Origin's host name only: the port may be anything",
            "只比较 Origin 的主机名：端口可以是任意的",
        ),
    ),
    (
        {"origin": "http://127.0.0.1:8000"},
        LOOPBACK,
        None,
        (
            "header names are case-insensitive: find 'origin' in any case",
            "头部名称不区分大小写：'origin' 不论大小写都要找到",
        ),
    ),
    (
        {"Origin": "https://evil.example"},
        LOOPBACK,
        403,
        ("another site's page must get 403", "别的网站的页面必须得到 403"),
    ),
    (
        {"origin": "https://evil.example"},
        LOOPBACK,
        403,
        (
            "header names are case-insensitive: an 'origin' header is the Origin header",
            "头部名称不区分大小写：'origin' 头部就是 Origin 头部",
        ),
    ),
    (
        {"Origin": "http://localhost.evil.example"},
        LOOPBACK,
        403,
        (
            "a host that only starts with 'localhost' is another machine: compare whole host names",
            "主机名只是以 'localhost' 开头，那是另一台机器：要比较完整的主机名",
        ),
    ),
    (
        {"Origin": "null"},
        LOOPBACK,
        403,
        (
            "a sandboxed page sends Origin: null, which names no allowed host: 403",
            "沙箱里的页面发送 Origin: null，其中没有任何允许的主机名：403",
        ),
    ),
    (
        {"Origin": "https://notes.example"},
        {"notes.example"},
        None,
        ("use the `allowed` argument, not a fixed list", "要用 `allowed` 参数，而不是写死的列表"),
    ),
    (
        {"Origin": "http://localhost:3000"},
        {"notes.example"},
        403,
        ("use the `allowed` argument, not a fixed list", "要用 `allowed` 参数，而不是写死的列表"),
    ),
]


def _call(method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": dict(META)}}


SEARCH = _call("tools/call", name="search_notes", arguments={"query": "stdout"})
SEARCH_HEADERS = {
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
    "Mcp-Name": "search_notes",
}
READ = _call("resources/read", uri="notes://note/stdio")
READ_HEADERS = {
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "resources/read",
    "Mcp-Name": "notes://note/stdio",
}

# (body, headers, the header that must be named in the error or None, why in English and Chinese)
HEADER_CASES: list[tuple[dict[str, Any], dict[str, str], str | None, tuple[str, str]]] = [
    (SEARCH, SEARCH_HEADERS, None, ("every header matches the body", "每个头部都与请求体一致")),
    (
        SEARCH,
        {k.lower(): v for k, v in SEARCH_HEADERS.items()},
        None,
        (
            "header names are case-insensitive: 'mcp-method' is 'Mcp-Method'",
            "头部名称不区分大小写：'mcp-method' 就是 'Mcp-Method'",
        ),
    ),
    (
        _call("tools/list"),
        {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"},
        None,
        (
            "tools/list names nothing, so it needs no Mcp-Name",
            "tools/list 不指名任何东西，所以不需要 Mcp-Name",
        ),
    ),
    (
        READ,
        READ_HEADERS,
        None,
        (
            "for resources/read, Mcp-Name carries params.uri",
            "对 resources/read，Mcp-Name 携带的是 params.uri",
        ),
    ),
    (
        SEARCH,
        {**SEARCH_HEADERS, "Mcp-Method": "tools/list"},
        "Mcp-Method",
        (
            "the method header says tools/list, the body tools/call",
            "方法头部写的是 tools/list，请求体却是 tools/call",
        ),
    ),
    (
        SEARCH,
        {**SEARCH_HEADERS, "Mcp-Name": "add_note"},
        "Mcp-Name",
        (
            "the name header says add_note, the body search_notes",
            "名称头部写的是 add_note，请求体却是 search_notes",
        ),
    ),
    (
        SEARCH,
        {k: v for k, v in SEARCH_HEADERS.items() if k != "Mcp-Name"},
        "Mcp-Name",
        ("a tools/call without Mcp-Name is a mismatch too", "没有 Mcp-Name 的 tools/call 也算不一致"),
    ),
    (
        SEARCH,
        {**SEARCH_HEADERS, "MCP-Protocol-Version": "2025-11-25"},
        "MCP-Protocol-Version",
        (
            "the version header must equal params._meta's protocolVersion",
            "版本头部必须等于 params._meta 里的 protocolVersion",
        ),
    ),
    (
        READ,
        {**READ_HEADERS, "Mcp-Name": "notes://note/json-rpc"},
        "Mcp-Name",
        (
            "for resources/read, compare Mcp-Name with params.uri",
            "对 resources/read，要拿 Mcp-Name 和 params.uri 比较",
        ),
    ),
]


@exercise
def check_check_origin(check_origin: Any) -> None:
    for headers, allowed, want, (why_en, why_zh) in ORIGIN_CASES:
        why = say(why_en, why_zh)
        got = attempt(check_origin, dict(headers), set(allowed))
        expect(
            got == want,
            say(
                f"check_origin({headers}, {sorted(allowed)}) returned {got!r}, expected {want!r}: {why}",
                f"check_origin({headers}, {sorted(allowed)}) 返回了 {got!r}，应为 {want!r}：{why}",
            ),
        )
    passed(
        say(
            "check_origin lets programs and allowed pages in and refuses every other Origin with 403",
            "check_origin 放行程序和允许的页面，对其他所有 Origin 回 403",
        )
    )


@exercise
def check_headers_match(headers_match: Any) -> None:
    for body, headers, wrong, (why_en, why_zh) in HEADER_CASES:
        why = say(why_en, why_zh)
        got = attempt(headers_match, body, dict(headers))
        if wrong is None:
            expect(
                got is None,
                say(
                    f"headers_match returned {got!r} for {headers}: {why}, so return None",
                    f"对 {headers}，headers_match 返回了 {got!r}：{why}，所以应当返回 None",
                ),
            )
            continue
        expect(
            isinstance(got, Mapping) and got.get("code") == HEADER_MISMATCH,
            say(
                f"headers_match returned {got!r} for {headers}: {why}; return an error "
                f'such as {{"code": {HEADER_MISMATCH}, "message": "Header mismatch: ..."}}',
                f"对 {headers}，headers_match 返回了 {got!r}：{why}；应当返回一个错误，"
                f'例如 {{"code": {HEADER_MISMATCH}, "message": "Header mismatch: ..."}}',
            ),
        )
        expect(
            wrong.lower() in str(got.get("message", "")).lower(),
            say(
                f"the error for {headers} says {got.get('message')!r}: name the header that "
                f"disagrees ({wrong}), so the client knows what to fix",
                f"对 {headers} 的错误写的是 {got.get('message')!r}：要指出不一致的那个头部"
                f"（{wrong}），客户端才知道该改什么",
            ),
        )
    passed(
        say(
            "headers_match accepts matching headers in any case and names each mismatch (-32020)",
            "headers_match 接受大小写不同但一致的头部，并指出每一处不一致（-32020）",
        )
    )


@exercise
def check_start_session(start_session: Any) -> None:
    # a generous timeout: the first tools/call on a loaded machine may take seconds
    with serve_http(build_server()) as running, httpx2.Client(timeout=30) as http:
        refusals: list[WireMessage] = []
        unsubscribe = running.wire.subscribe(lambda m: _keep_refusal(m, refusals))
        try:
            session_id = _attempt_quoting(refusals, start_session, http, running.url)
        finally:
            unsubscribe()
        _expect_a_ready_session(running.app.sessions, session_id, refusals)
        listed = http.post(
            running.url,
            json={"jsonrpc": "2.0", "id": 9, "method": "tools/list"},
            headers={"Accept": "application/json, text/event-stream", SESSION_HEADER: session_id},
        )
        expect(
            listed.status_code == 200,
            say(
                f"a tools/list with your session id got HTTP {listed.status_code}: {listed.text[:200]}",
                f"带着你的会话 id 发出的 tools/list 得到了 HTTP {listed.status_code}：{listed.text[:200]!r}",
            ),
        )
    passed(
        say(
            "start_session initializes, keeps the Mcp-Session-Id and ends the handshake (202)",
            "start_session 完成初始化，记下 Mcp-Session-Id，并结束握手（202）",
        )
    )


def _keep_refusal(message: WireMessage, refusals: list[WireMessage]) -> None:
    if message.sender == "server" and (message.status or 200) >= 400:
        refusals.append(message)


def _attempt_quoting(refusals: list[WireMessage], fn: Any, *args: Any) -> Any:
    """`attempt(fn, *args)`, adding what the server said when it refused a request."""
    try:
        return attempt(fn, *args)
    except CheckFailed as failed:
        raise CheckFailed(f"{failed}{_quote(refusals)}") from None


def _quote(refusals: list[WireMessage]) -> str:
    if not refusals:
        return ""
    last = refusals[-1]
    return say(
        f" (the server answered HTTP {last.status}: {last.payload['error']['message']})",
        f"（服务器回答了 HTTP {last.status}：{last.payload['error']['message']!r}）",
    )


def _expect_a_ready_session(
    sessions: Mapping[str, Any], session_id: Any, refusals: list[WireMessage]
) -> None:
    expect(
        isinstance(session_id, str) and session_id in sessions,
        say(
            f"start_session returned {type(session_id).__name__ if session_id is not None else None}, "
            f"not the session's id: return initialize's {SESSION_HEADER} response header",
            f"start_session 返回的是 {type(session_id).__name__ if session_id is not None else None}，"
            f"而不是会话的 id：应当返回 initialize 响应里的 {SESSION_HEADER} 头部",
        )
        + _quote(refusals),
    )
    expect(
        sessions[session_id].session.client_ready,
        say(
            "the session is open but the handshake is unfinished: POST "
            '{"jsonrpc": "2.0", "method": "notifications/initialized"} with the '
            f"{SESSION_HEADER} header (the server answers 202)",
            "会话已经打开，但握手还没完成：带上 "
            f"{SESSION_HEADER} 头部 POST "
            '{"jsonrpc": "2.0", "method": "notifications/initialized"}（服务器回答 202）',
        )
        + _quote(refusals),
    )
