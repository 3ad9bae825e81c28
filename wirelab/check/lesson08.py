"""Checks for lab 08: `initialize` (version negotiation), `tools/call`, and the stdio loop.

The lab's server offers one tool, `ADD_TOOL`. The checks call the learner's
handlers the way a session would, with the request's `params`, and compare
the versions chosen with those of the package's server. The stdio loop runs on a
thread between two real OS pipes, with print() going to the output pipe as in a
server process; the check writes requests and reads the lines that come back.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import threading
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.check.lesson07 import attempt_case
from wirelab.edition import say
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError
from wirelab.mcp.protocol import LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS
from wirelab.mcp.server import Server

SUPPORTED_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS
LATEST_VERSION = LATEST_PROTOCOL_VERSION
ADD_TOOL = {
    "name": "add",
    "description": "Add two integers.",
    "inputSchema": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
        "additionalProperties": False,
    },
}

CLIENT = {"capabilities": {}, "clientInfo": {"name": "lab-check", "version": "0"}}
ASKED = [*SUPPORTED_VERSIONS, "2099-01-01", "2024-01-01", "1.0"]


def _package_version(asked: str) -> str:
    """The version the package's server answers to `asked`."""
    session = Server("reference").connect(send=lambda message: None)
    return session.initialize({"protocolVersion": asked, **CLIENT}, {})["protocolVersion"]


def _outcome(handler: Any, params: dict[str, Any], why: str) -> tuple[Any, JsonRpcError | None]:
    """`(result, None)`, or `(None, the JsonRpcError that handler(params) raised)`."""

    def handling(params: dict[str, Any]) -> tuple[Any, JsonRpcError | None]:
        try:
            return handler(params), None
        except JsonRpcError as error:
            return None, error

    handling.__name__ = getattr(handler, "__name__", "the handler")
    return attempt_case(handling, params, why=why)


@exercise
def check_initialize(initialize: Any) -> None:
    for asked in ASKED:
        result = attempt(initialize, {"protocolVersion": asked, **CLIENT})
        expect(
            isinstance(result, dict),
            say(
                f"initialize returned {result!r}: return the result object",
                f"initialize 返回了 {result!r}：应当返回 result 对象",
            ),
        )
        want = _package_version(asked)
        expect(
            result.get("protocolVersion") == want,
            say(
                f"a client asking for {asked!r} got {result.get('protocolVersion')!r}, expected "
                f"{want!r}: answer the client's version when it is in SUPPORTED_VERSIONS, else "
                f"the latest ({LATEST_VERSION})",
                f"客户端请求 {asked!r}，得到的是 {result.get('protocolVersion')!r}，应为 "
                f"{want!r}：客户端的版本在 SUPPORTED_VERSIONS 中就用它，否则用最新版（{LATEST_VERSION}）",
            ),
        )
        expect(
            isinstance(result.get("capabilities"), dict) and "tools" in result["capabilities"],
            say(
                f"initialize returned capabilities {result.get('capabilities')!r}: a server with "
                'tools declares {"tools": {}} so the client knows it may call tools/list',
                f"initialize 返回的 capabilities 是 {result.get('capabilities')!r}："
                '有工具的服务器要声明 {"tools": {}}，客户端才知道可以调用 tools/list',
            ),
        )
        info = result.get("serverInfo")
        expect(
            isinstance(info, dict) and {"name", "version"} <= info.keys(),
            say(
                f'initialize returned serverInfo {info!r}: give {{"name": ..., "version": ...}}',
                f'initialize 返回的 serverInfo 是 {info!r}：应当给出 {{"name": ..., "version": ...}}',
            ),
        )
    for params in ({**CLIENT}, {"protocolVersion": 20251125, **CLIENT}):
        _, error = _outcome(
            initialize,
            params,
            say(
                "no protocolVersion string: raise JsonRpcError(INVALID_PARAMS, ...)",
                "没有 protocolVersion 字符串：应当 raise JsonRpcError(INVALID_PARAMS, ...)",
            ),
        )
        expect(
            error is not None and error.code == INVALID_PARAMS,
            say(
                f"initialize({json.dumps(params)}) must raise JsonRpcError(INVALID_PARAMS, ...): "
                'without a "protocolVersion" string there is nothing to negotiate'
                + (f" (it raised code {error.code})" if error else ""),
                f"initialize({json.dumps(params)}) 必须 raise JsonRpcError(INVALID_PARAMS, ...)："
                '没有 "protocolVersion" 字符串就无从协商'
                + (f"（它抛出的 code 是 {error.code}）" if error else ""),
            ),
        )
    passed(
        say(
            "initialize answers the client's version when supported, else the latest; no version: -32602",
            "initialize 支持客户端的版本就用它回答，否则回答最新版；没有版本：-32602",
        )
    )


