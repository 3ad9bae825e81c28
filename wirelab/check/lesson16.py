"""Checks for lab 16: tools written with the official SDK, and the SDK's client on our server.

`build_units_server` must return an `mcp.server.MCPServer` whose `to_fahrenheit`
tool has described parameters and structured output; `build_countdown_server`
one whose `countdown` reports progress through its `Context`. Both are driven
in-process by the SDK's own `mcp.Client`. `sdk_search` is given an SDK stdio
transport to the package's hand-written notes server (a subprocess).

The learner's code is async (the SDK is), the check cells are not: each
exchange runs on an event loop of its own, in a worker thread, so the checks
also work inside Jupyter's running loop.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from mcp import Client, StdioServerParameters, stdio_client
from mcp.server import MCPServer

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say

T = TypeVar("T")
WAIT_S = 60
NOTES_SERVER = [sys.executable, "-m", "wirelab.mcp.example"]


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` to the end on a fresh loop in a worker thread; its errors become CheckFailed."""
    with ThreadPoolExecutor(1) as thread:
        try:
            return thread.submit(asyncio.run, coroutine).result(WAIT_S)
        except CheckFailed:
            raise
        except NotImplementedError as e:
            raise CheckFailed(
                say(f"sdk_search is not written yet. Hint: {e}", f"sdk_search 还没有写。提示：{e}")
            ) from None
        except Exception as e:
            raise CheckFailed(
                say(
                    f"talking to the server failed: {type(e).__name__}: {e}",
                    f"与服务器通信失败：{type(e).__name__}：{e}",
                )
            ) from None


def _server(build: Any) -> MCPServer:
    server = attempt(build)
    expect(
        isinstance(server, MCPServer),
        say(
            f"{getattr(build, '__name__', 'the builder')}() returned {type(server).__name__}: "
            'return the MCPServer, e.g. units = MCPServer("units"); ...; return units',
            f"{getattr(build, '__name__', 'the builder')}() 返回的是 {type(server).__name__}："
            '应当返回 MCPServer，例如 `units = MCPServer("units"); ...; return units`',
        ),
    )
    return server


def _tool(tools: list[Any], name: str) -> dict[str, Any]:
    by_name = {t.name: t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools}
    expect(
        name in by_name,
        say(
            f"the server lists {sorted(by_name)}: register a tool named {name!r} with @mcp.tool()",
            f"服务器列出的是 {sorted(by_name)}：用 @mcp.tool() 注册一个名为 {name!r} 的工具",
        ),
    )
    return by_name[name]


async def _units_exchange(server: MCPServer) -> tuple[dict[str, Any], Any, Any]:
    async with Client(server, mode="legacy") as client:
        tool = _tool((await client.list_tools()).tools, "to_fahrenheit")
        return (
            tool,
            await client.call_tool("to_fahrenheit", {"celsius": 100}),
            await client.call_tool("to_fahrenheit", {"celsius": "hot"}),
        )


@exercise
def check_units_server(build_units_server: Any) -> None:
    tool, boiling, refused = _run(_units_exchange(_server(build_units_server)))
    celsius = tool["inputSchema"].get("properties", {}).get("celsius", {})
    expect(
        celsius.get("type") == "number" and tool["inputSchema"].get("required") == ["celsius"],
        say(
            f"to_fahrenheit's input schema is {tool['inputSchema']}: "
            "take one required parameter celsius: float",
            f"to_fahrenheit 的输入 schema 是 {tool['inputSchema']}：应当只有一个必填参数 celsius: float",
        ),
    )
    expect(
        bool(celsius.get("description")),
        say(
            "celsius has no description: write celsius: Annotated[float, Field(description=...)] "
            "(the SDK does not read an Args: section)",
            "celsius 没有 description：写成 celsius: Annotated[float, Field(description=...)]"
            "（SDK 不读 docstring 的 Args: 部分）",
        ),
    )
    expect(
        bool(tool.get("description")),
        say(
            "to_fahrenheit has no description: give it a docstring",
            "to_fahrenheit 没有 description：给它写一个 docstring",
        ),
    )
    output = tool.get("outputSchema", {})
    expect(
        output.get("properties", {}).get("fahrenheit", {}).get("type") == "number",
        say(
            f"to_fahrenheit's outputSchema is {output or 'missing'}: return a TypedDict with one "
            "field, fahrenheit: float",
            f"to_fahrenheit 的 outputSchema 是 {output or '（缺失）'}："
            "应当返回只有一个字段 fahrenheit: float 的 TypedDict",
        ),
    )
    expect(
        boiling.structured_content == {"fahrenheit": 212.0} and not boiling.is_error,
        say(
            f"to_fahrenheit(celsius=100) gave structuredContent {boiling.structured_content}, "
            "expected {'fahrenheit': 212.0}: F = C * 9 / 5 + 32",
            f"to_fahrenheit(celsius=100) 给出的 structuredContent 是 {boiling.structured_content}，"
            "应为 {'fahrenheit': 212.0}：F = C * 9 / 5 + 32",
        ),
    )
    expect(
        refused.is_error is True,
        say(
            'to_fahrenheit(celsius="hot") was not an error result: let the type hint do the '
            "checking (float), the SDK turns a bad argument into isError",
            'to_fahrenheit(celsius="hot") 不是错误结果：让类型注解（float）来做检查，'
            "SDK 会把错误的参数变成 isError",
        ),
    )
    passed(
        say(
            "to_fahrenheit has a described schema, structured output, and refuses a bad argument",
            "to_fahrenheit 有带描述的 schema 和结构化输出，并拒绝错误的参数",
        )
    )


