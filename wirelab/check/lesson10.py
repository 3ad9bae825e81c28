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
from wirelab.edition import say
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
        why = (
            say(
                f"this MCP tool has no {' and no '.join(missing)} (both are optional)",
                f"这个 MCP 工具没有 {' 也没有 '.join(missing)}（description 和 inputSchema 都是可选的）",
            )
            if missing
            else say("a tool", "一个工具")
        )
        got = attempt_case(to_openai_tool, dict(mcp_tool), "notes", why=why)
        want = openai_tool_spec(mcp_tool)
        expect(
            isinstance(got, dict) and got.get("type") == "function" and isinstance(got.get("function"), dict),
            say(
                f"to_openai_tool({mcp_tool['name']!r}) returned {got!r}: a Chat Completions tool is "
                '{"type": "function", "function": {"name": ..., "description": ..., "parameters": ...}}',
                f"to_openai_tool({mcp_tool['name']!r}) 返回了 {got!r}：Chat Completions 的工具格式是 "
                '{"type": "function", "function": {"name": ..., "description": ..., "parameters": ...}}',
            ),
        )
        for key in ("description", "parameters"):
            expect(
                got["function"].get(key) == want["function"][key],
                say(
                    f"to_openai_tool({mcp_tool['name']!r}) gave function.{key} = "
                    f"{got['function'].get(key)!r}, expected {want['function'][key]!r}: ",
                    f"to_openai_tool({mcp_tool['name']!r}) 给出的 function.{key} = "
                    f"{got['function'].get(key)!r}，应为 {want['function'][key]!r}：",
                )
                + _why(key),
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
            say(
                f"the tool {tool!r} of server {server!r} became {name!r}, which Chat Completions refuses: "
                "a name is 1 to 64 letters, digits, '_' or '-' (MCP allows '.' and 128 characters)",
                f"服务器 {server!r} 的工具 {tool!r} 变成了 {name!r}，Chat Completions 会拒绝它："
                "名字只能是 1 到 64 个字母、数字、'_' 或 '-'（MCP 允许 '.' 和 128 个字符）",
            ),
        )
    seen: dict[str, tuple[str, str]] = {}
    for pair, name in made.items():
        expect(
            name not in seen,
            say(
                f"{seen.get(name)} and {pair} both became {name!r}: the host could not tell which tool "
                "the model called. Add a short hash of the full name when you change it",
                f"{seen.get(name)} 和 {pair} 都变成了 {name!r}：Host 就分不清模型调用的是哪个工具了。"
                "改动名字时，加上完整名字的一段短哈希",
            ),
        )
        seen[name] = pair
    for (server, tool), name in made.items():
        expect(
            name.startswith(f"{server}__"),
            say(
                f"the tool {tool!r} of server {server!r} became {name!r}: two servers may both have a tool "
                f"of that name, so prefix the server ({server}__...)",
                f"服务器 {server!r} 的工具 {tool!r} 变成了 {name!r}：两个服务器可能都有同名的工具，"
                f"所以要加上服务器前缀（{server}__...）",
            ),
        )
        expect(
            name == expected_name(server, tool),
            say(
                f"the tool {tool!r} of server {server!r} became {name!r}, expected "
                f"{expected_name(server, tool)!r}: keep server__tool when it is valid; otherwise replace "
                "each other character with '_', cut to 55 characters and add '_' and 8 hex digits of the "
                "SHA-256 of server__tool",
                f"服务器 {server!r} 的工具 {tool!r} 变成了 {name!r}，应为 "
                f"{expected_name(server, tool)!r}：server__tool 合法就保留；否则把其他字符都换成 '_'，"
                "截到 55 个字符，再加上 '_' 和 server__tool 的 SHA-256 的前 8 位十六进制数字",
            ),
        )
    passed(
        say(
            "to_openai_tool namespaces each tool, keeps valid names, and makes the others valid and distinct",
            "to_openai_tool 给每个工具加上命名空间，保留合法的名字，并把其他名字改得合法且互不相同",
        )
    )


def _why(key: str) -> str:
    return {
        "description": say(
            'use the description, or "" when the tool has none', '用工具的 description，没有时用 ""'
        ),
        "parameters": say(
            'parameters is the inputSchema, or {"type": "object", "properties": {}} when there is none',
            'parameters 就是 inputSchema，没有时用 {"type": "object", "properties": {}}',
        ),
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
        say(
            f"approval_executor(approve) returned {execute!r}: return an executor, "
            "a function (calls, tools) -> list of result strings",
            f"approval_executor(approve) 返回了 {execute!r}：应当返回一个执行器，"
            "即函数 (calls, tools) -> 结果字符串的列表",
        ),
    )
    results = attempt(execute, CALLS, LIBRARY)
    expect(
        isinstance(results, list) and len(results) == len(CALLS),
        say(
            f"the executor returned {results!r}: one result string per call, in call order",
            f"执行器返回了 {results!r}：每个调用一个结果字符串，按调用顺序排列",
        ),
    )
    expect(
        seen == [c["function"]["name"] for c in CALLS],
        say(
            f"approve was asked about {seen}: ask it once about every call, in order, before running it",
            f"approve 被问到的是 {seen}：每个调用运行之前都要按顺序问它一次",
        ),
    )
    expect(
        RUNS["delete_note"] == 0,
        say(
            "delete_note ran although approve said no: check approve(call) before running the call",
            "approve 说了不行，delete_note 却还是运行了：运行调用之前要先检查 approve(call)",
        ),
    )
    for call, result in zip(CALLS, results, strict=True):
        if call["function"]["name"] == "read_note":
            want = execute_tool_call(call, LIBRARY)
            expect(
                result == want,
                say(
                    f"the approved call {call['function']['arguments']} gave {result!r}, "
                    f"expected {want!r}: run it with execute_tool_call(call, tools)",
                    f"获批的调用 {call['function']['arguments']} 得到的是 {result!r}，"
                    f"应为 {want!r}：用 execute_tool_call(call, tools) 运行它",
                ),
            )
    error = error_of(results[1]) if isinstance(results[1], str) else None
    expect(
        error is not None and error.get("code") == "denied",
        say(
            f"the denied call gave {results[1]!r}: return a structured error the model can read, "
            'e.g. ToolError("denied", "the user did not approve delete_note").content()',
            f"被拒绝的调用得到的是 {results[1]!r}：应当返回模型读得懂的结构化错误，"
            '例如 ToolError("denied", "the user did not approve delete_note").content()',
        ),
    )
    passed(
        say(
            "the executor asks before each call, runs the approved ones, and reports the denied ones",
            "执行器在每个调用之前先询问，运行获批的调用，并报告被拒绝的调用",
        )
    )
