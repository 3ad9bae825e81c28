"""Checks for lab 10: MCP tools as OpenAI tool specs, and an executor behind an approval.

`to_openai_tool` is compared with the package's `openai_tool_spec` on the
example server's real `tools/list` (taken in-process, no subprocess) and on a
bare tool. The executor runs calls against `LIBRARY`, two local tools that
count their runs, so a check can tell a denied call that still ran.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from wirelab.check import attempt, exercise, expect, passed
from wirelab.check.lesson07 import attempt_case
from wirelab.errors import error_of
from wirelab.loop import execute_tool_call
from wirelab.mcp.example import build_server
from wirelab.mcp.host import openai_tool_spec
from wirelab.tools import Tool, ToolRegistry

RUNS: Counter[str] = Counter()
BARE_TOOL = {"name": "ping_server", "inputSchema": {"type": "object"}}
NO_SCHEMA_TOOL = {"name": "now", "description": "The time."}


def example_tools() -> list[dict[str, Any]]:
    """The example server's `tools/list`, as a client would receive it."""
    session = build_server().connect(send=lambda message: None)
    return session.list_tools({}, {})["tools"]


@exercise
def check_to_openai_tool(to_openai_tool: Any) -> None:
    for mcp_tool in [*example_tools(), BARE_TOOL, NO_SCHEMA_TOOL]:
        missing = [key for key in ("description", "inputSchema") if key not in mcp_tool]
        why = f"this MCP tool has no {' and no '.join(missing)} (both are optional)" if missing else "a tool"
        got = attempt_case(to_openai_tool, dict(mcp_tool), why=why)
        want = openai_tool_spec(mcp_tool)
        expect(
            isinstance(got, dict) and got.get("type") == "function" and isinstance(got.get("function"), dict),
            f"to_openai_tool({mcp_tool['name']!r}) returned {got!r}: a Chat Completions tool is "
            '{"type": "function", "function": {"name": ..., "description": ..., "parameters": ...}}',
        )
        for key in ("name", "description", "parameters"):
            expect(
                got["function"].get(key) == want["function"][key],
                f"to_openai_tool({mcp_tool['name']!r}) gave function.{key} = "
                f"{got['function'].get(key)!r}, expected {want['function'][key]!r}: " + _why(key),
            )
    passed("to_openai_tool turns every MCP tool into a Chat Completions tool spec")


def _why(key: str) -> str:
    return {
        "name": "keep the MCP tool's name",
        "description": 'use the description, or "" when the tool has none',
        "parameters": 'parameters is the inputSchema, or {"type": "object", "properties": {}} '
        "when there is none",
    }[key]


def _read_note(slug: str) -> str:
    RUNS["read_note"] += 1
    return f"note {slug}"


def _delete_note(slug: str) -> str:
    RUNS["delete_note"] += 1
    return f"deleted {slug}"


LIBRARY = ToolRegistry(
    [
        Tool(
            "read_note",
            "Read one note.",
            {"type": "object", "properties": {"slug": {"type": "string"}}, "required": ["slug"]},
            _read_note,
        ),
        Tool(
            "delete_note",
            "Delete one note.",
            {"type": "object", "properties": {"slug": {"type": "string"}}, "required": ["slug"]},
            _delete_note,
        ),
    ]
)


def _call(index: int, name: str, slug: str) -> dict[str, Any]:
    return {
        "id": f"call_{index}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps({"slug": slug})},
    }


CALLS = [_call(1, "read_note", "stdio"), _call(2, "delete_note", "stdio"), _call(3, "read_note", "ids")]


@exercise
def check_approval_executor(approval_executor: Any) -> None:
    RUNS.clear()
    seen: list[str] = []

    def approve(call: dict[str, Any]) -> bool:
        seen.append(call["function"]["name"])
        return call["function"]["name"] != "delete_note"

    execute = attempt(approval_executor, approve)
    expect(
        callable(execute),
        f"approval_executor(approve) returned {execute!r}: return an executor, "
        "a function (calls, tools) -> list of result strings",
    )
    results = attempt(execute, CALLS, LIBRARY)
    expect(
        isinstance(results, list) and len(results) == len(CALLS),
        f"the executor returned {results!r}: one result string per call, in call order",
    )
    expect(
        seen == [c["function"]["name"] for c in CALLS],
        f"approve was asked about {seen}: ask it once about every call, in order, before running it",
    )
    expect(
        RUNS["delete_note"] == 0,
        "delete_note ran although approve said no: check approve(call) before running the call",
    )
    for call, result in zip(CALLS, results, strict=True):
        if call["function"]["name"] == "read_note":
            want = execute_tool_call(call, LIBRARY)
            expect(
                result == want,
                f"the approved call {call['function']['arguments']} gave {result!r}, "
                f"expected {want!r}: run it with execute_tool_call(call, tools)",
            )
    error = error_of(results[1]) if isinstance(results[1], str) else None
    expect(
        error is not None and error.get("code") == "denied",
        f"the denied call gave {results[1]!r}: return a structured error the model can read, "
        'e.g. ToolError("denied", "the user did not approve delete_note").content()',
    )
    passed("the executor asks before each call, runs the approved ones, and reports the denied ones")
