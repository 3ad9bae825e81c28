"""Lesson 16's SDK server offers what the package's hand-written notes server offers.

The lesson writes its `MCPServer` into a file with `%%writefile` cells, each marked
`# @reference wirelab.mcp.example.build_server`; this test writes the marked cells to a file
with the course's one reader (tests/notebook_code.py), imports it, and lists both servers'
tools through clients: the same names, descriptions and schemas, leaving aside only what the
lesson names as different (pydantic's titles, an empty `required`, and
`additionalProperties`). Then the same calls get the same answers over stdio.
"""

import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from mcp import Client

from tests.notebook_code import write_references
from wirelab.mcp.client import connect_in_process, connect_stdio
from wirelab.mcp.example import build_server

pytestmark = pytest.mark.timeout(90)

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "16_the_official_sdk.ipynb"


def sdk_server_file(folder: Path) -> Path:
    """The lesson's notes_sdk.py, written into `folder` from its marked `%%writefile` cells."""
    (path,) = write_references(NOTEBOOK, folder)
    assert path.name == "notes_sdk.py"
    return path


def sdk_module(folder: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("notes_sdk_under_test", sdk_server_file(folder))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def comparable(schema: dict) -> dict:
    kept = {k: v for k, v in schema.items() if k not in ("title", "additionalProperties")}
    if kept.get("required") == []:
        del kept["required"]
    if "properties" in kept:
        kept["properties"] = {name: comparable(p) for name, p in kept["properties"].items()}
    if isinstance(kept.get("items"), dict):
        kept["items"] = comparable(kept["items"])
    return kept


async def both_listings(tmp_path: Path) -> tuple[list[dict], list[dict]]:
    async with Client(sdk_module(tmp_path).mcp, mode="legacy") as sdk:
        theirs = [
            t.model_dump(mode="json", by_alias=True, exclude_none=True)
            for t in (await sdk.list_tools()).tools
        ]
    async with connect_in_process(build_server()) as client:
        ours = await client.list_tools()
    return ours, theirs


def test_the_sdk_server_lists_the_same_tools_with_the_same_schemas(tmp_path):
    ours, theirs = asyncio.run(both_listings(tmp_path))
    assert [t["name"] for t in theirs] == [t["name"] for t in ours]
    for a, b in zip(ours, theirs, strict=True):
        assert a["description"] == b["description"], a["name"]
        assert comparable(a["inputSchema"]) == comparable(b["inputSchema"]), a["name"]
        assert ("outputSchema" in a) == ("outputSchema" in b), a["name"]
        if "outputSchema" in a:
            assert comparable(a["outputSchema"]) == comparable(b["outputSchema"]), a["name"]


def test_the_only_schema_difference_is_the_one_the_lesson_names(tmp_path):
    ours, theirs = asyncio.run(both_listings(tmp_path))
    assert all(t["inputSchema"]["additionalProperties"] is False for t in ours)
    assert not any("additionalProperties" in t["inputSchema"] for t in theirs)


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("search_notes", {"query": "stdout"}),
        ("search_notes", {"query": "protocol", "limit": 1}),
        ("note_stats", {}),
        ("add_note", {"slug": "cursors", "title": "Cursors", "body": "Pass it back."}),
        ("add_note", {"slug": "json-rpc", "title": "Again", "body": "A duplicate."}),
        ("add_note", {"slug": "Not A Slug", "title": "T", "body": "B"}),
        ("rebuild_index", {"passes": 1}),
    ],
)
def test_both_servers_answer_the_same_call_the_same_over_stdio(tmp_path, name, arguments):
    async def call(command: list[str]) -> dict:
        async with connect_stdio(command) as client:
            return await client.call_tool(name, arguments)

    ours = asyncio.run(call([sys.executable, "-m", "wirelab.mcp.example"]))
    theirs = asyncio.run(call([sys.executable, str(sdk_server_file(tmp_path))]))
    assert bool(ours.get("isError")) == bool(theirs.get("isError"))
    assert ours.get("structuredContent") == theirs.get("structuredContent")
    if "structuredContent" in ours:  # the text is the same JSON, indented differently
        assert [json.loads(b["text"]) for b in ours["content"]] == [
            json.loads(b["text"]) for b in theirs["content"]
        ]
    elif not ours.get("isError"):
        assert ours["content"] == theirs["content"]


def test_the_two_error_differences_the_lesson_names_hold_for_the_installed_sdk():
    """Lesson 16: the SDK answers an unknown tool with an isError result and hides a crash's message."""
    from mcp.server import MCPServer

    def rate_limit(tool: str) -> str:
        """How many calls a minute a tool may take."""
        return {"search_notes": "10"}[tool]

    server = MCPServer("limits")
    server.tool(structured_output=False)(rate_limit)

    async def calls() -> tuple:
        async with Client(server, mode="legacy") as sdk:
            return await sdk.call_tool("rate_limit", {"tool": "fetch"}), await sdk.call_tool("nope", {})

    crash, unknown = asyncio.run(calls())
    assert crash.is_error and crash.content[0].text == "Error executing tool rate_limit"
    assert unknown.is_error and unknown.content[0].text == "Unknown tool: nope"
