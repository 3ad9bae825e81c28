"""Checks for lab 10: MCP tools as OpenAI tool specs with safe names, and an approval executor.

`to_openai_tool`'s description and parameters are compared with the package's
`openai_tool_spec` on the example server's real `tools/list` (taken in-process,
no subprocess) and on a bare tool; its names with the rule the lab states, on
names with dots, names too long, and names that sanitize alike. The executor runs
calls against `LIBRARY`, two local tools that count their runs, so a check can tell
a denied call that still ran.
"""

from __future__ import annotations

import hashlib
import json
import re
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


VALID_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
# (server, MCP tool name) pairs a host meets: dots, a name too long, two that sanitize alike
NAMES = [
    ("notes", "search_notes"),
    ("files", "fs.read"),
    ("files", "fs_read"),
    ("github", "repos.pull_requests.list_review_comments_for_a_pull_request_of_a_repository"),
    ("github", "repos.pull_requests.list_review_comments_for_a_pull_request_of_a_repository_2"),
]


def expected_name(server: str, tool: str) -> str:
    """The rule the lab states: `server__tool`, kept if valid, else sanitized, cut and hashed."""
    name = f"{server}__{tool}"
    if VALID_NAME.fullmatch(name):
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    return re.sub(r"[^a-zA-Z0-9_-]", "_", name)[:55] + "_" + digest


@exercise
def check_to_openai_tool(to_openai_tool: Any) -> None:
    for mcp_tool in [*example_tools(), BARE_TOOL, NO_SCHEMA_TOOL]:
        missing = [key for key in ("description", "inputSchema") if key not in mcp_tool]
        why = f"this MCP tool has no {' and no '.join(missing)} (both are optional)" if missing else "a tool"
        got = attempt_case(to_openai_tool, dict(mcp_tool), "notes", why=why)
        want = openai_tool_spec(mcp_tool)
        expect(
            isinstance(got, dict) and got.get("type") == "function" and isinstance(got.get("function"), dict),
            f"to_openai_tool({mcp_tool['name']!r}) returned {got!r}: a Chat Completions tool is "
            '{"type": "function", "function": {"name": ..., "description": ..., "parameters": ...}}',
        )
        for key in ("description", "parameters"):
            expect(
                got["function"].get(key) == want["function"][key],
                f"to_openai_tool({mcp_tool['name']!r}) gave function.{key} = "
                f"{got['function'].get(key)!r}, expected {want['function'][key]!r}: " + _why(key),
            )
    made = {
        (server, tool): attempt(to_openai_tool, {"name": tool, "inputSchema": {"type": "object"}}, server)[
            "function"
        ]["name"]
        for server, tool in NAMES
    }
    for (server, tool), name in made.items():
        expect(
            isinstance(name, str) and VALID_NAME.fullmatch(name) is not None,
            f"the tool {tool!r} of server {server!r} became {name!r}, which Chat Completions refuses: "
            "a name is 1 to 64 letters, digits, '_' or '-' (MCP allows '.' and 128 characters)",
        )
    seen: dict[str, tuple[str, str]] = {}
    for pair, name in made.items():
        expect(
            name not in seen,
            f"{seen.get(name)} and {pair} both became {name!r}: the host could not tell which tool "
            "the model called. Add a short hash of the full name when you change it",
        )
        seen[name] = pair
    for (server, tool), name in made.items():
        expect(
            name.startswith(f"{server}__"),
            f"the tool {tool!r} of server {server!r} became {name!r}: two servers may both have a tool "
            f"of that name, so prefix the server ({server}__...)",
        )
        expect(
            name == expected_name(server, tool),
            f"the tool {tool!r} of server {server!r} became {name!r}, expected "
            f"{expected_name(server, tool)!r}: keep server__tool when it is valid; otherwise replace "
            "each other character with '_', cut to 55 characters and add '_' and 8 hex digits of the "
            "SHA-256 of server__tool",
        )
    passed("to_openai_tool namespaces each tool, keeps valid names, and makes the others valid and distinct")


def _why(key: str) -> str:
    return {
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
