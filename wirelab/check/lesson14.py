"""Checks for lab 14: sampling messages, an elicitation answer, safe pagination, a 2026 retry.

`to_chat_messages` is compared with the host's `chat_messages`. `answer_form`
is given filled-in, declined and closed forms. `list_all` pages through fake
servers, one of which hands back the same cursor forever. `retry_request` is
given `InputRequiredResult`s with and without `requestState`.
"""

from __future__ import annotations

import copy
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError
from wirelab.mcp.host import chat_messages
from wirelab.mcp.protocol import argument_problems


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


SAMPLING_CASES = [
    {"messages": [{"role": "user", "content": _text("What is JSON-RPC?")}], "maxTokens": 50},
    {
        "systemPrompt": "Answer in one line.",
        "maxTokens": 50,
        "messages": [
            {"role": "user", "content": _text("Name a transport.")},
            {"role": "assistant", "content": _text("stdio")},
            {"role": "user", "content": [_text("Another one?"), _text("Be brief.")]},
        ],
    },
]
IMAGE_REQUEST = {
    "maxTokens": 50,
    "messages": [
        {"role": "user", "content": {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}}
    ],
}


@exercise
def check_to_chat_messages(to_chat_messages: Any) -> None:
    for params in SAMPLING_CASES:
        got, want = attempt(to_chat_messages, copy.deepcopy(params)), chat_messages(params)
        expect(
            got == want,
            say(
                f"to_chat_messages gave {got!r}\nfor {params!r}\nexpected {want!r}: "
                "the systemPrompt (if any) becomes a first system message, each text content is "
                'its "text", and a list of text blocks is joined with "\\n"',
                f"对 {params!r}\nto_chat_messages 给出了 {got!r}\n应为 {want!r}："
                "systemPrompt（如果有）变成第一条 system 消息，每个文本内容取它的 "
                '"text"，文本块组成的列表用 "\\n" 连接',
            ),
        )
    try:
        refused = to_chat_messages(copy.deepcopy(IMAGE_REQUEST))
    except JsonRpcError as e:
        expect(
            e.code == INVALID_PARAMS,
            say(
                f"an image raised JsonRpcError {e.code}: use -32602 "
                "(INVALID_PARAMS), the code for a request this client cannot serve as sent",
                f"遇到图片时抛出的是 JsonRpcError {e.code}：应当用 -32602"
                "（INVALID_PARAMS），这是客户端无法按原样处理的请求所用的 code",
            ),
        )
    except Exception as e:
        raise CheckFailed(
            say(
                f"an image raised {type(e).__name__}: {e}; raise "
                "JsonRpcError(INVALID_PARAMS, ...) so the server gets a clear error",
                f"遇到图片时抛出了 {type(e).__name__}：{e}；应当 raise "
                "JsonRpcError(INVALID_PARAMS, ...)，让服务器得到清楚的错误",
            )
        ) from None
    else:
        raise CheckFailed(
            say(
                f"an image content became {refused!r}: the model here reads text only, "
                "so raise JsonRpcError(INVALID_PARAMS, ...)",
                f"图片内容变成了 {refused!r}：这里的模型只读文本，"
                "所以应当 raise JsonRpcError(INVALID_PARAMS, ...)",
            )
        )
    passed(
        say(
            "to_chat_messages turns a sampling request into chat messages and refuses images",
            "to_chat_messages 把采样请求转换成聊天消息，并拒绝图片",
        )
    )


ROOM_FORM = {
    "mode": "form",
    "message": "Book which room, for how many people?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "room": {"type": "string", "enum": ["Lab 1", "Lab 2"]},
            "people": {"type": "integer", "minimum": 1},
        },
        "required": ["room"],
    },
}


