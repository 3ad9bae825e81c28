"""Tasks on the client: start a tool call as a task, poll it, answer its questions, cancel it.

    task = await start_task(client, "slow_count", {"seconds": 30})
    result = await wait_for_task(client, task, timeout=60)   # a CallToolResult

`wait_for_task` polls `tasks/get` at the interval the server suggests (it may change from
one answer to the next), never in a hot loop, and gives up at `timeout`: it cancels the
task first, unless the task has already ended. `input_required` is no end: in 2025-11-25
the client calls `tasks/result`, which carries the server's `elicitation/create` to the
client's `on_elicitation` handler; in 2026-07-28 it answers the task's `inputRequests`
with `tasks/update`.

The revision is the one the client negotiated (`client.protocol_version`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from wirelab.jsonrpc import JsonRpcError
from wirelab.mcp.client import Client
from wirelab.mcp.extensions.tasks import MODERN, TASKS_EXTENSION, TERMINAL
from wirelab.mcp.stateless import CLIENT_CAPABILITIES_KEY

InputHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
DEFAULT_POLL_MS = 1000  # when the server suggests no interval


class TaskTimeout(TimeoutError):
    """The task did not end within the time the caller gave it; it was cancelled."""


class TaskCancelled(RuntimeError):
    """The task was cancelled (by this client or another), so it has no result."""


def modern(client: Client) -> bool:
    return client.protocol_version == MODERN


def poll_seconds(task: dict[str, Any]) -> float:
    """The interval the task suggests, in seconds: `pollInterval` (2025) or `pollIntervalMs` (2026)."""
    milliseconds = task.get("pollIntervalMs", task.get("pollInterval"))
    return (milliseconds if isinstance(milliseconds, int | float) else DEFAULT_POLL_MS) / 1000


def with_tasks_extension(client: Client, params: dict[str, Any]) -> dict[str, Any]:
    """2026-07-28: the request declares the tasks extension in its own capabilities."""
    declared = client.capabilities()
    extensions = {**declared.get("extensions", {}), TASKS_EXTENSION: {}}
    meta = {**params.get("_meta", {}), CLIENT_CAPABILITIES_KEY: {**declared, "extensions": extensions}}
    return {**params, "_meta": meta}


async def start_task(
    client: Client, name: str, arguments: dict[str, Any] | None = None, *, ttl_ms: int | None = None
) -> dict[str, Any]:
    """Call tool `name` as a task; the `Task` the server created (its first state).

    2025-11-25 asks with `task: {ttl}`; 2026-07-28 declares the extension and the server
    decides: a tool it answers at once gives a plain result, returned as a completed task.
    """
    params: dict[str, Any] = {"name": name, "arguments": arguments or {}}
    if not modern(client):
        created = await client.request(
            "tools/call", {**params, "task": {} if ttl_ms is None else {"ttl": ttl_ms}}
        )
        return created["task"]
    result = await client.request("tools/call", with_tasks_extension(client, params))
    if result.get("resultType") == "task":
        return {key: value for key, value in result.items() if key not in ("resultType", "_meta")}
    return {"taskId": None, "status": "completed", "result": result}


async def get_task(client: Client, task_id: str) -> dict[str, Any]:
    return await client.request("tasks/get", _task_params(client, task_id))


async def cancel_task(client: Client, task_id: str) -> dict[str, Any]:
    return await client.request("tasks/cancel", _task_params(client, task_id))


async def task_result(client: Client, task: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
    """The tool result of an ended task (2025-11-25 `tasks/result`; 2026-07-28 `result`)."""
    if task["status"] == "cancelled":
        raise TaskCancelled(f"task {task['taskId']} was cancelled: {task.get('statusMessage', '')}")
    if not modern(client):
        return await client.request("tasks/result", {"taskId": task["taskId"]}, timeout=timeout)
    if task["status"] == "failed":
        raise JsonRpcError.from_object(task["error"])
    return task["result"]


async def wait_for_task(
    client: Client,
    task: dict[str, Any],
    *,
    timeout: float,
    on_input: InputHandler | None = None,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """Poll `task` until it ends and return its tool result; cancel it and raise at `timeout`.

    `on_input(request)` answers one 2026-07-28 input request (e.g. an `elicitation/create`);
    each key is answered once, however many polls show it.
    """
    deadline, answered = clock() + timeout, set()
    while True:
        if task["status"] in TERMINAL:
            return await task_result(client, task)
        if task["status"] == "input_required" and not modern(client):
            return await task_result(client, task, timeout=max(deadline - clock(), 0.001))
        if task["status"] == "input_required":
            await answer_inputs(client, task, on_input, answered)
        wait = poll_seconds(task)
        if clock() + wait > deadline:
            return await give_up(client, task, timeout)
        await sleep(wait)
        task = await get_task(client, task["taskId"])


async def answer_inputs(
    client: Client, task: dict[str, Any], on_input: InputHandler | None, answered: set[str]
) -> None:
    """Answer the input requests not answered yet with one `tasks/update`."""
    fresh = {key: request for key, request in task.get("inputRequests", {}).items() if key not in answered}
    if not fresh:
        return
    if on_input is None:
        raise RuntimeError(f"task {task['taskId']} needs input ({', '.join(fresh)}): pass on_input")
    responses = {key: await on_input(request) for key, request in fresh.items()}
    answered.update(responses)
    params = {**_task_params(client, task["taskId"]), "inputResponses": responses}
    await client.request("tasks/update", params)


async def give_up(client: Client, task: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Cancel at the deadline; a task that ended meanwhile is not cancelled but answered."""
    latest = await get_task(client, task["taskId"])
    if latest["status"] in TERMINAL:
        return await task_result(client, latest)
    await cancel_task(client, task["taskId"])
    raise TaskTimeout(f"task {task['taskId']} did not end within {timeout} s; it was cancelled")


def _task_params(client: Client, task_id: str) -> dict[str, Any]:
    params = {"taskId": task_id}
    return with_tasks_extension(client, params) if modern(client) else params
