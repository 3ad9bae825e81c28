"""MCP Inspector's CLI (npm @modelcontextprotocol/mcp_inspector) drives our server over Streamable HTTP.

Install it with `npm ci` at the repository root. Without it these tests skip, except
under CI (CI=true), where a missing Inspector is a failure.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[4]


def inspect(inspector: Path, url: str, tmp_path: Path, *args: str) -> dict:
    env = {**os.environ, "MCP_CATALOG_PATH": str(tmp_path / "catalog.json")}
    done = subprocess.run(
        [str(inspector), "--cli", url, "--transport", "http", *args],
        capture_output=True,
        text=True,
        timeout=100,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_inspector_lists_our_tools_over_http(mcp_inspector, running, tmp_path):
    listed = inspect(mcp_inspector, running.url, tmp_path, "--method", "tools/list")
    assert [t["name"] for t in listed["tools"]] == ["search_notes", "add_note", "note_stats", "rebuild_index"]


def test_the_inspector_calls_a_tool_over_http(mcp_inspector, running, tmp_path):
    result = inspect(
        mcp_inspector,
        running.url,
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "search_notes",
        "--tool-arg",
        "query=stdout",
    )
    assert result["content"] == [{"type": "text", "text": "stdio: The stdio transport"}]


def test_the_inspector_reads_a_resource_over_http(mcp_inspector, running, tmp_path):
    result = inspect(
        mcp_inspector, running.url, tmp_path, "--method", "resources/read", "--uri", "notes://note/stdio"
    )
    assert result["contents"][0]["text"].startswith("# The stdio transport")
