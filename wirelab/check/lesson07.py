"""Checks for lab 07: parse one line of JSON-RPC, then dispatch a message to its handler.

The lab's handlers live here (`HANDLERS`), so a check knows what each call
should return: `add` adds two numbers and raises `InvalidParams` for
anything else, `log` records its text, `crash` divides by zero.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed


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
    raise ZeroDivisionError("division by zero")


HANDLERS = {"add": add, "log": log, "crash": crash}


def attempt_case(fn: Any, *args: Any, why: str) -> Any:
    """`attempt(fn, *args)`, and if the learner's code crashes, say what the case expects."""
    try:
        return attempt(fn, *args)
    except CheckFailed as failed:
        if isinstance(failed.__context__, NotImplementedError):
            raise
        raise CheckFailed(f"{failed}; here {why}") from None


# line, expected id of the error response, expected code, why
BAD_LINES = [
    (
        '{"jsonrpc": "2.0", "id": 1, "method": "add"',
        None,
        -32700,
        "the text is not JSON, so no id can be read: answer -32700 with id None",
    ),
    ("[1, 2]", None, -32600, "a JSON array (a batch) is not one message: -32600"),
    ("42", None, -32600, "a JSON number is not a message: -32600"),
    (
        '{"jsonrpc": "1.0", "id": 7, "method": "add"}',
        7,
        -32600,
        'only "jsonrpc": "2.0" is JSON-RPC 2.0: -32600, with the id 7 you could read',
    ),
    ('{"id": 8, "method": "add"}', 8, -32600, 'a message without "jsonrpc" is invalid: -32600'),
    (
        '{"jsonrpc": "2.0", "id": true, "method": "add"}',
        None,
        -32600,
        "true is not an id (in Python, bool is an int: exclude it), and it cannot be echoed: id None",
    ),
    (
        '{"jsonrpc": "2.0", "id": null, "method": "add"}',
        None,
        -32600,
        'null is not an id in MCP (JSON-RPC allows it, MCP does not): a request\'s "id" is a string or '
        "a number; note that a present id of null is not a notification",
    ),
    (
        '{"jsonrpc": "2.0", "id": [1], "method": "add"}',
        None,
        -32600,
        "a list is not an id, and it cannot be echoed: -32600 with id None",
    ),
    (
        '{"jsonrpc": "2.0", "id": 11, "method": 5}',
        11,
        -32600,
        '"method" must be a string (5 is a number): -32600, with the id 11 you could read',
    ),
    (
        '{"jsonrpc": "2.0", "id": 12, "method": "add", "params": "a=1"}',
        12,
        -32600,
        '"params" must be an object: -32600',
    ),
    (
        '{"jsonrpc": "2.0", "id": 9, "method": "add", "params": [1, 2]}',
        9,
        -32600,
        '"params" must be an object (MCP uses named parameters): -32600',
    ),
    (
        '{"jsonrpc": "2.0", "id": 10}',
        10,
        -32600,
        'a message needs "method" (request, notification) or "result"/"error" (response)',
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
        f"parse_message({line!r}) returned {got!r}: return a pair (message, error_response), "
        "with None in one of the two places",
    )
    return got


def _error_of(response: Any, where: str) -> dict[str, Any]:
    expect(
        isinstance(response, dict) and response.get("jsonrpc") == "2.0" and "id" in response,
        f"{where} gave {response!r}: an error response is "
        '{"jsonrpc": "2.0", "id": ..., "error": {"code": ..., "message": ...}}',
    )
    error = response.get("error")
    expect(
        isinstance(error, dict)
        and isinstance(error.get("code"), int)
        and isinstance(error.get("message"), str)
        and error["message"],
        f'{where} gave {response!r}: its "error" must be an object with an int "code" and a '
        'non-empty "message"',
    )
    return error


@exercise
def check_parse_message(parse_message: Any) -> None:
    for line in GOOD_LINES:
        message, problem = _pair(parse_message, line)
        expect(
            problem is None and message == json.loads(line),
            f"parse_message({line!r}) returned ({message!r}, {problem!r}): a valid message "
            "comes back parsed, with no error" + (" (id 0 is a valid id)" if '"id": 0' in line else ""),
        )
    for line, id, code, why in BAD_LINES:
        message, problem = _pair(parse_message, line)
        expect(message is None, f"parse_message({line!r}) returned the message {message!r}: {why}")
        error = _error_of(problem, f"parse_message({line!r})")
        expect(
            error["code"] == code and problem["id"] == id and "result" not in problem,
            f"parse_message({line!r}) answered code {error['code']} with id {problem['id']!r}; "
            f"expected code {code} with id {id!r}: {why}",
        )
    passed("parse_message returns valid messages and answers each bad line with the right code and id")


# message, expected response (None: no response), why
DISPATCH_CASES: list[tuple[dict[str, Any], Any, str]] = [
    (
        {"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"a": 2, "b": 3}},
        {"jsonrpc": "2.0", "id": 1, "result": 5},
        "a request gets its handler's result",
    ),
    (
        {"jsonrpc": "2.0", "id": 0, "method": "add", "params": {"a": 2, "b": 3}},
        {"jsonrpc": "2.0", "id": 0, "result": 5},
        'id 0 is an id: echo it (test `"id" in message`)',
    ),
    ({"jsonrpc": "2.0", "id": "s", "method": "sub"}, -32601, "no handler for the method: -32601"),
    (
        {"jsonrpc": "2.0", "id": 2, "method": "add", "params": {"a": "two"}},
        -32602,
        "the handler raised InvalidParams: -32602",
    ),
    (
        {"jsonrpc": "2.0", "id": 3, "method": "crash"},
        -32603,
        "the handler raised another exception: answer -32603, do not let it escape",
    ),
    (
        {"jsonrpc": "2.0", "method": "log", "params": {"text": "hello"}},
        None,
        "a notification (no id) is never answered, but its handler runs",
    ),
    (
        {"jsonrpc": "2.0", "method": "sub"},
        None,
        "a notification is not answered, even with an unknown method",
    ),
    ({"jsonrpc": "2.0", "method": "crash"}, None, "a notification is not answered, even when it fails"),
    ({"jsonrpc": "2.0", "id": 5, "result": 3}, None, "a response is not answered"),
]


@exercise
def check_dispatch(dispatch: Any) -> None:
    LOGGED.clear()
    for message, want, why in DISPATCH_CASES:
        where = f"dispatch({json.dumps(message)})"
        got = attempt_case(dispatch, dict(message), HANDLERS, why=why)
        if want is None or isinstance(want, dict):
            expect(got == want, f"{where} returned {got!r}, expected {want!r}: {why}")
            continue
        error = _error_of(got, where)
        expect(
            error["code"] == want and got["id"] == message["id"] and "result" not in got,
            f"{where} answered {got!r}: expected an error with code {want} and id {message['id']!r}: {why}",
        )
    if LOGGED != ["hello"]:
        raise CheckFailed(
            f"the log handler saw {LOGGED!r}: call the handler of a notification (once), then return None"
        )
    passed("dispatch answers requests, never notifications, with -32601, -32602 and -32603 where due")


# line, expected answer (None: nothing is sent), why
BATCH_CASES: list[tuple[str, Any, str]] = [
    (
        '{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"a": 1, "b": 2}}',
        {"jsonrpc": "2.0", "id": 1, "result": 3},
        "one message is answered as before, not as a batch of one",
    ),
    (
        '[{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"a": 1, "b": 2}},'
        ' {"jsonrpc": "2.0", "method": "log", "params": {"text": "batched"}},'
        ' {"jsonrpc": "2.0", "id": 2, "method": "sub"}]',
        [{"jsonrpc": "2.0", "id": 1, "result": 3}, {"jsonrpc": "2.0", "id": 2, "error": -32601}],
        "a batch is answered element by element, in order, leaving out the notifications",
    ),
    (
        '[{"jsonrpc": "2.0", "id": 3, "method": "add", "params": {"a": 1, "b": 1}}, {"id": 4}]',
        [{"jsonrpc": "2.0", "id": 3, "result": 2}, {"jsonrpc": "2.0", "id": 4, "error": -32600}],
        "an invalid element gets its own -32600 in the batch's answer; the others are still answered",
    ),
    ("[1, 2]", [{"jsonrpc": "2.0", "id": None, "error": -32600}] * 2, "each non-object element is -32600"),
    ("[]", {"jsonrpc": "2.0", "id": None, "error": -32600}, "an empty batch is itself one invalid request"),
    (
        '[{"jsonrpc": "2.0", "method": "log", "params": {"text": "x"}}]',
        None,
        "a batch of notifications only gets no answer at all (None), not an empty list",
    ),
    (
        '[{"jsonrpc": "2.0", "id": 5, "method": "add"',
        {"jsonrpc": "2.0", "id": None, "error": -32700},
        "not JSON",
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
    for line, want, why in BATCH_CASES:
        got = attempt_case(answer, line, HANDLERS, why=why)
        expect(
            _shape(got) == want,
            f"answer({line!r}) gave {got!r}; expected {want!r} (errors shown by code): {why}",
        )
    passed("answer handles single messages and batches: in order, notifications left out, [] refused")