@exercise
def check_answer_form(answer_form: Any) -> None:
    for filled, want in [(None, {"action": "cancel"}), (False, {"action": "decline"})]:
        got = attempt(answer_form, copy.deepcopy(ROOM_FORM), filled)
        expect(
            got == want,
            say(
                f"answer_form(form, {filled!r}) returned {got!r}, expected {want!r}: "
                "None means the user closed the dialog (cancel), False that they said no (decline)",
                f"answer_form(form, {filled!r}) 返回了 {got!r}，应为 {want!r}："
                "None 表示用户关掉了对话框（cancel），False 表示用户拒绝了（decline）",
            ),
        )
    for filled in [{"room": "Lab 2", "people": 3}, {"room": "Lab 1"}]:
        got = attempt(answer_form, copy.deepcopy(ROOM_FORM), dict(filled))
        want = {"action": "accept", "content": filled}
        expect(
            got == want,
            say(
                f"answer_form(form, {filled!r}) returned {got!r}, expected {want!r}",
                f"answer_form(form, {filled!r}) 返回了 {got!r}，应为 {want!r}",
            ),
        )
    for bad in [{"room": "Kitchen"}, {"people": 2}, {"room": "Lab 1", "people": "two"}]:
        problems = argument_problems(ROOM_FORM["requestedSchema"], bad)
        expect(
            _refuses(answer_form, (copy.deepcopy(ROOM_FORM), dict(bad)), ValueError),
            say(
                f"answer_form(form, {bad!r}) sent it, but that content breaks the requested schema "
                f"({'; '.join(problems)}): raise ValueError and let the user correct the form",
                f"answer_form(form, {bad!r}) 把它发出去了，但这份内容不符合 requestedSchema："
                "应当抛出 ValueError，让用户改正表单",
            ),
        )
    passed(
        say(
            "answer_form cancels, declines, accepts valid content and refuses content that breaks the schema",
            "answer_form 能取消、拒绝、接受合法内容，并拒绝不符合 schema 的内容",
        )
    )


class PagedServer:
    """A fake `tools/list` serving `pages` in order; when `loops`, the same cursor forever."""

    def __init__(self, pages: list[list[str]], loops: bool = False) -> None:
        self.pages, self.loops, self.asked = pages, loops, []

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(dict(params))
        if len(self.asked) > 20:
            raise CheckFailed(
                say(
                    "list_all asked for more than 20 pages of a server that repeats its "
                    "cursor: remember the cursors seen and raise RuntimeError on a repeat",
                    "服务器一直重复同一个 cursor，list_all 却请求了 20 多页："
                    "要记住见过的 cursor，重复时 raise RuntimeError",
                )
            )
        expect(
            method == "tools/list",
            say(
                f"list_all sent {method!r}: send the method it was given",
                f"list_all 发送的是 {method!r}：应当发送传给它的 method",
            ),
        )
        if self.loops:
            return {"tools": [{"name": "again"}], "nextCursor": "same"}
        expect(
            params.get("cursor", "") is not None,
            say(
                f"list_all sent params {params!r}: the first page is asked for without a cursor "
                "(params {}), never with cursor None",
                f"list_all 发送的 params 是 {params!r}：请求第一页时不带 cursor"
                "（params 为 {}），绝不能带 cursor None",
            ),
        )
        index = int(params["cursor"].removeprefix("page-")) if "cursor" in params else 0
        result: dict[str, Any] = {"tools": [{"name": n} for n in self.pages[index]]}
        if index + 1 < len(self.pages):
            result["nextCursor"] = f"page-{index + 1}"
        return result


def _refuses(fn: Any, args: tuple, error: type[Exception]) -> bool:
    """Does `fn(*args)` raise `error`? Another exception is a CheckFailed that names it."""
    try:
        fn(*args)
    except error:
        return True
    except CheckFailed:
        raise
    except Exception as e:
        raise CheckFailed(
            say(
                f"{fn.__name__} raised {type(e).__name__}: {e}; raise {error.__name__} here",
                f"{fn.__name__} 抛出了 {type(e).__name__}：{e}；这里应当抛出 {error.__name__}",
            )
        ) from None
    return False


