"""A task outlives its server: kill the server process mid-task, start it again, poll the same id.

`python -m wirelab.mcp.extensions.task_example --store FILE` keeps its tasks in FILE and saves a
checkpoint after each step of `build_report`; the restarted server resumes the unfinished
task from the last checkpoint. One test takes the lesson's real 30 seconds.
"""

import asyncio
import json
import signal
import sys

import pytest

from wirelab.mcp.client import connect_stdio
from wirelab.mcp.extensions.task_client import get_task, start_task, wait_for_task


def server(store, step):
    example = "wirelab.mcp.extensions.task_example"
    return [sys.executable, "-m", example, "--store", str(store), "--step", str(step)]


async def start_then_kill(store, seconds, step, steps_before_kill):
    """Start build_report as a task, wait for some checkpoints, then SIGKILL the server."""
    async with connect_stdio(server(store, step), timeout=30) as client:
        task = await start_task(client, "build_report", {"seconds": seconds})
        while (json.loads(store.read_text())[0]["checkpoint"] or 0) < steps_before_kill:
            await asyncio.sleep(step)
        client.transport.process.send_signal(signal.SIGKILL)
        await client.transport.process.wait()
    return task


async def resume(store, task, step, timeout):
    async with connect_stdio(server(store, step), timeout=30) as client:
        first = await get_task(client, task["taskId"])
        return first, await wait_for_task(client, task, timeout=timeout)


def restart_mid_task(tmp_path, seconds, step, steps_before_kill):
    store = tmp_path / "tasks.json"

    async def run():
        task = await start_then_kill(store, seconds, step, steps_before_kill)
        saved = json.loads(store.read_text())[0]
        return task, saved, *await resume(store, task, step, timeout=seconds * 4 + 30)

    return asyncio.run(run())


@pytest.mark.timeout(90)
def test_a_killed_server_resumes_its_task_from_the_last_checkpoint_under_the_same_id(tmp_path):
    task, saved, first, result = restart_mid_task(tmp_path, seconds=1.0, step=0.1, steps_before_kill=3)
    assert saved["status"] == "working" and saved["checkpoint"] >= 3
    assert first["taskId"] == task["taskId"] and first["status"] in ("working", "completed")
    text = result["content"][0]["text"]
    assert text.startswith("Report ready after 10 steps (resumed at step ")
    assert int(text.rsplit(" ", 1)[1].rstrip(")")) >= 3


@pytest.mark.timeout(180)
def test_the_lessons_30_second_tool_is_polled_killed_resumed_and_finished(tmp_path):
    task, saved, first, result = restart_mid_task(tmp_path, seconds=30.0, step=1.0, steps_before_kill=3)
    assert first["status"] == "working" and first["statusMessage"] == "resumed after a server restart"
    assert result["content"][0]["text"].startswith("Report ready after 30 steps (resumed at step ")
