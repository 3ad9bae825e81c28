"""Checks for lab 07: parse one line of JSON-RPC, then dispatch a message to its handler.

The lab's handlers live here (`HANDLERS`), so a check knows what each call
should return: `add` adds two numbers and raises `InvalidParams` for
anything else, `log` records its text, `crash` divides by zero.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say


class InvalidParams(Exception):
    """Raised by a handler whose params are wrong: the dispatcher answers -32602."""


LOGGED: list[str] = []


def add(params: dict[str, Any]) -> float:
    if not all(isinstance(params.get(k), int | float) for k in ("a", "b")):
        raise InvalidParams('add needs numbers "a" and "b"')
    return params["a"] + params["b"]


def log(params: dict[str, Any]) -> None:
    LOGGED.append(params["text"])


def crash(params: dict[str, Any]) -> None:
    raise ZeroDivisionError(say("division by zero", "除数为零"))


HANDLERS = {"add": add, "log": log, "crash": crash}


def attempt_case(fn: Any, *args: Any, why: str) -> Any:
    """`attempt(fn, *args)`, and if the learner's code crashes, say what the case expects."""
    try:
        return attempt(fn, *args)
    except CheckFailed as failed:
        if isinstance(failed.__context__, NotImplementedError):
            raise
        raise CheckFailed(say(f"{failed}; here {why}", f"{failed}；本例中：{why}")) from None


# line, expected id of the error response, expected code, why (English, Chinese)
BAD_LINES = [
    (
        '{"jsonrpc": "2.0", "id": 1, "method": "add"',
        None,
        -32700,
        (
            "the text is not JSON, so no id can be read: answer -32700 with id None",
            "这段文本不是 JSON，读不出 id：应当回答 -32700，id 为 None",
        ),
    ),
    (
        "[1, 2]",
        None,
        -32600,
        ("a JSON array (a batch) is not one message: -32600", "JSON 数组（批量）不是单条消息：-32600"),
    ),
    ("42", None, -32600, ("a JSON number is not a message: -32600", "JSON 数字不是消息：-32600")),
    (
        '{"jsonrpc": "1.0", "id": 7, "method": "add"}',
        7,
        -32600,
        (
            'only "jsonrpc": "2.0" is JSON-RPC 2.0: -32600, with the id 7 you could read',
            '只有 "jsonrpc": "2.0" 才是 JSON-RPC 2.0：-32600，并带上能读出的 id 7',
        ),
    ),
    (
        '{"id": 8, "method": "add"}',
        8,
        -32600,
        ('a message without "jsonrpc" is invalid: -32600', '没有 "jsonrpc" 的消息无效：-32600'),
    ),
    (
        '{"jsonrpc": "2.0", "id": true, "method": "add"}',
        None,
        -32600,
        (
            "true is not an id (in Python, bool is an int: exclude it), and it cannot be echoed: id None",
            "true 不是 id（在 Python 里 bool 是 int 的子类：要把它排除），也不能原样回传：id 为 None",
        ),
    ),
    (
        '{"jsonrpc": "2.0", "id": null, "method": "add"}',
        None,
        -32600,
        (
            'null is not an id in MCP (JSON-RPC allows it, MCP does not): a request\'s "id" is a string or '
            "a number; note that a present id of null is not a notification",
            'null 在 MCP 里不是 id（JSON-RPC 允许，MCP 不允许）：请求的 "id" 是字符串或数字；'
            "注意，带着值为 null 的 id 并不是通知",
        ),
    ),
    (
        '{"jsonrpc": "2.0", "id": [1], "method": "add"}',
        None,
        -32600,
        (
            "a list is not an id, and it cannot be echoed: -32600 with id None",
            "列表不是 id，也不能原样回传：-32600，id 为 None",
        ),
    ),
    (
        '{"jsonrpc": "2.0", "id": 11, "method": 5}',
        11,
        -32600,
        (
            '"method" must be a string (5 is a number): -32600, with the id 11 you could read',
            '"method" 必须是字符串（5 是数字）：-32600，并带上能读出的 id 11',
        ),
    ),
    (
        '{"jsonrpc": "2.0", "id": 12, "method": "add", "params": "a=1"}',
        12,
        -32600,
        ('"params" must be an object: -32600', '"params" 必须是对象：-32600'),
    ),
    (
        '{"jsonrpc": "2.0", "id": 9, "method": "add", "params": [1, 2]}',
        9,
        -32600,
        (
            '"params" must be an object (MCP uses named parameters): -32600',
            '"params" 必须是对象（MCP 用的是具名参数）：-32600',
        ),
    ),
    (
        '{"jsonrpc": "2.0", "id": 10}',
        10,
        -32600,
        (
            'a message needs "method" (request, notification) or "result"/"error" (response)',
            '消息要么有 "method"（请求、通知），要么有 "result"/"error"（响应）',
        ),
    ),
]

GOOD_LINES = [
    '{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"a": 1, "b": 2}}',
    '{"jsonrpc": "2.0", "id": 0, "method": "add", "params": {"a": 1, "b": 2}}',
    '{"jsonrpc": "2.0", "id": "abc", "method": "add"}',
    '{"jsonrpc": "2.0", "method": "log", "params": {"text": "hi"}}',
    '{"jsonrpc": "2.0", "id": 4, "result": 3}',
]


