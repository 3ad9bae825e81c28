"""A room of learners on one JupyterHub: start-up time and memory per learner.

N learners (default 8) log in at once on the hub of classroom/jupyterhub_config.py (as
tests/classroom/test_hub.py runs it), each starts their server, pulls the course with
nbgitpuller, runs lesson 02 on one kernel and, with that kernel still open, lab 02 (solved) on
a second one, as a learner with the lesson and the lab open side by side. Per learner it
reports the server's start-up time (POST /users/<name>/server until ready), the course pull,
and the RSS of the single-user server and of each kernel: after the lesson with its kernel
alone, then after the lab with both kernels open. It writes the "Classroom" section of
benchmarks/results.md (other sections kept) and prints it.

    .venv/bin/python benchmarks/classroom.py [--learners 8] [--no-write]

`--no-write` only prints the section's body (benchmarks/run_all.py writes it then).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.run_all import CLASSROOM_TITLE as TITLE  # noqa: E402
from benchmarks.run_all import git_commit, update_section  # noqa: E402
from classroom.hub import (  # noqa: E402
    LAB,
    LESSON,
    MEMORY,
    SOLUTION,
    Learner,
    course_repository,
    learner_python,
    running_hub,
    served_repository,
)

RunCells = Callable[[list[str]], Awaitable[list[list[dict]]]]


@dataclass
class Figures:
    """One learner's measurements (memory in MB)."""

    learner: Learner
    server_one_mb: float  # the server with the lesson's kernel open
    lesson_kernel_mb: float
    server_two_mb: float  # the server with the lesson's and the lab's kernels open
    lab_kernel_mb: float

    @property
    def one_kernel_mb(self) -> float:
        return self.server_one_mb + self.lesson_kernel_mb

    @property
    def two_kernels_mb(self) -> float:
        return self.server_two_mb + self.lesson_kernel_mb + self.lab_kernel_mb


@contextlib.asynccontextmanager
async def open_kernel(learner: Learner, directory: str) -> AsyncIterator[RunCells]:
    """A kernel of the learner's server, started in `directory`, kept open until the block ends;
    yields a function that runs cells on it and returns each cell's outputs (as Learner.run_cells,
    which closes its kernel when its cells are done)."""
    kernel = await learner._fetch(
        "POST", f"{learner.server}/api/kernels", {"name": "python3", "path": directory}
    )
    ws_url = f"{learner.server.replace('http', 'ws', 1)}/api/kernels/{kernel['id']}/channels"
    socket_ = await websocket_connect(HTTPRequest(ws_url, headers=learner._auth()))
    session = uuid.uuid4().hex

    async def run(cells: list[str]) -> list[list[dict]]:
        return [await learner._execute(socket_, session, source) for source in cells]

    try:
        yield run
    finally:
        socket_.close()
        await learner._fetch("DELETE", f"{learner.server}/api/kernels/{kernel['id']}")


def memory(outputs: list[dict]) -> tuple[float, float]:
    """(kernel MB, server MB) from the outputs of the MEMORY cell."""
    _, kernel_mb, server_mb = "".join(o.get("text", "") for o in outputs).split()
    return float(kernel_mb), float(server_mb)


async def cells_of(learner: Learner, path: str) -> list[str]:
    notebook = (await learner.contents(path))["content"]
    return [c["source"] for c in notebook["cells"] if c["cell_type"] == "code"]


async def session(learner: Learner, repo_url: str) -> Figures:
    """Log in, start, pull; the lesson on one kernel, then (it still open) the solved lab on another."""
    await learner.log_in()
    await learner.start_server()
    await learner.pull_course(repo_url)
    async with open_kernel(learner, str(Path(LESSON).parent)) as lesson:
        lesson_kernel_mb, server_one_mb = memory(
            (await lesson([*await cells_of(learner, LESSON), MEMORY]))[-1]
        )
        await learner.save(LAB, (await learner.contents(SOLUTION))["content"])
        _, extra = await learner.run_notebook(LAB, [MEMORY])
        lab_kernel_mb, server_two_mb = memory(extra[-1])
    return Figures(learner, server_one_mb, lesson_kernel_mb, server_two_mb, lab_kernel_mb)


def measure(learners: int) -> str:
    """Run the room and return the Markdown body of the Classroom section."""
    with tempfile.TemporaryDirectory(prefix="classroom-") as tmp:
        Path(tmp).chmod(0o711)  # the learners' homes are in it: each learner is a system user
        repo = course_repository(Path(tmp) / "course.git")
        (Path(tmp) / "homes").mkdir(mode=0o755)
        python = learner_python(Path(tmp) / "python")
        with (
            served_repository(repo) as url,
            running_hub(Path(tmp) / "hub", Path(tmp) / "homes", python) as hub,
        ):

            async def room() -> tuple[list[Figures], float]:
                run = secrets.token_hex(3)  # a killed run's accounts never block the next one
                names = [f"learner{i}-{run}" for i in range(learners)]
                await hub.api("POST", "/users", body={"usernames": names})
                began = time.monotonic()
                figures = await asyncio.gather(*(session(Learner(hub, n), url) for n in names))
                return figures, time.monotonic() - began

            figures, wall_s = asyncio.run(room())
    rows = [
        f"| {f.learner.name} | {f.learner.start_s:.1f} | {f.learner.pull_s:.1f} | {f.server_one_mb:.0f} "
        f"| {f.lesson_kernel_mb:.0f} | {f.one_kernel_mb:.0f} | {f.server_two_mb:.0f} | {f.lab_kernel_mb:.0f} "
        f"| {f.two_kernels_mb:.0f} |"
        for f in figures
    ]
    one = [f.one_kernel_mb for f in figures]
    two = [f.two_kernels_mb for f in figures]
    starts = [f.learner.start_s for f in figures]
    return "\n".join(
        [
            f"`python benchmarks/classroom.py --learners {learners}` on {os.cpu_count()} cores: "
            f"{learners} learner{'s' * (learners != 1)} at once, each a system user of their own, "
            "logging in, starting a server, "
            "pulling the course with nbgitpuller, running lesson 02 on one kernel and then, with it "
            "still open, lab 02 on a second kernel.\n",
            "| learner | server start (s) | course pull (s) | server RSS, one kernel (MB) "
            "| lesson kernel RSS (MB) | total, one kernel (MB) | server RSS, two kernels (MB) "
            "| lab kernel RSS (MB) "
            "| total, two kernels (MB) |",
            "|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            f"- Memory per learner (server + one kernel): median {statistics.median(one):.0f} MB, "
            f"max {max(one):.0f} MB.",
            f"- Memory per learner (server + two kernels): median {statistics.median(two):.0f} MB, "
            f"max {max(two):.0f} MB.",
            f"- Server start-up with {learners} starting at once: median {statistics.median(starts):.1f} s, "
            f"max {max(starts):.1f} s; the whole room done (start, pull, lesson, lab) in {wall_s:.0f} s.",
            "",
        ]
    )


def main() -> int:
    """Measure a room of `--learners` and write (or, with `--no-write`, only print) the section."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=8)
    parser.add_argument("--no-write", action="store_true", help="print only, leave results.md")
    args = parser.parse_args()
    load = os.getloadavg()[0]  # the machine is shared: how busy it was when the room started
    body = measure(args.learners)
    if not args.no_write:
        stamp = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, commit {git_commit()}"
        stamp += f", load average {load:.1f} at the start"
        shown = f"`python benchmarks/classroom.py --learners {args.learners}`"
        update_section(TITLE, f"## {TITLE}\n\n{shown}; {stamp}.\n\n{body}")
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