def _text(result: dict[str, Any]) -> str:
    content = result.get("content")
    expect(
        isinstance(content, list)
        and content
        and all(
            isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
            for b in content
        ),
        say(
            f"call_tool returned {result!r}: "
            'content is a list of blocks such as {"type": "text", "text": "5"}',
            f"call_tool 返回了 {result!r}："
            'content 是由内容块组成的列表，例如 {"type": "text", "text": "5"}',
        ),
    )
    return " ".join(b["text"] for b in content)


# arguments, what the error text must name, why (English, Chinese)
INVALID = [
    ({"a": "two", "b": 3}, "a", ('"a" is a string, not an integer', '"a" 是字符串，不是整数')),
    ({"a": 2}, "b", ('"b" is missing', '缺少 "b"')),
    ({}, "a", ("both arguments are missing", "两个参数都缺了")),
    ({"a": True, "b": 1}, "a", ("true is a boolean, not an integer", "true 是布尔值，不是整数")),
    ({"a": 1, "b": 2, "c": 3}, "c", ('the schema allows no argument "c"', 'schema 不允许参数 "c"')),
    ({"a": 1.5, "b": 2}, "a", ("1.5 is not an integer", "1.5 不是整数")),
]


@exercise
def check_call_tool(call_tool: Any) -> None:
    good = attempt(call_tool, {"name": "add", "arguments": {"a": 2, "b": 3}})
    expect(
        isinstance(good, dict) and _text(good) == "5" and not good.get("isError"),
        say(
            f"call_tool(add 2 + 3) returned {good!r}: expected "
            '{"content": [{"type": "text", "text": "5"}]} without isError',
            f"call_tool(add 2 + 3) 返回了 {good!r}：应为 "
            '{"content": [{"type": "text", "text": "5"}]}，且不带 isError',
        ),
    )
    for arguments, field, (why_en, why_zh) in INVALID:
        why = say(why_en, why_zh)
        got, error = _outcome(call_tool, {"name": "add", "arguments": arguments}, why)
        expect(
            error is None,
            say(
                f"call_tool with arguments {json.dumps(arguments)} raised {error}: "
                f'{why}, but bad arguments are a tool result with "isError": true, not a protocol '
                "error: the model must see the problem to correct its call",
                f"参数为 {json.dumps(arguments)} 时 call_tool "
                f"抛出了 code 为 {error.code if error else None} 的 JsonRpcError："
                f'{why}，但参数有误应当是带 "isError": true 的工具结果，而不是协议错误：'
                "模型必须看到问题，才能改正它的调用",
            ),
        )
        expect(
            isinstance(got, dict) and got.get("isError") is True,
            say(
                f"call_tool with arguments {json.dumps(arguments)} returned {got!r}: {why}, so "
                'return a result with "isError": true (not a protocol error) that the model can read',
                f"参数为 {json.dumps(arguments)} 时 call_tool 返回了 {got!r}：{why}，所以"
                '应当返回模型读得到的、带 "isError": true 的结果（而不是协议错误）',
            ),
        )
        expect(
            field in _text(got),
            say(
                f"the isError text for arguments {json.dumps(arguments)} was "
                f"{_text(got)!r}: name what is wrong ({why}); argument_problems gives the lines",
                f"参数为 {json.dumps(arguments)} 时 isError 的文本是 "
                f"{_text(got)!r}：要说出哪里不对（{why}）；argument_problems 会给出这些行",
            ),
        )
    _, error = _outcome(
        call_tool,
        {"name": "divide", "arguments": {"a": 1, "b": 2}},
        say("no tool divide", "没有 divide 这个工具"),
    )
    expect(
        error is not None and error.code == INVALID_PARAMS,
        say(
            "call_tool for the unknown tool 'divide' must raise JsonRpcError(INVALID_PARAMS, ...): "
            "an unknown tool is a protocol error, no change of arguments can fix it"
            + (f" (it raised code {error.code})" if error else ""),
            "对未知工具 'divide'，call_tool 必须 raise JsonRpcError(INVALID_PARAMS, ...)："
            "未知工具是协议错误，怎么改参数都修不好"
            + (f"（它抛出的 code 是 {error.code}）" if error else ""),
        ),
    )
    passed(
        say(
            "call_tool adds, reports bad arguments as isError results, and refuses unknown tools",
            "call_tool 能做加法，把错误参数报告为 isError 结果，并拒绝未知工具",
        )
    )