def _pair(parse_message: Any, line: str) -> tuple[Any, Any]:
    got = attempt(parse_message, line)
    expect(
        isinstance(got, tuple) and len(got) == 2,
        say(
            f"parse_message({line!r}) returned {got!r}: return a pair (message, error_response), "
            "with None in one of the two places",
            f"parse_message({line!r}) 返回了 {got!r}："
            "应当返回一对 (message, error_response)，其中一个是 None",
        ),
    )
    return got


def _error_of(response: Any, where: str) -> dict[str, Any]:
    expect(
        isinstance(response, dict) and response.get("jsonrpc") == "2.0" and "id" in response,
        say(
            f"{where} gave {response!r}: an error response is "
            '{"jsonrpc": "2.0", "id": ..., "error": {"code": ..., "message": ...}}',
            f"{where} 给出了 {response!r}：错误响应的格式是 "
            '{"jsonrpc": "2.0", "id": ..., "error": {"code": ..., "message": ...}}',
        ),
    )
    error = response.get("error")
    expect(
        isinstance(error, dict)
        and isinstance(error.get("code"), int)
        and isinstance(error.get("message"), str)
        and error["message"],
        say(
            f'{where} gave {response!r}: its "error" must be an object with an int "code" and a '
            'non-empty "message"',
            f"{where} 给出了 {response!r}："
            '其中的 "error" 必须是一个对象，带 int 类型的 "code" 和非空的 "message"',
        ),
    )
    return error


@exercise
def check_parse_message(parse_message: Any) -> None:
    for line in GOOD_LINES:
        message, problem = _pair(parse_message, line)
        expect(
            problem is None and message == json.loads(line),
            say(
                f"parse_message({line!r}) returned ({message!r}, {problem!r}): a valid message "
                "comes back parsed, with no error" + (" (id 0 is a valid id)" if '"id": 0' in line else ""),
                f"parse_message({line!r}) 返回了 ({message!r}, {problem!r})："
                "有效的消息应当解析后返回，不带错误" + ("（id 0 是有效的 id）" if '"id": 0' in line else ""),
            ),
        )
    for line, id, code, (why_en, why_zh) in BAD_LINES:
        why = say(why_en, why_zh)
        message, problem = _pair(parse_message, line)
        expect(
            message is None,
            say(
                f"parse_message({line!r}) returned the message {message!r}: {why}",
                f"parse_message({line!r}) 返回了消息 {message!r}：{why}",
            ),
        )
        error = _error_of(problem, f"parse_message({line!r})")
        expect(
            error["code"] == code and problem["id"] == id and "result" not in problem,
            say(
                f"parse_message({line!r}) answered code {error['code']} with id {problem['id']!r}; "
                f"expected code {code} with id {id!r}: {why}",
                f"parse_message({line!r}) 回答的是 code {error['code']}、id {problem['id']!r}；"
                f"应为 code {code}、id {id!r}：{why}",
            ),
        )
    passed(
        say(
            "parse_message returns valid messages and answers each bad line with the right code and id",
            "parse_message 返回有效的消息，并对每一行坏输入给出正确的 code 和 id",
        )
    )


