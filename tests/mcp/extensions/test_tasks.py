"""Tasks (lesson 18): our server and client, in 2025-11-25 (core) and 2026-07-28 (the extension).

The task tools come from `wirelab.mcp.extensions.task_example`: `build_report(seconds)` runs only as a
task and saves a checkpoint per step; `delete_drafts(folder)` asks the user first. Durations
are fractions of a second here; tests/mcp/extensions/test_tasks_restart.py kills a real server process.
"""

import asyncio

import pytest
from mcp_types import _v2025_11_25 as sdk_types

from wirelab.jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, JsonRpcError
from wirelab.mcp.client import connect_in_process
from wirelab.mcp.extensions.task_client import (
    TaskCancelled,
    TaskTimeout,
    cancel_task,
    get_task,
    start_task,
    task_result,
    wait_for_task,
)
from wirelab.mcp.extensions.task_example import build_server
from wirelab.mcp.extensions.tasks import MISSING_CLIENT_CAPABILITY, RELATED_TASK, TASKS_EXTENSION, TaskServer
from wirelab.mcp.server import Server
from wirelab.mcp.transports.http.client import connect_http
from wirelab.mcp.transports.http.server import serve_http

pytestmark = pytest.mark.timeout(60)


async def confirm(params):
    return {"action": "accept", "content": {"confirm": True}}


class Sleeps:
    """An `asyncio.sleep` that records each wait it is asked for."""

    def __init__(self):
        self.asked = []

    async def __call__(self, seconds):
        self.asked.append(seconds)
        await asyncio.sleep(seconds)


def recorded(client):
    """The messages the client's wire carries from now on."""
    seen = []
    client.wire.subscribe(seen.append)
    return seen


def legacy(use, server=None, **options):
    async def run():
        async with connect_in_process(server or build_server(step=0.02, poll_interval_ms=20), **options) as c:
            return await use(c)

    return asyncio.run(run())


def modern(use, server=None):
    async def run():
        with serve_http(server or build_server(step=0.02, poll_interval_ms=20)) as running:
            async with connect_http(running.url, era="2026-07-28") as client:
                return await use(client)

    return asyncio.run(run())


# --- declaring tasks ---


def test_a_task_tool_declares_its_task_support_and_the_server_its_tasks_capability():
    async def use(client):
        return client.server_capabilities, {t["name"]: t["execution"] for t in await client.list_tools()}

    capabilities, execution = legacy(use)
    assert capabilities["tasks"] == {"cancel": {}, "requests": {"tools": {"call": {}}}}
    assert "list" not in capabilities["tasks"]  # no tasks/list: this server cannot tell requestors apart
    assert execution == {
        "build_report": {"taskSupport": "required"},
        "delete_drafts": {"taskSupport": "optional"},
    }


def test_in_2026_07_28_tasks_are_an_extension_declared_by_server_discover():
    capabilities = modern(lambda client: asyncio.sleep(0, client.server_capabilities))
    assert capabilities["extensions"] == {TASKS_EXTENSION: {}}
    assert "tasks" not in capabilities


def test_our_task_shapes_parse_as_the_python_sdk_s_2025_11_25_types():
    async def use(client):
        created = await client.request(
            "tools/call", {"name": "build_report", "arguments": {"seconds": 0.05}, "task": {"ttl": 5000}}
        )
        got = await client.request("tasks/get", {"taskId": created["task"]["taskId"]})
        return created, got, await client.list_tools()

    created, got, tools = legacy(use)
    parsed = sdk_types.CreateTaskResult.model_validate(created)
    assert parsed.task.ttl == 5000 and parsed.task.poll_interval == 20 and parsed.task.status == "working"
    assert sdk_types.GetTaskResult.model_validate(got).task_id == parsed.task.task_id
    assert sdk_types.Tool.model_validate(tools[0]).execution.task_support == "required"


# --- 2025-11-25 ---


def test_a_task_augmented_call_returns_a_task_at_once_and_the_result_comes_from_tasks_result():
    sleeps = Sleeps()

    async def use(client):
        task = await start_task(client, "build_report", {"seconds": 0.2}, ttl_ms=30_000)
        return task, await wait_for_task(client, task, timeout=20, sleep=sleeps)

    task, result = legacy(use)
    assert task["status"] == "working" and task["ttl"] == 30_000 and task["pollInterval"] == 20
    assert result["content"][0]["text"] == "Report ready after 10 steps"
    assert result["_meta"][RELATED_TASK] == {"taskId": task["taskId"]}
    assert sleeps.asked and set(sleeps.asked) == {0.02}  # the interval the server suggested, every time


def test_the_server_grants_at_most_its_longest_ttl():
    server = TaskServer("t", max_ttl_ms=1000)

    @server.task_tool()
    def quick() -> str:
        return "done"

    task = legacy(lambda client: start_task(client, "quick", ttl_ms=10**9), server)
    assert task["ttl"] == 1000


def test_a_required_task_tool_called_plainly_and_a_plain_tool_called_as_task_get_minus_32601():
    server = build_server()

    @server.tool()
    def plain() -> str:
        """A tool with no task support."""
        return "x"

    async def use(client):
        errors = []
        for params in ({"name": "build_report", "arguments": {"seconds": 1}}, {"name": "plain", "task": {}}):
            with pytest.raises(JsonRpcError) as caught:
                await client.request("tools/call", params)
            errors.append(caught.value.code)
        return errors

    assert legacy(use, server) == [METHOD_NOT_FOUND, METHOD_NOT_FOUND]


