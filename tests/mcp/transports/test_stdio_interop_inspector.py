"""MCP Inspector's CLI (npm @modelcontextprotocol/mcp_inspector, pinned in package.json) drives
our example server over stdio: lists and calls tools, reads a resource, gets a prompt.

Install it with `npm ci` at the repository root. Without it these tests skip, except
under CI (CI=true), where a missing Inspector is a failure.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(90)

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-m", "wirelab.mcp.example"]
TOOL_FAILED = 5  # the Inspector's exit code for a result with isError: true


def inspect(inspector: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MCP_CATALOG_PATH": str(tmp_path / "catalog.json")}
    return subprocess.run(
        [str(inspector), "--cli", *SERVER, *args],
        capture_output=True,
        text=True,
        timeout=80,
        cwd=ROOT,
        env=env,
    )


def ok(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_inspector_lists_our_tools_and_finds_their_schemas_portable(mcp_inspector, tmp_path):
    listed = ok(inspect(mcp_inspector, tmp_path, "--method", "tools/list", "--strict"))
    assert [t["name"] for t in listed["tools"]] == ["search_notes", "add_note", "note_stats", "rebuild_index"]


def test_the_inspector_calls_a_tool(mcp_inspector, tmp_path):
    result = ok(
        inspect(
            mcp_inspector,
            tmp_path,
            "--method",
            "tools/call",
            "--tool-name",
            "search_notes",
            "--tool-arg",
            "query=stdout",
        )
    )
    assert result["content"] == [{"type": "text", "text": "stdio: The stdio transport"}]


def test_the_inspector_gets_structured_content(mcp_inspector, tmp_path):
    result = ok(inspect(mcp_inspector, tmp_path, "--method", "tools/call", "--tool-name", "note_stats"))
    assert result["structuredContent"]["notes"] == 4


def test_the_inspector_sees_invalid_arguments_as_a_failed_tool(mcp_inspector, tmp_path):
    done = inspect(
        mcp_inspector,
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "search_notes",
        "--tool-args-json",
        '{"query": 5}',
    )
    assert done.returncode == TOOL_FAILED
    assert json.loads(done.stdout)["isError"] is True


def test_the_inspector_reads_a_templated_resource(mcp_inspector, tmp_path):
    result = ok(inspect(mcp_inspector, tmp_path, "--method", "resources/read", "--uri", "notes://note/stdio"))
    assert result["contents"][0]["text"].startswith("# The stdio transport")


def test_the_inspector_lists_resources_templates_and_prompts(mcp_inspector, tmp_path):
    resources = ok(inspect(mcp_inspector, tmp_path, "--method", "resources/list"))
    templates = ok(inspect(mcp_inspector, tmp_path, "--method", "resources/templates/list"))
    prompts = ok(inspect(mcp_inspector, tmp_path, "--method", "prompts/list"))
    assert resources["resources"][0]["uri"] == "notes://index"
    assert templates["resourceTemplates"][0]["uriTemplate"] == "notes://note/{slug}"
    assert {p["name"] for p in prompts["prompts"]} == {"summarize_note", "quiz_me"}


def test_the_inspector_gets_a_prompt_with_arguments(mcp_inspector, tmp_path):
    result = ok(
        inspect(
            mcp_inspector,
            tmp_path,
            "--method",
            "prompts/get",
            "--prompt-name",
            "summarize_note",
            "--prompt-args",
            "slug=stdio",
        )
    )
    assert "The stdio transport" in result["messages"][0]["content"]["text"]


@pytest.mark.parametrize(
    "args",
    [
        ("--method", "resources/read", "--uri", "notes://nothing"),
        ("--method", "prompts/get", "--prompt-name", "summarize_note"),
        ("--method", "tools/call", "--tool-name", "no_such_tool"),
    ],
)
def test_the_inspector_exits_non_zero_when_the_server_refuses(mcp_inspector, tmp_path, args):
    assert inspect(mcp_inspector, tmp_path, *args).returncode != 0


def test_the_inspector_pinned_to_2026_07_28_calls_a_tool_over_stdio(mcp_inspector, tmp_path):
    era = ("--protocol-era", "modern")
    listed = ok(inspect(mcp_inspector, tmp_path, *era, "--method", "tools/list"))
    result = ok(
        inspect(
            mcp_inspector,
            tmp_path,
            *era,
            "--method",
            "tools/call",
            "--tool-name",
            "search_notes",
            "--tool-arg",
            "query=stdout",
        )
    )
    assert len(listed["tools"]) == 4
    assert result["content"][0]["text"] == "stdio: The stdio transport"
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "wirelab-notes"