# message, expected response (None: no response), why (English, Chinese)
DISPATCH_CASES: list[tuple[dict[str, Any], Any, tuple[str, str]]] = [
    (
        {"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"a": 2, "b": 3}},
        {"jsonrpc": "2.0", "id": 1, "result": 5},
        ("a request gets its handler's result", "请求得到它的处理函数的结果"),
    ),
    (
        {"jsonrpc": "2.0", "id": 0, "method": "add", "params": {"a": 2, "b": 3}},
        {"jsonrpc": "2.0", "id": 0, "result": 5},
        (
            'id 0 is an id: echo it (test `"id" in message`)',
            'id 0 也是 id：要原样回传（判断用 `"id" in message`）',
        ),
    ),
    (
        {"jsonrpc": "2.0", "id": "s", "method": "sub"},
        -32601,
        ("no handler for the method: -32601", "这个方法没有处理函数：-32601"),
    ),
    (
        {"jsonrpc": "2.0", "id": 2, "method": "add", "params": {"a": "two"}},
        -32602,
        ("the handler raised InvalidParams: -32602", "处理函数抛出了 InvalidParams：-32602"),
    ),
    (
        {"jsonrpc": "2.0", "id": 3, "method": "crash"},
        -32603,
        (
            "the handler raised another exception: answer -32603, do not let it escape",
            "处理函数抛出了别的异常：回答 -32603，不要让异常漏出去",
        ),
    ),
    (
        {"jsonrpc": "2.0", "method": "log", "params": {"text": "hello"}},
        None,
        (
            "a notification (no id) is never answered, but its handler runs",
            "通知（没有 id）永远不回答，但它的处理函数要运行",
        ),
    ),
    (
        {"jsonrpc": "2.0", "method": "sub"},
        None,
        ("a notification is not answered, even with an unknown method", "通知不回答，即使方法未知"),
    ),
    (
        {"jsonrpc": "2.0", "method": "crash"},
        None,
        ("a notification is not answered, even when it fails", "通知不回答，即使它执行失败"),
    ),
    ({"jsonrpc": "2.0", "id": 5, "result": 3}, None, ("a response is not answered", "响应不回答")),
]


@exercise
def check_dispatch(dispatch: Any) -> None:
    LOGGED.clear()
    for message, want, (why_en, why_zh) in DISPATCH_CASES:
        why = say(why_en, why_zh)
        where = f"dispatch({json.dumps(message)})"
        got = attempt_case(dispatch, dict(message), HANDLERS, why=why)
        if want is None or isinstance(want, dict):
            expect(
                got == want,
                say(
                    f"{where} returned {got!r}, expected {want!r}: {why}",
                    f"{where} 返回了 {got!r}，应为 {want!r}：{why}",
                ),
            )
            continue
        error = _error_of(got, where)
        expect(
            error["code"] == want and got["id"] == message["id"] and "result" not in got,
            say(
                f"{where} answered {got!r}: "
                f"expected an error with code {want} and id {message['id']!r}: {why}",
                f"{where} 回答了 {got!r}：应为 code {want}、id {message['id']!r} 的错误：{why}",
            ),
        )
    if LOGGED != ["hello"]:
        raise CheckFailed(
            say(
                f"the log handler saw {LOGGED!r}: "
                "call the handler of a notification (once), then return None",
                f"log 处理函数收到的是 {LOGGED!r}：要调用通知的处理函数（一次），然后返回 None",
            )
        )
    passed(
        say(
            "dispatch answers requests, never notifications, with -32601, -32602 and -32603 where due",
            "dispatch 只回答请求、从不回答通知，该回 -32601、-32602、-32603 的地方都回对了",
        )
    )


# line, expected answer (None: nothing is sent), why (English, Chinese)
BATCH_CASES: list[tuple[str, Any, tuple[str, str]]] = [
    (
        '{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"a": 1, "b": 2}}',
        {"jsonrpc": "2.0", "id": 1, "result": 3},
        (
            "one message is answered as before, not as a batch of one",
            "单条消息照旧回答，不当作只有一条的批量",
        ),
    ),
    (
        '[{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"a": 1, "b": 2}},'
        ' {"jsonrpc": "2.0", "method": "log", "params": {"text": "batched"}},'
        ' {"jsonrpc": "2.0", "id": 2, "method": "sub"}]',
        [{"jsonrpc": "2.0", "id": 1, "result": 3}, {"jsonrpc": "2.0", "id": 2, "error": -32601}],
        (
            "a batch is answered element by element, in order, leaving out the notifications",
            "批量按元素逐一回答，保持顺序，略去通知",
        ),
    ),
    (
        '[{"jsonrpc": "2.0", "id": 3, "method": "add", "params": {"a": 1, "b": 1}}, {"id": 4}]',
        [{"jsonrpc": "2.0", "id": 3, "result": 2}, {"jsonrpc": "2.0", "id": 4, "error": -32600}],
        (
            "an invalid element gets its own -32600 in the batch's answer; the others are still answered",
            "无效的元素在批量的回答里得到自己的 -32600；其他元素照样回答",
        ),
    ),
    (
        "[1, 2]",
        [{"jsonrpc": "2.0", "id": None, "error": -32600}] * 2,
        ("each non-object element is -32600", "每个不是对象的元素都是 -32600"),
    ),
    (
        "[]",
        {"jsonrpc": "2.0", "id": None, "error": -32600},
        ("an empty batch is itself one invalid request", "空批量本身就是一个无效请求"),
    ),
    (
        '[{"jsonrpc": "2.0", "method": "log", "params": {"text": "x"}}]',
        None,
        (
            "a batch of notifications only gets no answer at all (None), not an empty list",
            "只含通知的批量完全不回答（None），而不是回答空列表",
        ),
    ),
    (
        '[{"jsonrpc": "2.0", "id": 5, "method": "add"',
        {"jsonrpc": "2.0", "id": None, "error": -32700},
        ("not JSON", "不是 JSON"),
    ),
]


def _shape(response: Any) -> Any:
    """A response with its error reduced to the code, so messages may be worded freely."""
    if isinstance(response, list):
        return [_shape(r) for r in response]
    if isinstance(response, dict) and isinstance(response.get("error"), dict):
        return {**response, "error": response["error"].get("code")}
    return response


@exercise
def check_answer(answer: Any) -> None:
    for line, want, (why_en, why_zh) in BATCH_CASES:
        why = say(why_en, why_zh)
        got = attempt_case(answer, line, HANDLERS, why=why)
        expect(
            _shape(got) == want,
            say(
                f"answer({line!r}) gave {got!r}; expected {want!r} (errors shown by code): {why}",
                f"answer({line!r}) 给出了 {got!r}；应为 {want!r}（错误只显示 code）：{why}",
            ),
        )
    passed(
        say(
            "answer handles single messages and batches: in order, notifications left out, [] refused",
            "answer 能处理单条消息和批量：保持顺序，略去通知，拒绝 []",
        )
    )