def test_a_cancelled_task_stays_cancelled_and_cancelling_it_again_is_refused():
    async def use(client):
        task = await start_task(client, "build_report", {"seconds": 30})
        cancelled = await cancel_task(client, task["taskId"])
        with pytest.raises(JsonRpcError) as again:
            await cancel_task(client, task["taskId"])
        await asyncio.sleep(0.1)
        later = await get_task(client, task["taskId"])
        with pytest.raises(TaskCancelled):
            await task_result(client, later)
        return cancelled, again.value, later

    cancelled, again, later = legacy(use)
    assert cancelled["status"] == later["status"] == "cancelled"
    assert again.code == INVALID_PARAMS and "already in terminal status 'cancelled'" in again.message


def test_input_required_asks_through_an_elicitation_tagged_with_the_task():
    async def use(client):
        messages = recorded(client)
        task = await start_task(client, "delete_drafts", {"folder": "q3"})
        seen = []
        while not seen or seen[-1] != "input_required":
            seen.append((await get_task(client, task["taskId"]))["status"])
            await asyncio.sleep(0.01)
        result = await wait_for_task(client, {**task, "status": "input_required"}, timeout=20)
        asked = [m.payload for m in messages if m.sender == "server" and m.method == "elicitation/create"]
        return task, seen, result, asked

    task, seen, result, asked = legacy(use, on_elicitation=confirm)
    assert seen[-1] == "input_required"
    assert result["content"][0]["text"] == "Deleted the drafts in q3."
    assert asked[0]["params"]["_meta"] == {RELATED_TASK: {"taskId": task["taskId"]}}


def test_a_task_past_its_ttl_is_gone():
    async def use(client):
        task = await start_task(client, "build_report", {"seconds": 30}, ttl_ms=50)
        await asyncio.sleep(0.2)
        with pytest.raises(JsonRpcError) as caught:
            await get_task(client, task["taskId"])
        return caught.value

    error = legacy(use)
    assert error.code == INVALID_PARAMS and error.message == "Failed to retrieve task: Task has expired"


def test_an_unknown_task_id_is_invalid_params():
    async def use(client):
        with pytest.raises(JsonRpcError) as caught:
            await get_task(client, "no-such-task")
        return caught.value

    assert legacy(use).code == INVALID_PARAMS


def test_waiting_past_the_timeout_cancels_the_task():
    async def use(client):
        task = await start_task(client, "build_report", {"seconds": 30})
        with pytest.raises(TaskTimeout):
            await wait_for_task(client, task, timeout=0.1)
        return (await get_task(client, task["taskId"]))["status"]

    assert legacy(use) == "cancelled"


def test_a_task_that_ends_at_the_deadline_is_answered_not_cancelled():
    async def use(client):
        task = await start_task(client, "build_report", {"seconds": 0.05})
        await asyncio.sleep(0.3)  # it has ended; the task we hold still says "working"
        return await wait_for_task(client, {**task, "pollInterval": 60_000}, timeout=1)

    assert legacy(use)["content"][0]["text"] == "Report ready after 2 steps"


# --- 2026-07-28 ---


def test_in_2026_07_28_the_server_answers_a_declared_client_with_a_task_and_inlines_its_result():
    async def use(client):
        messages = recorded(client)
        task = await start_task(client, "build_report", {"seconds": 0.1})
        first = [m.payload for m in messages if m.sender == "server"][-1]["result"]
        return task, first, await wait_for_task(client, task, timeout=20)

    task, first, result = modern(use)
    assert first["resultType"] == "task" and {"ttlMs", "pollIntervalMs"} <= first.keys()
    assert "ttl" not in first and "pollInterval" not in first
    assert result["content"][0]["text"] == "Report ready after 5 steps"
    assert result["resultType"] == "complete"  # what tools/call would have answered in 2026-07-28


def test_in_2026_07_28_a_client_without_the_extension_gets_minus_32021_naming_it():
    async def use(client):
        with pytest.raises(JsonRpcError) as caught:
            await client.call_tool("build_report", {"seconds": 1})
        return caught.value

    error = modern(use)
    assert error.code == MISSING_CLIENT_CAPABILITY
    assert error.data == {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}}


def test_in_2026_07_28_input_requests_are_answered_with_tasks_update_once_each():
    asked = []

    async def on_input(request):
        asked.append(request)
        return {"action": "accept", "content": {"confirm": False}}

    async def use(client):
        task = await start_task(client, "delete_drafts", {"folder": "q4"})
        return await wait_for_task(client, task, timeout=20, on_input=on_input)

    result = modern(use)
    assert result["content"][0]["text"] == "Kept the drafts in q4."
    assert [r["method"] for r in asked] == ["elicitation/create"]


def test_in_2026_07_28_cancel_answers_empty_and_tasks_result_does_not_exist():
    async def use(client):
        task = await start_task(client, "build_report", {"seconds": 30})
        ack = await cancel_task(client, task["taskId"])
        with pytest.raises(JsonRpcError) as caught:
            await client.request("tasks/result", {"taskId": task["taskId"]})
        return ack, caught.value, await get_task(client, task["taskId"])

    ack, error, later = modern(use)
    assert {k: v for k, v in ack.items() if k != "_meta"} == {"resultType": "complete"}
    assert error.code == METHOD_NOT_FOUND
    assert later["status"] == "cancelled"


def test_a_plain_server_ignores_the_task_field_of_a_tool_without_task_support():
    server = Server("plain")

    @server.tool()
    def hello() -> str:
        """Say hello."""
        return "hello"

    result = legacy(lambda c: c.request("tools/call", {"name": "hello", "task": {"ttl": 10}}), server)
    assert result == {"content": [{"type": "text", "text": "hello"}]}