async def _countdown_exchange(server: MCPServer, steps: int) -> tuple[dict[str, Any], list[tuple], Any]:
    progress: list[tuple] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total))

    async with Client(server, mode="legacy") as client:
        tool = _tool((await client.list_tools()).tools, "countdown")
        result = await client.call_tool("countdown", {"steps": steps}, progress_callback=on_progress)
    return tool, progress, result


@exercise
def check_countdown_server(build_countdown_server: Any) -> None:
    tool, progress, result = _run(_countdown_exchange(_server(build_countdown_server), 4))
    properties = tool["inputSchema"].get("properties", {})
    expect(
        "steps" in properties and "ctx" not in properties,
        say(
            f"countdown's input schema has {sorted(properties)}: take steps: int and ctx: Context "
            "(a Context parameter is passed by the SDK, not by the client)",
            f"countdown 的输入 schema 里是 {sorted(properties)}：参数应为 steps: int 和 ctx: Context"
            "（Context 参数由 SDK 传入，不由客户端传）",
        ),
    )
    expect(
        not result.is_error,
        say(f"countdown(steps=4) failed: {result.content}", f"countdown(steps=4) 失败了：{result.content!r}"),
    )
    expect(
        progress == [(1, 4), (2, 4), (3, 4), (4, 4)],
        say(
            f"countdown(steps=4) reported progress {progress}, expected (1, 4) … (4, 4): "
            "await ctx.report_progress(done, steps) after each step",
            f"countdown(steps=4) 报告的进度是 {progress}，应为 (1, 4) … (4, 4)："
            "每一步之后都要 await ctx.report_progress(done, steps)",
        ),
    )
    passed(
        say(
            "countdown reports its progress through the Context, one step at a time",
            "countdown 通过 Context 一步一步地报告进度",
        )
    )


async def _search(sdk_search: Any, query: str) -> Any:
    with tempfile.TemporaryFile("w+") as errlog:
        params = StdioServerParameters(command=NOTES_SERVER[0], args=NOTES_SERVER[1:])
        return await sdk_search(stdio_client(params, errlog=errlog), query)


@exercise
def check_sdk_search(sdk_search: Any) -> None:
    expect(
        asyncio.iscoroutinefunction(sdk_search),
        say(
            "sdk_search must be async def: the SDK's client is used with async with and await",
            "sdk_search 必须是 async def：SDK 的客户端要配合 async with 和 await 使用",
        ),
    )
    got = _run(_search(sdk_search, "stdout"))
    expect(
        isinstance(got, tuple) and len(got) == 2,
        say(
            f"sdk_search returned {got!r}: return a pair (tool names, text of the search result)",
            f"sdk_search 返回了 {got!r}：应当返回一对（工具名列表，搜索结果的文本）",
        ),
    )
    names, text = got
    expect(
        names == ["search_notes", "add_note", "note_stats", "rebuild_index"],
        say(
            f"sdk_search gave the tool names {names!r}: [t.name for t in (await client.list_tools()).tools]",
            f"sdk_search 给出的工具名是 {names!r}：应为 [t.name for t in (await client.list_tools()).tools]",
        ),
    )
    expect(
        text == "stdio: The stdio transport",
        say(
            f"sdk_search(..., 'stdout') gave the text {text!r}: call search_notes with "
            '{"query": query} and return result.content[0].text',
            f"sdk_search(..., 'stdout') 给出的文本是 "
            f"{repr(text) if isinstance(text, str) else type(text).__name__ + ' 对象'}：用 "
            '{"query": query} 调用 search_notes，再返回 result.content[0].text',
        ),
    )
    passed(
        say(
            "sdk_search drives the hand-written notes server with the SDK's client",
            "sdk_search 用 SDK 的客户端驱动了手写的笔记服务器",
        )
    )
