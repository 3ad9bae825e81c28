"""Lesson 18's task server: a tool that takes as long as you ask, and one that asks first.

    python -m wirelab.mcp.extensions.task_example --store tasks.json      # serves stdio

- `build_report(seconds)` works for `seconds` (30 in the lesson, a fraction in tests),
  one step a `step` long, saving a checkpoint after each, so a restarted server resumes
  it where it stopped. It runs only as a task (`taskSupport: required`).
- `delete_drafts(folder)` asks the user to confirm before it deletes anything: as a task
  it goes to `input_required` until the answer comes (`taskSupport: optional`).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from wirelab.mcp.extensions.tasks import TaskContext, TaskServer
from wirelab.mcp.transports.stdio import run_stdio

CONFIRM_SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}


def build_server(
    store: str | Path | None = None, *, step: float = 0.1, poll_interval_ms: int = 500
) -> TaskServer:
    """The task server; `step` is how long one step of `build_report` sleeps."""
    server = TaskServer("reports", store=store, poll_interval_ms=poll_interval_ms)

    @server.task_tool(task_support="required")
    async def build_report(seconds: float, ctx: TaskContext) -> str:
        """Build the quarterly report: slow work, done in steps that survive a restart.

        Args:
            seconds: How long the work takes in all.
        """
        steps = max(1, round(seconds / step))
        done = ctx.saved or 0
        for number in range(done + 1, steps + 1):
            await asyncio.sleep(seconds / steps)
            ctx.save(number)
            ctx.report_progress(number, steps, f"step {number} of {steps}")
        return f"Report ready after {steps} steps" + (f" (resumed at step {done})" if done else "")

    @server.task_tool(task_support="optional")
    async def delete_drafts(folder: str, ctx: TaskContext) -> str:
        """Delete the drafts in a folder, once the user confirms.

        Args:
            folder: The folder whose drafts go.
        """
        answer = await ctx.elicit(f"Delete every draft in {folder}?", CONFIRM_SCHEMA)
        if answer["action"] != "accept" or not answer["content"]["confirm"]:
            return f"Kept the drafts in {folder}."
        return f"Deleted the drafts in {folder}."

    return server


def main() -> None:
    """Serve on stdio; `--store` keeps the tasks across restarts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="JSON file that keeps the tasks across restarts")
    parser.add_argument("--step", type=float, default=0.1, help="seconds per step of build_report")
    parser.add_argument("--poll-interval-ms", type=int, default=500)
    options = parser.parse_args()
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(name)s %(levelname)s %(message)s")
    run_stdio(build_server(options.store, step=options.step, poll_interval_ms=options.poll_interval_ms))


if __name__ == "__main__":
    main()