# --- the stdio loop ---------------------------------------------------------------

ANSWER_WITHIN_S = 2.0


class _Wire:
    """Two real OS pipes around a server loop: the check writes its stdin and reads its stdout."""

    def __init__(self) -> None:
        into_r, self._into_w = os.pipe()
        self._out_r, out_w = os.pipe()
        self.stdin = open(into_r, encoding="utf-8")  # noqa: SIM115 (closed by close())
        self.stdout = open(out_w, "w", encoding="utf-8")  # noqa: SIM115
        self._send = open(self._into_w, "w", encoding="utf-8")  # noqa: SIM115
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with open(self._out_r, encoding="utf-8") as out:
            for line in out:
                self.lines.put(line)

    def send(self, line: str) -> None:
        self._send.write(line + "\n")
        self._send.flush()

    def end_of_input(self) -> None:
        self._send.close()

    def next_line(self, timeout_s: float) -> str | None:
        try:
            return self.lines.get(timeout=timeout_s)
        except queue.Empty:
            return None

    def close(self) -> None:
        for stream in (self._send, self.stdin, self.stdout):
            with contextlib.suppress(OSError, ValueError):
                stream.close()


def _answer_for(seen: list[str]) -> Any:
    """The JSON-RPC endpoint the check serves: ping answers {}, a notification gets None."""

    def answer(line: str) -> dict[str, Any] | None:
        seen.append(line)
        message = json.loads(line)
        if "id" not in message:
            return None
        return {"jsonrpc": "2.0", "id": message["id"], "result": {"pong": message.get("params", {})}}

    return answer


