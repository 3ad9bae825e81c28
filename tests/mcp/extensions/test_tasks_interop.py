"""Tasks (2025-11-25) between our code and the official TypeScript SDK, in both directions.

The Python SDK (`mcp` 2.3) has the task types (tests/mcp/extensions/test_tasks.py parses our shapes
with them) but no task runtime; the TypeScript SDK (npm @modelcontextprotocol/sdk) has an
experimental one:
- `ts_task_client.mjs`: the SDK's client runs our server's `build_report` with
  `callToolStream` (task created, polled, result) and cancels a second task;
- `ts_task_server.mjs`: the SDK's `registerToolTask` serves `wait(ms)`; our client polls it;
- `ts_ext_tasks_client.mjs`: in 2026-07-28, the official Tasks extension's client (npm
  @modelcontextprotocol/ext-tasks, on the TypeScript SDK v2 client) runs and cancels our tasks.
  (It caught a completed task's inline `result` without its `resultType`.)

Install the SDK with `npm ci`. Without node or the SDK these tests skip, except under CI.
"""

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wirelab.mcp.client import connect_stdio
from wirelab.mcp.extensions.task_client import cancel_task, get_task, start_task, wait_for_task
from wirelab.mcp.extensions.task_example import build_server
from wirelab.mcp.transports.http.server import serve_http

pytestmark = pytest.mark.timeout(90)

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).parent
TS_SDK = ROOT / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"


@pytest.fixture(scope="module")
def node() -> str:
    node = shutil.which("node")
    if node is None or not TS_SDK.exists():
        reason = f"node or the TypeScript SDK is missing: install Node 20 and run `npm ci` in {ROOT}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return node


def test_the_ts_sdk_client_runs_and_cancels_our_task_tool(node):
    done = subprocess.run(
        [node, str(HERE / "ts_task_client.mjs"), sys.executable],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["execution"] == {"taskSupport": "required"}
    assert answer["kinds"][0] == "taskCreated" and answer["kinds"][-1] == "result"
    assert answer["text"] == "Report ready after 6 steps"
    assert answer["cancelled"] == "cancelled"


def test_our_client_polls_and_cancels_a_ts_sdk_task_tool(node):
    async def run():
        async with connect_stdio([node, str(HERE / "ts_task_server.mjs")], timeout=30) as client:
            task = await start_task(client, "wait", {"ms": 200}, ttl_ms=60_000)
            result = await wait_for_task(client, task, timeout=20)
            slow = await start_task(client, "wait", {"ms": 60_000}, ttl_ms=60_000)
            await cancel_task(client, slow["taskId"])
            return client.server_capabilities, task, result, await get_task(client, slow["taskId"])

    capabilities, task, result, cancelled = asyncio.run(run())
    assert capabilities["tasks"]["requests"] == {"tools": {"call": {}}}
    assert task["status"] == "working" and task["pollInterval"] == 100
    assert result["content"] == [{"type": "text", "text": "waited 200 ms"}]
    assert cancelled["status"] == "cancelled"


def test_the_official_tasks_extension_client_runs_and_cancels_our_tasks_in_2026_07_28(node):
    if not (ROOT / "node_modules" / "@modelcontextprotocol" / "ext-tasks").exists():
        pytest.skip("npm @modelcontextprotocol/ext-tasks is missing: run `npm ci`")
    with serve_http(build_server(step=0.05, poll_interval_ms=100)) as running:
        done = subprocess.run(
            [node, str(HERE / "ts_ext_tasks_client.mjs"), running.url],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["era"] == "modern"
    assert answer["methods"][:2] == ["tools/call", "tasks/get"] and answer["methods"][-1] == "tasks/cancel"
    assert answer["text"] == "Report ready after 6 steps" and answer["cancelled"] == "cancelled"
