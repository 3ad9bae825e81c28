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
        expect(isinstance(result, dict), f"initialize returned {result!r}: return the result object")
        want = _package_version(asked)
        expect(
            result.get("protocolVersion") == want,
            f"a client asking for {asked!r} got {result.get('protocolVersion')!r}, expected "
            f"{want!r}: answer the client's version when it is in SUPPORTED_VERSIONS, else "
            f"the latest ({LATEST_VERSION})",
        )
        expect(
            isinstance(result.get("capabilities"), dict) and "tools" in result["capabilities"],
            f"initialize returned capabilities {result.get('capabilities')!r}: a server with "
            'tools declares {"tools": {}} so the client knows it may call tools/list',
        )
        info = result.get("serverInfo")
        expect(
            isinstance(info, dict) and {"name", "version"} <= info.keys(),
            f'initialize returned serverInfo {info!r}: give {{"name": ..., "version": ...}}',
        )
    for params in ({**CLIENT}, {"protocolVersion": 20251125, **CLIENT}):
        _, error = _outcome(
            initialize, params, "no protocolVersion string: raise JsonRpcError(INVALID_PARAMS, ...)"
        )
        expect(
            error is not None and error.code == INVALID_PARAMS,
            f"initialize({json.dumps(params)}) must raise JsonRpcError(INVALID_PARAMS, ...): "
            'without a "protocolVersion" string there is nothing to negotiate'
            + (f" (it raised code {error.code})" if error else ""),
        )
    passed("initialize answers the client's version when supported, else the latest; no version: -32602")


def _text(result: dict[str, Any]) -> str:
    content = result.get("content")
    expect(
        isinstance(content, list)
        and content
        and all(
            isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
            for b in content
        ),
        f'call_tool returned {result!r}: content is a list of blocks such as {{"type": "text", "text": "5"}}',
    )
    return " ".join(b["text"] for b in content)


# arguments, what the error text must name, why
INVALID = [
    ({"a": "two", "b": 3}, "a", '"a" is a string, not an integer'),
    ({"a": 2}, "b", '"b" is missing'),
    ({}, "a", "both arguments are missing"),
    ({"a": True, "b": 1}, "a", "true is a boolean, not an integer"),
    ({"a": 1, "b": 2, "c": 3}, "c", 'the schema allows no argument "c"'),
    ({"a": 1.5, "b": 2}, "a", "1.5 is not an integer"),
]


@exercise
def check_call_tool(call_tool: Any) -> None:
    good = attempt(call_tool, {"name": "add", "arguments": {"a": 2, "b": 3}})
    expect(
        isinstance(good, dict) and _text(good) == "5" and not good.get("isError"),
        f"call_tool(add 2 + 3) returned {good!r}: expected "
        '{"content": [{"type": "text", "text": "5"}]} without isError',
    )
    for arguments, field, why in INVALID:
        got, error = _outcome(call_tool, {"name": "add", "arguments": arguments}, why)
        expect(
            error is None,
            f"call_tool with arguments {json.dumps(arguments)} raised {error}: "
            f'{why}, but bad arguments are a tool result with "isError": true, not a protocol '
            "error: the model must see the problem to correct its call",
        )
        expect(
            isinstance(got, dict) and got.get("isError") is True,
            f"call_tool with arguments {json.dumps(arguments)} returned {got!r}: {why}, so "
            'return a result with "isError": true (not a protocol error) that the model can read',
        )
        expect(
            field in _text(got),
            f"the isError text for arguments {json.dumps(arguments)} was "
            f"{_text(got)!r}: name what is wrong ({why}); argument_problems gives the lines",
        )
    _, error = _outcome(call_tool, {"name": "divide", "arguments": {"a": 1, "b": 2}}, "no tool divide")
    expect(
        error is not None and error.code == INVALID_PARAMS,
        "call_tool for the unknown tool 'divide' must raise JsonRpcError(INVALID_PARAMS, ...): "
        "an unknown tool is a protocol error, no change of arguments can fix it"
        + (f" (it raised code {error.code})" if error else ""),
    )
    passed("call_tool adds, reports bad arguments as isError results, and refuses unknown tools")


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
            f"no answer within {ANSWER_WITHIN_S:.0f} s, and the request was not even read: read stdin "
            "line by line (`for line in stdin`), not stdin.read(), which waits for the end of input",
        )
        expect(
            False,
            f"the request was read, but no answer came out of the pipe within {ANSWER_WITHIN_S:.0f} s: "
            "flush stdout after each message (a pipe's writes wait in a buffer until flushed)",
        )
    try:
        response = json.loads(line)
    except json.JSONDecodeError:
        response = None
    expect(
        response is not None or line.strip() != "null",
        "stdout carried a `null` line: answer(line) returns None for a notification, which gets "
        "no answer at all, not even null",
    )
    expect(
        isinstance(response, dict) and response.get("jsonrpc") == "2.0",
        f"stdout carried {line!r}, which is not one JSON-RPC message: stdout is the wire, so write "
        "only json.dumps(message) there, one message per line (no indent), and log to stderr",
    )
    expect(response.get("id") == id, f"the answer {response} is not the answer to request {id}")
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
            "serve_stdio did not return after stdin closed: stop at the end of input "
            "(a `for line in stdin` loop ends there; readline() returns '')",
        )
        extra = wire.next_line(0.2)
        expect(
            extra is None,
            f"stdout carried {extra!r} after the answers: a notification gets no answer at all, "
            "not even null, and nothing else may go to stdout",
        )
    finally:
        wire.close()
    passed("serve_stdio answers each line on one flushed line of its own, skips notifications, ends at EOF")


def _stopped(failure: list[BaseException]) -> None:
    if failure:
        e = failure[0]
        if isinstance(e, NotImplementedError):
            raise CheckFailed(f"serve_stdio is not written yet. Hint: {e}")
        raise CheckFailed(f"serve_stdio raised {type(e).__name__}: {e}")