@exercise
def check_list_all(list_all: Any) -> None:
    for pages in [[["a", "b"], ["c", "d"], ["e"]], [["only"]], [["a"], [], ["b"]]]:
        server = PagedServer(pages)
        got = attempt(list_all, server.request, "tools/list", "tools")
        want = [{"name": n} for page in pages for n in page]
        expect(
            got == want,
            say(
                f"list_all over pages {pages} returned {got!r}, expected {want!r}: "
                "collect result[key] of every page, following nextCursor until a page has none",
                f"分页为 {pages} 时 list_all 返回了 {got!r}，应为 {want!r}："
                "收集每一页的 result[key]，顺着 nextCursor 一直取到没有 nextCursor 的那一页",
            ),
        )
        expect(
            server.asked[0] == {},
            say(
                f"the first request had params {server.asked[0]!r}: "
                "the first page is asked for without a cursor",
                f"第一个请求的 params 是 {server.asked[0]!r}：请求第一页时不带 cursor",
            ),
        )
        expect(
            len(server.asked) == len(pages),
            say(
                f"list_all asked {len(server.asked)} times for {len(pages)} pages",
                f"一共 {len(pages)} 页，list_all 却请求了 {len(server.asked)} 次",
            ),
        )
    looping = PagedServer([], loops=True)
    expect(
        _refuses(list_all, (looping.request, "tools/list", "tools"), RuntimeError),
        say(
            "list_all returned although the server sent the same cursor again: raise RuntimeError "
            "when a cursor repeats",
            "服务器又发来了同一个 cursor，list_all 却正常返回了：cursor 重复时要 raise RuntimeError",
        ),
    )
    passed(
        say(
            "list_all follows nextCursor to the last page and stops a server that loops",
            "list_all 顺着 nextCursor 取到最后一页，并能制止陷入循环的服务器",
        )
    )


ORIGINAL = {
    "jsonrpc": "2.0",
    "id": 7,
    "method": "tools/call",
    "params": {"name": "book_room", "arguments": {"room": "Lab 2"}},
}
INPUT_REQUIRED = {
    "resultType": "input_required",
    "requestState": "opaque+/=state",
    "inputRequests": {
        "day": {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "Which day?",
                "requestedSchema": {"type": "object", "properties": {"day": {"type": "string"}}},
            },
        }
    },
}
ANSWERS = {"day": {"action": "accept", "content": {"day": "Tuesday"}}}


@exercise
def check_retry_request(retry_request: Any) -> None:
    original = copy.deepcopy(ORIGINAL)
    got = attempt(retry_request, original, copy.deepcopy(INPUT_REQUIRED), copy.deepcopy(ANSWERS), 8)
    expect(
        original == ORIGINAL,
        say(
            "retry_request changed the request it was given: build a new "
            "one (the original may still be shown or logged)",
            "retry_request 改动了传给它的请求：应当构造一个新请求（原请求可能还要显示或记录到日志）",
        ),
    )
    want = {
        "jsonrpc": "2.0",
        "id": 8,
        "method": "tools/call",
        "params": {**ORIGINAL["params"], "inputResponses": ANSWERS, "requestState": "opaque+/=state"},
    }
    expect(
        got == want,
        say(
            f"retry_request returned {got!r}\nexpected {want!r}: the same method and "
            "params, a new id, the answers as inputResponses and requestState echoed exactly",
            f"retry_request 返回了 {got!r}\n应为 {want!r}：method 和 params 不变，"
            "id 换新的，回答放进 inputResponses，requestState 原样带回",
        ),
    )
    stateless = {k: v for k, v in INPUT_REQUIRED.items() if k != "requestState"}
    got = attempt(retry_request, copy.deepcopy(ORIGINAL), stateless, copy.deepcopy(ANSWERS), 8)
    expect(
        "requestState" not in got.get("params", {}),
        say(
            f"retry_request sent requestState "
            f"{got.get('params', {}).get('requestState')!r} although the server sent none: a client "
            "MUST NOT include one then",
            f"服务器没有发 requestState，retry_request 却发送了 requestState "
            f"{got.get('params', {}).get('requestState')!r}：这种情况下客户端绝不能（MUST NOT）带上它",
        ),
    )
    for args, why in [
        (
            (copy.deepcopy(ANSWERS), 7),
            say("the retry reused id 7: the spec wants a new id", "重试沿用了 id 7：规范要求用新的 id"),
        ),
        (
            ({}, 8),
            say(
                'no answer for the input request "day": raise before retrying',
                '输入请求 "day" 没有回答：重试之前就要抛出异常',
            ),
        ),
    ]:
        expect(
            _refuses(
                retry_request, (copy.deepcopy(ORIGINAL), copy.deepcopy(INPUT_REQUIRED), *args), ValueError
            ),
            say(f"{why} (raise ValueError)", f"{why}（应当抛出 ValueError）"),
        )
    passed(
        say(
            "retry_request builds the 2026-07-28 retry: new id, inputResponses, requestState as sent",
            "retry_request 构造出 2026-07-28 版的重试：新的 id、inputResponses，以及原样带回的 requestState",
        )
    )
