"""Checks for lab 08: the `initialize` handler (version negotiation) and `tools/call`.

The lab's server offers one tool, `ADD_TOOL`. The checks call the learner's
handlers the way a session would, with the request's `params`, and compare
the versions chosen with those of the package's server.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.check import attempt, expect, passed
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