def _expect_answer(wire: _Wire, seen: list[str], request: str, id: int) -> dict[str, Any]:
    line = wire.next_line(ANSWER_WITHIN_S)
    if line is None:
        expect(
            any(line.strip() == request for line in seen),
            say(
                f"no answer within {ANSWER_WITHIN_S:.0f} s, and the request was not even read: read stdin "
                "line by line (`for line in stdin`), not stdin.read(), which waits for the end of input",
                f"{ANSWER_WITHIN_S:.0f} 秒内没有回答，请求甚至没有被读取：要逐行读 stdin"
                "（`for line in stdin`），不要用 stdin.read()，它会一直等到输入结束",
            ),
        )
        expect(
            False,
            say(
                f"the request was read, but no answer came out of the pipe within {ANSWER_WITHIN_S:.0f} s: "
                "flush stdout after each message (a pipe's writes wait in a buffer until flushed)",
                f"请求已被读取，但 {ANSWER_WITHIN_S:.0f} 秒内管道里没有出来回答："
                "每条消息之后都要 flush stdout（写入管道的内容在 flush 之前一直待在缓冲区里）",
            ),
        )
    try:
        response = json.loads(line)
    except json.JSONDecodeError:
        response = None
    expect(
        response is not None or line.strip() != "null",
        say(
            "stdout carried a `null` line: answer(line) returns None for a notification, which gets "
            "no answer at all, not even null",
            "stdout 上出现了一行 `null`：对通知 answer(line) 返回 None，通知完全不需要回答，连 null 也不要",
        ),
    )
    expect(
        isinstance(response, dict) and response.get("jsonrpc") == "2.0",
        say(
            f"stdout carried {line!r}, which is not one JSON-RPC message: stdout is the wire, so write "
            "only json.dumps(message) there, one message per line (no indent), and log to stderr",
            f"stdout 上出现了 {line!r}，它不是一条 JSON-RPC 消息：stdout 就是协议通道，"
            "只能往上写 json.dumps(message)，每行一条消息（不缩进），日志写到 stderr",
        ),
    )
    expect(
        response.get("id") == id,
        say(
            f"the answer {response} is not the answer to request {id}",
            f"回答 {response} 不是对请求 {id} 的回答",
        ),
    )
    return response


@exercise
def check_serve_stdio(serve_stdio: Any) -> None:
    wire, seen = _Wire(), []
    answer = _answer_for(seen)
    failure: list[BaseException] = []

    def serve() -> None:
        try:
            with contextlib.redirect_stdout(wire.stdout):  # as in a server process: print() goes to the pipe
                serve_stdio(answer, wire.stdin, wire.stdout)
        except BaseException as e:  # reported below, with the case
            failure.append(e)

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        requests = [
            ('{"jsonrpc": "2.0", "id": 1, "method": "ping"}', 1),
            ('{"jsonrpc": "2.0", "method": "notifications/initialized"}', None),
            ('{"jsonrpc": "2.0", "id": 2, "method": "ping", "params": {"n": "two\\nlines"}}', 2),
        ]
        for request, id in requests:
            wire.send(request)
            if id is not None:
                _stopped(failure)
                _expect_answer(wire, seen, request, id)
        wire.end_of_input()
        server.join(ANSWER_WITHIN_S)
        _stopped(failure)
        expect(
            not server.is_alive(),
            say(
                "serve_stdio did not return after stdin closed: stop at the end of input "
                "(a `for line in stdin` loop ends there; readline() returns '')",
                "stdin 关闭后 serve_stdio 没有返回：输入结束时就要停下"
                "（`for line in stdin` 循环到那里自然结束；readline() 会返回 ''）",
            ),
        )
        extra = wire.next_line(0.2)
        expect(
            extra is None,
            say(
                f"stdout carried {extra!r} after the answers: a notification gets no answer at all, "
                "not even null, and nothing else may go to stdout",
                f"回答之后 stdout 上还出现了 {extra!r}：通知完全不需要回答，连 null 也不要，"
                "其他任何东西也不能写到 stdout",
            ),
        )
    finally:
        wire.close()
    passed(
        say(
            "serve_stdio answers each line on one flushed line of its own, skips notifications, ends at EOF",
            "serve_stdio 对每一行都用单独一行回答并及时 flush，跳过通知，遇到 EOF 就结束",
        )
    )


def _stopped(failure: list[BaseException]) -> None:
    if failure:
        e = failure[0]
        if isinstance(e, NotImplementedError):
            raise CheckFailed(
                say(f"serve_stdio is not written yet. Hint: {e}", f"serve_stdio 还没有写。提示：{e}")
            )
        raise CheckFailed(
            say(f"serve_stdio raised {type(e).__name__}: {e}", f"serve_stdio 抛出了 {type(e).__name__}：{e}")
        )
